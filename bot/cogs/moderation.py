"""The `/ttrmod` commands: what a server's game moderators may do to the game in the current channel.

Discord shows the group to members with Manage Server by default (server
admins can open it to the moderator role in the server's Integrations
settings); every command checks again at run time that the member has Manage
Server or the moderator role set by `/ttr config`. Each action takes a reason;
the service stores it in the game's audit log, and delivery posts the result:
a public line in the game's channel, the line for the moderators' log
channel, and the turn message again where its buttons changed (after an undo,
a replacement, a resume). All answers to the moderator are private.
`undo` first shows a preview with Confirm and Cancel (bot/cogs/undo_confirm.py).
`log` and `export` go through the service, which refuses a moderator seated in
the running game and audits the read; the cog posts the audit's line.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import MAX_CHOICES, duration_choices, game_here, is_moderator, member_names, record_file
from bot.cogs.undo_confirm import CONFIRM, PendingUndos, UndoButton, undo_buttons
from bot.present.answers import file_caption
from bot.present.audit import log_text
from bot.present.events import public_text
from bot.present.misread import Span
from bot.present.mod_answers import (
    NOT_A_MODERATOR,
    autopilot_answer,
    autopilot_label,
    bot_member_text,
    empty_log_text,
    ended_answer,
    extended_answer,
    moderator_note,
    no_extra_time_text,
    no_game_in_progress_text,
    no_such_player_text,
    paused_answer,
    replaced_answer,
    resumed_answer,
    servers_only_text,
    undo_cancelled_answer,
    undo_not_yours_text,
    undo_stale_text,
    undone_answer,
)
from bot.present.outline import undo_preview_text
from bot.replies import Refusal, current_game, guarded, private
from bot.service import ActionResult, GameInfo, ModLogEntry
from bot.service.checks import MAX_REASON
from bot.table.delivery import NOTES
from bot.table.front import Front
from bot.table.lookup import server_game
from bot.table.parsing import read_duration
from maps import load_board

log = logging.getLogger(__name__)

MAX_UNDO = 200
EXTEND_SUGGESTED = ("1h", "6h", "12h", "1d", "2d", "3d", "7d")
Reason = app_commands.Range[str, 1, MAX_REASON]
ON_OFF = [
    app_commands.Choice(name="on: the autopilot plays this seat", value="on"),
    app_commands.Choice(name="off: give the seat back to its member", value="off"),
]
YES_NO = [
    app_commands.Choice(name="yes: score the game as it stands, with winners", value="yes"),
    app_commands.Choice(name="no: abandon it without a result", value="no"),
]
WHY = "Why (stored in the audit log and posted to the moderators' log)"


def seat_of(info: GameInfo, text: str) -> int:
    """The seat a moderator named: the player's name (what the autocomplete sends), the member's name or mention."""
    wanted = " ".join(text.split())
    folded = wanted.casefold()
    for s in info.seats:
        if s.seat is None or s.player is None:
            continue
        mentions = {f"<@{s.user_id}>", f"<@!{s.user_id}>", str(s.user_id)}
        if folded in (s.player.casefold(), s.display_name.casefold()) or wanted in mentions:
            return s.seat
    raise Refusal(no_such_player_text(text, info.id, [s.player for s in info.seats if s.player]))


class ModerationCog(commands.Cog):
    """Moderating the games of a server."""

    ttrmod = app_commands.Group(
        name="ttrmod",
        description="Game moderators: pause, extend, replace, autopilot, undo, end, log, export",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, front: Front) -> None:
        self.service = front.service
        self.delivery = front.delivery
        self.stage = front.stage
        self.undos = PendingUndos()
        front.delivery.client.add_dynamic_items(UndoButton)

    # ----- who and which game ----------------------------------------------------------

    async def check(self, interaction: discord.Interaction) -> None:
        """Refuse (privately, saying who may) anyone who is not a moderator of this server."""
        if interaction.guild_id is None:
            raise Refusal(servers_only_text())
        if not await is_moderator(self.service, interaction):
            raise Refusal(NOT_A_MODERATOR)

    async def in_game(self, interaction: discord.Interaction, work: Callable[[GameInfo], Awaitable[None]]) -> None:
        """The moderator's check, then `work` on the game in progress in this channel; every failure answered."""

        async def run() -> None:
            await self.check(interaction)
            info = await game_here(self.service, interaction)
            if info is None:
                raise Refusal(no_game_in_progress_text())
            current_game.set(info.id)
            await work(info)

        await guarded(interaction, run)

    async def done(
        self,
        interaction: discord.Interaction,
        result: ActionResult,
        reason: str,
        answer: str,
        *,
        refresh: bool = False,
        clock: bool = False,
    ) -> None:
        """The result in the game's channel (with the reason), the moderators' log, the DMs it calls for; the answer.

        `refresh`: post the turn message again (its buttons changed); `clock`: update its clock's line.
        """
        lead = [moderator_note(public_text(result.game, e), reason) for e in result.public if e.kind in NOTES]
        await self.delivery.deliver(result, lead=lead, refresh=refresh, interaction=interaction)
        if clock:
            await self.stage.refresh_clock(result.game.id)
        await private(interaction, answer)

    # ----- the clock -------------------------------------------------------------------

    @ttrmod.command(name="pause", description="Stop the game's clocks; no moves until it is resumed")
    @app_commands.describe(reason=WHY)
    async def pause(self, interaction: discord.Interaction, reason: Reason) -> None:
        async def work(info: GameInfo) -> None:
            result = await self.service.pause(info.id, interaction.user.id, reason)
            answer = paused_answer(info.id)
            await self.done(interaction, result, reason, answer, clock=True)

        await self.in_game(interaction, work)

    @ttrmod.command(name="resume", description="Start the clocks of a paused game again")
    @app_commands.describe(reason=WHY)
    async def resume(self, interaction: discord.Interaction, reason: Reason) -> None:
        async def work(info: GameInfo) -> None:
            result = await self.service.resume(info.id, interaction.user.id, reason)
            answer = resumed_answer(info.id)
            await self.done(interaction, result, reason, answer, refresh=True)

        await self.in_game(interaction, work)

    @ttrmod.command(name="extend", description="Give a player (or everyone who must act) more time")
    @app_commands.describe(
        duration='How much more time, like "12h", "1d" or "30m"',
        reason=WHY,
        player="Whose deadline (default: everyone who must act now)",
    )
    async def extend(
        self, interaction: discord.Interaction, duration: str, reason: Reason, player: str | None = None
    ) -> None:
        async def work(info: GameInfo) -> None:
            seconds = read_duration(duration, Span.EXTRA_TIME)
            if seconds is None:
                raise Refusal(no_extra_time_text())
            seat = None if player is None else seat_of(info, player)
            result = await self.service.extend(info.id, interaction.user.id, seconds, reason, seat)
            answer = extended_answer([public_text(result.game, e) for e in result.public if e.kind in NOTES])
            await self.done(interaction, result, reason, answer, clock=True)

        await self.in_game(interaction, work)

    # ----- seats -----------------------------------------------------------------------

    @ttrmod.command(name="replace", description="Give a player's seat to another member")
    @app_commands.describe(player="The seat to give", member="The member who plays it from now on", reason=WHY)
    async def replace(
        self, interaction: discord.Interaction, player: str, member: discord.Member, reason: Reason
    ) -> None:
        async def work(info: GameInfo) -> None:
            if member.bot:
                raise Refusal(bot_member_text())
            seat = seat_of(info, player)
            moderator = interaction.user.id
            result = await self.service.replace(info.id, moderator, seat, member.id, member.display_name, reason)
            answer = replaced_answer(member.mention, str(info.seats[seat].player), info.id)
            await self.done(interaction, result, reason, answer, refresh=True)

        await self.in_game(interaction, work)

    @ttrmod.command(name="autopilot", description="Hand a seat to the autopilot, or give it back to its member")
    @app_commands.describe(
        player="The seat", state="on: the autopilot plays it; off: its member plays again", reason=WHY
    )
    @app_commands.choices(state=ON_OFF)
    async def autopilot(self, interaction: discord.Interaction, player: str, state: str, reason: Reason) -> None:
        async def work(info: GameInfo) -> None:
            seat = seat_of(info, player)
            on = state == "on"
            result = await self.service.set_autopilot(
                info.id, seat, on, moderator_user_id=interaction.user.id, reason=reason
            )
            answer = autopilot_answer(str(info.seats[seat].player), info.id, on=on)
            await self.done(interaction, result, reason, answer, refresh=True)

        await self.in_game(interaction, work)

    # ----- the game --------------------------------------------------------------------

    @ttrmod.command(name="undo", description="Take back the last moves: the game is exactly as it was before them")
    @app_commands.describe(count="How many moves (each card drawn, ticket choice or claim is one move)", reason=WHY)
    async def undo(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, MAX_UNDO], reason: Reason
    ) -> None:
        """First a preview (the moves, and what they showed to whom) with Confirm and Cancel; Confirm undoes."""

        async def work(info: GameInfo) -> None:
            moderator = interaction.user.id
            preview = await self.service.undo_preview(info.id, moderator, count)
            token = self.undos.add(moderator, info.id, count, reason, info.version)
            text = undo_preview_text(load_board(info.map).rules, preview)
            await private(interaction, text, view=undo_buttons(token))

        await self.in_game(interaction, work)

    async def on_undo_press(self, interaction: discord.Interaction, choice: str, token: str) -> None:
        """Confirm or Cancel on an undo preview: only its moderator, only once, only while the game is unchanged."""

        async def work() -> None:
            pending = self.undos.get(token)
            if pending is None:
                raise Refusal(undo_stale_text(self.undos.lifetime))
            if pending.moderator_user_id != interaction.user.id:
                raise Refusal(undo_not_yours_text())
            await self.check(interaction)
            self.undos.pop(token)
            current_game.set(pending.game_id)
            if choice != CONFIRM:
                await private(interaction, undo_cancelled_answer(pending.game_id))
                return
            result = await self.service.undo(
                pending.game_id, pending.moderator_user_id, pending.count, pending.reason, version=pending.version
            )
            answer = undone_answer(pending.count, pending.game_id)
            await self.done(interaction, result, pending.reason, answer, refresh=True)

        await guarded(interaction, work)

    @ttrmod.command(name="end", description="End the game now: scored as it stands, or abandoned without a result")
    @app_commands.describe(score="yes: final scores and winners as the game stands; no: no result", reason=WHY)
    @app_commands.choices(score=YES_NO)
    async def end(self, interaction: discord.Interaction, score: str, reason: Reason) -> None:
        async def work(info: GameInfo) -> None:
            scored = score == "yes"
            result = await self.service.end(info.id, interaction.user.id, scored, reason)
            await self.done(interaction, result, reason, ended_answer(info.id, scored=scored))

        await self.in_game(interaction, work)

    # ----- reading -----------------------------------------------------------------------

    async def read(
        self,
        interaction: discord.Interaction,
        game: int | None,
        label: str,
        file_of: Callable[[GameInfo], Awaitable[tuple[discord.File, ModLogEntry | None]]],
    ) -> None:
        """A moderator reads a game (any game of this server): the file, then the moderators' log.

        `label`: what the file is ("log"); `file_of` reads it through the service, which refuses a
        moderator seated in the running game and audits the read.
        """

        async def work() -> None:
            await self.check(interaction)
            info = await server_game(self.service, interaction, game)
            file, entry = await file_of(info)
            await private(interaction, file_caption(label, info.id, info.status.value), file=file)
            if entry is not None:
                await self.delivery.post_mod_log(entry)

        await guarded(interaction, work)

    @ttrmod.command(name="log", description="The game's full log: every move and moderator action, with times")
    @app_commands.describe(
        game="The game number (default: this channel's latest game)",
        reason="Why you read it (optional; posted to the moderators' log)",
    )
    async def log(self, interaction: discord.Interaction, game: int | None = None, reason: str | None = None) -> None:
        async def log_file(info: GameInfo) -> tuple[discord.File, ModLogEntry | None]:
            read = await self.service.read_log(info.id, interaction.user.id, reason or "")
            ids = {e.user_id for e in read.entries if e.user_id is not None}
            text = log_text(read.game, read.entries, await member_names(interaction, ids))
            data = (text or empty_log_text()).encode("utf-8")
            return discord.File(io.BytesIO(data), filename=f"conductor-game-{info.id}-log.txt"), read.mod_log

        await self.read(interaction, game, "log", log_file)

    @ttrmod.command(name="export", description="The game record (JSON), at any time")
    @app_commands.describe(
        game="The game number (default: this channel's latest game)",
        reason="Why you export it (optional; posted to the moderators' log)",
    )
    async def export(
        self, interaction: discord.Interaction, game: int | None = None, reason: str | None = None
    ) -> None:
        async def json_file(info: GameInfo) -> tuple[discord.File, ModLogEntry | None]:
            read = await self.service.export_record(
                info.id, interaction.user.id, moderator=True, reason=reason or "", audit_after_end=True
            )
            return record_file(info, read.record), read.mod_log

        await self.read(interaction, game, "record", json_file)

    # ----- autocomplete ------------------------------------------------------------------

    @extend.autocomplete("player")
    @replace.autocomplete("player")
    @autopilot.autocomplete("player")
    async def player_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The players of this channel's game (the value is the player's name; the command checks it again)."""
        try:
            info = await game_here(self.service, interaction)
            if info is None:
                return []
            typed = current.casefold().strip()
            choices = []
            for s in info.seats:
                if s.player is None:
                    continue
                label = s.player if s.display_name == s.player else f"{s.player} ({s.display_name})"
                if s.autopilot:
                    label = autopilot_label(label)
                if typed in label.casefold():
                    choices.append(app_commands.Choice(name=label[:100], value=s.player[:100]))
            return choices[:MAX_CHOICES]
        except Exception:
            log.debug("player autocomplete gave up", exc_info=True)
            return []

    @extend.autocomplete("duration")
    async def extend_duration_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return duration_choices(current, values=EXTEND_SUGGESTED)
