"""A tournament's settings and what the tournament service hands out: typed data, no sentences."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from bot.service.clock import ClockSettings
from bot.service.errors import IdKind, InvalidInput, Why
from bot.service.game_options import check_options
from bot.service.results import ActionResult
from bot.store.tournament_rows import ParticipantStatus, RoundStatus, TableStatus, TournamentStatus
from maps import MAP_NAMES, load_board

MAX_ROUNDS = 20
MAX_NAME = 100
MAX_DEADLINE_MINUTES = 60 * 24 * 30  # a month
MAX_CAP = 1000
DEFAULT_TABLE_SIZE = 4


def default_table_size(maps: Sequence[str]) -> int:
    """4 where every map allows it, else the largest size every map allows."""
    high = min(load_board(m).rules.max_players for m in maps)
    return min(DEFAULT_TABLE_SIZE, high)


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class TournamentSettings:
    """How a tournament is played. Checked when built: InvalidInput (with a Why) for anything out of range.

    `maps`: one map for every round, or one per Swiss round (the final table plays the last one).
    `table_size`: None takes the default (4 where every map allows it, else their common maximum).
    `clock`: its games' turn clock and timeout policy; None takes the server's when each table opens.
    `round_deadline_minutes`: after this a round's unfinished tables are overdue (a moderator adjudicates them).
    `final_table`: the top N after the Swiss rounds play one more table (N within the last map's range).
    `cap`: at most this many registered players; later ones wait on a list, promoted in order.
    `checkin`: a check-in window before round 1; who did not check in does not play.
    `autopilot`: participants whose seats the autopilot plays from the start (tests and demonstrations).
    `trains`: the trains house rule for its games (shorter games); None: each map's number.
    `plans`: its players may plan their next turn (`/ttr plan`, bot/service/plans.py).
    """

    maps: tuple[str, ...]
    rounds: int
    table_size: int | None = None
    clock: ClockSettings | None = None
    round_deadline_minutes: int | None = None
    rated: bool = True
    final_table: int | None = None
    cap: int | None = None
    checkin: bool = False
    autopilot: tuple[int, ...] = ()
    trains: int | None = None
    plans: bool = True

    def __post_init__(self) -> None:
        if not _int(self.rounds) or not 1 <= self.rounds <= MAX_ROUNDS:
            raise InvalidInput(Why.BAD_ROUNDS, {"low": 1, "high": MAX_ROUNDS, "value": self.rounds})
        maps = self.maps
        if isinstance(maps, str):
            maps = (maps,)
        if not isinstance(maps, (tuple, list)) or len(maps) not in (1, self.rounds):
            raise InvalidInput(Why.BAD_MAP_LIST, {"rounds": self.rounds, "value": maps})
        for name in maps:
            if name not in MAP_NAMES:
                raise InvalidInput(Why.UNKNOWN_MAP, {"map": name, "maps": MAP_NAMES})
        object.__setattr__(self, "maps", tuple(maps))
        size = default_table_size(maps) if self.table_size is None else self.table_size
        for name in set(maps):
            rules = load_board(name).rules
            if not _int(size) or not rules.min_players <= size <= rules.max_players:
                facts = {"map": name, "low": rules.min_players, "high": rules.max_players, "value": self.table_size}
                raise InvalidInput(Why.BAD_TABLE_SIZE, facts)
        object.__setattr__(self, "table_size", size)
        if self.clock is not None and not isinstance(self.clock, ClockSettings):
            raise InvalidInput(Why.BAD_CLOCK_TYPE, {"type": type(self.clock).__name__})
        deadline = self.round_deadline_minutes
        if deadline is not None and (not _int(deadline) or not 1 <= deadline <= MAX_DEADLINE_MINUTES):
            raise InvalidInput(Why.BAD_DEADLINE, {"low": 1, "high": MAX_DEADLINE_MINUTES, "value": deadline})
        if not isinstance(self.rated, bool):
            raise InvalidInput(Why.BAD_FLAG, {"name": "rated", "value": self.rated})
        if not isinstance(self.checkin, bool):
            raise InvalidInput(Why.BAD_FLAG, {"name": "checkin", "value": self.checkin})
        if not isinstance(self.plans, bool):
            raise InvalidInput(Why.BAD_FLAG, {"name": "plans", "value": self.plans})
        final = self.final_table
        if final is not None:
            rules = load_board(maps[-1]).rules
            if not _int(final) or not rules.min_players <= final <= rules.max_players:
                raise InvalidInput(
                    Why.BAD_FINAL_TABLE, {"low": rules.min_players, "high": rules.max_players, "value": final}
                )
        if self.cap is not None and (not _int(self.cap) or not 2 <= self.cap <= MAX_CAP):
            raise InvalidInput(Why.BAD_CAP, {"low": 2, "high": MAX_CAP, "value": self.cap})
        if not isinstance(self.autopilot, (tuple, list)) or not all(_int(u) and u > 0 for u in self.autopilot):
            raise InvalidInput(Why.BAD_ID, {"what": IdKind.USER, "value": self.autopilot})
        object.__setattr__(self, "autopilot", tuple(self.autopilot))
        if self.trains is not None:
            for name in set(maps):
                check_options(name, None, self.trains)

    @property
    def size(self) -> int:
        assert self.table_size is not None  # set in __post_init__
        return self.table_size

    def map_of(self, round_no: int) -> str:
        """The map of a round (1-based); the final table (after the Swiss rounds) plays the last one."""
        if len(self.maps) == 1:
            return self.maps[0]
        return self.maps[min(round_no, self.rounds) - 1]

    def to_json(self) -> dict[str, Any]:
        return {
            "maps": list(self.maps),
            "rounds": self.rounds,
            "table_size": self.table_size,
            "clock": None if self.clock is None else self.clock.to_json(),
            "round_deadline_minutes": self.round_deadline_minutes,
            "rated": self.rated,
            "final_table": self.final_table,
            "cap": self.cap,
            "checkin": self.checkin,
            "autopilot": list(self.autopilot),
            "trains": self.trains,
            "plans": self.plans,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentSettings:
        clock = data.get("clock")
        return cls(
            maps=tuple(data["maps"]),
            rounds=data["rounds"],
            table_size=data.get("table_size"),
            clock=None if clock is None else ClockSettings.from_json(clock),
            round_deadline_minutes=data.get("round_deadline_minutes"),
            rated=data.get("rated", True),
            final_table=data.get("final_table"),
            cap=data.get("cap"),
            checkin=data.get("checkin", False),
            autopilot=tuple(data.get("autopilot", ())),
            trains=data.get("trains"),
            plans=data.get("plans", True),
        )


@dataclass(frozen=True)
class Participant:
    user_id: int
    display_name: str
    status: ParticipantStatus
    joined: int  # join order
    joined_at: datetime
    substitute_for: int | None  # whose place they took


@dataclass(frozen=True)
class Table:
    """A table of a round: its players in seat order, its thread and game once open."""

    round: int
    table_no: int
    map: str
    seats: tuple[int, ...]  # user ids in seat order
    names: tuple[str, ...]  # their display names, in the same order
    channel_id: int | None
    game_id: int | None
    status: TableStatus


@dataclass(frozen=True)
class Round:
    round: int
    attempt: int
    final: bool
    map: str
    status: RoundStatus
    seed: str
    started_at: datetime
    deadline: datetime | None
    completed_at: datetime | None
    tables: tuple[Table, ...]


@dataclass(frozen=True)
class TournamentInfo:
    """A tournament as anyone may see it."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    status: TournamentStatus
    registration_open: bool
    settings: TournamentSettings
    version: int
    created_by: int
    participants: tuple[Participant, ...]  # in join order
    rounds: tuple[Round, ...]

    def participant(self, user_id: int) -> Participant | None:
        return next((p for p in self.participants if p.user_id == user_id), None)

    def with_status(self, *statuses: ParticipantStatus) -> tuple[Participant, ...]:
        return tuple(p for p in self.participants if p.status in statuses)

    @property
    def current(self) -> Round | None:
        """The latest round paired, if any."""
        return self.rounds[-1] if self.rounds else None


@dataclass(frozen=True)
class TablePlan:
    """What the front needs to open a table's thread before its game is created."""

    tournament_id: int
    tournament_name: str
    channel_id: int  # the tournament's channel, where the thread is opened
    round: int
    table_no: int
    final: bool
    map: str
    seats: tuple[int, ...]
    names: tuple[str, ...]


@dataclass(frozen=True)
class RoundStarted:
    """A round paired and its tables open: one game per table in its own thread."""

    tournament: TournamentInfo
    round: Round
    repeats: int  # pairs of players at one table who met before (the fewest the pairing found)
    not_checked_in: tuple[int, ...] = ()  # dropped at round 1 for not checking in
    repaired: bool = False  # a re-pairing of the round


@dataclass(frozen=True)
class OverdueTables:
    """A round's deadline passed with these tables still playing: the moderators are told (to adjudicate them)."""

    tournament: TournamentInfo
    round: Round
    tables: tuple[Table, ...]


@dataclass(frozen=True)
class TableFinishInfo:
    user_id: int
    display_name: str
    place: int
    place_points: Fraction
    score: int
    tickets_done: int


@dataclass(frozen=True)
class TableResult:
    """A table's result as recorded (empty finishes: the game was abandoned, the table is void)."""

    tournament_id: int
    round: int
    table_no: int
    game_id: int
    finishes: tuple[TableFinishInfo, ...]
    rated: bool  # the game is rated (as a tournament game)
    round_complete: bool
    tournament_finished: bool
    standings: tuple[StandingLine, ...] = field(default=())


@dataclass(frozen=True)
class StandingLine:
    rank: int
    user_id: int
    display_name: str
    status: ParticipantStatus
    place_points: Fraction
    score: int
    tickets: int
    opponents_strength: Fraction
    games: int
    wins: int


@dataclass(frozen=True)
class TournamentAction:
    """A moderator's (or player's) tournament action done: the tournament after it, and what else it did."""

    tournament: TournamentInfo
    action: str
    user_id: int | None  # whom it concerned
    promoted: int | None = None  # a waiting player who got the place
    game_id: int | None = None  # the game it touched, if any
    status: ParticipantStatus | None = None  # the participant's status after it
    # what it did to the game, in order (a seat handed over, seats to the autopilot, the game ended): the front
    # delivers each as any moderator's action (the seat news by DM, the moderators' log lines, the channel)
    results: tuple[ActionResult, ...] = ()
