"""The schema's history (Alembic), one for both stores, and running it at start-up.

`versions/` holds the revisions, each written once for SQLite and PostgreSQL
with Alembic's `op` (new ones: `alembic -c bot/store/revisions/alembic.ini
revision -m "what it does"`). Its first revision is the baseline: the schema
the frozen numbered migrations (bot/store/migrations/) make, which run just
before it, so a database from before this history is at the baseline when the
history starts and only gets it recorded in `alembic_version`.

Both run under the lock each store already takes for migrations: SQLite's
BEGIN IMMEDIATE (the whole history in one transaction) and PostgreSQL's session
advisory lock, so processes starting together take turns. A database already
at `HEAD` (every start but the first after an upgrade of the bot) is only
read, and Alembic is not even imported (it would cost the process some 9 MiB).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncpg
from sqlalchemy import Connection, create_engine, event
from sqlalchemy.pool import NullPool

from bot.store.migrations import MigrationError
from bot.store.schema import metadata

if TYPE_CHECKING:
    from alembic.config import Config

    from bot.store.postgres.connection import Conn

FOLDER = Path(__file__).parent
# The newest revision of versions/ (tests/test_store_upgrade.py checks it is Alembic's head): a database recorded
# there needs nothing.
HEAD = "0017_member_rates"
# pg_advisory_lock key of the migrations ("Cond" in ASCII), as bot/store/postgres/migrations.py takes it
MIGRATION_LOCK = 0x436F6E64


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


def _run(connection: Connection) -> None:
    """Bring the database on `connection` to the newest revision (in the transaction the caller began)."""
    from alembic.runtime.environment import EnvironmentContext
    from alembic.script import ScriptDirectory
    from alembic.util.exc import CommandError

    settings = config()
    directory = ScriptDirectory.from_config(settings)

    def upgrade(revision: Any, context: Any) -> Any:
        return directory._upgrade_revs("head", revision)

    try:
        with EnvironmentContext(settings, directory, fn=upgrade) as env:
            env.configure(connection=connection, target_metadata=metadata)
            env.run_migrations()
    except CommandError as exc:
        raise MigrationError(
            f"the database's schema ({exc}) is newer than this program knows ({head()}); "
            "run a newer version of the bot, or restore a backup made by this one"
        ) from None


class _Borrowed:
    """The store's own sqlite3 connection, lent to SQLAlchemy: everything but closing it."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def close(self) -> None:
        pass


def upgrade_sqlite(conn: sqlite3.Connection) -> None:
    """Run the history on the store's connection (autocommit mode), in one BEGIN IMMEDIATE ... COMMIT."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'").fetchone():
        if [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")] == [HEAD]:
            return
    engine = create_engine("sqlite://", creator=lambda: _Borrowed(conn), poolclass=NullPool)

    @event.listens_for(engine, "begin")
    def begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    with engine.begin() as connection:
        _run(connection)


async def upgrade_postgres(url: str, conn: Conn) -> None:
    """Run the history on a connection of its own, holding the migrations' advisory lock meanwhile (unless `conn`,
    a connection of the store, finds the database at HEAD)."""
    if await conn.fetchval("SELECT to_regclass('alembic_version')") is not None:
        if [row[0] for row in await conn.fetch("SELECT version_num FROM alembic_version")] == [HEAD]:
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
                    await connection.run_sync(_run)
            finally:
                await driver.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
    finally:
        await engine.dispose()
