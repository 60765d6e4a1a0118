"""`/ttrtour`: tournaments in Discord (the tournament service: bot/service/tournaments/).

Moderators (Manage Server, or the moderator role of `/ttr config`; checked at
run time) create a tournament in a channel, which becomes its channel, open
registration and check-in, start each round (a thread per table, opened by
bot/table/tournaments.py), re-pair a round before it is played, substitute,
drop or disqualify players (and reinstate them), adjudicate a stuck table,
call it off, read its audit and export it. Players join, leave and check in with the buttons of the
tournament's message or the commands. Anyone sees the standings and the
tournament's settings. Every answer is private; what changes the tournament
is announced in its channel.

The `tournament` option names a tournament of this server by number or name
(the list offers its open ones); without it, the tournament of this channel
(or of the table thread it is used in), else the server's only open one.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.cogs.mod_options import WHY, Reason
from bot.cogs.tour_base import (
    ADJUDICATE_CHOICES,
    CREATE_OPTIONS,
    REGISTRATION_CHOICES,
    SETTING_OPTIONS,
    TOURNAMENT,
    SettingsAsked,
    TourCog,
    naming,
    setting_options,
)
from bot.present.layout import chunks
from bot.present.tournament_announcements import moderator_line
from bot.present.tournament_answers import (
    adjudicated_answer,
    audit_text,
    bad_maps_text,
    bot_member_text,
    cancelled_answer,
    checked_in_answer,
    configured_answer,
    created_answer,
    dropped_answer,
    export_caption,
    joined_answer,
    left_answer,
    no_such_tournament_text,
    no_threads_text,
    registration_answer,
    reinstated_answer,
    round_started_answer,
    substituted_answer,
)
from bot.present.tournament_message import info_text, status_line
from bot.present.tournament_standings import standings_lines
from bot.replies import Refusal, guarded, image_file, private
from bot.service.tournaments.models import TournamentInfo
from bot.table.front import Front
from bot.table.tournaments import TournamentDesk, standings_image
from bot.views.tournaments import TourAction, TourButton
from engine.game import MAX_TRAINS_OPTION, MIN_TRAINS_OPTION
from maps import MAP_NAMES


class TournamentCog(TourCog):
    """`/ttrtour` for players and anyone: join, leave, check in (also the buttons), the standings, the info."""

    def __init__(self, ttrtour: app_commands.Group, front: Front, desk: TournamentDesk) -> None:
        super().__init__(ttrtour, front, desk)
        front.delivery.client.add_dynamic_items(TourButton)

    async def _join(self, interaction: discord.Interaction, info: TournamentInfo) -> TournamentInfo:
        if interaction.user.bot:
            raise Refusal(bot_member_text())
        name = getattr(interaction.user, "display_name", interaction.user.name)
        done = await self.service.join_tournament(info.id, interaction.user.id, name)
        await private(interaction, joined_answer(done.tournament, done.status))
        await self.desk.tell_promoted(info, done.tournament)
        return done.tournament

    async def _leave(self, interaction: discord.Interaction, info: TournamentInfo) -> TournamentInfo:
        done = await self.service.leave_tournament(info.id, interaction.user.id)
        await private(interaction, left_answer(done.tournament))
        await self.desk.tell_promoted(info, done.tournament)
        return done.tournament

    async def _check_in(self, interaction: discord.Interaction, info: TournamentInfo) -> TournamentInfo:
        done = await self.service.check_in(info.id, interaction.user.id)
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
            info = await self.service.tournament(tournament_id)
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
            lines = await self.service.standings(info.id)
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
            server = await self.service.guild_config(info.guild_id)
            await private(interaction, info_text(info, info.channel_id, server.clock))

        await self._run(interaction, tournament, work)

    info.autocomplete("tournament")(TourCog.tournament_choices)


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
    ) -> None:
        async def work() -> None:
            await self._moderator(interaction)
            guild, channel = interaction.guild_id, interaction.channel_id
            assert guild is not None and channel is not None
            if map is None and maps is None:
                raise Refusal(bad_maps_text("", MAP_NAMES))
            default = (await self.service.guild_config(guild)).clock
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
            )
            settings = self._settings(None, default, asked)
            info = await self.service.create_tournament(guild, channel, interaction.user.id, name, settings)
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
    ) -> None:
        async def work(info: TournamentInfo) -> None:
            default = (await self.service.guild_config(info.guild_id)).clock
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
            )
            settings = self._settings(info.settings, default, asked)
            after = await self.service.configure_tournament(
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
                after = await self.service.open_registration(info.id, user)
            elif state == "checkin":
                after = await self.service.open_checkin(info.id, user)
            else:
                after = await self.service.close_registration(info.id, user)
            await self.desk.show(after)
            await self._public(after, await self._server_words(after, lambda: status_line(after)))
            await private(interaction, registration_answer(after, state))

        await self._run(interaction, tournament, work, moderator=True)

    registration.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="cancel", description="Moderators: call a tournament off")
    @app_commands.describe(reason=WHY, tournament=TOURNAMENT)
    async def cancel(self, interaction: discord.Interaction, reason: Reason, tournament: str | None = None) -> None:
        async def work(info: TournamentInfo) -> None:
            after = await self.service.cancel_tournament(info.id, interaction.user.id, reason)
            await self.desk.refresh_message(after)
            await self._public(info, await self._server_words(info, lambda: moderator_line("cancel", info)))
            await private(interaction, cancelled_answer(after))

        await self._run(interaction, tournament, work, moderator=True)

    cancel.autocomplete("tournament")(TourCog.tournament_choices)

    @app_commands.command(name="audit", description="Moderators: every action of a tournament, privately")
    @app_commands.describe(tournament=TOURNAMENT)
    async def audit(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async def work(info: TournamentInfo) -> None:
            entries = await self.service.tournament_audit(info.id)
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
            csv_text = await self.service.standings_csv(info.id)
            archive = await self.service.export_archive(info.id, interaction.user.id)
            files = [
                discord.File(io.BytesIO(csv_text.encode("utf-8")), filename=f"tournament-{info.id}-standings.csv"),
                discord.File(io.BytesIO(archive), filename=f"tournament-{info.id}.zip"),
            ]
            await private(interaction, export_caption(info), files=files)

        await self._run(interaction, tournament, work, moderator=True)

    export.autocomplete("tournament")(TourCog.tournament_choices)


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
                started = await self.service.start_round(
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
                started = await self.service.repair_round(
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
                done = await self.service.substitute(
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
                done = await self.service.drop(info.id, interaction.user.id, player.id, reason, disqualify=disqualify)
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
                done = await self.service.reinstate(info.id, interaction.user.id, player.id, reason)
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
            done = await self.service.adjudicate(
                info.id, interaction.user.id, round, table, score=scored, reason=reason
            )
            await self.desk.deliver(done.results, interaction=interaction, refresh=True)
            await private(interaction, adjudicated_answer(round, table, score=scored))

        await self._run(interaction, tournament, work, moderator=True)

    adjudicate.autocomplete("tournament")(TourCog.tournament_choices)
