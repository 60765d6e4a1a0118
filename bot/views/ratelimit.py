"""How many commands, clicks and menu choices one member may send in a few seconds, whichever process answers.

`RateLimiter` keeps, per user id and in memory, the moments of the member's
last admitted requests (a sliding window): at most `limit` of them in any
`window` seconds. A refused request is not counted, so waiting is enough to be
let through again. `admitted` is the one check where a request enters the bot
(the command tree's interaction check, the shared handler of the game's
buttons and menus, and the checks of the other buttons: the tournament
message's, a moderator's Confirm / Cancel, the pages of a paged answer);
autocomplete never goes through it.

One limit per member across processes: the bot may run as several processes
on one database (the shards' processes on PostgreSQL, or an old and a new
process overlapping during a deploy). A limiter given the store (`share`)
counts each request there too (`RateStore.admit_request`: one transaction that
reads the member's moments, locking the row, and adds the new one), so the
member gets `limit` requests in the window in all, not `limit` per process.
The in-memory count stays the first, cheap gate: a member already over the
limit in this process is refused without asking the database; a request the
database refuses is taken back from the in-memory count. The answer "wait N
seconds" is that of whichever refuses. If the database cannot answer (a
StoreError, or no answer within `timeout` seconds), the request goes through
with one warning line in the log: a failing database must not lock members
out. Every `_SWEEP_EVERY` requests asked there, the rows of members whose
window has emptied are deleted.

Whether the limit is shared is the setting CONDUCTOR_SHARED_RATE_LIMIT
(`Settings.rate_limit_shared`): `auto` (the default) shares it when the bot
may run as several processes: on PostgreSQL, or when the process runs some
shards (SHARD_COUNT); `on` shares it always (an SQLite file that two
processes use during a deploy); `off` never. The single-process SQLite bot
counts in memory only, so a click costs no write to the disk.

The clocks are injectable: `clock` (monotonic by default) for the in-memory
count, `wall_clock` (epoch seconds, time.time by default) for the shared one,
since processes share the wall clock only.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Callable

import discord

from bot.present.answers import too_fast_text
from bot.present.i18n import speaking
from bot.store import RateStore, StoreError
from bot.views.replies import private, reader_language

log = logging.getLogger(__name__)

# how many requests between sweeps of members whose window has emptied (in memory, and in the store)
_SWEEP_EVERY = 1000
# how long a request waits for the shared count before it goes through without it (Discord wants an answer in 3 s)
STORE_TIMEOUT_SECONDS = 2.0


class RateLimiter:
    """At most `limit` requests per member in any `window` seconds; a `limit` of 0 lets everything through.

    Counted in memory, and also in `rates` (every process on the database together) once it is given one.
    """

    def __init__(
        self,
        limit: int,
        window: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        rates: RateStore | None = None,
        wall_clock: Callable[[], float] = time.time,
        timeout: float = STORE_TIMEOUT_SECONDS,
    ) -> None:
        if limit < 0 or window <= 0:
            raise ValueError("the limit must be 0 or more and the window a positive number of seconds")
        self.limit = limit
        self.window = window
        self.rates = rates
        self.timeout = timeout
        self._clock = clock
        self._wall_clock = wall_clock
        self._seen: dict[int, deque[float]] = {}
        self._since_sweep = 0
        self._since_store_sweep = 0

    def share(self, rates: RateStore) -> None:
        """Count every request in `rates` too: one limit per member for all the processes on that database."""
        self.rates = rates

    def wait(self, user_id: int) -> float | None:
        """In memory only: None if the member may go ahead now (and it counts); else how many seconds until they may."""
        return self._local(user_id)[0]

    async def admit(self, user_id: int) -> float | None:
        """None if the member may go ahead now (it counts, in memory and in the shared store if there is one);
        else how many seconds until they may."""
        wait, moment = self._local(user_id)
        if wait is not None or self.rates is None or self.limit == 0:
            return wait
        shared = await self._shared(self.rates, user_id)
        if shared is not None:
            self._take_back(user_id, moment)  # refused after all: a refused request does not count
        return shared

    def _local(self, user_id: int) -> tuple[float | None, float]:
        """The in-memory answer, and the moment it was given at."""
        now = self._clock()
        if self.limit == 0:
            return None, now
        self._sweep(now)
        times = self._seen.setdefault(user_id, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.limit:
            return times[0] + self.window - now, now
        times.append(now)
        return None, now

    def take_back_last(self, user_id: int) -> None:
        """Count the member's newest request no more (in memory; the shared store keeps its count)."""
        times = self._seen.get(user_id)
        if times:
            times.pop()

    def _take_back(self, user_id: int, moment: float) -> None:
        times = self._seen.get(user_id)
        if times is not None and moment in times:
            times.remove(moment)

    async def _shared(self, rates: RateStore, user_id: int) -> float | None:
        """The store's answer (the count of every process); None, with a warning, if it cannot be had."""
        now = self._wall_clock()
        try:
            wait = await asyncio.wait_for(rates.admit_request(user_id, now, self.limit, self.window), self.timeout)
        except (StoreError, TimeoutError) as exc:
            log.warning(
                "the shared command rate could not be checked, the request goes through: %s", _said(exc, self.timeout)
            )
            return None
        self._since_store_sweep += 1
        if self._since_store_sweep >= _SWEEP_EVERY:
            self._since_store_sweep = 0
            try:
                await asyncio.wait_for(rates.forget_rates(now - self.window), self.timeout)
            except (StoreError, TimeoutError) as exc:
                log.warning("the members' old command rates could not be swept: %s", _said(exc, self.timeout))
        return wait

    def _sweep(self, now: float) -> None:
        """Forget members with nothing left in their window, now and then, so memory stays small."""
        self._since_sweep += 1
        if self._since_sweep < _SWEEP_EVERY:
            return
        self._since_sweep = 0
        for user_id in [u for u, times in self._seen.items() if not times or times[-1] <= now - self.window]:
            del self._seen[user_id]

    def tracked(self) -> int:
        """How many members the limiter holds moments of (for tests)."""
        return len(self._seen)


def _said(exc: BaseException, timeout: float) -> str:
    if isinstance(exc, TimeoutError):
        return f"no answer within {timeout:g} seconds"
    return str(exc) or type(exc).__name__


async def admitted(interaction: discord.Interaction) -> bool:
    """May this request go ahead? If not, the member is told privately how long to wait, and nothing is done."""
    limiter = getattr(interaction.client, "limiter", None)
    if not isinstance(limiter, RateLimiter):
        return True
    wait = await limiter.admit(interaction.user.id)
    if wait is None:
        return True
    try:
        with speaking(await reader_language(interaction)):
            await private(interaction, too_fast_text(max(1, math.ceil(wait))))
    except discord.HTTPException:
        pass  # nothing more to do: the request is dropped either way
    return False


def uncount(interaction: discord.Interaction) -> None:
    """The request `admitted` let through counts no more against the member (a move the game paced, not them)."""
    limiter = getattr(interaction.client, "limiter", None)
    if isinstance(limiter, RateLimiter):
        limiter.take_back_last(interaction.user.id)
