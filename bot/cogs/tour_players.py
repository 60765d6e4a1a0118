"""`/ttrtour` for players and anyone: join, leave, check in (also by the tournament message's buttons), the
standings and the info. Every answer is private; what changes the tournament is announced in its channel."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.tour_base import (
    TOURNAMENT,
    TourCog,
)
from bot.present.layout import chunks
from bot.present.tournament_answers import (
    bot_member_text,
    checked_in_answer,
    joined_answer,
    left_answer,
    no_such_tournament_text,
)
from bot.present.tournament_message import info_text
from bot.present.tournament_standings import standings_lines
from bot.service.tournaments.models import TournamentInfo
from bot.table.front import Front
from bot.table.tournaments import TournamentDesk, standings_image
from bot.views.replies import Refusal, guarded, image_file, private
from bot.views.tournaments import TourAction, TourButton


class TournamentCog(TourCog):
    """`/ttrtour` for players and anyone: join, leave, check in (also the buttons), the standings, the info."""

    def __init__(self, ttrtour: app_commands.Group, front: Front, desk: TournamentDesk) -> None:
        super().__init__(ttrtour, front, desk)
        front.delivery.client.add_dynamic_items(TourButton)

    async def _join(self, interaction: discord.Interaction, info: TournamentInfo) -> TournamentInfo:
        if interaction.user.bot:
            raise Refusal(bot_member_text())
        name = getattr(interaction.user, "display_name", interaction.user.name)
        done = await self.tournaments.registration.join_tournament(info.id, interaction.user.id, name)
        await private(interaction, joined_answer(done.tournament, done.status))
        await self.desk.tell_promoted(info, done.tournament)
        return done.tournament

    async def _leave(self, interaction: discord.Interaction, info: TournamentInfo) -> TournamentInfo:
        done = await self.tournaments.registration.leave_tournament(info.id, interaction.user.id)
        await private(interaction, left_answer(done.tournament))
        await self.desk.tell_promoted(info, done.tournament)
        return done.tournament

    async def _check_in(self, interaction: discord.Interaction, info: TournamentInfo) -> TournamentInfo:
        done = await self.tournaments.registration.check_in(info.id, interaction.user.id)
        await private(interaction, checked_in_answer(done.tournament))
        return done.tournament

    async def _player_action(
        self, action: TourAction, interaction: discord.Interaction, info: TournamentInfo
    ) -> TournamentInfo:
        if action is TourAction.JOIN:
            return await self._join(interaction, info)
        if action is TourAction.LEAVE:
            return await self._leave(interaction, info)
        return await self._check_in(interaction, info)

    async def on_press(self, interaction: discord.Interaction, action: TourAction, tournament_id: int) -> None:
        """A press on a tournament message's button."""

        async def work() -> None:
            info = await self.tournaments.desk.tournament(tournament_id)
            if info.guild_id != interaction.guild_id:
                raise Refusal(no_such_tournament_text(f"#{tournament_id}"))
            after = await self._player_action(action, interaction, info)
            message = interaction.message
            await self.desk.refresh_message(after, message)

        await guarded(interaction, work)

    async def _player(self, interaction: discord.Interaction, tournament: str | None, action: TourAction) -> None:
        async def work(info: TournamentInfo) -> None:
            after = await self._player_action(action, interaction, info)
            await self.desk.refresh_message(after)

        await self._run(interaction, tournament, work)

    @app_commands.command(name="join", description="Register for a tournament")
    @app_commands.describe(tournament=TOURNAMENT)
    async def join(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await self._player(interaction, tournament, TourAction.JOIN)

    join.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="leave", description="Leave a tournament before its first round")
    @app_commands.describe(tournament=TOURNAMENT)
    async def leave(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await self._player(interaction, tournament, TourAction.LEAVE)

    leave.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="checkin", description="Confirm that you play (during the check-in)")
    @app_commands.describe(tournament=TOURNAMENT)
    async def checkin(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await self._player(interaction, tournament, TourAction.CHECKIN)

    checkin.autocomplete("tournament")(TourCog.tournament_choices)

    # ----- anyone -----------------------------------------------------------------------------------------

    @app_commands.command(name="standings", description="A tournament's standings")
    @app_commands.describe(tournament=TOURNAMENT)
    async def standings(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async def work(info: TournamentInfo) -> None:
            lines = await self.tournaments.results.standings(info.id)
            parts = chunks(standings_lines(info, lines))
            image = await standings_image(info, lines, highlight=interaction.user.id)
            for index, part in enumerate(parts):
                last = index == len(parts) - 1
                file = image_file(image, f"standings-{info.id}.png") if last and image is not None else None
                await private(interaction, part, file=file)

        await self._run(interaction, tournament, work)

    standings.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="info", description="A tournament's settings, players and rounds")
    @app_commands.describe(tournament=TOURNAMENT)
    async def info(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async def work(info: TournamentInfo) -> None:
            server = await self.settings.guild_config(info.guild_id)
            await private(interaction, info_text(info, info.channel_id, server.clock))

        await self._run(interaction, tournament, work)

    info.autocomplete("tournament")(TourCog.tournament_choices)
