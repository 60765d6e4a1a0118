"""The schema's history (Alembic), one for both stores, and running it at start-up.

`versions/` holds the revisions, from the first schema (`0001_initial`) on, each written once for SQLite and
PostgreSQL with Alembic's `op` and the column types of `types.py`; the triggers, the one thing the two databases
cannot share, are written for each in `triggers.py`. New revisions: `alembic -c bot/store/revisions/alembic.ini
revision -m "what it does"`.

Until `0016_baseline` the history was numbered SQL files, one for each database, recorded in a table
`schema_migrations` (1 to 11, then 16). A database made then, with no `alembic_version`, has the revision its
highest number matches (`NUMBERED`) recorded at its first start, and goes on from there; a number this program
does not know is refused as newer than it. A database with no table at all is new and gets the whole history.

Before anything is written, `found.judge` decides from what the database holds whether it is Conductor's to
open: another program's tables, a revision that is not this history's, or a database at `HEAD` whose tables are
not those `schema.py` declares are refused with a typed MigrationError saying what was found, and nothing is
written. After the history ran, the tables it left are checked the same way, in its transaction.

It runs under the lock each store takes for it: SQLite's BEGIN IMMEDIATE on the store's connection (the
recording and the whole history in one transaction) and PostgreSQL's session advisory lock `MIGRATION_LOCK`
around one transaction, so processes starting together take turns and a failing revision leaves nothing
behind. A database already at `HEAD` (every start but the first after an upgrade of the bot) is only read (its
tables and columns, checked), and Alembic is not even imported (it would cost the process some 9 MiB).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncpg
from sqlalchemy import Connection, create_engine, event, inspect, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from bot.store.errors import MigrationError, SchemaMismatch
from bot.store.revisions.found import judge, mismatches, read_postgres, read_sqlite
from bot.store.schema import metadata

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from bot.store.postgres.connection import Conn

FOLDER = Path(__file__).parent
# The newest revision of versions/ (tests/test_store_upgrade.py checks it is Alembic's head): a database recorded
# there needs nothing.
HEAD = "0019_table_message_keys"
# pg_advisory_lock key of the schema's history ("Cond" in ASCII): any constant every process agrees on
MIGRATION_LOCK = 0x436F6E64
# The numbered migrations the history began as (schema_migrations.version), each with the revision that leaves a
# database where it did.
NUMBERED = {
    1: "0001_initial",
    2: "0002_timers_and_messages",
    3: "0003_discord",
    4: "0004_clock_and_moderation",
    5: "0005_heartbeat",
    6: "0006_member_settings",
    7: "0007_ratings",
    8: "0008_shard_heartbeats",
    9: "0009_tournaments",
    10: "0010_tournament_messages",
    11: "0011_stage_buttons",
    16: "0016_baseline",
}


def config() -> Config:
    from alembic.config import Config

    found = Config()
    found.set_main_option("script_location", str(FOLDER))
    return found


def head() -> str:
    """The newest revision, as Alembic finds it in versions/."""
    from alembic.script import ScriptDirectory

    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def _numbered(connection: Connection) -> str | None:
    """The revision a database from before the Alembic history is at (by its schema_migrations), or None."""
    if not inspect(connection).has_table("schema_migrations"):
        return None
    done = sorted(int(row[0]) for row in connection.execute(text("SELECT version FROM schema_migrations")))
    if not done:
        return None
    if any(version not in NUMBERED for version in done):
        raise MigrationError(
            f"the database has schema version {max(done)}, newer than this program knows ({max(NUMBERED)}); "
            "run a newer version of the bot, or restore a backup made by this one"
        )
    lacking = [version for version in NUMBERED if version < max(done) and version not in done]
    if lacking:
        raise MigrationError(
            f"the database has schema version {max(done)} but not {lacking}: it was not made by this bot's "
            "migrations; restore a backup made by the bot"
        )
    return NUMBERED[max(done)]


def _failed(directory: ScriptDirectory, before: str | None) -> str:
    """The revision after `before` (the first one if None): the one that failed."""
    for script in directory.walk_revisions():
        if script.down_revision == before:
            return script.revision
    return "?"


def _run(connection: Connection, target: str = "head") -> None:
    """Bring the database on `connection` to `target` (the newest revision), in the transaction the caller began;
    a database from before the history first gets the revision it is at recorded."""
    from alembic.runtime.environment import EnvironmentContext
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from alembic.util.exc import CommandError

    settings = config()
    directory = ScriptDirectory.from_config(settings)
    current = MigrationContext.configure(connection).get_current_heads()
    if not current:
        numbered = _numbered(connection)
        if numbered is not None:
            MigrationContext.configure(connection).stamp(directory, numbered)
            current = (numbered,)
    done: list[str] = []

    def upgrade(revision: Any, context: Any) -> Any:
        return directory._upgrade_revs(target, revision)

    def applied(*, step: Any, **_: Any) -> None:
        done.extend(step.up_revision_ids)

    record: Any = applied  # Alembic calls it with keywords (its annotation says positional arguments)
    try:
        with EnvironmentContext(settings, directory, fn=upgrade) as env:
            env.configure(connection=connection, target_metadata=metadata, on_version_apply=record)
            env.run_migrations()
    except CommandError as exc:
        raise MigrationError(
            f"the database's schema ({exc}) is newer than this program knows ({head()}); "
            "run a newer version of the bot, or restore a backup made by this one"
        ) from None
    except DBAPIError as exc:
        failed = _failed(directory, done[-1] if done else (current[0] if current else None))
        raise MigrationError(f"revision {failed} failed and was rolled back: {exc.orig}") from exc
    if target in ("head", HEAD):
        _check_made(connection, current[0] if current else None)


def _check_made(connection: Connection, before: str | None) -> None:
    """SchemaMismatch (the caller's transaction rolled back: nothing kept) unless the history left the tables this
    program declares: a database at an older revision with a table dropped or changed is refused too."""
    found = inspect(connection)
    tables = {name: tuple(c["name"] for c in found.get_columns(name)) for name in found.get_table_names()}
    problems = mismatches(tables)
    if problems:
        raise SchemaMismatch(HEAD, (f"brought up to date from {before or 'nothing'}, {problems[0]}", *problems[1:]))


class _Borrowed:
    """The store's own sqlite3 connection, lent to SQLAlchemy: everything but closing it."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def close(self) -> None:
        pass


def check_sqlite(conn: sqlite3.Connection) -> bool:
    """Whether the SQLite database on `conn` is at HEAD as this program makes it (False: the history is to run);
    a MigrationError if it is not Conductor's to open (`found.judge`). Only reads."""
    return judge(read_sqlite(conn), HEAD, FOLDER)


def upgrade_sqlite(conn: sqlite3.Connection, target: str = "head") -> None:
    """Run the history (up to `target`, all of it by default) on the store's connection (autocommit mode), in one
    BEGIN IMMEDIATE ... COMMIT."""
    if check_sqlite(conn):
        return
    engine = create_engine("sqlite://", creator=lambda: _Borrowed(conn), poolclass=NullPool)

    @event.listens_for(engine, "begin")
    def begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    with engine.begin() as connection:
        _run(connection, target)


async def upgrade_postgres(url: str, conn: Conn | asyncpg.Connection[Any], target: str = "head") -> None:
    """Run the history (up to `target`, all of it by default) on a connection of its own, in one transaction,
    holding the advisory lock meanwhile (unless `conn`, a connection of the store, finds the database at HEAD)."""
    if judge(await read_postgres(conn), HEAD, FOLDER):
        return
    from sqlalchemy.ext.asyncio import create_async_engine

    async def connect() -> Any:
        return await asyncpg.connect(url)

    engine = create_async_engine("postgresql+asyncpg://", async_creator=connect, poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            raw = await connection.get_raw_connection()
            driver: asyncpg.Connection[Any] = raw.driver_connection  # type: ignore[assignment]
            await driver.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                async with connection.begin():
                    await connection.run_sync(_run, target)
            finally:
                await driver.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
    finally:
        await engine.dispose()
