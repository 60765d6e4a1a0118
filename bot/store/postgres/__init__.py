"""The store on PostgreSQL (asyncpg): the same `Store` interface and semantics as `bot.store.sqlite`.

Chosen by a `postgresql://` URL as the database setting (`bot.store.open_store`),
for several bot processes sharing one database. `core` holds the connection pool
and the transactions (and why an action happens once across processes),
`migrations` the schema's twins of SQLite's; the queries themselves are those of
`bot.store.parts`, written once for both backends, and `PostgresStore` joins them.
Values sit in the columns as on SQLite (times as UTC ISO texts, JSON as text),
so rows copy between the two unchanged (`python -m bot migrate-store`).
"""

from __future__ import annotations

from bot.store.parts import Parts
from bot.store.postgres.core import PostgresCore, is_postgres_url, redact


class PostgresStore(PostgresCore, Parts):
    """The `Store` on one PostgreSQL database. Open it with `await PostgresStore.open(url)`."""


__all__ = ["PostgresStore", "is_postgres_url", "redact"]
