"""What the store reads back: one frozen value per kind of row.

JSON columns arrive parsed, times as timezone-aware datetimes in UTC.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.store.status import GameStatus


@dataclass(frozen=True)
class GameRow:
    """A game as kept: where it is played, its map and options, and once started its seed and decks."""

    id: int
    guild_id: int
    channel_id: int
    host_user_id: int
    map: str
    options: dict[str, Any]
    seed: str | None
    cards: tuple[str, ...] | None  # the card deck as dealt, once started
    tickets: tuple[int, ...] | None  # the ticket deck as dealt (ticket ids), once started
    status: GameStatus
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class OpenGame:
    """A game not over yet (lobby, setup or playing), as the operator's metrics count it: no secret, no name."""

    map: str
    status: GameStatus
    guild_id: int
    seats: int


@dataclass(frozen=True)
class SeatRow:
    """A member's place in a game."""

    game_id: int
    user_id: int
    display_name: str
    joined: int  # join order, 0 first
    seat: int | None  # seat order once started
    player: str | None  # the name in the engine and the game record, once started
    joined_at: datetime
    autopilot: bool = False  # handed to the autopilot by a moderator (negative user ids: always)


@dataclass(frozen=True)
class MoveRow:
    """One move of a game's log."""

    game_id: int
    index: int
    move: dict[str, Any]  # as in the game record
    user_id: int | None
    created_at: datetime
    actor: str = "player"  # "player", "autopilot" (an autopilot seat) or "timeout" (the player's time ran out)


@dataclass(frozen=True)
class PlanRow:
    """A player's planned turn (bot/service/plan_eval.py)."""

    game_id: int
    seat: int
    user_id: int
    items: str  # JSON
    set_at: datetime


@dataclass(frozen=True)
class SnapshotRow:
    """The game's state after its first `move_count` moves, kept for fast loading."""

    game_id: int
    move_count: int
    data: str  # JSON text, left unparsed: a damaged one must reach the loader as it is
    updated_at: datetime


@dataclass(frozen=True)
class TimerRow:
    """A durable timer, of a game or of none, due at `deadline`."""

    id: int
    game_id: int | None
    kind: str
    deadline: datetime
    data: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True)
class MessageRow:
    """A channel message the bot posted for a game."""

    game_id: int
    kind: str
    channel_id: int
    message_id: int
    created_at: datetime
    buttons: bool = False  # posted with buttons that may still be on it (not taken off, nor given up on)


@dataclass(frozen=True)
class HeldRow:
    """A direct message held for later: a member's quiet hours, or a "your turn" note due once a turn has waited."""

    id: int
    user_id: int
    game_id: int | None
    kind: str
    wait: str | None  # the wait it is about ("turn:12"); once that wait is over it is dropped, not sent
    text: str
    due_at: datetime
    created_at: datetime


@dataclass(frozen=True)
class SeatClockRow:
    """One seat's clock; the defaults are a seat that has not had to act yet."""

    seat: int
    wait: str | None = None  # the wait the seat is in, as the game service names it; None when it need not act
    since: datetime | None = None  # when that wait began, moved on by pauses
    extra_seconds: float = 0.0  # moderator extensions of this wait
    reminded: int = 0  # reminders already sent in this wait
    timed_out: bool = False  # this wait ran out of time
    reserve_used: float = 0.0  # reserve seconds used in the whole game
    timeouts: int = 0  # waits that ran out of time in the whole game


@dataclass(frozen=True)
class ClockRow:
    """A game's clock as it runs (its settings are in the game's options)."""

    game_id: int
    paused_at: datetime | None = None
    paused_by: int | None = None
    seats: tuple[SeatClockRow, ...] = ()

    def seat(self, seat: int) -> SeatClockRow:
        if 0 <= seat < len(self.seats) and self.seats[seat].seat == seat:
            return self.seats[seat]  # the usual case: one row per seat, in seat order
        return next((c for c in self.seats if c.seat == seat), SeatClockRow(seat))


@dataclass(frozen=True)
class AuditRow:
    """A moderator action, or something the bot did on its own (moderator_user_id None: a timeout)."""

    id: int
    game_id: int
    moderator_user_id: int | None
    action: str
    details: dict[str, Any]
    reason: str
    created_at: datetime


@dataclass(frozen=True)
class UndoneMoveRow:
    """A move a moderator took back, kept under the audit entry of that undo."""

    audit_id: int
    game_id: int
    index: int
    move: dict[str, Any]
    user_id: int | None
    actor: str
    created_at: datetime


@dataclass(frozen=True)
class StoredGame:
    """Everything kept about one game, read at one moment."""

    game: GameRow
    seats: list[SeatRow]
    moves: list[MoveRow]
    snapshot: SnapshotRow | None
    clock: ClockRow | None = None  # read with the rest (None: not read)
    # the audit entries that change who holds a seat or which moves count (SEAT_AUDIT_ACTIONS), oldest first:
    # the seat changes of the game's hash chain (engine/seat_changes.py) and the undos that move them
    seat_audit: list[AuditRow] = field(default_factory=list)
