"""`/ttrmod` for the clock and the seats of the game in this channel: pause, resume, extend, replace, autopilot.

Each takes a reason; bot/cogs/mod_base.py tells the result (moderation.py has the module's whole story)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.cogs.common import duration_choices, game_here, reader_language
from bot.cogs.mod_base import ModeratorBase
from bot.cogs.mod_options import (
    ON_OFF,
    PUBLIC,
    PUBLIC_CHOICES,
    WHY,
    Reason,
    is_public,
    player_choices,
    seat_of,
)
from bot.present.events import public_text
from bot.present.i18n import speaking
from bot.present.misread import Span
from bot.present.mod_answers import (
    autopilot_answer,
    bot_member_text,
    extended_answer,
    no_extra_time_text,
    paused_answer,
    replaced_answer,
    resumed_answer,
)
from bot.service import GameInfo
from bot.table.delivery import NOTES
from bot.table.parsing import read_duration
from bot.views.replies import Refusal

log = logging.getLogger(__name__)

MAX_UNDO = 200
EXTEND_SUGGESTED = ("1h", "6h", "12h", "1d", "2d", "3d", "7d")


class ModClockCog(ModeratorBase):
    """The clock and the seats of the game in this channel."""

    # ----- the clock -------------------------------------------------------------------

    @app_commands.command(name="pause", description="Stop the game's clocks; no moves until it is resumed")
    @app_commands.describe(reason=WHY, public=PUBLIC)
    @app_commands.choices(public=PUBLIC_CHOICES)
    async def pause(self, interaction: discord.Interaction, reason: Reason, public: str | None = None) -> None:
        async def work(info: GameInfo) -> None:
            result = await self.moderation.pause(info.id, interaction.user.id, reason)
            answer = paused_answer(info.id)
            await self.done(interaction, result, reason, answer, public=is_public(public), clock=True)

        await self.in_game(interaction, work)

    @app_commands.command(name="resume", description="Start the clocks of a paused game again")
    @app_commands.describe(reason=WHY, public=PUBLIC)
    @app_commands.choices(public=PUBLIC_CHOICES)
    async def resume(self, interaction: discord.Interaction, reason: Reason, public: str | None = None) -> None:
        async def work(info: GameInfo) -> None:
            result = await self.moderation.resume(info.id, interaction.user.id, reason)
            answer = resumed_answer(info.id)
            await self.done(interaction, result, reason, answer, public=is_public(public), refresh=True)

        await self.in_game(interaction, work)

    @app_commands.command(name="extend", description="Give a player (or everyone who must act) more time")
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
            result = await self.moderation.extend(info.id, interaction.user.id, seconds, reason, seat)
            answer = extended_answer([public_text(result.game, e) for e in result.public if e.kind in NOTES])
            await self.done(interaction, result, reason, answer, public=is_public(public), clock=True)

        await self.in_game(interaction, work)

    # ----- seats -----------------------------------------------------------------------

    @app_commands.command(name="replace", description="Give a player's seat to another member")
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
            result = await self.moderation.replace(info.id, moderator, seat, member.id, member.display_name, reason)
            answer = replaced_answer(member.mention, str(info.seats[seat].player), info.id)
            await self.done(interaction, result, reason, answer, public=is_public(public), refresh=True)

        await self.in_game(interaction, work)

    @app_commands.command(name="autopilot", description="Hand a seat to the autopilot, or give it back to its member")
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
            result = await self.moderation.set_autopilot(
                info.id, seat, on, moderator_user_id=interaction.user.id, reason=reason
            )
            answer = autopilot_answer(str(info.seats[seat].player), info.id, on=on)
            await self.done(interaction, result, reason, answer, public=is_public(public), refresh=True)

        await self.in_game(interaction, work)

    # ----- autocomplete ------------------------------------------------------------------

    @extend.autocomplete("player")
    @replace.autocomplete("player")
    @autopilot.autocomplete("player")
    async def players(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The players of this channel's game (the value is the player's name; the command checks it again)."""
        try:
            info = await game_here(self.reading, interaction)
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
