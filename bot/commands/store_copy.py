"""Copying a whole database between the two stores, and checking the copy.

`copy_to_postgres` moves an SQLite database into an empty PostgreSQL one
(`python -m bot migrate-store`); `export_to_sqlite` writes a PostgreSQL
database into a new SQLite file as of one moment, read in one REPEATABLE
READ transaction (`python -m bot backup` on PostgreSQL; `migrate-store`
reads such a file back). Both stores keep the same tables and columns with
values in the same form, so rows are copied as they are. `verify` compares
the two: the rows of every table counted, and every started game replayed
from its moves on each side to the same state.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.commands.game_checks import game_problem
from bot.service.loading import parse_moves, replay_moves
from bot.store import schema
from bot.store.errors import MigrationError, StoreError
from bot.store.postgres import PostgresStore, redact
from bot.store.postgres.connection import DB_ERRORS
from bot.store.revisions import upgrade_sqlite
from bot.store.rows import StoredGame
from bot.store.sqlite import SqliteStore
from bot.store.status import GameStatus

# Every table but the schema history's own (each database records its own), parents before children: from the schema.
TABLES = tuple(table.name for table in schema.TABLES)
# the tables whose ids the database hands out, so its counter must go on after the copied ones
IDENTITY_TABLES = tuple(table.name for table in schema.IDENTITY_TABLES)
# each table's columns, and the order its rows are copied in: by its key (moves in log order: the database checks it)
COLUMNS = {table.name: [column.name for column in table.columns] for table in schema.TABLES}
ORDER = {table.name: ", ".join(column.name for column in table.primary_key.columns) for table in schema.TABLES}
# what to do about a FROM that is not a Conductor database
GIVE = "give the bot's database file or a backup made by `python -m bot backup`"
# the first bytes of every SQLite database file
SQLITE_HEADER = b"SQLite format 3\x00"


class TargetNotEmpty(StoreError):
    """The target database has rows: nothing is written into it."""


@dataclass(frozen=True)
class CopyReport:
    counts: dict[str, int]  # rows per table, the same on both sides
    games_replayed: int


def _sqlite_rows(conn: sqlite3.Connection, table: str, columns: Sequence[str]) -> list[tuple[Any, ...]]:
    order = ORDER[table]
    return [tuple(row) for row in conn.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")]


async def copy_to_postgres(source: Path, target_url: str) -> CopyReport:
    """Copy the SQLite database `source` into the empty PostgreSQL database at `target_url`, then verify it.

    `source` is only ever read: it is opened read-only and copied as one
    consistent state into a private file in the temporary folder, which is
    checked (SQLite's quick check, Conductor's schema; an older schema is
    brought up to date there) and read from then on. Every problem is a
    StoreError saying what is wrong, and leaves the target as it was.
    """
    with tempfile.TemporaryDirectory(prefix="conductor-migrate-") as folder:
        private = Path(folder) / "source.sqlite3"
        _read_only_copy(source, private)
        _check_schema(source, private)
        await _check_games(source, private)
        try:
            target = await PostgresStore.open(target_url)
        except MigrationError as exc:  # another program's database, or not as this program makes it: untouched
            raise StoreError(f"TO ({redact(target_url)}): {exc}") from None
        try:
            await _copy_rows(private, target)
        finally:
            await target.close()
        try:
            return await verify(private, target_url)
        except StoreError as exc:
            raise StoreError(f"{exc}; {await _empty(target_url)}") from None


def _read_only_copy(source: Path, copy: Path) -> None:
    """Write one consistent state of `source` into the new file `copy`, opening `source` read-only."""
    if not source.exists():
        raise StoreError(f"there is no file {source}")
    if source.is_dir():
        raise StoreError(f"{source} is a folder; give the SQLite database file")
    if not source.is_file():
        raise StoreError(f"{source} is not a regular file; give the SQLite database file")
    try:
        with source.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(f"cannot read {source}: {exc.strerror or exc}") from None
    if not header:
        raise StoreError(f"{source} is empty (0 bytes), not a Conductor database; {GIVE}")
    if header != SQLITE_HEADER:
        raise StoreError(f"{source} is not an SQLite database; {GIVE}")
    # Without a -wal or -journal file beside it nothing is pending outside the file, and `immutable` reads
    # it without making the -wal and -shm files a read-only connection in WAL mode would leave behind.
    pending = any(source.with_name(source.name + end).exists() for end in ("-wal", "-journal"))
    mode = "mode=ro" if pending else "mode=ro&immutable=1"
    try:
        reader = sqlite3.connect(f"{source.resolve().as_uri()}?{mode}", uri=True)
        try:
            writer = sqlite3.connect(copy)
            try:
                reader.backup(writer)
            finally:
                writer.close()
        finally:
            reader.close()
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read {source} as an SQLite database ({_short(exc)}); {GIVE}") from None


def _check_schema(source: Path, copy: Path) -> None:
    """StoreError unless `copy` (of `source`) is an undamaged Conductor database; an older schema is updated."""
    damaged = f"{source} is damaged"
    restore = "copy from a backup made by `python -m bot backup` instead"
    try:
        conn = sqlite3.connect(copy, isolation_level=None)
        try:
            problems = [str(r[0]) for r in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StoreError(f"{damaged} (SQLite's quick check: {problems[0][:200]}); {restore}")
            history = "SELECT 1 FROM sqlite_master WHERE name IN ('alembic_version', 'schema_migrations')"
            if not conn.execute(history).fetchone():
                raise StoreError(f"{source} is an SQLite database but not Conductor's (no schema history); {GIVE}")
            try:
                upgrade_sqlite(conn)
            except MigrationError as exc:
                raise StoreError(f"{source}: {exc}") from None
            expected = _reference_schema()
            found = _schema(conn)
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise StoreError(f"{damaged} ({_short(exc)}); {restore}") from None
    for table in TABLES:
        if found.get(table) != expected[table]:
            raise StoreError(
                f"{source} is not a Conductor database of this version: its table {table} is "
                f"{'missing' if table not in found else 'not as this program makes it'}"
            )


def _reference_schema() -> dict[str, list[tuple[str, str]]]:
    """The tables of a database this program makes."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        upgrade_sqlite(conn)
        return _schema(conn)
    finally:
        conn.close()


def _schema(conn: sqlite3.Connection) -> dict[str, list[tuple[str, str]]]:
    """Each table's columns with their declared types."""
    names = [str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {name: [(str(r[1]), str(r[2])) for r in conn.execute(f'PRAGMA table_info("{name}")')] for name in names}


async def _check_games(source: Path, copy: Path) -> None:
    """StoreError unless every game of `copy` (of `source`) can be read and is one its rules make (dealt from its
    seed, its moves replayed by the rules, its snapshot what they make: `game_checks`); before anything is written.
    """
    store = await SqliteStore.open(copy)
    try:
        for row in await store.games.games_with_status(set(GameStatus)):
            try:
                stored = await store.games.stored_game(row.id)
            except Exception as exc:  # hostile rows: whatever reading them raised, one message
                raise StoreError(f"game #{row.id} of {source} cannot be read ({_short(exc)})") from None
            problem = None if stored is None else game_problem(stored)
            if problem is not None:
                raise StoreError(f"game #{row.id} of {source} {problem}; nothing was copied")
    except StoreError:
        raise
    except Exception as exc:
        raise StoreError(f"the games of {source} cannot be read ({_short(exc)})") from None
    finally:
        await store.close()


async def _copy_rows(source: Path, target: PostgresStore) -> None:
    """Every row of `source` into the empty `target`, in one transaction: all of it or nothing."""
    conn = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        conn.execute("BEGIN")  # one consistent state of the source
        async with target.acquire() as pg, pg.transaction():
            for table in TABLES:
                if await pg.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                    raise TargetNotEmpty(
                        f"the target database is not empty (table {table} has rows); give an empty one"
                    )
            for table in TABLES:
                columns = COLUMNS[table]
                rows = _sqlite_rows(conn, table, columns)
                if rows:
                    try:
                        await pg.copy_records_to_table(table, records=rows, columns=columns)
                    except (*DB_ERRORS, ValueError, TypeError, OverflowError) as exc:
                        raise StoreError(f"the rows of table {table} cannot be copied ({_short(exc)})") from None
            for table in IDENTITY_TABLES:
                await pg.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                )
        conn.execute("COMMIT")
    except TargetNotEmpty:
        raise
    except StoreError as exc:
        raise StoreError(f"the copy failed and nothing was kept: {exc}") from None
    except (*DB_ERRORS, sqlite3.Error) as exc:
        raise StoreError(f"the copy failed and nothing was kept: {_short(exc)}") from None
    finally:
        conn.close()


async def _empty(target_url: str) -> str:
    """Delete every row the copy wrote (the target was empty before it), in one transaction; what was done."""
    try:
        target = await PostgresStore.open(target_url)
        try:
            async with target.acquire() as pg, pg.transaction():
                await pg.execute(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY")
        finally:
            await target.close()
    except (StoreError, *DB_ERRORS) as exc:
        return f"emptying the target again failed too ({_short(exc)}): empty it before running this again"
    return "the target was emptied again"


def _replayed(stored: StoredGame) -> tuple[object, object] | str:
    """The state and moves a stored game replays to, or why it does not replay."""
    try:
        players = [s.player or "" for s in stored.seats]
        moves = parse_moves(stored.game, [m.move for m in stored.moves])
        game = replay_moves(stored.game, players, moves)
    except Exception as exc:  # a damaged game: the same reason must come out of both sides
        return _short(exc)
    return game.state, game.moves


def _short(exc: BaseException) -> str:
    """An error in one line of at most 200 characters, for a message."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"


async def export_to_sqlite(source_url: str, target: Path) -> dict[str, int]:
    """Write the PostgreSQL database at `source_url` into the new SQLite file `target`, as of one moment."""
    try:
        store = await PostgresStore.open(source_url)
    except MigrationError as exc:  # another program's database, or not as this program makes it: untouched
        raise StoreError(f"{redact(source_url)}: {exc}") from None
    counts: dict[str, int] = {}
    try:
        made = await SqliteStore.open(target)  # an empty database with the current schema
        await made.close()
        conn = sqlite3.connect(target, isolation_level=None)
        try:
            conn.execute("BEGIN")
            async with store.acquire() as pg, pg.transaction(isolation="repeatable_read", readonly=True):
                for table in TABLES:
                    columns = COLUMNS[table]
                    order = ORDER[table]
                    rows = await pg.fetch(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
                    marks = ", ".join("?" for _ in columns)
                    conn.executemany(
                        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", [tuple(r) for r in rows]
                    )
                    counts[table] = len(rows)
            conn.execute("COMMIT")
            conn.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        finally:
            conn.close()
    except DB_ERRORS as exc:
        raise StoreError(f"cannot read {store.name}: {exc}") from exc
    finally:
        await store.close()
    return counts


async def verify(source: Path, target_url: str) -> CopyReport:
    """StoreError unless the PostgreSQL copy has every table's rows and every game replays to the same state."""
    conn = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        counts = {t: int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in TABLES}
    finally:
        conn.close()
    sqlite_store = await SqliteStore.open(source)
    pg_store = await PostgresStore.open(target_url)
    try:
        async with pg_store.acquire() as pg:
            for table in TABLES:
                copied = int(await pg.fetchval(f"SELECT COUNT(*) FROM {table}"))
                if copied != counts[table]:
                    raise StoreError(f"table {table}: {counts[table]} rows in the source, {copied} in the copy")
        replayed = 0
        for row in await sqlite_store.games.games_with_status(set(GameStatus)):
            before, after = await sqlite_store.games.stored_game(row.id), await pg_store.games.stored_game(row.id)
            if before is None or after is None or before != after:
                raise StoreError(f"game #{row.id} differs between the source and the copy")
            if before.game.seed is None:
                continue  # a lobby: nothing to replay
            outcomes = [_replayed(before), _replayed(after)]
            if outcomes[0] != outcomes[1]:
                raise StoreError(f"game #{row.id} replays to another state from the copy")
            if isinstance(outcomes[0], str):  # checked before the copy: only a change since then does this
                raise StoreError(f"game #{row.id} no longer replays ({outcomes[0]})")
            replayed += 1
    except StoreError:
        raise
    except Exception as exc:  # hostile rows: whatever reading them raised, one message
        raise StoreError(f"cannot verify the copy: {_short(exc)}") from None
    finally:
        await sqlite_store.close()
        await pg_store.close()
    return CopyReport(counts, replayed)
