"""The store on PostgreSQL (asyncpg): the same `Store` interface and semantics as `bot.store.sqlite`.

Chosen by a `postgresql://` URL as the database setting (`bot.store.open_store`),
for several bot processes sharing one database. `core` holds the connection pool
and the transactions (and why an action happens once across processes),
`migrations` the schema's twins of SQLite's, `versioned` a game's write
transaction; `games`, `history`, `timers`, `messages`, `settings`, `ratings` and
`tournaments` each serve one part of the interface, and `PostgresStore` joins them.
Values sit in the columns as on SQLite (times as UTC ISO texts, JSON as text),
so rows copy between the two unchanged (`python -m bot migrate-store`).
"""

from __future__ import annotations

from bot.store.parts.games import Games
from bot.store.parts.history import History
from bot.store.parts.messages import Messages
from bot.store.parts.ratings import Ratings
from bot.store.parts.settings import Settings
from bot.store.parts.timers import Timers
from bot.store.postgres.core import is_postgres_url, redact
from bot.store.postgres.tournaments import PostgresTournaments


class PostgresStore(
    Games,
    History,
    Timers,
    Messages,
    Settings,
    Ratings,
    PostgresTournaments,
):
    """The `Store` on one PostgreSQL database. Open it with `await PostgresStore.open(url)`."""


__all__ = ["PostgresStore", "is_postgres_url", "redact"]
