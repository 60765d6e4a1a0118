"""Copying a whole database between the two stores, and checking the copy.

`copy_to_postgres` moves an SQLite database into an empty PostgreSQL one
(`python -m bot migrate-store`); `export_to_sqlite` writes a PostgreSQL
database into a new SQLite file as of one moment, read in one REPEATABLE
READ transaction (`python -m bot backup` on PostgreSQL; `migrate-store`
reads such a file back). Both stores keep the same tables and columns with
values in the same form, so rows are copied as they are. `verify` compares
the two: the rows of every table counted, and every started game replayed
from its moves on each side to the same state.

Both stores are opened through the factory (`open_store`) and spoken to
through the `Store` protocol: the games through `store.games`, the rows of
whole tables through its `backend`, in units of work of `bot.store.query`
whose statements are SQLAlchemy Core over the schema (`schema.TABLES`),
compiled for each database. Only the checks of the SQLite file before it is
opened as a store (its header, SQLite's quick check, its tables' declared
columns) speak SQLite directly.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import ClauseElement, Executable, Table, exists, false, func, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler

from bot.commands.game_checks import game_problem
from bot.service.loading import parse_moves, replay_moves
from bot.store import schema
from bot.store.errors import MigrationError, StoreError
from bot.store.factory import describe, open_store
from bot.store.postgres.connection import DB_ERRORS
from bot.store.protocols import Store
from bot.store.query import Q, Row, Work, insert_rows, many, rows, scalar
from bot.store.revisions import upgrade_sqlite
from bot.store.rows import StoredGame
from bot.store.status import GameStatus

# Every table but the schema history's own (each database records its own), parents before children: from the schema.
TABLES = tuple(table.name for table in schema.TABLES)
# the tables whose ids the database hands out, so its counter must go on after the copied ones
IDENTITY_TABLES = tuple(table.name for table in schema.IDENTITY_TABLES)
# each table's columns, and the order its rows are copied in: by its key (moves in log order: the database checks it)
COLUMNS = {table.name: [column.name for column in table.columns] for table in schema.TABLES}


class Truncate(Executable, ClauseElement):
    """PostgreSQL's TRUNCATE of `tables`, their id counters restarted (SQLAlchemy Core has no construct for it)."""

    inherit_cache = False

    def __init__(self, tables: Sequence[Table]) -> None:
        self.tables = tuple(tables)


@compiles(Truncate)
def _truncate(element: Truncate, compiler: SQLCompiler, **kw: Any) -> str:
    names = ", ".join(compiler.preparer.format_table(table) for table in element.tables)
    return f"TRUNCATE {names} RESTART IDENTITY"


def _restart_ids(table: Table) -> Q:
    """PostgreSQL: the table's id counter set to go on after its highest id."""
    highest = select(func.max(table.c.id)).scalar_subquery()
    sequence = func.pg_get_serial_sequence(table.name, "id")
    return Q(select(func.setval(sequence, func.coalesce(highest, 0) + 1, false())), only="postgresql")


# each table's rows in the order they are copied in: by its key (moves in log order: the database checks it)
EVERY_ROW = {t.name: Q(select(*t.columns).order_by(*t.primary_key.columns)) for t in schema.TABLES}
COUNT = {t.name: Q(select(func.count()).select_from(t)) for t in schema.TABLES}
ANY_ROW = {t.name: Q(select(exists().select_from(t))) for t in schema.TABLES}
INSERT = {t.name: insert_rows(t, COLUMNS[t.name]) for t in schema.TABLES}
RESTART_IDS = {t.name: _restart_ids(t) for t in schema.IDENTITY_TABLES}
EMPTY = Q(Truncate(schema.TABLES), only="postgresql")
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
            target = await open_store(target_url)
        except MigrationError as exc:  # another program's database, or not as this program makes it: untouched
            raise StoreError(f"TO ({describe(target_url)}): {exc}") from None
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
    info = "SELECT name, type FROM pragma_table_info(?)"
    return {name: [(str(r[0]), str(r[1])) for r in conn.execute(info, (name,))] for name in names}


async def _check_games(source: Path, copy: Path) -> None:
    """StoreError unless every game of `copy` (of `source`) can be read and is one its rules make (dealt from its
    seed, its moves replayed by the rules, its snapshot what they make: `game_checks`); before anything is written.
    """
    store = await open_store(copy)
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


def _every_row() -> Work[dict[str, list[Row]]]:
    """The rows of every table, in their copy order."""
    found: dict[str, list[Row]] = {}
    for table in TABLES:
        found[table] = yield rows(EVERY_ROW[table])
    return found


def _write_every_row(every: dict[str, list[Row]]) -> Work[None]:
    """Every row of `every` into the empty database; TargetNotEmpty if any table has rows."""
    for table in TABLES:
        if (yield scalar(ANY_ROW[table])):
            raise TargetNotEmpty(f"the target database is not empty (table {table} has rows); give an empty one")
    for table in TABLES:
        if every[table]:
            sets = [dict(zip(COLUMNS[table], row, strict=True)) for row in every[table]]
            try:
                yield many(INSERT[table], sets)
            except (*DB_ERRORS, StoreError, ValueError, TypeError, OverflowError) as exc:
                raise StoreError(f"the rows of table {table} cannot be copied ({_short(exc)})") from None
    for table in IDENTITY_TABLES:
        yield scalar(RESTART_IDS[table])


async def _copy_rows(source: Path, target: Store) -> None:
    """Every row of `source` (one consistent state of it) into the empty `target`, in one transaction: all of it
    or nothing."""
    try:
        reader = await open_store(source)
        try:
            every = await reader.backend.do_read(_every_row)
        finally:
            await reader.close()
        await target.backend.do_write(lambda: _write_every_row(every))
    except TargetNotEmpty:
        raise
    except StoreError as exc:
        raise StoreError(f"the copy failed and nothing was kept: {exc}") from None
    except (*DB_ERRORS, sqlite3.Error) as exc:
        raise StoreError(f"the copy failed and nothing was kept: {_short(exc)}") from None


async def _empty(target_url: str) -> str:
    """Delete every row the copy wrote (the target was empty before it), in one transaction; what was done."""
    try:
        target = await open_store(target_url)
        try:
            await target.backend.execute(EMPTY)
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
        store = await open_store(source_url)
    except MigrationError as exc:  # another program's database, or not as this program makes it: untouched
        raise StoreError(f"{describe(source_url)}: {exc}") from None
    try:
        every = await store.backend.do_read(_every_row)  # one REPEATABLE READ transaction
    except DB_ERRORS as exc:
        raise StoreError(f"cannot read {describe(source_url)}: {exc}") from exc
    finally:
        await store.close()
    made = await open_store(target)  # an empty database with the current schema
    try:
        await made.backend.do_write(lambda: _write_every_row(every))
    finally:
        await made.close()
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
    finally:
        conn.close()
    return {table: len(every[table]) for table in TABLES}


async def _counts(store: Store) -> dict[str, int]:
    def work() -> Work[dict[str, int]]:
        counts: dict[str, int] = {}
        for table in TABLES:
            counts[table] = int((yield scalar(COUNT[table])))
        return counts

    return await store.backend.do_read(work)


async def verify(source: Path, target_url: str) -> CopyReport:
    """StoreError unless the PostgreSQL copy has every table's rows and every game replays to the same state."""
    sqlite_store = await open_store(source)
    try:
        pg_store = await open_store(target_url)
    except BaseException:
        await sqlite_store.close()
        raise
    try:
        counts, copied = await _counts(sqlite_store), await _counts(pg_store)
        for table in TABLES:
            if copied[table] != counts[table]:
                raise StoreError(f"table {table}: {counts[table]} rows in the source, {copied[table]} in the copy")
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
