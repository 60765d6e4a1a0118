"""The `/ttrmod` commands: what a server's game moderators may do to the game in the current channel.

Discord shows the group to members with Manage Server by default (server
admins can open it to the moderator role in the server's Integrations
settings); every command checks again at run time that the member has Manage
Server or the moderator role set by `/ttr config`. Each action takes a reason;
the service stores it in the game's audit log, and delivery posts the result:
a public line in the game's channel (with the reason only if the moderator
chose `public: yes`), the line for the moderators' log channel (always with
the reason), and the turn message again where its buttons changed (after an
undo, a replacement, a resume, a reopening). All answers to the moderator are
private. `undo` first shows a preview and `end` asks first, each with Confirm
and Cancel (bot/cogs/undo_confirm.py); `reopen` brings an ended game back.
`log` and `export` go through the service, which refuses a moderator seated in
the running game and audits the read; the cog posts the audit's line.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.cogs.common import duration_choices, game_here, member_names, reader_language, record_file
from bot.cogs.mod_base import ModeratorBase
from bot.cogs.mod_options import (
    ON_OFF,
    PUBLIC,
    PUBLIC_CHOICES,
    WHY,
    YES_NO,
    Reason,
    is_public,
    player_choices,
    seat_of,
)
from bot.cogs.undo_confirm import CONFIRM, END, UNDO, ConfirmButton, PendingActions, confirm_buttons
from bot.present.answers import file_caption
from bot.present.audit import log_text
from bot.present.events import public_text
from bot.present.i18n import speaking
from bot.present.misread import Span
from bot.present.mod_answers import (
    autopilot_answer,
    bot_member_text,
    confirm_not_yours_text,
    confirm_stale_text,
    empty_log_text,
    end_cancelled_answer,
    end_question_text,
    ended_answer,
    extended_answer,
    no_extra_time_text,
    paused_answer,
    reopened_answer,
    replaced_answer,
    resumed_answer,
    undo_cancelled_answer,
    undone_answer,
)
from bot.present.outline import undo_preview_text
from bot.replies import Refusal, current_game, guarded, private
from bot.service import GameInfo, ModLogEntry
from bot.service.reopen import REOPEN_SECONDS
from bot.table.delivery import NOTES
from bot.table.front import Front
from bot.table.lookup import server_game
from bot.table.parsing import read_duration
from maps import load_board

log = logging.getLogger(__name__)

MAX_UNDO = 200
EXTEND_SUGGESTED = ("1h", "6h", "12h", "1d", "2d", "3d", "7d")


class ModerationCog(ModeratorBase):
    """Moderating the games of a server."""

    ttrmod = app_commands.Group(
        name="ttrmod",
        description="Game moderators: pause, extend, replace, autopilot, undo, end, reopen, log, export",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, front: Front) -> None:
        super().__init__(front)
        self.pending = PendingActions()
        front.delivery.client.add_dynamic_items(ConfirmButton)

    # ----- the clock -------------------------------------------------------------------

    @ttrmod.command(name="pause", description="Stop the game's clocks; no moves until it is resumed")
    @app_commands.describe(reason=WHY, public=PUBLIC)
    @app_commands.choices(public=PUBLIC_CHOICES)
    async def pause(self, interaction: discord.Interaction, reason: Reason, public: str | None = None) -> None:
        async def work(info: GameInfo) -> None:
            result = await self.service.moderation.pause(info.id, interaction.user.id, reason)
            answer = paused_answer(info.id)
            await self.done(interaction, result, reason, answer, public=is_public(public), clock=True)

        await self.in_game(interaction, work)

    @ttrmod.command(name="resume", description="Start the clocks of a paused game again")
    @app_commands.describe(reason=WHY, public=PUBLIC)
    @app_commands.choices(public=PUBLIC_CHOICES)
    async def resume(self, interaction: discord.Interaction, reason: Reason, public: str | None = None) -> None:
        async def work(info: GameInfo) -> None:
            result = await self.service.moderation.resume(info.id, interaction.user.id, reason)
            answer = resumed_answer(info.id)
            await self.done(interaction, result, reason, answer, public=is_public(public), refresh=True)

        await self.in_game(interaction, work)

    @ttrmod.command(name="extend", description="Give a player (or everyone who must act) more time")
    @app_commands.describe(
        duration='How much more time, like "12h", "1d" or "30m"',
        reason=WHY,
        player="Whose deadline (default: everyone who must act now)",
        public=PUBLIC,
    )
    @app_commands.choices(public=PUBLIC_CHOICES)
    async def extend(
        self,
        interaction: discord.Interaction,
        duration: str,
        reason: Reason,
        player: str | None = None,
        public: str | None = None,
    ) -> None:
        async def work(info: GameInfo) -> None:
            seconds = read_duration(duration, Span.EXTRA_TIME)
            if seconds is None:
                raise Refusal(no_extra_time_text())
            seat = None if player is None else seat_of(info, player)
            result = await self.service.moderation.extend(info.id, interaction.user.id, seconds, reason, seat)
            answer = extended_answer([public_text(result.game, e) for e in result.public if e.kind in NOTES])
            await self.done(interaction, result, reason, answer, public=is_public(public), clock=True)

        await self.in_game(interaction, work)

    # ----- seats -----------------------------------------------------------------------

    @ttrmod.command(name="replace", description="Give a player's seat to another member")
    @app_commands.describe(
        player="The seat to give", member="The member who plays it from now on", reason=WHY, public=PUBLIC
    )
    @app_commands.choices(public=PUBLIC_CHOICES)
    async def replace(
        self,
        interaction: discord.Interaction,
        player: str,
        member: discord.Member,
        reason: Reason,
        public: str | None = None,
    ) -> None:
        async def work(info: GameInfo) -> None:
            if member.bot:
                raise Refusal(bot_member_text())
            seat = seat_of(info, player)
            moderator = interaction.user.id
            result = await self.service.moderation.replace(
                info.id, moderator, seat, member.id, member.display_name, reason
            )
            answer = replaced_answer(member.mention, str(info.seats[seat].player), info.id)
            await self.done(interaction, result, reason, answer, public=is_public(public), refresh=True)

        await self.in_game(interaction, work)

    @ttrmod.command(name="autopilot", description="Hand a seat to the autopilot, or give it back to its member")
    @app_commands.describe(
        player="The seat",
        state="on: the autopilot plays it; off: its member plays again",
        reason=WHY,
        public=PUBLIC,
    )
    @app_commands.choices(state=ON_OFF, public=PUBLIC_CHOICES)
    async def autopilot(
        self, interaction: discord.Interaction, player: str, state: str, reason: Reason, public: str | None = None
    ) -> None:
        async def work(info: GameInfo) -> None:
            seat = seat_of(info, player)
            on = state == "on"
            result = await self.service.moderation.set_autopilot(
                info.id, seat, on, moderator_user_id=interaction.user.id, reason=reason
            )
            answer = autopilot_answer(str(info.seats[seat].player), info.id, on=on)
            await self.done(interaction, result, reason, answer, public=is_public(public), refresh=True)

        await self.in_game(interaction, work)

    # ----- the game --------------------------------------------------------------------

    @ttrmod.command(name="undo", description="Take back the last moves: the game is exactly as it was before them")
    @app_commands.describe(
        count="How many moves (each card drawn, ticket choice or claim is one move)", reason=WHY, public=PUBLIC
    )
    @app_commands.choices(public=PUBLIC_CHOICES)
    async def undo(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, MAX_UNDO],
        reason: Reason,
        public: str | None = None,
    ) -> None:
        """First a preview (the moves, and what they showed to whom) with Confirm and Cancel; Confirm undoes."""

        async def work(info: GameInfo) -> None:
            moderator = interaction.user.id
            preview = await self.service.moderation.undo_preview(info.id, moderator, count)
            facts = {"public": is_public(public), "version": preview.version, "count": count}
            token = self.pending.add(UNDO, moderator, info.id, reason, **facts)
            text = undo_preview_text(load_board(info.map).rules, preview)
            await private(interaction, text, view=confirm_buttons(UNDO, token))

        await self.in_game(interaction, work)

    @ttrmod.command(name="end", description="End the game now: scored as it stands, or abandoned without a result")
    @app_commands.describe(
        score="yes: final scores and winners as the game stands; no: no result", reason=WHY, public=PUBLIC
    )
    @app_commands.choices(score=YES_NO, public=PUBLIC_CHOICES)
    async def end(
        self, interaction: discord.Interaction, score: str, reason: Reason, public: str | None = None
    ) -> None:
        """The question, with Confirm and Cancel; Confirm ends the game (`reopen` can bring back an abandoned one)."""

        async def work(info: GameInfo) -> None:
            scored = score == "yes"
            facts = {"public": is_public(public), "score": scored}
            token = self.pending.add(END, interaction.user.id, info.id, reason, **facts)
            hours = REOPEN_SECONDS // 3600
            counted = await self.service.finality.counted_when_ended(info.id)
            text = end_question_text(info.id, info.title, scored=scored, reopen_hours=hours, counted=counted)
            await private(interaction, text, view=confirm_buttons(END, token))

        await self.in_game(interaction, work)

    async def on_confirm_press(self, interaction: discord.Interaction, kind: str, choice: str, token: str) -> None:
        """Confirm or Cancel of an undo preview or an end's question: only its moderator, only once."""

        async def work() -> None:
            pending = self.pending.get(token)
            if pending is None:
                raise Refusal(confirm_stale_text(kind == END, self.pending.lifetime))
            if pending.moderator_user_id != interaction.user.id:
                raise Refusal(confirm_not_yours_text(kind == END))
            await self.check(interaction)
            self.pending.pop(token)
            current_game.set(pending.game_id)
            game, mod, why = pending.game_id, pending.moderator_user_id, pending.reason
            if pending.kind == END:
                if choice != CONFIRM:
                    await private(interaction, end_cancelled_answer(game))
                    return
                counted = await self.service.finality.counted_when_ended(game)
                result = await self.service.moderation.end(game, mod, pending.score, why)
                answer = ended_answer(game, scored=pending.score, counted=counted)
                await self.done(interaction, result, why, answer, public=pending.public)
                return
            if choice != CONFIRM:
                await private(interaction, undo_cancelled_answer(game))
                return
            result = await self.service.moderation.undo(game, mod, pending.count, why, version=pending.version)
            answer = undone_answer(pending.count, game)
            await self.done(interaction, result, why, answer, public=pending.public, refresh=True)

        await guarded(interaction, work)

    @ttrmod.command(name="reopen", description="Bring back a game a moderator ended, as it was (within 24 h)")
    @app_commands.describe(
        reason=WHY,
        public=PUBLIC,
        game="The game number (default: this channel's latest game)",
    )
    @app_commands.choices(public=PUBLIC_CHOICES)
    async def reopen(
        self,
        interaction: discord.Interaction,
        reason: Reason,
        public: str | None = None,
        game: int | None = None,
    ) -> None:
        async def work() -> None:
            await self.check(interaction)
            info = await server_game(self.service, interaction, game)
            result = await self.service.reopen.reopen(info.id, interaction.user.id, reason)
            answer = reopened_answer(info.id)
            await self.done(interaction, result, reason, answer, public=is_public(public), refresh=True)

        await guarded(interaction, work)

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
            read = await self.service.audit.read_log(info.id, interaction.user.id, reason or "")
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
            read = await self.service.audit.export_record(
                info.id, interaction.user.id, moderator=True, reason=reason or "", audit_after_end=True
            )
            return record_file(info, read.record), read.mod_log

        await self.read(interaction, game, "record", json_file)

    # ----- autocomplete ------------------------------------------------------------------

    @extend.autocomplete("player")
    @replace.autocomplete("player")
    @autopilot.autocomplete("player")
    async def players(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The players of this channel's game (the value is the player's name; the command checks it again)."""
        try:
            info = await game_here(self.service, interaction)
            with speaking(reader_language(interaction)):
                return [] if info is None else player_choices(info, current)
        except Exception:
            log.debug("player autocomplete gave up", exc_info=True)
            return []

    @extend.autocomplete("duration")
    async def extend_duration_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        with speaking(reader_language(interaction)):
            return duration_choices(current, values=EXTEND_SUGGESTED)
