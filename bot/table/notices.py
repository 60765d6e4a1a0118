"""One notice a turn: the member to move is told once, by a short line in the channel or by DM, as they chose.

At the table (bot/table/live_table.py) the board is one message edited in
place, which pings nobody; who must move now learns it from one notice:

- a member who chose "your turn" DMs on every turn (`/ttr settings
  turn_dms:every`) gets the DM (held in their quiet hours), and nothing in
  the channel; if Discord refuses the DM, the line in the channel instead;
- every other member (the default) gets one line in the channel that
  mentions them and links to the table; with `turn_dms` "after N hours" the
  DM follows if the turn is still theirs by then.

A game keeps one notice in the channel: a newer notice, reminder or stage
deletes the older ones (`clear`), so the channel reads like a conversation
with a game in it. Reminders follow the same choice (bot/table/delivery.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import partial

import discord

from bot.present.dms import choose_tickets_dm, your_turn_dm
from bot.present.i18n import speaking
from bot.present.layout import clip
from bot.present.table_notices import turn_notice_text
from bot.service import GameInfo, TurnNotice
from bot.service.front_records import FrontRecords
from bot.service.member_settings import MemberSettingsService, TurnDms
from bot.service.stages import StageView
from bot.table.languages import Languages
from bot.table.notify import DmKind, Notifier

log = logging.getLogger(__name__)

NOTICE = "notice"  # the kind of a "your turn" line posted in the channel
REMINDER = "reminder"  # the kind of a reminder posted in the channel
NOTICE_KINDS = (NOTICE, REMINDER)


def pings(user_id: int) -> discord.AllowedMentions:
    """Exactly this member, nobody else."""
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(user_id)])


class Notices:
    def __init__(
        self,
        client: discord.Client,
        front: FrontRecords,
        members: MemberSettingsService,
        notifier: Notifier,
        languages: Languages,
    ) -> None:
        self.client = client
        self.front = front
        self.members = members
        self.notifier = notifier
        self.languages = languages

    async def wants_dms(self, user_id: int) -> bool:
        """Did the member choose a DM on every turn (and not close their DMs)?"""
        if user_id <= 0:
            return False
        settings = await self.members.member_settings(user_id)
        return settings.turn_dms is TurnDms.EVERY and not await self.front.refuses_dms(user_id)

    async def turn(self, info: GameInfo, user_id: int, url: str, dm: Callable[[], str]) -> None:
        """Tell the member it is their turn, once: by DM if they chose so (`dm()` writes it in their language),
        else by a line in the channel that mentions them (and, with `turn_dms` "after", the DM later)."""
        if user_id <= 0:
            return
        settings = await self.members.member_settings(user_id)
        if settings.turn_dms is TurnDms.EVERY and not await self.front.refuses_dms(user_id):
            with speaking(await self.languages.member(user_id, info.guild_id)):
                text = dm()
            if await self.notifier.dm(user_id, text, game_id=info.id, kind=DmKind.TURN):
                await self.clear(info)  # the previous turn's line is over
                return
        elif settings.turn_dms is TurnDms.AFTER:
            with speaking(await self.languages.member(user_id, info.guild_id)):
                text = dm()
            await self.notifier.dm(user_id, text, game_id=info.id, kind=DmKind.TURN)  # held for its hours
        with speaking(await self.languages.server(info.guild_id)):
            line = turn_notice_text(info, user_id, url)
        await self.post(info, user_id, line, NOTICE)

    async def post(self, info: GameInfo, user_id: int, text: str, kind: str) -> bool:
        """A short line in the game's channel mentioning the member; it replaces the game's older notices."""
        old = [row for k in NOTICE_KINDS for row in await self.front.posted_messages(info.id, k)]
        channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        try:
            message = await channel.send(clip(text), allowed_mentions=pings(user_id))
        except discord.HTTPException:
            log.warning("game #%d: could not post a notice for user %d", info.id, user_id, exc_info=True)
            return False
        await self.front.remember_message(info.id, kind, info.channel_id, message.id)
        await self._delete(info, [row.message_id for row in old])
        return True

    async def clear(self, info: GameInfo) -> None:
        """Delete the game's notices and reminders from the channel (their turn is over, or a newer one came)."""
        rows = [row for k in NOTICE_KINDS for row in await self.front.posted_messages(info.id, k)]
        await self._delete(info, [row.message_id for row in rows])

    async def ids(self, info: GameInfo) -> set[int]:
        """The game's notices and reminders in the channel now."""
        return {row.message_id for k in NOTICE_KINDS for row in await self.front.posted_messages(info.id, k)}

    async def _delete(self, info: GameInfo, message_ids: list[int]) -> None:
        channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        for message_id in message_ids:
            try:
                await channel.get_partial_message(message_id).delete()
            except discord.NotFound:
                pass
            except discord.HTTPException:
                log.warning("game #%d: could not delete notice %d", info.id, message_id, exc_info=True)
                continue
            await self.front.forget_message(message_id)

    async def restore(self, view: StageView, url: str) -> None:
        """After a start: tell the member to move of the turn on show at the table (`url`), if nothing of the
        game is in the channel (the bot stopped between showing the turn and telling them); those who chose
        DMs on every turn are left alone (told by DM, not again)."""
        info = view.info
        if not view.key.startswith(("place:", "turn:")) or await self.ids(info):
            return
        mover = _mover(view)
        if mover is None or await self.wants_dms(mover):
            return
        with speaking(await self.languages.server(info.guild_id)):
            line = turn_notice_text(info, mover, url)
        if await self.post(info, mover, line, NOTICE):
            log.info("game #%d: told user %d of the turn on show after a start", info.id, mover)

    async def who_acts(
        self, view: StageView, url: str, notices: Sequence[TurnNotice] | None, *, first: bool, table: bool
    ) -> None:
        """Who must act now at a new stage: everyone at the start (the start message mentions them; a DM for those
        who chose DMs); the member to move if no "your turn" note tells them (after a restart): at the table by
        one notice (bot/table/notices.py), in the old style by DM as their settings say."""
        info = view.info
        if view.key == "setup":
            if not first:
                return  # posted again: everyone was told at the start
            for seat in info.seats:
                if seat.user_id > 0 and not seat.autopilot:
                    with speaking(await self.languages.member(seat.user_id, info.guild_id)):
                        text = choose_tickets_dm(info, url)
                    await self.notifier.dm(seat.user_id, text, game_id=info.id, kind=DmKind.START)
            return
        if view.key == "final" or notices is not None:
            return
        mover = _mover(view)
        if mover is None:
            return
        if table:
            await self.turn(info, mover, url, partial(your_turn_dm, info, url))
            return
        with speaking(await self.languages.member(mover, info.guild_id)):
            text = your_turn_dm(info, url)
        await self.notifier.dm(mover, text, game_id=info.id, kind=DmKind.TURN)


def _mover(view: StageView) -> int | None:
    """The member to move at the stage (their user id), if a member is (not the autopilot)."""
    info, to_move = view.info, view.table.to_move
    seat = None if to_move is None else next((s for s in info.seats if s.player == to_move.player), None)
    return None if seat is None or seat.user_id <= 0 or seat.autopilot else seat.user_id
