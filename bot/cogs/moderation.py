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

import logging

import discord
from discord import app_commands

from bot.cogs.mod_base import ModeratorBase
from bot.cogs.mod_options import (
    PUBLIC,
    PUBLIC_CHOICES,
    WHY,
    YES_NO,
    Reason,
    is_public,
)
from bot.cogs.undo_confirm import CONFIRM, END, UNDO, ConfirmButton, PendingActions, confirm_buttons
from bot.present.mod_answers import (
    confirm_not_yours_text,
    confirm_stale_text,
    end_cancelled_answer,
    end_question_text,
    ended_answer,
    reopened_answer,
    undo_cancelled_answer,
    undone_answer,
)
from bot.present.outline import undo_preview_text
from bot.service import GameInfo
from bot.service.reopen import REOPEN_SECONDS
from bot.table.front import Front
from bot.views.replies import Refusal, current_game, guarded, private
from maps import load_board

log = logging.getLogger(__name__)

MAX_UNDO = 200
EXTEND_SUGGESTED = ("1h", "6h", "12h", "1d", "2d", "3d", "7d")


class ModerationCog(ModeratorBase):
    """The game itself: undo moves, end it (each confirmed first: bot/cogs/undo_confirm.py), reopen it."""

    def __init__(self, ttrmod: app_commands.Group, front: Front) -> None:
        super().__init__(ttrmod, front)
        self.pending = PendingActions()
        front.delivery.client.add_dynamic_items(ConfirmButton)

    # ----- the game --------------------------------------------------------------------

    @app_commands.command(
        name="undo", description="Take back the last moves: the game is exactly as it was before them"
    )
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
            preview = await self.moderation.undo_preview(info.id, moderator, count)
            facts = {"public": is_public(public), "version": preview.version, "count": count}
            token = self.pending.add(UNDO, moderator, info.id, reason, **facts)
            text = undo_preview_text(load_board(info.map).rules, preview)
            await private(interaction, text, view=confirm_buttons(UNDO, token))

        await self.in_game(interaction, work)

    @app_commands.command(
        name="end", description="End the game now: scored as it stands, or abandoned without a result"
    )
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
            counted = await self.finality.counted_when_ended(info.id)
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
                counted = await self.finality.counted_when_ended(game)
                result = await self.moderation.end(game, mod, pending.score, why)
                answer = ended_answer(game, scored=pending.score, counted=counted)
                await self.done(interaction, result, why, answer, public=pending.public)
                return
            if choice != CONFIRM:
                await private(interaction, undo_cancelled_answer(game))
                return
            result = await self.moderation.undo(game, mod, pending.count, why, version=pending.version)
            answer = undone_answer(pending.count, game)
            await self.done(interaction, result, why, answer, public=pending.public, refresh=True)

        await guarded(interaction, work)

    @app_commands.command(name="reopen", description="Bring back a game a moderator ended, as it was (within 24 h)")
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
            info = await self.lookup.server_game(interaction, game)
            result = await self.reopening.reopen(info.id, interaction.user.id, reason)
            answer = reopened_answer(info.id)
            await self.done(interaction, result, reason, answer, public=is_public(public), refresh=True)

        await guarded(interaction, work)
