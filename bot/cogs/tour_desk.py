"""`/ttrtour` for moderators, the tournament itself: create, configure, registration and check-in, cancel; its
audit and export (Manage Server, or the moderator role of `/ttr config`; checked at run time)."""

from __future__ import annotations

import io
from dataclasses import replace

import discord
from discord import app_commands

from bot.cogs.mod_options import WHY, Reason
from bot.cogs.tour_base import (
    CREATE_OPTIONS,
    REGISTRATION_CHOICES,
    SETTING_OPTIONS,
    TOURNAMENT,
    SettingsAsked,
    TourCog,
    setting_options,
)
from bot.present.layout import chunks
from bot.present.tournament_announcements import moderator_line
from bot.present.tournament_answers import (
    audit_text,
    bad_maps_text,
    cancelled_answer,
    configured_answer,
    created_answer,
    export_caption,
    registration_answer,
)
from bot.present.tournament_message import status_line
from bot.service.tournaments.models import TournamentInfo
from bot.views.replies import Refusal, guarded, private
from engine.game import MAX_TRAINS_OPTION, MIN_TRAINS_OPTION
from maps import MAP_NAMES


class TournamentDeskCog(TourCog):
    """`/ttrtour` for moderators around the rounds: set up and configure, registration, cancel, audit and export."""

    @app_commands.command(name="create", description="Moderators: set up a tournament in this channel")
    @app_commands.describe(name="The tournament's name")
    @setting_options(CREATE_OPTIONS)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        rounds: app_commands.Range[int, 1, 20],
        map: str | None = None,
        maps: str | None = None,
        table_size: app_commands.Range[int, 2, 5] | None = None,
        turn_time: str | None = None,
        reserve: str | None = None,
        timeout_policy: str | None = None,
        deadline: str | None = None,
        rated: bool | None = None,
        final_table: app_commands.Range[int, 2, 5] | None = None,
        cap: app_commands.Range[int, 2, 1000] | None = None,
        checkin_window: bool | None = None,
        trains: app_commands.Range[int, MIN_TRAINS_OPTION, MAX_TRAINS_OPTION] | None = None,
        plans: bool | None = None,
    ) -> None:
        async def work() -> None:
            await self._moderator(interaction)
            guild, channel = interaction.guild_id, interaction.channel_id
            assert guild is not None and channel is not None
            if map is None and maps is None:
                raise Refusal(bad_maps_text("", MAP_NAMES))
            default = (await self.settings.guild_config(guild)).clock
            asked = SettingsAsked(
                rounds=rounds,
                map_=map,
                maps=maps,
                table_size=table_size,
                turn_time=turn_time,
                reserve=reserve,
                timeout_policy=timeout_policy,
                deadline=deadline,
                rated=rated,
                final_table=final_table,
                cap=cap,
                checkin_window=checkin_window,
                trains=trains,
                plans=plans,
            )
            settings = replace(self._settings(None, default, asked), plans=plans is not False)
            info = await self.tournaments.registration.create_tournament(
                guild, channel, interaction.user.id, name, settings
            )
            await self.desk.post_message(info)
            await private(interaction, created_answer(info))

        await guarded(interaction, work)

    @app_commands.command(name="configure", description="Moderators: change a tournament's settings before round 1")
    @app_commands.describe(tournament=TOURNAMENT, name="A new name")
    @setting_options(SETTING_OPTIONS)
    async def configure(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        name: app_commands.Range[str, 1, 100] | None = None,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        map: str | None = None,
        maps: str | None = None,
        table_size: app_commands.Range[int, 2, 5] | None = None,
        turn_time: str | None = None,
        reserve: str | None = None,
        timeout_policy: str | None = None,
        deadline: str | None = None,
        rated: bool | None = None,
        final_table: app_commands.Range[int, 2, 5] | None = None,
        cap: app_commands.Range[int, 2, 1000] | None = None,
        checkin_window: bool | None = None,
        trains: app_commands.Range[int, MIN_TRAINS_OPTION, MAX_TRAINS_OPTION] | None = None,
        plans: bool | None = None,
    ) -> None:
        async def work(info: TournamentInfo) -> None:
            default = (await self.settings.guild_config(info.guild_id)).clock
            asked = SettingsAsked(
                rounds=rounds,
                map_=map,
                maps=maps,
                table_size=table_size,
                turn_time=turn_time,
                reserve=reserve,
                timeout_policy=timeout_policy,
                deadline=deadline,
                rated=rated,
                final_table=final_table,
                cap=cap,
                checkin_window=checkin_window,
                trains=trains,
                plans=plans,
            )
            settings = self._settings(info.settings, default, asked)
            after = await self.tournaments.registration.configure_tournament(
                info.id, interaction.user.id, settings, name=name, expected_version=info.version
            )
            await self.desk.refresh_message(after)
            await private(interaction, configured_answer(after))
            await self.desk.tell_promoted(info, after)

        await self._run(interaction, tournament, work, moderator=True)

    configure.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="registration", description="Moderators: open or close registration, or open check-in")
    @app_commands.describe(state="Open, close, or close it and open the check-in", tournament=TOURNAMENT)
    @app_commands.choices(state=REGISTRATION_CHOICES)
    async def registration(self, interaction: discord.Interaction, state: str, tournament: str | None = None) -> None:
        async def work(info: TournamentInfo) -> None:
            user = interaction.user.id
            if state == "open":
                after = await self.tournaments.registration.open_registration(info.id, user)
            elif state == "checkin":
                after = await self.tournaments.registration.open_checkin(info.id, user)
            else:
                after = await self.tournaments.registration.close_registration(info.id, user)
            await self.desk.show(after)
            await self._public(after, await self._server_words(after, lambda: status_line(after)))
            await private(interaction, registration_answer(after, state))

        await self._run(interaction, tournament, work, moderator=True)

    registration.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="cancel", description="Moderators: call a tournament off")
    @app_commands.describe(reason=WHY, tournament=TOURNAMENT)
    async def cancel(self, interaction: discord.Interaction, reason: Reason, tournament: str | None = None) -> None:
        async def work(info: TournamentInfo) -> None:
            after = await self.tournaments.registration.cancel_tournament(info.id, interaction.user.id, reason)
            await self.desk.refresh_message(after)
            await self._public(info, await self._server_words(info, lambda: moderator_line("cancel", info)))
            await private(interaction, cancelled_answer(after))

        await self._run(interaction, tournament, work, moderator=True)

    cancel.autocomplete("tournament")(TourCog.tournament_choices)


class TournamentRecordsCog(TourCog):
    """Moderators: a tournament's audit, and its export (the standings and every game's record)."""

    @app_commands.command(name="audit", description="Moderators: every action of a tournament, privately")
    @app_commands.describe(tournament=TOURNAMENT)
    async def audit(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async def work(info: TournamentInfo) -> None:
            entries = await self.tournaments.export.tournament_audit(info.id)
            text = audit_text(info, entries)
            data = io.BytesIO(text.encode("utf-8"))
            parts = chunks(text.split("\n"))
            if len(parts) == 1:
                await private(interaction, parts[0])
                return
            await private(
                interaction,
                parts[0],
                file=discord.File(data, filename=f"conductor-tournament-{info.id}-audit.txt"),
            )

        await self._run(interaction, tournament, work, moderator=True)

    audit.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="export", description="Moderators: the standings (CSV) and every game's record (zip)")
    @app_commands.describe(tournament=TOURNAMENT)
    async def export(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async def work(info: TournamentInfo) -> None:
            csv_text = await self.tournaments.export.standings_csv(info.id)
            archive = await self.tournaments.export.export_archive(info.id, interaction.user.id)
            files = [
                discord.File(io.BytesIO(csv_text.encode("utf-8")), filename=f"tournament-{info.id}-standings.csv"),
                discord.File(io.BytesIO(archive), filename=f"tournament-{info.id}.zip"),
            ]
            await private(interaction, export_caption(info), files=files)

        await self._run(interaction, tournament, work, moderator=True)

    export.autocomplete("tournament")(TourCog.tournament_choices)
