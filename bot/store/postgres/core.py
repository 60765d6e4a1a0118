"""The core of the PostgreSQL store: the connection pool, the schema's history, and running work in transactions.

Every write is one transaction on one pooled connection, at READ COMMITTED.
What makes an action happen once across processes is the game's row: a
write first raises the game's version with `UPDATE games ... WHERE id = $1
AND version = $2` (a compare-and-set, `parts.versioned.bump`). That statement
locks the row until the transaction ends, so a second process doing the same
waits, then finds the version moved on, changes nothing, and is refused
with VersionConflict; everything else the transaction writes comes after
the lock. A timer is claimed by one conditional DELETE, which only one
transaction can win. A write runs to its end (commit or rollback) even if
the caller is cancelled meanwhile, as on SQLite.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Self, TypeVar, cast

import asyncpg

from bot.store.columns import Row
from bot.store.errors import StoreError
from bot.store.parts.base import Backend
from bot.store.postgres.connection import DB_ERRORS, Conn
from bot.store.query import Q, Work, execute_postgres, one, rows, run_async
from bot.store.query import changed as changed_op
from bot.store.revisions import upgrade_postgres

T = TypeVar("T")

# Connections each process keeps open; PostgreSQL's default allows 100 in all.
POOL_SIZE = 10
CONNECT_TIMEOUT_SECONDS = 10.0


def redact(url: str) -> str:
    """The URL without its password, to name the database in messages and logs."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    who, at, where = rest.rpartition("@")
    if not at:
        return url
    user = who.split(":", 1)[0]
    return f"{scheme}://{user}:***@{where}" if ":" in who else url


def is_postgres_url(database: object) -> bool:
    """Whether the database setting names a PostgreSQL server (a `postgresql://` or `postgres://` URL)."""
    return isinstance(database, str) and database.strip().lower().startswith(("postgresql://", "postgres://"))


class PostgresCore(Backend):
    """One pool of connections to one PostgreSQL database; each part of the store builds on it."""

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record], url: str) -> None:
        self._pool = pool
        self.url = url
        self.name = redact(url)

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> Self:
        """Connect and bring the schema up to date (once, under an advisory lock, whoever starts first)."""
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=pool_size, timeout=CONNECT_TIMEOUT_SECONDS, command_timeout=60
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            raise StoreError(f"cannot connect to the database {redact(url)}: {exc}") from None
        store = cls(pool, url)
        try:
            async with pool.acquire() as conn:
                await upgrade_postgres(url, conn)
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    def acquire(self) -> asyncpg.pool.PoolAcquireContext[asyncpg.Record]:
        """A connection of the pool for work outside the store's interface (copies, backups); `async with`."""
        return self._pool.acquire()

    def _error(self, exc: BaseException) -> StoreError:
        error = StoreError(f"database error in {self.name}: {exc}")
        error.__cause__ = exc
        return error

    async def _transaction(self, work: Callable[[Conn], Awaitable[T]], **options: Any) -> T:
        try:
            async with self._pool.acquire() as conn, conn.transaction(**options):
                return await work(conn)
        except StoreError:
            raise
        except DB_ERRORS as exc:
            raise self._error(exc) from exc

    async def _write(self, work: Callable[[Conn], Awaitable[T]]) -> T:
        """Run `work` as one transaction, all or nothing; it returns once committed.

        The transaction runs to its end even when the awaiting task is cancelled.
        """
        return await asyncio.shield(asyncio.ensure_future(self._transaction(work)))

    async def _read(self, work: Callable[[Conn], Awaitable[T]]) -> T:
        """Run several reads against one consistent state of the database."""
        return await self._transaction(work, isolation="repeatable_read", readonly=True)

    # ----- the queries of `bot.store.query` (see `parts.base.Backend`); one statement runs without BEGIN and COMMIT
    async def _on_pool(self, op: Any) -> Any:
        try:
            return await execute_postgres(self._pool, op)
        except StoreError:
            raise
        except DB_ERRORS as exc:
            raise self._error(exc) from exc

    async def fetch_one(self, q: Q, **params: Any) -> Row | None:
        return cast(Row | None, await self._on_pool(one(q, **params)))

    async def fetch_all(self, q: Q, **params: Any) -> list[Row]:
        return cast(list[Row], await self._on_pool(rows(q, **params)))

    async def write_one(self, q: Q, **params: Any) -> Row | None:
        op = one(q, **params)
        return cast(Row | None, await asyncio.shield(asyncio.ensure_future(self._on_pool(op))))

    async def execute(self, q: Q, **params: Any) -> int:
        op = changed_op(q, **params)
        return cast(int, await asyncio.shield(asyncio.ensure_future(self._on_pool(op))))

    async def do_write(self, make: Callable[[], Work[T]]) -> T:
        return await self._write(lambda conn: run_async(make(), partial(execute_postgres, conn)))

    async def do_read(self, make: Callable[[], Work[T]]) -> T:
        return await self._read(lambda conn: run_async(make(), partial(execute_postgres, conn)))
