"""The table: one live message per game in its channel, edited in place after every move.

At the table (a server's default style, `/ttr config table_style`), the
stages after the ticket choice (each tourist-stack placement, each turn) do
not post a message each: the game's table message is edited to show the
current one, its board image replaced (with its alt text), whose turn it is
and their deadline, the last move, and the buttons of the game's current
version (the face-up cards as they are now: after the first card of a turn
the table is edited again, so its card buttons take the second card). The
edit pings nobody; the member to move is told by one notice
(bot/table/notices.py).

Every stage is still recorded under its key (bot/table/stage_kinds.py), with
the message that shows it: the same message id under several keys. The
newest record is the live table, marked as carrying buttons until they come
off, so the stale-button guarantees (bot/table/old_buttons.py) hold as for a
message per stage.

The table follows the conversation: when chat has pushed it far up (more
than `MOVE_AFTER` messages after it, or `MOVE_HOURS` hours old with others
talking after it), the next stage posts it anew and deletes the old one. The
messages after it are counted from the gateway's events (bot/table/talk.py),
the channel's history read only when they are not known (the first edit
after a start). The end of the game posts the final message (the final board
and scores) and deletes the table.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.service import GameInfo
from bot.service.front_records import FrontRecords, PostedMessage
from bot.service.stages import StageView
from bot.table.old_buttons import OldButtons
from bot.table.stage_kinds import stage_base
from bot.table.talk import ChannelTalk

log = logging.getLogger(__name__)

MOVE_AFTER = 15  # more messages than this after the table: it is posted anew below them
MOVE_HOURS = 3  # a table this old with others talking after it is posted anew too
TALK = 3  # "others talking": at least this many messages after it (the game's own notice aside)


def is_table(kind: str) -> bool:
    """Is a stored stage kind one the table shows (a placement or a turn)?"""
    return stage_base(kind).startswith(("place:", "turn:"))


def live_row(rows: Sequence[PostedMessage]) -> PostedMessage | None:
    """The live table among a game's stage records (oldest first): the newest, if it is a table still carrying
    its buttons (a table deleted or no longer editable is posted anew)."""
    if not rows or not is_table(rows[-1].kind) or not rows[-1].buttons:
        return None
    return rows[-1]


class LiveTable:
    """Where the table is, whether it must move down, and the old one's removal."""

    def __init__(self, client: discord.Client, front: FrontRecords, old_buttons: OldButtons) -> None:
        self.client = client
        self.front = front
        self.old_buttons = old_buttons
        self.versions: dict[int, int] = {}  # game -> the game's version the table shows (edits since this start)
        self.talk = ChannelTalk()  # the messages after each table, from the gateway's events

    def channel(self, info: GameInfo) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)

    def outdated(self, info: GameInfo, live: PostedMessage | None) -> bool:
        """Does the live table show an older version of the game within its stage (the first card of a turn
        was taken)? Known for the tables edited since this start; the others' buttons act as the turn is now."""
        if live is None:
            return False
        shown = self.versions.get(info.id)
        return shown is not None and shown != info.version

    async def far_up(self, info: GameInfo, message_id: int, now: datetime, ignore: Collection[int]) -> bool:
        """Has the conversation pushed the table far up: more than `MOVE_AFTER` messages after it, or some
        talk after a table `MOVE_HOURS` old? The game's own notices (`ignore`) do not count. Counted from the
        gateway's events; read from the channel's history when they are not known (once after a start)."""
        count = self.talk.count(info.channel_id, message_id, ignore)
        if count is None:
            read = await self.read_after(info, message_id)
            if read is None:
                return False
            count = sum(1 for i in read if i not in ignore)
        if count > MOVE_AFTER:
            return True
        posted = discord.utils.snowflake_time(message_id)
        return count >= TALK and now - posted > timedelta(hours=MOVE_HOURS)

    async def read_after(self, info: GameInfo, message_id: int) -> list[int] | None:
        """The ids of the messages after the table in its channel, read from its history (up to `MOVE_AFTER` + 2:
        enough to tell), all of them kept for the count (`talk`); None if Discord fails."""
        limit = MOVE_AFTER + 2
        try:
            ids = [m.id async for m in self.channel(info).history(limit=limit, after=discord.Object(message_id))]
        except discord.HTTPException:
            log.warning("game #%d: could not read the channel after the table", info.id, exc_info=True)
            return None
        if len(ids) < limit:  # every message after it: counted from the events from now on
            self.talk.learned(info.channel_id, message_id, ids)
        return ids

    def posted(self, info: GameInfo, message_id: int) -> None:
        """A table was posted as the message `message_id`: the messages after it are counted from now on."""
        self.talk.watch(info.channel_id, message_id)

    async def edit(self, stage: StageView, live: PostedMessage, key: str, **kwargs: Any) -> discord.Message | None:
        """Edit the live table to show the `stage` (`kwargs`: what the message becomes); None if the message is
        gone or may not be edited (it is given up on: the caller posts the table anew). Other Discord failures
        raise (the stage is shown later)."""
        info = stage.info
        try:
            message = await self.channel(info).get_partial_message(live.message_id).edit(**kwargs)
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                raise
            log.warning("game #%d: the table %d is gone (%d); posting it anew", info.id, live.message_id, error.status)
            await self.front.buttons_gone(live.message_id)
            return None
        await self.front.remember_message(info.id, key, info.channel_id, live.message_id, buttons=True)
        self.versions[info.id] = info.version
        return message

    async def retire(self, info: GameInfo, old: Sequence[PostedMessage], keep: int) -> None:
        """The tables before the new message `keep` (moved down, or the game is over): deleted; one that cannot
        be deleted loses its buttons instead (and the sweep at the next start tries again if that fails)."""
        done: set[int] = {keep}
        for row in old:
            if row.message_id in done or not row.buttons or not is_table(row.kind):
                continue
            done.add(row.message_id)
            try:
                await self.channel(info).get_partial_message(row.message_id).delete()
            except discord.NotFound:
                pass
            except discord.HTTPException:
                log.warning("game #%d: could not delete the old table %d", info.id, row.message_id, exc_info=True)
                await self.old_buttons.take_off_buttons(info, row)
                continue
            await self.front.buttons_gone(row.message_id)
            log.info("game #%d: the table moved from message %d to %d", info.id, row.message_id, keep)
