"""What the store keeps of tournaments, and what callers hand it to write (bot/service/tournaments)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from fractions import Fraction
from typing import Any

from bot.store.writes import NewTimer


class TournamentStatus(StrEnum):
    REGISTRATION = "registration"  # being configured; players join while registration is open
    CHECKIN = "checkin"  # registered players confirm they play; round 1 starts without the others
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class ParticipantStatus(StrEnum):
    REGISTERED = "registered"
    WAITLISTED = "waitlisted"  # the cap was reached; promoted in join order when a place frees up
    CHECKED_IN = "checked_in"
    ACTIVE = "active"  # plays the rounds
    DROPPED = "dropped"  # left, dropped by a moderator, did not check in, or replaced by a substitute
    DISQUALIFIED = "disqualified"


class RoundStatus(StrEnum):
    RUNNING = "running"
    COMPLETE = "complete"


class TableStatus(StrEnum):
    PENDING = "pending"  # paired; its game is not open yet
    PLAYING = "playing"
    DONE = "done"  # its result is recorded
    VOID = "void"  # its game was abandoned: no result


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    name: str
    status: TournamentStatus
    registration_open: bool
    settings: dict[str, Any]
    created_by: int
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class ParticipantRow:
    tournament_id: int
    user_id: int
    display_name: str
    status: ParticipantStatus
    joined: int  # join order
    joined_at: datetime
    substitute_for: int | None


@dataclass(frozen=True)
class RoundRow:
    tournament_id: int
    round: int
    attempt: int  # 1, then one more for each re-pairing
    seed: str
    status: RoundStatus
    final: bool
    map: str
    started_at: datetime
    deadline: datetime | None
    completed_at: datetime | None


@dataclass(frozen=True)
class TableRow:
    tournament_id: int
    round: int
    table_no: int
    seats: tuple[int, ...]  # user ids in seat order
    channel_id: int | None
    game_id: int | None
    status: TableStatus


@dataclass(frozen=True)
class TableResultRow:
    tournament_id: int
    round: int
    table_no: int
    user_id: int
    place: int
    place_points: Fraction
    score: int
    tickets_done: int


@dataclass(frozen=True)
class TournamentAuditRow:
    id: int
    tournament_id: int
    user_id: int | None
    action: str
    details: dict[str, Any]
    reason: str
    created_at: datetime


# ----- writes


@dataclass(frozen=True)
class NewTournamentAudit:
    user_id: int | None
    action: str
    details: dict[str, Any]
    reason: str
    at: datetime


@dataclass(frozen=True)
class NewTournament:
    """A tournament to create, with the audit entry of its creation (written in the same transaction)."""

    guild_id: int
    channel_id: int
    name: str
    created_by: int
    settings: dict[str, Any]
    audit: NewTournamentAudit | None = None


@dataclass(frozen=True)
class ParticipantWrite:
    """A participant to add (at the end of the join order) or change (name, status, whom they replace);
    `remove`: take them off the list (they left before the tournament began: a later join queues anew)."""

    user_id: int
    display_name: str
    status: ParticipantStatus
    substitute_for: int | None = None
    remove: bool = False


@dataclass(frozen=True)
class NewRound:
    """A round paired (or paired again: its earlier tables go) with its tables in seat order."""

    round: int
    attempt: int
    seed: str
    final: bool
    map: str
    started_at: datetime
    deadline: datetime | None
    tables: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class TournamentChange:
    """One versioned write: any of these, with its audit entries, in one transaction."""

    status: TournamentStatus | None = None
    registration_open: bool | None = None
    settings: dict[str, Any] | None = None
    name: str | None = None
    participants: Sequence[ParticipantWrite] = ()
    round: NewRound | None = None
    audit: Sequence[NewTournamentAudit] = ()
    timers: Sequence[NewTimer] = ()  # timers of no game (a round's deadline), set in the same transaction


@dataclass(frozen=True)
class TableFinish:
    """One player's result at a table, to record."""

    user_id: int
    place: int
    place_points: Fraction
    score: int
    tickets_done: int


@dataclass(frozen=True)
class TableRecorded:
    """What recording a table's result did."""

    recorded: bool  # False: it was recorded (or voided) before; nothing changed
    round_complete: bool  # every table of the round is done or void now
    version: int  # the tournament's version after it


@dataclass(frozen=True)
class TournamentData:
    """A tournament and everything under it, read in one transaction."""

    tournament: TournamentRow
    participants: tuple[ParticipantRow, ...]
    rounds: tuple[RoundRow, ...]
    tables: tuple[TableRow, ...]
    results: tuple[TableResultRow, ...]
