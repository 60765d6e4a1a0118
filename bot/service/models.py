"""What the game service hands out: games, seats, events and the result of an action."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.store import GameRow, GameStatus, SeatRow
from maps import load_board


@dataclass(frozen=True)
class SeatInfo:
    user_id: int
    display_name: str
    seat: int | None  # seat order, once started
    player: str | None  # the name in the engine and the record, once started


@dataclass(frozen=True)
class GameInfo:
    """A game as anyone may see it: no decks, no hands, no seed."""

    id: int
    guild_id: int
    channel_id: int
    host_user_id: int
    map: str
    status: GameStatus
    version: int
    max_players: int
    trains: int | None  # the trains house rule, None for the map's number
    seats: tuple[SeatInfo, ...]  # seat order once started, join order before
    created_at: datetime

    @classmethod
    def of(cls, row: GameRow, seats: list[SeatRow]) -> GameInfo:
        rules = load_board(row.map).rules
        return cls(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_user_id=row.host_user_id,
            map=row.map,
            status=row.status,
            version=row.version,
            max_players=int(row.options.get("max_players", rules.max_players)),
            trains=row.options.get("trains"),
            seats=tuple(SeatInfo(s.user_id, s.display_name, s.seat, s.player) for s in seats),
            created_at=row.created_at,
        )

    @property
    def title(self) -> str:
        return load_board(self.map).rules.title

    @property
    def started(self) -> bool:
        return bool(self.seats) and self.seats[0].player is not None

    def seat_of(self, user_id: int) -> SeatInfo | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def user_of(self, player: str | None) -> int | None:
        return next((s.user_id for s in self.seats if s.player == player), None)


@dataclass(frozen=True)
class PublicEvent:
    """Something everyone may be told."""

    kind: str
    text: str  # one sentence for the channel
    data: dict[str, Any] = field(default_factory=dict)
    player: str | None = None
    user_id: int | None = None


@dataclass(frozen=True)
class PrivateEvent:
    """Something only `user_id` may be told (a card drawn blind, tickets offered)."""

    user_id: int
    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Waiting:
    """Who may act now, and what they must do (keep, place, turn, draw, tunnel)."""

    must: str
    players: tuple[str, ...]
    user_ids: tuple[int, ...]


@dataclass(frozen=True)
class ActionResult:
    """What an action did: the game after it, and what to announce to whom."""

    game: GameInfo
    public: tuple[PublicEvent, ...] = ()
    private: tuple[PrivateEvent, ...] = ()
    waiting: Waiting | None = None

    @property
    def version(self) -> int:
        return self.game.version

    def private_for(self, user_id: int) -> tuple[PrivateEvent, ...]:
        return tuple(e for e in self.private if e.user_id == user_id)
