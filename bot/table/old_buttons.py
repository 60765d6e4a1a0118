"""Buttons that no longer count, taken off: an older stage message's, once a newer one is posted (or at the next
start if the bot stopped in between), and those of a copy Discord took but the database never recorded.

Only the newest stage message of a game being played holds live buttons
(bot/table/stage.py posts it). Each stage message is marked in the store
while it carries buttons; taking them off clears the mark.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.service import GameInfo
from bot.service.front_records import FrontRecords, PostedMessage
from bot.service.reading import ReadingService
from bot.table.stage_kinds import is_stage, stage_base
from bot.views.table_layout import is_layout, rebuilt

log = logging.getLogger(__name__)


GAME_OF_ID = re.compile(r"^ttrs?:[a-z]+:(\d+):")


def buttons_games(message: discord.Message) -> set[int]:
    """The games whose buttons or menus a message carries (from their custom ids, bot/views/ids.py), in its
    action rows or in a layout's (a container's, a section's)."""
    games: set[int] = set()

    def walk(items: Sequence[Any]) -> None:
        for item in items:
            match = GAME_OF_ID.match(getattr(item, "custom_id", None) or "")
            if match is not None:
                games.add(int(match.group(1)))
            walk(getattr(item, "children", []))
            accessory = getattr(item, "accessory", None)
            if accessory is not None:
                walk([accessory])

    walk(message.components)
    return games


def without_buttons(message: discord.Message) -> discord.ui.LayoutView | None:
    """What a message becomes without its buttons: a layout (the table) the same layout without its action rows
    (a layout stays one), any other message no components (None)."""
    return rebuilt(message, buttons=False) if is_layout(message) else None


class OldButtons:
    """Take the buttons off stage messages that no longer count."""

    def __init__(self, client: discord.Client, reading: ReadingService, front: FrontRecords) -> None:
        self.client = client
        self.reading = reading  # the games
        self.front = front  # the messages posted, and which still carry buttons

    def channel(self, info: GameInfo) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)

    async def strip_unrecorded(self, game_id: int, after: int | None) -> None:
        """Take the buttons off the game's messages in the channel that the store does not know (posted by a
        process killed before it recorded them), among the 50 after the message `after` (the newest ones if None).

        Only looked at when a start finds the current stage's message missing:
        the stage was posted again just now, and a copy killed before its record
        would keep live-looking buttons. If Discord fails, they stay (and only
        say they are out of date).
        """
        info = await self.reading.game(game_id)
        known = {m.message_id for m in await self.front.posted_messages(game_id)}
        me = self.client.user
        try:
            async for message in self.channel(info).history(
                limit=50, after=None if after is None else discord.Object(after)
            ):
                if me is None or message.author.id != me.id or message.id in known:
                    continue
                if game_id in buttons_games(message):
                    await message.edit(view=without_buttons(message), allowed_mentions=discord.AllowedMentions.none())
                    log.info("game #%d: took the buttons off unrecorded message %d", game_id, message.id)
        except discord.HTTPException:
            log.warning("game #%d: could not look for unrecorded stage messages", game_id, exc_info=True)

    async def sweep(self, game_id: int) -> None:
        """Take the buttons off every stage message of the game still marked as carrying them, but the live one.

        Only the newest stage message of a game being played holds live
        buttons; a finished or cancelled game holds none. A crash between
        posting a stage message and taking the buttons off the one before
        leaves the older one marked: this finds it. Each marked message is
        edited once per sweep; one that was deleted or cannot be edited is
        given up on.
        """
        info = await self.reading.game(game_id)
        rows = [m for m in await self.front.posted_messages(game_id) if is_stage(m.kind)]
        live = rows[-1].message_id if rows and info.started and info.status.active else None
        for row in rows:
            if row.buttons and row.message_id != live:
                await self.take_off_buttons(info, row)

    async def take_off_buttons(self, info: GameInfo, row: PostedMessage) -> None:
        """Take the buttons off an older stage message (a newer one holds the live ones); words and image stay.

        Done, or refused for good (the message was deleted, the bot may no
        longer edit it: Discord answers 4xx), its mark is cleared, so it is not
        tried again. If Discord fails (5xx), no harm: the old buttons only say
        they are out of date, and the mark stays for the next stage message
        or start to try again.
        """
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=info.guild_id)
        try:
            view = None
            if stage_base(row.kind).startswith(("place:", "turn:")):  # the table's (a layout: it stays one)
                view = without_buttons(await channel.fetch_message(row.message_id))
            await channel.get_partial_message(row.message_id).edit(
                view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                log.warning(
                    "game #%d: could not take the buttons off message %d", info.id, row.message_id, exc_info=True
                )
                return
            log.warning(
                "game #%d: gave up taking the buttons off message %d (Discord: %d %s)",
                info.id,
                row.message_id,
                error.status,
                error.text or "",
            )
        await self.front.buttons_gone(row.message_id)
