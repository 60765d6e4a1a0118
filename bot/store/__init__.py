"""Everything the bot keeps between restarts: the `Store` interface and its SQLite implementation."""

from bot.store.migrations import MigrationError
from bot.store.protocol import (
    ACTIVE,
    ChannelBusy,
    GameRow,
    GameStart,
    GameStatus,
    MessageRow,
    MoveRow,
    NewGame,
    NewMove,
    SeatRow,
    SnapshotRow,
    StartedSeat,
    Store,
    StoredGame,
    StoreError,
    TimerRow,
    UnknownGame,
    VersionConflict,
)
from bot.store.sqlite import SqliteStore

__all__ = [
    "ACTIVE",
    "ChannelBusy",
    "GameRow",
    "GameStart",
    "GameStatus",
    "MessageRow",
    "MigrationError",
    "MoveRow",
    "NewGame",
    "NewMove",
    "SeatRow",
    "SnapshotRow",
    "SqliteStore",
    "StartedSeat",
    "Store",
    "StoreError",
    "StoredGame",
    "TimerRow",
    "UnknownGame",
    "VersionConflict",
]
