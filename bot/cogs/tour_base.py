"""What the `/ttrtour` cogs share: the group, finding the tournament, the moderators' check, the settings options.

`/ttrtour` is one command group shared by four cogs (as `/ttr` is, bot/cogs/ttr.py): `TournamentCog`
(tour_players.py: players and anyone: join, leave, check in, the standings, the info, the buttons),
`TournamentDeskCog` and `TournamentRecordsCog` (tour_desk.py: moderators: create, configure, registration,
cancel; audit, export) and `TournamentRoundsCog` (tour_rounds.py: moderators: start and re-pair rounds,
substitute, drop, disqualify, reinstate, adjudicate).

The `tournament` option names a tournament of this server by number or name
(the list offers its open ones); without it, the tournament of this channel
(or of the table thread it is used in), else the server's only open one.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TypeVar

import discord
from discord import app_commands

from bot.cogs.common import MAX_CHOICES, POLICY_CHOICES, is_moderator, reserve_choices, turn_time_choices
from bot.cogs.lobby import MAP_CHOICES, game_clock
from bot.cogs.ttr import TtrCog
from bot.present.i18n import speaking
from bot.present.misread import Span
from bot.present.mod_answers import servers_only_text
from bot.present.tournament_answers import (
    bad_maps_text,
    moderators_only_text,
    no_such_tournament_text,
    tournament_choice_label,
    which_tournament_text,
)
from bot.service import ClockSettings, ServiceError
from bot.service.tournaments.models import TournamentInfo, TournamentSettings
from bot.table.front import Front
from bot.table.parsing import MAX_TEXT, read_duration
from bot.table.tournaments import OPEN, TournamentDesk
from bot.views.replies import Refusal, guarded
from maps import MAP_NAMES

log = logging.getLogger(__name__)

# the newest open tournaments of a server that autocomplete looks through (it shows MAX_CHOICES of them)
CHOICE_CANDIDATES = 100

REGISTRATION_CHOICES = [
    app_commands.Choice(name="open: players may join", value="open"),
    app_commands.Choice(name="close: no more players join", value="close"),
    app_commands.Choice(name="checkin: close it and open the check-in", value="checkin"),
]
ADJUDICATE_CHOICES = [
    app_commands.Choice(name="yes: score the game as it stands", value="yes"),
    app_commands.Choice(name="no: the autopilot plays it out", value="no"),
]
TOURNAMENT = "The tournament (default: this channel's)"

# the tournament's settings, the options `/ttrtour configure` changes; `/ttrtour create` names their defaults
SETTING_OPTIONS = {
    "rounds": "How many Swiss rounds",
    "map": "The map of every round",
    "maps": 'Or a map per round, like "usa india usa"',
    "table_size": "Players per table",
    "turn_time": 'Time per turn in its games, like "12h" or "none"',
    "reserve": 'Extra time per player for a game, like "1d"',
    "timeout_policy": "When time runs out in its games",
    "deadline": 'Time each round has to finish, like "3d"',
    "rated": "Rate its games",
    "final_table": "After the Swiss rounds the top N play a final table",
    "cap": "At most this many players; later ones wait on a list",
    "checkin_window": "Registered players check in before round 1",
    "trains": "House rule: trains per player, for shorter games",
    "plans": "Players may plan their next turn (/ttr plan)",
}
CREATE_OPTIONS = {
    **SETTING_OPTIONS,
    "table_size": "Players per table (default: 4 where the maps allow it)",
    "turn_time": 'Time per turn in its games, like "12h" or "none" (default: the server\'s)',
    "reserve": 'Extra time per player for a game, like "1d" (default: the server\'s)',
    "timeout_policy": "When time runs out in its games (default: the server's)",
    "deadline": 'Time each round has to finish, like "3d" (overdue tables are adjudicated)',
    "rated": "Rate its games (default: yes)",
    "checkin_window": "Registered players check in before round 1 (default: no)",
    "plans": "Players may plan their next turn (/ttr plan) (default: yes)",
}

Command = TypeVar("Command")


def setting_options(descriptions: Mapping[str, str]) -> Callable[[Command], Command]:
    """The settings options of `/ttrtour create` and `configure`: their descriptions, map and policy choices, and
    the time options' suggestions."""

    def apply(command: Command) -> Command:
        command = app_commands.describe(**descriptions)(command)
        command = app_commands.choices(map=MAP_CHOICES, timeout_policy=POLICY_CHOICES)(command)
        return app_commands.autocomplete(turn_time=turn_time_choices, reserve=reserve_choices)(command)

    return apply


@dataclass(frozen=True)
class SettingsAsked:
    """The settings options a moderator gave (None: not given)."""

    rounds: int | None
    map_: str | None
    maps: str | None
    table_size: int | None
    turn_time: str | None
    reserve: str | None
    timeout_policy: str | None
    deadline: str | None
    rated: bool | None
    final_table: int | None
    cap: int | None
    checkin_window: bool | None
    trains: int | None
    plans: bool | None = None


def read_maps(map_: str | None, maps: str | None) -> tuple[str, ...] | None:
    """The maps option(s): one map for every round, or a map per round ("usa india usa")."""
    if maps is None:
        return None if map_ is None else (map_,)
    words = maps.replace(",", " ").casefold().split()
    known = {m.casefold(): m for m in MAP_NAMES}
    if len(maps) > MAX_TEXT or not words or any(w not in known for w in words):
        raise Refusal(bad_maps_text(maps, MAP_NAMES))
    return tuple(known[w] for w in words)


@contextmanager
def naming(user_id: int, name: str) -> Iterator[None]:
    """A refusal about the member `user_id` (someone the moderator named, not the moderator) says their name."""
    try:
        yield
    except ServiceError as exc:
        if exc.facts.get("user_id") == user_id and "name" not in exc.facts:
            exc.facts = {**exc.facts, "name": name}
        raise


def ttrtour_group() -> app_commands.Group:
    return app_commands.Group(
        name="ttrtour", description="Tournaments: register, play the rounds, see the standings", guild_only=True
    )


class TourCog(TtrCog):
    """A `/ttrtour` cog: its commands go into the shared group; the desk (threads, messages) is shared too."""

    def __init__(self, ttrtour: app_commands.Group, front: Front, desk: TournamentDesk) -> None:
        super().__init__(ttrtour)
        self.settings = front.service.settings
        self.tournaments = front.service.tournaments
        self.desk = desk

    async def _find(self, interaction: discord.Interaction, typed: str | None) -> TournamentInfo:
        guild = interaction.guild_id
        if guild is None:
            raise Refusal(servers_only_text())
        found = await self.tournaments.desk.tournaments(guild)
        if typed is not None:
            text = typed.strip().lstrip("#").strip()
            if text.isdigit() and text.isascii():
                match = [t for t in found if str(t.id) == text.lstrip("0")]
            else:
                folded = " ".join(text.split()).casefold()
                match = [t for t in found if t.name.casefold() == folded]
                if not match:
                    match = [t for t in found if t.name.casefold().startswith(folded)] if folded else []
            if len(match) != 1:
                raise Refusal(no_such_tournament_text(typed))
            return await self.tournaments.desk.tournament(match[0].id)
        channel = interaction.channel_id
        parent = getattr(interaction.channel, "parent_id", None)
        here = [
            t
            for t in found
            if t.channel_id in (channel, parent) or any(x.channel_id == channel for r in t.rounds for x in r.tables)
        ]
        open_here = [t for t in here if t.status in OPEN]
        for candidates in (open_here, here[:1], [t for t in found if t.status in OPEN]):
            if len(candidates) == 1:
                return await self.tournaments.desk.tournament(candidates[0].id)
        raise Refusal(which_tournament_text([f"#{t.id} {t.name}" for t in found if t.status in OPEN]))

    async def tournament_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        guild = interaction.guild_id
        if guild is None:
            return []
        typed = current.casefold().strip().lstrip("#")
        choices = []
        # one bounded query per keystroke: the newest open tournaments' rows, not every tournament read whole
        for t in await self.tournaments.desk.recent_tournaments(guild, OPEN, CHOICE_CANDIDATES):
            label = tournament_choice_label(t)
            if typed in label.casefold():
                choices.append(app_commands.Choice(name=label[:100], value=str(t.id)))
        return choices[:MAX_CHOICES]

    async def _moderator(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise Refusal(servers_only_text())
        if not await is_moderator(self.settings, interaction):
            raise Refusal(moderators_only_text())

    async def _run(
        self,
        interaction: discord.Interaction,
        tournament: str | None,
        work: Callable[[TournamentInfo], Awaitable[None]],
        *,
        moderator: bool = False,
    ) -> None:
        async def run() -> None:
            if moderator:
                await self._moderator(interaction)
            await work(await self._find(interaction, tournament))

        await guarded(interaction, run)

    async def _public(self, info: TournamentInfo, line: str) -> None:
        await self.desk.announce(info, [line])

    async def _server_words(self, info: TournamentInfo, write: Callable[[], str]) -> str:
        with speaking(await self.desk.languages.server(info.guild_id)):
            return write()

    # ----- create and configure -------------------------------------------------------------------------

    def _settings(
        self, base: TournamentSettings | None, default_clock: ClockSettings, asked: SettingsAsked
    ) -> TournamentSettings:
        chosen_maps = read_maps(asked.map_, asked.maps)
        clock = None if base is None else base.clock
        if asked.turn_time is not None or asked.reserve is not None or asked.timeout_policy is not None:
            start = clock if clock is not None else default_clock
            clock = game_clock(start, asked.turn_time, asked.reserve, asked.timeout_policy)
        minutes = None if base is None else base.round_deadline_minutes
        if asked.deadline is not None:
            seconds = read_duration(asked.deadline, Span.DURATION)
            minutes = None if seconds is None else max(1, seconds // 60)
        if base is None:
            assert chosen_maps is not None and asked.rounds is not None
            return TournamentSettings(
                maps=chosen_maps,
                rounds=asked.rounds,
                table_size=asked.table_size,
                clock=clock,
                round_deadline_minutes=minutes,
                rated=True if asked.rated is None else asked.rated,
                final_table=asked.final_table,
                cap=asked.cap,
                checkin=bool(asked.checkin_window),
                trains=asked.trains,
            )
        new_maps = base.maps if chosen_maps is None else chosen_maps
        new_rounds = base.rounds if asked.rounds is None else asked.rounds
        if chosen_maps is None and asked.rounds is not None and len(set(base.maps)) == 1:
            new_maps = (base.maps[0],)
        return replace(
            base,
            maps=new_maps,
            rounds=new_rounds,
            table_size=base.table_size if asked.table_size is None and chosen_maps is None else asked.table_size,
            clock=clock,
            round_deadline_minutes=minutes,
            rated=base.rated if asked.rated is None else asked.rated,
            final_table=base.final_table if asked.final_table is None else asked.final_table,
            cap=base.cap if asked.cap is None else asked.cap,
            checkin=base.checkin if asked.checkin_window is None else asked.checkin_window,
            trains=base.trains if asked.trains is None else asked.trains,
            plans=base.plans if asked.plans is None else asked.plans,
        )
