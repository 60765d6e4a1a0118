"""Everything the bot keeps between restarts: the `Store` interface, its values, and its implementations.

`status`, `rows`, `writes` and `errors` hold the values the store speaks in,
`protocols` the interface (one Protocol per part, `Store` for all of them),
`schema` the tables, `query` and `parts` every query written once for both backends,
`sqlite` and `postgres` the two backends that run them, `factory` picks one from the database setting
(`open_store`), `revisions` the schema's history (Alembic), one for both backends.
"""

from bot.store.errors import (
    ChannelBusy,
    ClockChanged,
    MigrationError,
    OpenGamesLimit,
    StoreError,
    TimerGone,
    UnknownGame,
    UnknownTournament,
    VersionConflict,
)
from bot.store.factory import Database, describe, open_store, parse_database
from bot.store.postgres import PostgresStore
from bot.store.protocols import (
    GameStore,
    MessageStore,
    RateStore,
    RatingStore,
    SettingsStore,
    Store,
    TimerStore,
    TournamentStore,
)
from bot.store.rows import (
    AuditRow,
    ClockRow,
    GameRow,
    HeldRow,
    MessageRow,
    MoveRow,
    OpenGame,
    SeatClockRow,
    SeatRow,
    SnapshotRow,
    StoredGame,
    TimerRow,
    UndoneMoveRow,
)
from bot.store.shards import Shards
from bot.store.sqlite import SqliteStore
from bot.store.status import ACTIVE, GameStatus
from bot.store.writes import (
    GameChange,
    GameStart,
    NewAudit,
    NewGame,
    NewMove,
    NewTimer,
    SeatUpdate,
    StartedSeat,
    Undo,
    Writes,
)

__all__ = [
    "OpenGame",
    "TournamentStore",
    "UnknownTournament",
    "Database",
    "PostgresStore",
    "describe",
    "open_store",
    "parse_database",
    "RateStore",
    "RatingStore",
    "ACTIVE",
    "AuditRow",
    "ChannelBusy",
    "ClockRow",
    "GameChange",
    "GameRow",
    "GameStart",
    "GameStatus",
    "GameStore",
    "HeldRow",
    "MessageRow",
    "MessageStore",
    "MigrationError",
    "MoveRow",
    "OpenGamesLimit",
    "NewAudit",
    "NewGame",
    "NewMove",
    "NewTimer",
    "SeatClockRow",
    "SeatRow",
    "SeatUpdate",
    "Shards",
    "SettingsStore",
    "SnapshotRow",
    "SqliteStore",
    "StartedSeat",
    "Store",
    "StoreError",
    "StoredGame",
    "TimerGone",
    "TimerRow",
    "TimerStore",
    "Undo",
    "UndoneMoveRow",
    "UnknownGame",
    "VersionConflict",
    "ClockChanged",
    "Writes",
]
