"""Games and seats as the service hands them out, and who the game waits for."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.service.clock import NO_CLOCK, ClockSettings
from bot.service.kinds import Must
from bot.store import GameRow, GameStatus, SeatRow
from engine.autopilot import LEVELS, Level
from engine.seat_changes import SeatChange
from maps import load_board

# Seats of autopilot players (`create_game(bots=...)`, `add_bot`) have these user ids: -1, -2, ...
# They are never Discord users: do not mention or message them.


def is_bot(user_id: int) -> bool:
    return user_id < 0


@dataclass(frozen=True)
class SeatInfo:
    user_id: int
    display_name: str  # "" when nothing in the member's name is visible
    seat: int | None  # seat order, once started
    player: str | None  # the name in the engine and the record, once started
    autopilot: bool = False  # played by the autopilot: an autopilot player, or a seat handed over

    @property
    def bot(self) -> bool:
        """An autopilot player that filled an empty seat (no Discord user behind it)."""
        return is_bot(self.user_id)


def stored_level(value: object) -> Level:
    """An autopilot level from a game's options; games from before levels existed play steady."""
    return Level(value) if isinstance(value, str) and value in LEVELS else Level.STEADY


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
    clock: ClockSettings = NO_CLOCK
    autopilot_level: Level = Level.STEADY  # for timed-out and handed-over seats
    bots_level: Level = Level.STEADY  # for its autopilot players
    holder_names: bool = False  # a seat handed to another member goes by their name (a tournament's table)
    # the seat changes so far, as the game's hash chain holds them (bot/service/record.py: chain_changes)
    seat_changes: tuple[SeatChange, ...] = ()

    @classmethod
    def of(cls, row: GameRow, seats: list[SeatRow], seat_changes: tuple[SeatChange, ...] = ()) -> GameInfo:
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
            seats=tuple(
                SeatInfo(s.user_id, s.display_name, s.seat, s.player, s.autopilot or is_bot(s.user_id)) for s in seats
            ),
            created_at=row.created_at,
            clock=ClockSettings.of_options(row.options),
            autopilot_level=stored_level(row.options.get("autopilot_level")),
            bots_level=stored_level(row.options.get("bots_level")),
            holder_names=bool(row.options.get("holder_names", False)),
            seat_changes=seat_changes,
        )

    def level_of(self, seat: int) -> Level:
        """How well the autopilot plays this seat: an autopilot player's level, or the game's for a member's seat."""
        return self.bots_level if is_bot(self.seats[seat].user_id) else self.autopilot_level

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
class Waiting:
    """Who may act now, and what they must do."""

    must: Must
    players: tuple[str, ...]
    user_ids: tuple[int, ...]
