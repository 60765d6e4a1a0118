"""The tournaments' front: a thread per table, the tournament's message, the announcements in its channel.

- **Threads.** `open_table` is the `open_channel` of the tournament service's
  `start_round`/`repair_round`: it opens a public thread in the tournament's
  channel ("Round 2 · Table 3"), adds the table's players and mentions them
  (only them) in its first message. The table's game lives in the thread (its
  channel id is the thread's): its stage messages are posted there as in any
  game channel (`after_round` posts the first ones).
- **Moderation.** What a substitute, a drop or an adjudication did to a
  table's game (`TournamentAction.results`) is delivered as `/ttrmod
  replace` and `/ttrmod autopilot` are (`deliver`): the seat news by DM, the
  moderators' log lines, the game's channel.
- **Announcements** in the tournament's channel, in the server's language:
  each round's tables with links to their threads, each table's result with
  the standings after it. A table's result is announced when delivery learns
  that its game ended (`Delivery.game_over`), whatever ended it (the last
  move, the clock, a moderator, an adjudication), once per game.
- **Deadlines.** When a round's deadline passes with tables still playing
  (the service's timer, bot/service/tournaments/deadlines.py), the
  moderators' log channel (else the tournament's) is told which, with links
  to their threads and the `/ttrtour adjudicate` that settles them
  (`tell_overdue`).
- **The tournament's message** (its settings, players and the *Join* /
  *Leave* / *Check in* buttons, bot/views/tournaments.py) is posted at
  creation and changed in place when registration changes. Its id is kept in
  the database (`remember_tournament_message`), so after a restart the bot
  goes on changing the same message; a press changes the message it was
  pressed on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import discord

from bot.present.events import public_text
from bot.present.i18n import speaking
from bot.present.layout import chunks
from bot.present.mod_answers import moderator_note
from bot.present.tournament_announcements import overdue_lines, round_lines, table_result_lines, thread_welcome
from bot.present.tournament_answers import promoted_text
from bot.present.tournament_message import tournament_text
from bot.present.tournament_standings import standings_lines, standings_table
from bot.present.tournament_words import thread_name
from bot.service import ActionResult, GameInfo
from bot.service.tournaments.models import (
    OverdueTables,
    RoundStarted,
    StandingLine,
    TablePlan,
    TournamentInfo,
)
from bot.store.tournament_rows import ParticipantStatus, TableStatus, TournamentStatus
from bot.table.delivery import NOTES
from bot.table.front import Front
from bot.views.replies import image_file
from bot.views.tournaments import tournament_view
from render import RenderedImage
from render.standings import render_standings

log = logging.getLogger(__name__)

OPEN = (TournamentStatus.REGISTRATION, TournamentStatus.CHECKIN, TournamentStatus.RUNNING)
WAITLISTED = ParticipantStatus.WAITLISTED
MAX_ANNOUNCED = 10_000  # game ids remembered as announced


class TournamentDesk:
    def __init__(self, client: discord.Client, front: Front) -> None:
        self.client = client
        service = front.service
        self.reading, self.front, self.settings, self.tournaments = (
            service.reading,
            service.front,
            service.settings,
            service.tournaments,
        )
        self.stage = front.stage
        self.delivery = front.delivery
        self.languages = front.languages
        self.messages: dict[int, int] = {}  # tournament id -> its message's id (in its channel), as kept
        self.announced: dict[int, None] = {}  # games whose table result was announced
        front.delivery.game_over.append(self.game_ended)

    # ----- threads --------------------------------------------------------------------------------------

    async def open_table(self, plan: TablePlan) -> int:
        """A table's thread in the tournament's channel, its players added and mentioned; its id."""
        channel = self.client.get_channel(plan.channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(plan.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise RuntimeError(f"tournament #{plan.tournament_id}: channel {plan.channel_id} cannot hold threads")
        guild_id = channel.guild.id
        with speaking(await self.languages.server(guild_id)):
            name = thread_name(plan.round, plan.table_no, final=plan.final)
            welcome = thread_welcome(plan)
        thread = await channel.create_thread(name=name[:100], type=discord.ChannelType.public_thread)
        members = [u for u in plan.seats if u > 0]
        for user_id in members:
            try:
                await thread.add_user(discord.Object(user_id))
            except discord.HTTPException:
                log.warning(
                    "tournament #%d: could not add user %d to thread %d", plan.tournament_id, user_id, thread.id
                )
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in members], replied_user=False
        )
        try:
            await thread.send(welcome, allowed_mentions=mentions)
        except discord.HTTPException:
            log.warning("tournament #%d: could not greet table %d", plan.tournament_id, plan.table_no, exc_info=True)
        return thread.id

    # ----- rounds -----------------------------------------------------------------------------------------

    async def after_round(self, started: RoundStarted) -> None:
        """A round opened: its games' first messages in their threads, the round's tables announced, the results
        of the tables the autopilot played out at once, the tournament's message brought up to date."""
        info = started.tournament
        for table in started.round.tables:
            if table.game_id is not None:
                await self.stage.publish_safely(table.game_id)
        await self.announce(info, round_lines(started))
        for table in started.round.tables:
            if table.game_id is not None and table.status in (TableStatus.DONE, TableStatus.VOID):
                game = await self.reading.game(table.game_id)
                await self.game_ended(game)
        await self.refresh_message(info)

    async def deliver(
        self,
        results: Sequence[ActionResult],
        *,
        interaction: discord.Interaction | None = None,
        refresh: bool = False,
    ) -> None:
        """What a tournament action did to a game (a substitute's seat handover, seats given to the autopilot, the
        game ended by an adjudication), each delivered as any moderator's action is (`/ttrmod replace`): the
        game's channel, the moderators' log lines, the seat news by DM; a game that ended has its table's result
        announced (delivery's `game_over`). `refresh`: the turn message is posted again after the last one."""
        for number, result in enumerate(results, start=1):
            with speaking(await self.delivery.public(result.game)):
                lead = [moderator_note(public_text(result.game, e), None) for e in result.public if e.kind in NOTES]
            await self.delivery.deliver(
                result, lead=lead, refresh=refresh and number == len(results), interaction=interaction
            )

    # ----- the waiting list ---------------------------------------------------------------------------------

    async def tell_promoted(self, before: TournamentInfo, after: TournamentInfo) -> None:
        """A DM, in their language, to every waiting player who got a place between `before` and `after`."""
        for p in after.participants:
            was = before.participant(p.user_id)
            if p.status is ParticipantStatus.REGISTERED and was is not None and was.status is WAITLISTED:
                with speaking(await self.languages.member(p.user_id, after.guild_id)):
                    text = promoted_text(after)
                if not await self.delivery.notifier.dm(p.user_id, text):
                    log.info("tournament #%d: user %d got a place but no DM", after.id, p.user_id)

    # ----- deadlines ------------------------------------------------------------------------------------------

    async def tell_overdue(self, notice: OverdueTables) -> None:
        """A round's deadline passed with tables still playing: the moderators' log channel is told which (the
        tournament's channel where the server has none), in the server's language; it pings nobody."""
        info = notice.tournament
        with speaking(await self.languages.server(info.guild_id)):
            lines = overdue_lines(notice)
        config = await self.settings.guild_config(info.guild_id)
        where = info.channel_id if config.mod_log_channel_id is None else config.mod_log_channel_id
        await self.delivery.outbox.send(where, info.guild_id, chunks(lines), game_id=None)

    # ----- results ----------------------------------------------------------------------------------------

    async def game_ended(self, game: GameInfo) -> None:
        """A game ended: if it is a tournament's table, its result and the standings in the tournament's channel."""
        if game.id in self.announced:
            return
        result = await self.tournaments.results.table_result(game.id)
        if result is None:
            return
        info = await self.tournaments.desk.tournament(result.tournament_id)
        if game.id in self.announced:
            return
        self.announced[game.id] = None
        while len(self.announced) > MAX_ANNOUNCED:
            self.announced.pop(next(iter(self.announced)))
        with speaking(await self.languages.server(info.guild_id)):
            lines = table_result_lines(info, result)
        await self.announce(info, lines)
        if result.finishes:
            await self.post_standings(info, result.standings)
        if result.tournament_finished or result.round_complete:
            await self.refresh_message(info)

    # ----- the tournament's channel ---------------------------------------------------------------------

    async def announce(self, info: TournamentInfo, lines: Sequence[str]) -> None:
        """Lines in the tournament's channel; they ping nobody (posted later if Discord fails now)."""
        if lines:
            await self.delivery.outbox.send(info.channel_id, info.guild_id, chunks(lines), game_id=None)

    async def post_standings(self, info: TournamentInfo, lines: Sequence[StandingLine]) -> None:
        """The standings in the tournament's channel: the text, with the table's image (text alone if Discord
        refuses the image; then the text waits in the outbox like any announcement)."""
        with speaking(await self.languages.server(info.guild_id)):
            text = chunks(standings_lines(info, lines))
            image = await standings_image(info, lines)
        if len(text) == 1 and image is not None:
            channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
            try:
                await channel.send(
                    text[0],
                    file=image_file(image, f"standings-{info.id}.png"),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                return
            except discord.HTTPException:
                log.warning("tournament #%d: could not post the standings' image", info.id, exc_info=True)
        await self.delivery.outbox.send(info.channel_id, info.guild_id, text, game_id=None)

    async def _message_parts(self, info: TournamentInfo) -> tuple[str, discord.ui.View | None]:
        with speaking(await self.languages.server(info.guild_id)):
            text = tournament_text(info)
            view = tournament_view(
                info.id,
                registration=info.status is TournamentStatus.REGISTRATION and info.registration_open,
                checkin=info.status is TournamentStatus.CHECKIN,
            )
        return text, view

    async def post_message(self, info: TournamentInfo) -> None:
        """The tournament's message in its channel, with its buttons."""
        text, view = await self._message_parts(info)
        channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        if view is None:
            message = await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        else:
            message = await channel.send(text, view=view, allowed_mentions=discord.AllowedMentions.none())
        await self._keep(info, message.id)

    async def _keep(self, info: TournamentInfo, message_id: int) -> None:
        if self.messages.get(info.id) != message_id:
            self.messages[info.id] = message_id
            await self.front.remember_tournament_message(info.id, info.channel_id, message_id)

    async def _message_id(self, info: TournamentInfo) -> int | None:
        """The tournament's message: known here, else kept in the database (after a restart)."""
        if info.id not in self.messages:
            kept = await self.front.tournament_message(info.id)
            if kept is None:
                return None
            self.messages[info.id] = kept
        return self.messages[info.id]

    async def show(self, info: TournamentInfo) -> None:
        """The tournament's message brought up to date in place, or posted again if it is not known (a restart)."""
        if await self._message_id(info) is not None:
            await self.refresh_message(info)
        else:
            await self.post_message(info)

    async def refresh_message(self, info: TournamentInfo, message: discord.Message | None = None) -> None:
        """The tournament's message as the tournament now stands (`message`: the one a button was pressed on)."""
        text, view = await self._message_parts(info)
        try:
            if message is not None:
                await self._keep(info, message.id)
                await message.edit(content=text, view=view, allowed_mentions=discord.AllowedMentions.none())
                return
            message_id = await self._message_id(info)
            if message_id is None:
                return
            channel = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
            await channel.get_partial_message(message_id).edit(
                content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:
            log.warning("tournament #%d: could not update its message", info.id, exc_info=True)


async def standings_image(
    info: TournamentInfo, lines: Sequence[StandingLine], *, highlight: int | None = None
) -> RenderedImage | None:
    """The standings as a table image, in the language being spoken (drawn in a thread: it is CPU work);
    `highlight`: a member whose row stands out. None if there is nothing to draw or the drawing failed."""
    if not lines:
        return None
    heading, columns, rows, alt = standings_table(info, lines)
    marked = [i for i, x in enumerate(lines[: len(rows)]) if x.user_id == highlight]
    try:
        return await asyncio.to_thread(render_standings, heading, columns, rows, highlight=marked, alt_text=alt)
    except Exception:
        log.exception("tournament #%d: could not draw the standings", info.id)
        return None
