"""The store on PostgreSQL (asyncpg): the same `Store` interface and semantics as `bot.store.sqlite`.

Chosen by a `postgresql://` URL as the database setting (`bot.store.open_store`),
for several bot processes sharing one database. `core` holds the connection pool
and the transactions (and why an action happens once across processes); the
schema's history (`bot.store.revisions`) and the queries (`bot.store.parts`) are
written once for both backends, and `PostgresStore` joins them.
Values sit in the columns as on SQLite (times as UTC ISO texts, JSON as text),
so rows copy between the two unchanged (`python -m bot migrate-store`).
"""

from __future__ import annotations

from typing import Self

import asyncpg

from bot.store.parts import Parts
from bot.store.postgres.core import POOL_SIZE, PostgresCore, is_postgres_url, redact


class PostgresStore(Parts):
    """The `Store` on one PostgreSQL database. Open it with `await PostgresStore.open(url)`."""

    def __init__(self, core: PostgresCore) -> None:
        super().__init__(core)
        self.core = core
        self.url, self.name = core.url, core.name

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> Self:
        """Connect and bring the schema up to date (once, under an advisory lock, whoever starts first)."""
        return cls(await PostgresCore.open(url, pool_size=pool_size))

    async def close(self) -> None:
        await self.core.close()

    def acquire(self) -> asyncpg.pool.PoolAcquireContext[asyncpg.Record]:
        """A connection of the pool for work outside the store's interface (copies, backups); `async with`."""
        return self.core.acquire()


__all__ = ["PostgresStore", "is_postgres_url", "redact"]
