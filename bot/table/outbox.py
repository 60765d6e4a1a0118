"""Channel messages Discord failed to take: kept in order and posted again, with backoff, until they are delivered.

A line for a game's channel or the moderators' log that cannot be posted now
waits in its channel's queue, and every line sent to that channel later
waits behind it, so the order is kept. One task per channel posts the queue
again after 15 seconds, then after twice as long each time, at most every
five minutes, for as long as the bot runs. The queues are kept in memory: a
restart loses the lines still waiting (the stage messages are not lost: they
are recomputed from the game at start).

The waits go through `sleep` (asyncio.sleep by default), so tests can drive
them with simulated time.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass

import discord

log = logging.getLogger(__name__)

FIRST_DELAY = 15.0  # seconds before the first retry
MAX_DELAY = 300.0  # the longest wait between two retries

Sleep = Callable[[float], Awaitable[None]]


def backoff(first: float = FIRST_DELAY, cap: float = MAX_DELAY) -> Iterator[float]:
    """The waits before each retry: `first`, then twice the previous one, never more than `cap`; endless."""
    delay = first
    while True:
        yield delay
        delay = min(delay * 2, cap)


@dataclass(frozen=True)
class Line:
    """One message to post: its text (sent pinging nobody) and the game it is about, for the log."""

    content: str
    game_id: int | None


class Outbox:
    def __init__(self, client: discord.Client, sleep: Sleep = asyncio.sleep) -> None:
        self._client = client
        self._sleep = sleep
        self._waiting: dict[tuple[int, int | None], deque[Line]] = {}
        self._tasks: dict[tuple[int, int | None], asyncio.Task[None]] = {}

    def waiting(self, channel_id: int) -> int:
        """How many messages wait for the channel."""
        return sum(len(q) for (channel, _), q in self._waiting.items() if channel == channel_id)

    async def send(self, channel_id: int, guild_id: int | None, texts: Sequence[str], *, game_id: int | None) -> bool:
        """Post `texts` in the channel in order; True if all were posted now.

        What Discord refuses now, and every text after it, waits and is posted later.
        """
        place = (channel_id, guild_id)
        lines = [Line(t, game_id) for t in texts]
        queue = self._waiting.get(place)
        if queue:  # older lines wait: these go after them
            queue.extend(lines)
            return False
        for index, line in enumerate(lines):
            try:
                await self._post(place, line)
            except Exception:
                log.warning("game #%s: could not post to channel %d; trying again later", game_id, channel_id)
                self._waiting.setdefault(place, deque()).extend(lines[index:])
                self._start(place)
                return False
        return True

    def close(self) -> None:
        """Stop retrying (the bot is closing); what still waits is dropped."""
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        self._waiting.clear()

    def _start(self, place: tuple[int, int | None]) -> None:
        if place not in self._tasks:
            self._tasks[place] = asyncio.create_task(self._retry(place), name=f"conductor-outbox-{place[0]}")

    async def _retry(self, place: tuple[int, int | None]) -> None:
        for delay in backoff():
            await self._sleep(delay)
            queue = self._waiting.get(place, deque())
            while queue:
                try:
                    await self._post(place, queue[0])
                except Exception:
                    log.warning("game #%s: posting to channel %d failed again", queue[0].game_id, place[0])
                    break
                queue.popleft()
            if not queue:
                self._waiting.pop(place, None)
                self._tasks.pop(place, None)
                return

    async def _post(self, place: tuple[int, int | None], line: Line) -> None:
        channel = self._client.get_partial_messageable(place[0], guild_id=place[1])
        await channel.send(line.content, allowed_mentions=discord.AllowedMentions.none())
