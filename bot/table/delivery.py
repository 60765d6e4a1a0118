"""Delivery: how the result of every action reaches people, whoever caused it (a member, a moderator, the clock).

`deliver` posts the stage message (with what happened since the last one,
autopilot moves included, and the notes such as a timeout or a moderator's
action at its top), the notes on their own when no new stage begins, the lines
for the moderators' log channel, the "your turn" notes with the catch-up
digest (by DM only: they name the player's tickets) and the seat news of a
replacement. `remind` reminds a member whose time runs out.

Public texts are written in the server's language, each DM in its
recipient's (bot/table/languages.py).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Protocol

import discord

from bot.present.answers import stage_failed_text
from bot.present.clock import reminder_text
from bot.present.digest import digest_lines
from bot.present.dms import seat_given_dm, your_turn_dm
from bot.present.events import private_text, public_text
from bot.present.i18n import current_language, speaking
from bot.present.layout import chunks, clip
from bot.present.moderation import mod_line
from bot.present.plans import planned_dm
from bot.present.played_for import played_for_dm
from bot.present.table_notices import reminder_notice_text
from bot.service import (
    ActionResult,
    EventKind,
    GameInfo,
    GameStatus,
    ModLogEntry,
    PrivateEvent,
    Reminder,
    TurnNotice,
)
from bot.service.front_records import FrontRecords
from bot.service.kinds import Language
from bot.service.member_settings import MemberSettingsService
from bot.service.reading import ReadingService
from bot.service.settings import SettingsService
from bot.table.languages import Languages
from bot.table.lobby_message import LobbyMessage
from bot.table.notices import REMINDER
from bot.table.notify import AWAY_NOTE, DmKind, Notifier
from bot.table.outbox import Outbox
from bot.table.stage import StageMessages
from bot.views.replies import current_game, try_private

log = logging.getLogger(__name__)

# Public events that are not moves (the recap of the next stage message tells the moves): told at the top
# of the next stage message, or in a message of their own if no stage message follows.
NOTES = frozenset(
    {
        EventKind.TIMEOUT,
        EventKind.PAUSED,
        EventKind.RESUMED,
        EventKind.EXTENDED,
        EventKind.OUTAGE,
        EventKind.REPLACED,
        EventKind.AUTOPILOT,
        EventKind.UNDONE,
        EventKind.ENDED,
        EventKind.REOPENED,
        EventKind.CANCELLED,
    }
)
# Private events a member who is not acting gets by DM (a moderator gave or took their seat).
SEAT_NEWS = frozenset({EventKind.SEAT_GIVEN, EventKind.SEAT_TAKEN})


def message_url(info: GameInfo, message_id: int | None) -> str:
    """A link to a message of the game's channel (to the channel itself without a message)."""
    base = f"https://discord.com/channels/{info.guild_id}/{info.channel_id}"
    return base if message_id is None else f"{base}/{message_id}"


def _your_turn(info: GameInfo, url: str, notice: TurnNotice) -> str:
    return your_turn_dm(info, url, digest_lines(info, notice.digest), notice.deadline)


class DeliveryParts(Protocol):
    """The parts of the game service delivery uses (the service itself has them all)."""

    reading: ReadingService
    front: FrontRecords
    members: MemberSettingsService
    settings: SettingsService


class Delivery:
    def __init__(
        self,
        client: discord.Client,
        parts: DeliveryParts,
        notifier: Notifier,
        stage: StageMessages,
        outbox: Outbox,
        languages: Languages | None = None,
    ) -> None:
        self.client = client
        self.reading, self.front, self.members, self.settings = (
            parts.reading,
            parts.front,
            parts.members,
            parts.settings,
        )
        self.notifier = notifier
        self.stage = stage
        self.outbox = outbox
        self.languages = languages or stage.languages
        self.lobby_message = LobbyMessage(client, parts.reading, parts.front, self.languages)
        notifier.summarise = self.away_summary  # what the autopilot played for an away member: one summary
        # called (in order) with a game once an action delivered here ended it: the tournaments announce the
        # table's result (bot/table/tournaments.py)
        self.game_over: list[Callable[[GameInfo], Awaitable[None]]] = []

    async def public(self, info: GameInfo) -> Language:
        """The language of the game's public texts: its server's."""
        return await self.languages.server(info.guild_id)

    async def dm(
        self,
        user_id: int,
        info: GameInfo,
        write: Callable[[], str],
        kind: DmKind = DmKind.ANSWER,
        note: str | None = None,
    ) -> bool:
        """A DM about a game, written (`write()`) in the recipient's language and sent as their settings say
        (`kind`: what it is; bot/table/notify.py); False if DMs are refused or Discord failed."""
        if user_id <= 0:
            return False
        with speaking(await self.languages.member(user_id, info.guild_id)):
            text = write()
        return await self.notifier.dm(user_id, text, game_id=info.id, kind=kind, note=note)

    async def deliver(
        self,
        result: ActionResult,
        *,
        actor: int | None = None,
        lead: Sequence[str] | None = None,
        refresh: bool = False,
        interaction: discord.Interaction | None = None,
    ) -> None:
        """Post what an action did.

        The stage message if a new stage began (`refresh`: post the current one
        again, as after an undo), with the notes (`lead`, by default the
        result's public events that are not moves) at its top, or the notes on
        their own; the moderators' log lines; the "your turn" notes by DM; the
        seat news of a replacement by DM. `actor` is the member who acted: their
        own answer already says all that, so they get no DM. With `interaction`,
        a failed stage message is reported to that member (it is posted again later).
        """
        info = result.game
        current_game.set(info.id)
        private = current_language()  # the acting member's, in an interaction
        await self.lobby_message.close(info)  # out of its lobby (started, cancelled): the lobby's buttons go
        with speaking(await self.public(info)):
            notes = list(lead) if lead is not None else [public_text(info, e) for e in result.public if e.kind in NOTES]
        posted = False
        if info.started and info.status is not GameStatus.CANCELLED:

            async def tell_actor() -> None:
                with speaking(private):
                    text = stage_failed_text()
                if interaction is not None and not await try_private(interaction, text):
                    log.warning("game #%d: could not tell user %s the turn message waits", info.id, actor)

            posted = await self.stage.publish_safely(
                info.id, lead=notes, refresh=refresh, notices=result.notices, on_failure=tell_actor
            )
        elif info.started:  # abandoned: no stage follows, so no buttons of its stage messages count any more
            await self.stage.old_buttons.sweep(info.id)
        if notes and not posted:
            await self.post_lines(info, notes)
        for entry in result.mod_log:
            await self.post_mod_log(entry)
        for event in result.private:
            if event.kind in SEAT_NEWS and event.user_id != actor:
                await self.dm(event.user_id, info, partial(self._seat_news, info, event), DmKind.SEAT)
        await self._send_played_for(result, skip=actor)
        for planned in result.planned:  # what each member's plan did: to them alone, by DM
            url = message_url(info, await self.stage.latest(info.id))
            await self.dm(planned.user_id, info, partial(planned_dm, info, url, planned), DmKind.PLANNED)
        await self._send_notices(info, result.notices, skip=actor)
        if info.started and not info.status.active:
            await self.ended(info)

    async def ended(self, info: GameInfo) -> None:
        """A game is over: tell whoever listens (`game_over`); a listener that fails is logged, not the action."""
        for listener in self.game_over:
            try:
                await listener(info)
            except Exception:
                log.exception("game #%d: a listener of the game's end failed", info.id)

    async def post_lines(self, info: GameInfo, lines: Sequence[str]) -> None:
        """A message of its own in the game's channel; it pings nobody. If Discord fails, it is posted later."""
        await self.outbox.send(info.channel_id, info.guild_id, chunks(lines), game_id=info.id)

    async def post_mod_log(self, entry: ModLogEntry) -> None:
        """A line for the server's moderators' log channel (guild setting `mod_log_channel_id`), if there is one.

        The lines name members and channels with Discord's mention syntax: they are sent pinging nobody.
        If Discord fails, the line is posted later.
        """
        info = entry.game
        with speaking(await self.public(info)):
            text = mod_line(entry)
        config = await self.settings.guild_config(info.guild_id)
        if config.mod_log_channel_id is None:
            log.info("game #%d: no moderators' log channel set; %s not posted", info.id, entry.action.value)
            return
        await self.outbox.send(config.mod_log_channel_id, info.guild_id, [clip(text)], game_id=info.id)

    async def remind(self, reminder: Reminder) -> None:
        """A reminder that a member's time runs out: by DM, or by one line in the game's channel.

        At the table a member is reminded as they are told their turn: by DM if
        they chose DMs on every turn, else by one short message in the channel
        that mentions them; in the old style by DM, in the channel where DMs are
        closed. That message replaces the game's previous notice or reminder (a
        new stage removes it too), so reminders never pile up in the channel. A member
        who turned reminders off gets neither; in their quiet hours it is held
        until they end (saying the time left then), and dropped if the
        deadline comes first.
        """
        info, user_id = reminder.game, reminder.user_id
        if user_id <= 0:
            return  # the autopilot needs no reminding
        current_game.set(info.id)
        url = message_url(info, await self.stage.latest(info.id))
        plan = await self.notifier.plan(user_id, DmKind.REMINDER)
        if plan.until is not None:
            if reminder.deadline is None or reminder.deadline > plan.until:
                later = replace(reminder, at=plan.until)
                with speaking(await self.languages.member(user_id, info.guild_id)):
                    text = f"{reminder_text(later)} {url}"
                await self.notifier.hold(user_id, text, plan.until, game_id=info.id, kind=DmKind.REMINDER)
            return
        if not plan.send:
            return
        table = await self.stage.at_table(info)  # at the table: in the channel unless the member chose DMs
        if not table or await self.stage.notices.wants_dms(user_id):
            if await self.dm(user_id, info, lambda: f"{reminder_text(reminder)} {url}"):
                return
        with speaking(await self.public(info)):  # in the channel, for everyone to read
            text = reminder_text(reminder)
        await self.stage.notices.post(
            info, user_id, reminder_notice_text(user_id, text, url if table else ""), REMINDER
        )

    async def _send_played_for(self, result: ActionResult, *, skip: int | None) -> None:
        """What the autopilot did for each member (their time ran out, or their seat is handed to it): by DM only,
        one message per member, before their "your turn" note; never in the channel (it names their tickets)."""
        if not result.played_for:
            return
        info = result.game
        url = message_url(info, await self.stage.latest(info.id))
        users = dict.fromkeys(p.user_id for p in result.played_for if p.user_id > 0 and p.user_id != skip)
        for user in users:
            moves = [p for p in result.played_for if p.user_id == user]
            note = f"{AWAY_NOTE}{min(max(m.index, 0) for m in moves)}"  # if held while away: where its summary starts
            await self.dm(user, info, partial(played_for_dm, info, url, moves), DmKind.PLAYED_FOR, note)

    async def away_summary(self, user_id: int, game_id: int, first: int) -> str | None:
        """What the autopilot played for a member while they were away, from move `first` on: one DM, summed up."""
        info = await self.reading.game(game_id)
        moves = await self.members.autopilot_moves_for(game_id, user_id, first)
        if not moves:
            return None
        url = message_url(info, await self.stage.latest(game_id))
        with speaking(await self.languages.member(user_id, info.guild_id)):
            return played_for_dm(info, url, moves, away=True)

    async def _send_notices(self, info: GameInfo, notices: Sequence[TurnNotice], *, skip: int | None) -> None:
        """The "your turn" notes: at the table one notice each, in the channel (a line that mentions the member)
        or by DM with the catch-up digest if they chose DMs; in the old style by DM as their settings say (the turn
        message mentions them). The digest goes by DM only, never in the channel (it names tickets)."""
        if not notices:
            return
        url = message_url(info, await self.stage.latest(info.id))
        table = await self.stage.at_table(info)
        for notice in notices:
            if notice.user_id <= 0 or notice.user_id == skip:
                continue
            if table:  # one notice: in the channel, or by DM if the member chose so
                await self.stage.notices.turn(info, notice.user_id, url, partial(_your_turn, info, url, notice))
            else:
                await self.dm(notice.user_id, info, partial(_your_turn, info, url, notice), DmKind.TURN)

    def _seat_news(self, info: GameInfo, event: PrivateEvent) -> str:
        if event.kind is EventKind.SEAT_GIVEN:
            return seat_given_dm(info, private_text(info, event))
        return private_text(info, event)
