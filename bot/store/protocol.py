"""What the bot keeps: the `Store` interface, its rows and its errors.

Rows are plain frozen values; JSON columns arrive parsed. Every write that
changes a game names the version the caller saw, and the store refuses it
with `VersionConflict` when the game has changed since: that is what makes a
stale button or a second process harmless.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol


class GameStatus(StrEnum):
    LOBBY = "lobby"  # players join; nothing dealt yet
    SETUP = "setup"  # dealt; players choose tickets (San Francisco: place stacks)
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def active(self) -> bool:
        return self in ACTIVE


ACTIVE = frozenset({GameStatus.LOBBY, GameStatus.SETUP, GameStatus.PLAYING})


class StoreError(RuntimeError):
    """The store could not do what was asked; the message says why."""


class VersionConflict(StoreError):
    """The game changed since the caller read it (another action came first)."""


class UnknownGame(StoreError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"there is no game #{game_id}")


class TimerGone(StoreError):
    """The timer to be claimed is no longer there: it fired already, or the game moved on."""

    def __init__(self, timer_id: int) -> None:
        self.timer_id = timer_id
        super().__init__(f"timer {timer_id} is gone")


class ChannelBusy(StoreError):
    """The channel already has an active game."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        self.channel_id = channel_id
        self.game_id = game_id
        super().__init__(f"channel {channel_id} already has an active game (#{game_id})")


@dataclass(frozen=True)
class GameRow:
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
class SeatRow:
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
    game_id: int
    index: int
    move: dict[str, Any]  # as in the game record
    user_id: int | None
    created_at: datetime
    actor: str = "player"  # "player", "autopilot" (an autopilot seat) or "timeout" (the player's time ran out)


@dataclass(frozen=True)
class SnapshotRow:
    game_id: int
    move_count: int
    data: str  # JSON text, left unparsed: a damaged one must reach the loader as it is
    updated_at: datetime


@dataclass(frozen=True)
class TimerRow:
    id: int
    game_id: int | None
    kind: str
    deadline: datetime
    data: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True)
class MessageRow:
    game_id: int
    kind: str
    channel_id: int
    message_id: int
    created_at: datetime


@dataclass(frozen=True)
class SeatClockRow:
    """One seat's clock; the defaults are a seat that has not had to act yet."""

    seat: int
    wait: str | None = None  # which wait the seat is in (bot/service/clock.py); None when it need not act
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


# ----- what callers write ------------------------------------------------------


@dataclass(frozen=True)
class NewGame:
    guild_id: int
    channel_id: int
    host_user_id: int
    host_name: str
    map: str
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NewTimer:
    kind: str
    deadline: datetime
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NewAudit:
    moderator_user_id: int | None
    action: str
    details: dict[str, Any]
    reason: str
    at: datetime


@dataclass(frozen=True)
class SeatUpdate:
    """A change to a started seat; None leaves a field as it is."""

    seat: int
    user_id: int | None = None
    display_name: str | None = None
    autopilot: bool | None = None


@dataclass(frozen=True)
class Writes:
    """What is written in the same transaction as a move or a change, so that none goes without the other.

    `clock` replaces the game's clock and `timers` all of its timers (None
    leaves them). `claim_timer` names a timer that must still be there; it is
    deleted, and the whole transaction is refused with TimerGone if it is
    already gone: so a timer's effect happens once.
    """

    clock: ClockRow | None = None
    timers: Sequence[NewTimer] | None = None
    claim_timer: int | None = None
    audit: Sequence[NewAudit] = ()
    seats: Sequence[SeatUpdate] = ()


@dataclass(frozen=True)
class Undo:
    """Take the live move log back to its first `keep` moves; the moves taken off are kept under the audit entry."""

    keep: int
    snapshot: str  # of the game after those `keep` moves


@dataclass(frozen=True)
class GameChange:
    """A change to a game that is not a move (moderation, timers, the clock); see `Store.apply_change`."""

    writes: Writes = field(default_factory=Writes)
    status: GameStatus | None = None
    undo: Undo | None = None  # needs one audit entry in `writes`
    bump: bool = True  # raise the version (stale buttons die); False for bookkeeping players need not see


@dataclass(frozen=True)
class StartedSeat:
    user_id: int
    seat: int
    player: str


@dataclass(frozen=True)
class GameStart:
    seed: str
    cards: Sequence[str]
    tickets: Sequence[int]
    seats: Sequence[StartedSeat]  # every seat of the lobby, in seat order
    status: GameStatus
    snapshot: str  # of the game as dealt, before any move
    writes: Writes | None = None  # written in the same transaction


@dataclass(frozen=True)
class NewMove:
    index: int  # must be the number of moves logged so far
    move: dict[str, Any]
    user_id: int | None
    status: GameStatus  # the game's status after the move
    snapshot: str  # of the game after the move
    actor: str = "player"  # see MoveRow.actor
    at: datetime | None = None  # when it was made; the store's clock if None
    writes: Writes | None = None  # written in the same transaction


class Store(Protocol):
    """Everything the bot keeps between restarts."""

    async def close(self) -> None: ...

    # ----- guild settings
    async def guild_settings(self, guild_id: int) -> dict[str, Any]: ...

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        """Set one JSON-able setting; None removes it."""
        ...

    # ----- games and seats
    async def create_game(self, new: NewGame) -> GameRow:
        """A lobby with the host seated; ChannelBusy if the channel has an active game."""
        ...

    async def game(self, game_id: int) -> GameRow | None: ...

    async def stored_game(self, game_id: int) -> StoredGame | None:
        """The game, its seats, its move log and its snapshot, all from one read transaction."""
        ...

    async def active_game(self, channel_id: int) -> GameRow | None: ...

    async def games_of_user(self, user_id: int, statuses: Collection[GameStatus]) -> list[GameRow]: ...

    async def games_with_status(self, statuses: Collection[GameStatus]) -> list[GameRow]: ...

    async def seats(self, game_id: int) -> list[SeatRow]:
        """In seat order once started, in join order before."""
        ...

    async def add_seat(self, game_id: int, expected_version: int, user_id: int, display_name: str) -> int:
        """Seat a user in the lobby; the new version."""
        ...

    async def remove_seat(self, game_id: int, expected_version: int, user_id: int, new_host: int | None) -> int:
        """Unseat a user from the lobby, handing the host role to `new_host` if given; the new version."""
        ...

    async def set_status(self, game_id: int, expected_version: int, status: GameStatus) -> int: ...

    async def start_game(self, game_id: int, expected_version: int, start: GameStart) -> int:
        """Record seed, decks, seat order and the first snapshot at once; the new version."""
        ...

    # ----- the move log
    async def append_move(self, game_id: int, expected_version: int, move: NewMove) -> int:
        """Log one move with its snapshot and status in one transaction; the new version."""
        ...

    async def moves(self, game_id: int) -> list[MoveRow]: ...

    async def snapshot(self, game_id: int) -> SnapshotRow | None: ...

    async def save_snapshot(self, game_id: int, expected_version: int, move_count: int, data: str) -> None:
        """Replace a damaged or outdated snapshot; the version does not change (the game did not)."""
        ...

    # ----- durable timers
    async def add_timer(
        self, game_id: int | None, kind: str, deadline: datetime, data: dict[str, Any] | None = None
    ) -> TimerRow: ...

    async def timers(self, game_id: int | None = None) -> list[TimerRow]:
        """All timers (of one game if given), soonest first."""
        ...

    async def due_timers(self, now: datetime) -> list[TimerRow]: ...

    async def next_timer(self) -> TimerRow | None: ...

    async def delete_timer(self, timer_id: int) -> bool: ...

    async def delete_timers(self, game_id: int, kind: str | None = None) -> int: ...

    async def timer(self, timer_id: int) -> TimerRow | None: ...

    async def postpone_timer(self, timer_id: int, deadline: datetime) -> bool:
        """Move a timer to a later deadline (after its handling failed); False if it is gone."""
        ...

    # ----- clocks, moderation and undo (migration 0004)
    async def clock(self, game_id: int) -> ClockRow:
        """The game's clock; a fresh one (running, no seat state) if none was written yet."""
        ...

    async def apply_change(self, game_id: int, expected_version: int, change: GameChange) -> int:
        """Apply a change that is not a move in one transaction; the version after it."""
        ...

    async def audit_log(self, game_id: int) -> list[AuditRow]:
        """The game's audit entries, oldest first."""
        ...

    async def add_audit(self, game_id: int, entry: NewAudit) -> int:
        """Store an audit entry for something that does not change the game (a moderator reading it)."""
        ...

    async def undone_moves(self, game_id: int) -> list[UndoneMoveRow]: ...

    # ----- messages the bot posted for a game
    async def add_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None: ...

    async def messages(self, game_id: int, kind: str | None = None) -> list[MessageRow]: ...

    async def delete_message(self, message_id: int) -> bool: ...

    # ----- the Discord front end (migration 0003)
    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The newest game ever opened in a channel, whatever its status."""
        ...

    async def command_digest(self, target: str) -> str | None:
        """The fingerprint of the slash commands last synced to `target` ('global' or 'guild:<id>')."""
        ...

    async def set_command_digest(self, target: str, digest: str) -> None: ...

    async def dm_refused(self, user_id: int) -> bool:
        """Has Discord refused a direct message to this user (error 50007)?"""
        ...

    async def set_dm_refused(self, user_id: int, refused: bool) -> None: ...
