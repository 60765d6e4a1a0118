"""The core of the SQLite store: opening the file (WAL, migrations) and running work in transactions.

Every store call is one unit of work on aiosqlite's database thread (see
`SqliteCore._run`): a write is BEGIN IMMEDIATE ... COMMIT from start to end
there, so no other caller's statement can slip into a transaction, and a
caller that is cancelled while it waits cannot leave a transaction half done.
BEGIN IMMEDIATE takes the database's write lock at once, so a second process
waits for it (up to `BUSY_TIMEOUT_SECONDS`) instead of failing mid-way.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Self, TypeVar, cast

import aiosqlite

from bot.store.errors import StoreError
from bot.store.migrations import migrate
from bot.store.sqlite.columns import Row

T = TypeVar("T")

# How long a write waits for another process (a backup, a second bot) to let go.
BUSY_TIMEOUT_SECONDS = 10.0


class SqliteCore:
    """One open SQLite database, and the ways to run work on it; each part of the store builds on it."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self.path = path

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
        """Run `work` as one write transaction; nothing of it stays if anything fails."""
        return await self._run(lambda conn: write_transaction(conn, work))

    async def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run several reads against one consistent state of the database."""
        return await self._run(lambda conn: read_transaction(conn, work))

    async def _one(self, convert: Callable[[Row], T], sql: str, params: Sequence[Any] = ()) -> T | None:
        """The first row of one query, converted; None if there is none."""

        def work(conn: sqlite3.Connection) -> T | None:
            row = conn.execute(sql, params).fetchone()
            return None if row is None else convert(row)

        return await self._run(work)

    async def _all(self, convert: Callable[[Row], T], sql: str, params: Sequence[Any] = ()) -> list[T]:
        """Every row of one query, converted."""
        return await self._run(lambda conn: [convert(row) for row in conn.execute(sql, params)])

    async def _change(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement as its own write transaction; how many rows it changed."""
        return await self._write(lambda conn: conn.execute(sql, params).rowcount)


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
    """Connection settings, then the schema migrations."""
    mode = _enable_wal(conn)
    if str(mode).lower() != "wal":
        raise StoreError(f"the database cannot use write-ahead logging (journal mode stays {mode!r})")
    # FULL: a commit is on disk when it returns, so an announced move survives a
    # power cut too (NORMAL would only survive a crash of this process).
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn)
