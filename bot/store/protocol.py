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


@dataclass(frozen=True)
class MoveRow:
    game_id: int
    index: int
    move: dict[str, Any]  # as in the game record
    user_id: int | None
    created_at: datetime


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


@dataclass(frozen=True)
class NewMove:
    index: int  # must be the number of moves logged so far
    move: dict[str, Any]
    user_id: int | None
    status: GameStatus  # the game's status after the move
    snapshot: str  # of the game after the move


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

    # ----- messages the bot posted for a game
    async def add_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None: ...

    async def messages(self, game_id: int, kind: str | None = None) -> list[MessageRow]: ...

    async def delete_message(self, message_id: int) -> bool: ...
