"""`/ttrtour` for moderators, the rounds: start and re-pair a round (a thread per table, opened by
bot/table/tournaments.py), substitute, drop, disqualify and reinstate players, adjudicate a stuck table."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.mod_options import WHY, Reason
from bot.cogs.tour_base import (
    ADJUDICATE_CHOICES,
    TOURNAMENT,
    TourCog,
    naming,
)
from bot.present.tournament_announcements import moderator_line
from bot.present.tournament_answers import (
    adjudicated_answer,
    bot_member_text,
    dropped_answer,
    no_threads_text,
    reinstated_answer,
    round_started_answer,
    substituted_answer,
)
from bot.service.tournaments.models import TournamentInfo
from bot.views.replies import Refusal, private


class TournamentRoundsCog(TourCog):
    """`/ttrtour` for moderators during the rounds: start and re-pair a round, substitute, drop, disqualify,
    reinstate, adjudicate a table."""

    @app_commands.command(name="startround", description="Moderators: pair the next round and open its tables")
    @app_commands.describe(tournament=TOURNAMENT, reason="Why (stored in the tournament's audit)")
    async def startround(
        self, interaction: discord.Interaction, tournament: str | None = None, reason: Reason | None = None
    ) -> None:
        async def work(info: TournamentInfo) -> None:
            try:
                started = await self.tournaments.rounds.start_round(
                    info.id, interaction.user.id, self.desk.open_table, reason=reason or ""
                )
            except discord.Forbidden:
                raise Refusal(no_threads_text()) from None
            await private(interaction, round_started_answer(started))
            await self.desk.after_round(started)

        await self._run(interaction, tournament, work, moderator=True)

    startround.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="repair", description="Moderators: pair the running round again, before anyone moved")
    @app_commands.describe(reason=WHY, tournament=TOURNAMENT)
    async def repair(self, interaction: discord.Interaction, reason: Reason, tournament: str | None = None) -> None:
        async def work(info: TournamentInfo) -> None:
            try:
                started = await self.tournaments.rounds.repair_round(
                    info.id, interaction.user.id, self.desk.open_table, reason=reason
                )
            except discord.Forbidden:
                raise Refusal(no_threads_text()) from None
            await private(interaction, round_started_answer(started))
            await self.desk.after_round(started)

        await self._run(interaction, tournament, work, moderator=True)

    repair.autocomplete("tournament")(TourCog.tournament_choices)

    # ----- moderation -----------------------------------------------------------------------------------

    @app_commands.command(name="substitute", description="Moderators: a member takes a player's place and seat")
    @app_commands.describe(
        player="The player who leaves", member="The member who takes their place", reason=WHY, tournament=TOURNAMENT
    )
    async def substitute(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        member: discord.Member,
        reason: Reason,
        tournament: str | None = None,
    ) -> None:
        async def work(info: TournamentInfo) -> None:
            if member.bot:
                raise Refusal(bot_member_text())
            found = info.participant(player.id)
            old = found.display_name if found is not None else player.display_name
            with naming(player.id, old):
                done = await self.tournaments.sanctions.substitute(
                    info.id, interaction.user.id, player.id, member.id, member.display_name, reason
                )
            await self.desk.deliver(done.results, interaction=interaction, refresh=True)
            line = await self._server_words(
                info, lambda: moderator_line("substitute", info, player=old, new=member.display_name)
            )
            await self._public(info, line)
            await private(interaction, substituted_answer(old, member.display_name, info))

        await self._run(interaction, tournament, work, moderator=True)

    substitute.autocomplete("tournament")(TourCog.tournament_choices)

    async def _drop(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        reason: str,
        tournament: str | None,
        *,
        disqualify: bool,
    ) -> None:
        async def work(info: TournamentInfo) -> None:
            found = info.participant(player.id)
            name = found.display_name if found is not None else player.display_name
            with naming(player.id, name):
                done = await self.tournaments.sanctions.drop(
                    info.id, interaction.user.id, player.id, reason, disqualify=disqualify
                )
            await self.desk.deliver(done.results, interaction=interaction)
            action = "disqualify" if disqualify else "drop"
            line = await self._server_words(info, lambda: moderator_line(action, info, player=name))
            await self._public(info, line)
            await self.desk.refresh_message(done.tournament)
            await private(interaction, dropped_answer(name, info, disqualified=disqualify))
            await self.desk.tell_promoted(info, done.tournament)

        await self._run(interaction, tournament, work, moderator=True)

    @app_commands.command(name="drop", description="Moderators: take a player out of the later rounds")
    @app_commands.describe(player="The player", reason=WHY, tournament=TOURNAMENT)
    async def drop(
        self, interaction: discord.Interaction, player: discord.Member, reason: Reason, tournament: str | None = None
    ) -> None:
        await self._drop(interaction, player, reason, tournament, disqualify=False)

    drop.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="disqualify", description="Moderators: take a player out, and out of the standings")
    @app_commands.describe(player="The player", reason=WHY, tournament=TOURNAMENT)
    async def disqualify(
        self, interaction: discord.Interaction, player: discord.Member, reason: Reason, tournament: str | None = None
    ) -> None:
        await self._drop(interaction, player, reason, tournament, disqualify=True)

    disqualify.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="reinstate", description="Moderators: lift a player's drop or disqualification")
    @app_commands.describe(player="The player", reason=WHY, tournament=TOURNAMENT)
    async def reinstate(
        self, interaction: discord.Interaction, player: discord.Member, reason: Reason, tournament: str | None = None
    ) -> None:
        async def work(info: TournamentInfo) -> None:
            found = info.participant(player.id)
            name = found.display_name if found is not None else player.display_name
            with naming(player.id, name):
                done = await self.tournaments.sanctions.reinstate(info.id, interaction.user.id, player.id, reason)
            line = await self._server_words(info, lambda: moderator_line("reinstate", info, player=name))
            await self._public(info, line)
            await self.desk.refresh_message(done.tournament)
            await private(interaction, reinstated_answer(name, info, done.status))

        await self._run(interaction, tournament, work, moderator=True)

    reinstate.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="adjudicate", description="Moderators: settle a stuck or overdue table")
    @app_commands.describe(
        round="The round",
        table="The table",
        score="Score it as it stands, or let the autopilot play it out",
        reason=WHY,
        tournament=TOURNAMENT,
    )
    @app_commands.choices(score=ADJUDICATE_CHOICES)
    async def adjudicate(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 21],
        table: app_commands.Range[int, 1, 500],
        score: str,
        reason: Reason,
        tournament: str | None = None,
    ) -> None:
        async def work(info: TournamentInfo) -> None:
            scored = score == "yes"
            done = await self.tournaments.sanctions.adjudicate(
                info.id, interaction.user.id, round, table, score=scored, reason=reason
            )
            await self.desk.deliver(done.results, interaction=interaction, refresh=True)
            await private(interaction, adjudicated_answer(round, table, score=scored))

        await self._run(interaction, tournament, work, moderator=True)

    adjudicate.autocomplete("tournament")(TourCog.tournament_choices)
