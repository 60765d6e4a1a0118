"""The store on SQLite: one database file in write-ahead-log mode, migrated at start-up.

`core` opens the file and runs each call as one unit of work on the database
thread; `versioned` holds what a game's write transaction does besides its own
statement (the version check, the snapshot, the writes that go with it);
`games`, `history`, `timers`, `messages`, `settings`, `ratings` and `tournaments` each serve one part
of the `Store` interface, and `SqliteStore` joins them.
"""

from __future__ import annotations

from bot.store.parts.games import Games
from bot.store.parts.history import History
from bot.store.parts.messages import Messages
from bot.store.parts.ratings import Ratings
from bot.store.parts.settings import Settings
from bot.store.parts.timers import Timers
from bot.store.sqlite.tournaments import SqliteTournaments


class SqliteStore(Games, History, Timers, Messages, Settings, Ratings, SqliteTournaments):
    """The `Store` on one SQLite file. Open it with `await SqliteStore.open(path)`."""


__all__ = ["SqliteStore"]
