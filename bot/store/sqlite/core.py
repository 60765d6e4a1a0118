"""The core of the SQLite store: opening the file (WAL, the schema's history) and running work in transactions.

Every store call is one unit of work on aiosqlite's database thread (see
`SqliteCore._run`): a write is BEGIN IMMEDIATE ... COMMIT from start to end
there, so no other caller's statement can slip into a transaction, and a
caller that is cancelled while it waits cannot leave a transaction half done.
BEGIN IMMEDIATE takes the database's write lock at once, so a second process
waits for it (up to `BUSY_TIMEOUT_SECONDS`) instead of failing mid-way.

Group commit: writes that arrive while an earlier commit is on its way to the
disk (in practice, actions of different games) wait for it and then go
together, each inside its own savepoint of one transaction, so they share one
fsync (synchronous=FULL still). Each one stays all or nothing: a write that
fails is rolled back to its savepoint and its caller gets its error, while
the others commit. Every caller is answered only after the COMMIT that holds
its write has returned, so what is acknowledged is on disk exactly as with
one transaction each. If the shared transaction itself fails (the COMMIT, or
an error that ends the transaction), every write of the group is run again
on its own, as it would have been without grouping.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Awaitable, Callable, Hashable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Self, TypeVar, cast

import aiosqlite

from bot.store.answers import write_answer
from bot.store.columns import Row
from bot.store.errors import StoreError
from bot.store.observer import observed
from bot.store.parts.base import Backend
from bot.store.query import Q, Work, changed, execute_sqlite, one, rows, run_sync
from bot.store.revisions import check_sqlite, upgrade_sqlite

T = TypeVar("T")

# How long a write waits for another process (a backup, a second bot) to let go.
BUSY_TIMEOUT_SECONDS = 10.0


class SqliteCore(Backend):
    """One open SQLite database, and the ways to run work on it; each part of the store builds on it."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self.path = path
        # writes waiting for the next group commit, and the task that commits them
        self._waiting: list[tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: Path | str) -> Self:
        """Open (creating the file and its folder if needed) and bring the schema up to date."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for the database {path}: {exc}") from None
        try:
            db = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from None
        store = cls(db, path)
        try:
            await store._run(_prepare)
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)  # writes already asked for are committed first
        await self._db.close()

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work(connection)` on aiosqlite's database thread as one queued call.

        aiosqlite has no public call for this; `_execute` is the one all its
        own methods go through (the dependency is pinned to 0.22.1). The work
        runs to its end even when the awaiting task is cancelled.
        """
        execute = cast(Callable[..., Awaitable[T]], self._db._execute)
        conn: sqlite3.Connection = self._db._conn
        try:
            return await execute(work, conn)
        except sqlite3.Error as exc:
            raise StoreError(f"database error in {self.path}: {exc}") from exc

    async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work` as one write, all or nothing; it returns once the write is committed.

        Writes that arrive together share one commit (see the module's notes).
        The work runs to its end even when the awaiting task is cancelled.
        """
        done: asyncio.Future[T] = write_answer()  # its failure is not logged if nobody awaits it
        self._waiting.append((work, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._commit_waiting())
        return await observed(self.observer, asyncio.shield(done))

    async def _commit_waiting(self) -> None:
        """Commit the waiting writes, a group at a time, until none is left."""
        while self._waiting:
            group, self._waiting = self._waiting, []
            self.observer.store_group(len(group))
            works = [work for work, _ in group]
            cancelled = False
            try:
                outcomes = await self._run(partial(write_group, works=works))
            except asyncio.CancelledError as exc:  # the loop is closing: no answer comes for the group
                outcomes, cancelled = [(False, exc)] * len(group), True
            except BaseException as exc:  # the database thread itself failed: every write of the group did
                outcomes = [(False, exc)] * len(group)
            for (_, done), (ok, value) in zip(group, outcomes, strict=True):
                if done.done():
                    continue
                if cancelled:
                    done.cancel()
                elif ok:
                    done.set_result(value)
                elif isinstance(value, sqlite3.Error):
                    done.set_exception(self._store_error(value))
                else:
                    done.set_exception(value)
            if cancelled:
                for _, done in self._waiting:
                    done.cancel()
                self._waiting = []
                raise asyncio.CancelledError

    def _store_error(self, exc: sqlite3.Error) -> StoreError:
        error = StoreError(f"database error in {self.path}: {exc}")
        error.__cause__ = exc
        return error

    async def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run several reads against one consistent state of the database."""
        return await self._run(lambda conn: read_transaction(conn, work))

    # ----- the queries of `bot.store.query` (see `parts.base.Backend`)
    async def fetch_one(self, q: Q, **params: Any) -> Row | None:
        op = one(q, **params)
        return cast(Row | None, await self._run(lambda conn: execute_sqlite(conn, op)))

    async def fetch_all(self, q: Q, **params: Any) -> list[Row]:
        op = rows(q, **params)
        return cast(list[Row], await self._run(lambda conn: execute_sqlite(conn, op)))

    async def write_one(self, q: Q, **params: Any) -> Row | None:
        op = one(q, **params)
        return cast(Row | None, await self._write(lambda conn: execute_sqlite(conn, op)))

    async def execute(self, q: Q, **params: Any) -> int:
        op = changed(q, **params)
        return cast(int, await self._write(lambda conn: execute_sqlite(conn, op)))

    async def do_write(self, make: Callable[[], Work[T]], key: Hashable | None = None) -> T:
        return await self._write(lambda conn: run_sync(make(), partial(execute_sqlite, conn)))

    async def do_read(self, make: Callable[[], Work[T]]) -> T:
        return await self._read(lambda conn: run_sync(make(), partial(execute_sqlite, conn)))


def integrity_problem(path: Path | str, lines: int = 3) -> str | None:
    """What SQLite's quick check finds wrong with the database at `path`; None if nothing (or no file yet).

    `PRAGMA quick_check` reads every page (it skips only the slow comparison
    of indexes with their tables), so it finds the damaged pages that would
    otherwise fail command after command once the bot runs. It is run when
    the bot starts (bot/commands/run.py), not on every open.
    """
    path = Path(path)
    if not path.exists():
        return None
    try:
        # mode=rw: checking must not create a file, and must see the -wal beside it
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=BUSY_TIMEOUT_SECONDS)
    except sqlite3.Error as exc:
        return f"cannot open it: {exc}"
    try:
        found = [str(row[0]) for row in conn.execute(f"PRAGMA quick_check({lines})")]
    except sqlite3.Error as exc:
        return str(exc)
    finally:
        conn.close()
    if found == ["ok"]:
        return None
    return " ".join(" ".join(found).split()) or "no answer"


def write_transaction(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """Run `work` between BEGIN IMMEDIATE and COMMIT, rolling everything back if it fails."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = work(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


Outcome = tuple[bool, Any]  # (True, the work's result) or (False, the exception it raised)


def _alone(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], Any]) -> Outcome:
    try:
        return True, write_transaction(conn, work)
    except Exception as exc:
        return False, exc


def write_group(conn: sqlite3.Connection, *, works: Sequence[Callable[[sqlite3.Connection], Any]]) -> list[Outcome]:
    """Run each work in its own savepoint of one transaction and commit them together; each one's outcome.

    A work that fails leaves nothing (its savepoint is rolled back). If the
    transaction as a whole fails, it is rolled back and each work is run
    again in a transaction of its own.
    """
    if len(works) == 1:
        return [_alone(conn, works[0])]
    outcomes: list[Outcome] = []
    try:
        conn.execute("BEGIN IMMEDIATE")
        for work in works:
            conn.execute("SAVEPOINT one_write")
            try:
                result = work(conn)
            except Exception as exc:
                if not conn.in_transaction:
                    raise  # the error ended the whole transaction
                conn.execute("ROLLBACK TO one_write")
                conn.execute("RELEASE one_write")
                outcomes.append((False, exc))
                continue
            conn.execute("RELEASE one_write")
            outcomes.append((True, result))
        conn.execute("COMMIT")
    except Exception:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        return [_alone(conn, work) for work in works]
    return outcomes


def read_transaction(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """Run `work` between BEGIN and COMMIT, so that all its reads see one state."""
    conn.execute("BEGIN")
    try:
        return work(conn)
    finally:
        conn.execute("COMMIT")


def _enable_wal(conn: sqlite3.Connection, attempts: int = 100) -> str:
    """Switch to write-ahead logging, waiting for a moment when nobody holds the file.

    Changing the journal mode answers "database is locked" at once, without the
    busy timeout, while another process is opening the same file.
    """
    for attempt in range(attempts):
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.05)
    raise AssertionError("unreachable")


def _prepare(conn: sqlite3.Connection) -> None:
    """Connection settings and the schema's history (bot/store/revisions), then write-ahead logging.

    First of all, before anything is written, whether the database is Conductor's to open; the history runs
    before the journal mode is switched, so a database it refuses (rolled back) is left with every byte as it was.
    """
    ready = check_sqlite(conn)  # at HEAD as this program makes it: nothing for the history to do
    # FULL: a commit is on disk when it returns, so an announced move survives a
    # power cut too (NORMAL would only survive a crash of this process).
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    if not ready:
        upgrade_sqlite(conn)
    mode = _enable_wal(conn)
    if str(mode).lower() != "wal":
        raise StoreError(f"the database cannot use write-ahead logging (journal mode stays {mode!r})")
