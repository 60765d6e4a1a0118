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

Group commit, as on SQLite: writes that arrive while this process's
writers are busy (in practice, actions of different games) wait, then go
together in one transaction on one connection, so many actions cost one
BEGIN, one COMMIT and one flush of the log; each caller is answered only
after that COMMIT. The writes that name a key (the game whose rows they
touch), one per key, go first, their statements in lockstep and pipelined
(`pipeline.py`): touching rows of their own only, any order of them is as
good as another. The others (a write without a key, a second write of the
same key) then run one after the other in the order they came, each seeing
what the ones before it wrote, exactly as if each had been committed alone
in that order. A write that raises (a refusal: the
version moved on, a timer already claimed, a broken rule of a table) leaves
nothing: the group's transaction is rolled back, that caller gets its error,
and the others run again together. If the transaction fails for a reason of
its own (the commit, a deadlock with another process's group, the
connection), each write of the group runs again in a transaction of its own.
Connections go back to the pool without asyncpg's reset query (a round trip
each time): the store leaves nothing behind on a session but an open
transaction, which is rolled back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from functools import partial
from typing import Any, Self, TypeVar, cast

import asyncpg

from bot.store.answers import write_answer
from bot.store.columns import Row
from bot.store.errors import StoreError
from bot.store.observer import observed
from bot.store.parts.base import Backend
from bot.store.postgres.connection import DB_ERRORS, Conn
from bot.store.postgres.pipeline import Outcome, PipelineBroken, run_lockstep
from bot.store.query import Q, Work, execute_postgres, one, rows, run_async
from bot.store.query import changed as changed_op
from bot.store.revisions import upgrade_postgres

T = TypeVar("T")
# a write waiting for its group: its work, the key of the rows it touches (if it names one), and its caller's answer
Waiting = tuple[Callable[[], Work[Any]], Hashable | None, asyncio.Future[Any]]

# Connections each process keeps open; PostgreSQL's default allows 100 in all.
POOL_SIZE = 10
# Groups of writes committing at once in one process (each on a connection of the pool), and the most writes
# one group takes: enough to keep the server busy while a commit is flushed, few enough to leave reads a connection.
WRITERS = 3
GROUP_MOST = 64
# prepared statements each connection keeps (asyncpg's default is 100)
STATEMENTS_KEPT = 1000
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
        # writes waiting for a group, and the tasks committing groups
        self._waiting: list[Waiting] = []
        self._writers: set[asyncio.Task[None]] = set()
        self._most_writers = max(1, min(WRITERS, pool.get_max_size() - 1))

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> Self:
        """Connect and bring the schema up to date (once, under an advisory lock, whoever starts first)."""
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=CONNECT_TIMEOUT_SECONDS,
                command_timeout=60,
                reset=_reset,
                # every statement of the store, and its marked twin for batches (pipeline.py), stay prepared
                statement_cache_size=STATEMENTS_KEPT,
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
        while self._writers:
            await asyncio.gather(*self._writers, return_exceptions=True)  # writes already asked for are committed
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

    async def _write(self, make: Callable[[], Work[T]], key: Hashable | None = None) -> T:
        """Run the work `make()` as one write, all or nothing; it returns once the write is committed.

        Writes that arrive together share one transaction (see the module's notes).
        The work runs to its end even when the awaiting task is cancelled.
        """
        done: asyncio.Future[T] = write_answer()  # its failure is not logged if nobody awaits it
        self._waiting.append((make, key, done))
        if len(self._writers) < self._most_writers:
            writer = asyncio.ensure_future(self._commit_waiting())
            self._writers.add(writer)
            writer.add_done_callback(self._writers.discard)
        return await observed(self.observer, asyncio.shield(done))

    async def _commit_waiting(self) -> None:
        """Commit the waiting writes, a group at a time, until none is left."""
        while self._waiting:
            group, self._waiting = self._waiting[:GROUP_MOST], self._waiting[GROUP_MOST:]
            self.observer.store_group(len(group))
            try:
                await self._commit_group(group)
            except Exception as exc:  # a bug: the group's writes get its error, and the writes after them go on
                for _, _, done in group:
                    if not done.done():
                        done.set_exception(exc)
            except BaseException:  # the loop is closing: no write of the group is left unanswered
                for _, _, done in group:
                    if not done.done():
                        done.set_exception(StoreError("the store is closing"))
                raise

    async def _commit_group(self, group: list[Waiting]) -> None:
        """Run the writes of `group` in one transaction and commit it; answer each (see the module's notes)."""
        pipelined = True
        while group:
            if len(group) == 1:
                await self._alone(group[0])
                return
            try:
                async with self._pool.acquire() as conn:
                    transaction = conn.transaction()
                    await transaction.start()
                    try:
                        outcomes = await run_group(conn, group, pipelined)
                    except BaseException:
                        await transaction.rollback()
                        raise
                    refused = {i for i, outcome in outcomes.items() if not outcome[0]}
                    await (transaction.rollback() if refused else transaction.commit())
            except PipelineBroken:
                pipelined = False  # the same group again, one write after the other: the refused one is found
                continue
            except DB_ERRORS:
                for waiting in group:  # each on its own, as it would have run without the group
                    await self._alone(waiting)
                return
            if not refused:
                for i, (_, _, done) in enumerate(group):
                    if not done.done():
                        done.set_result(outcomes[i][1])
                return
            for i in refused:  # they alone get their errors; the others go again without them
                done = group[i][2]
                if not done.done():
                    done.set_exception(outcomes[i][1])
            group = [waiting for i, waiting in enumerate(group) if i not in refused]

    async def _alone(self, waiting: Waiting) -> None:
        make, _, done = waiting
        try:
            result = await self._transaction(lambda conn: run_async(make(), partial(execute_postgres, conn)))
        except Exception as exc:
            if not done.done():
                done.set_exception(exc)
        else:
            if not done.done():
                done.set_result(result)

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

        def work() -> Work[Row | None]:
            return cast(Row | None, (yield op))

        return await self._write(work)

    async def execute(self, q: Q, **params: Any) -> int:
        op = changed_op(q, **params)

        def work() -> Work[int]:
            return cast(int, (yield op))

        return await self._write(work)

    async def do_write(self, make: Callable[[], Work[T]], key: Hashable | None = None) -> T:
        return await self._write(make, key)

    async def do_read(self, make: Callable[[], Work[T]]) -> T:
        return await self._read(lambda conn: run_async(make(), partial(execute_postgres, conn)))


async def run_group(conn: Conn, group: list[Waiting], pipelined: bool) -> dict[int, Outcome]:
    """Run the writes of `group` on `conn` (in the caller's transaction); the outcome of each one run.

    Pipelined, the writes naming keys (one each) go first, together in lockstep (`pipeline.run_lockstep`); the
    others then one after the other, as all of them do otherwise. One after the other, the first write that raises
    ends the run (its statements may have left the transaction unusable): the ones after it have no outcome.
    """
    outcomes: dict[int, Outcome] = {}
    together: dict[Hashable, int] = {}
    if pipelined:
        for i, (_, key, _) in enumerate(group):
            if key is not None:
                together.setdefault(key, i)
    if len(together) > 1:
        order = list(together.values())
        outcomes.update(zip(order, await run_lockstep(conn, [group[i][0]() for i in order]), strict=True))
    for i, (make, _, _) in enumerate(group):
        if i in outcomes:
            continue
        try:
            outcomes[i] = (True, await run_async(make(), partial(execute_postgres, conn)))
        except DB_ERRORS:
            raise  # the transaction's own failure (a deadlock, the connection): the caller runs each write alone
        except Exception as exc:
            outcomes[i] = (False, exc)
            break
    return outcomes


async def _reset(conn: asyncpg.Connection[Any]) -> None:
    """Ready a connection given back to the pool: a transaction left open is rolled back (asyncpg's own reset would
    also close cursors, listeners and session settings the store never makes, at a round trip each time)."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")
