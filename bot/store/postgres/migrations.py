"""The PostgreSQL schema migrations (frozen at 0016, see bot/store/revisions): `migrations/postgres/NNNN_name.sql`.

Each is applied once, in its own transaction, and recorded in
`schema_migrations` as on SQLite. Two processes starting together take turns:
the whole run holds a session advisory lock, so the second one waits and
then finds nothing left to do.
"""

from __future__ import annotations

from datetime import UTC, datetime

import asyncpg

from bot.store.migrations import Migration, MigrationError, available
from bot.store.postgres.connection import Conn

# pg_advisory_lock key of the migrations ("Cond" in ASCII): any constant every process agrees on
MIGRATION_LOCK = 0x436F6E64


async def applied(conn: Conn) -> list[int]:
    """Versions recorded in the database, in order; none for a new database."""
    if await conn.fetchval("SELECT to_regclass('schema_migrations')") is None:
        return []
    return [int(row[0]) for row in await conn.fetch("SELECT version FROM schema_migrations ORDER BY version")]


async def migrate(conn: Conn, migrations: list[Migration] | None = None, target: int | None = None) -> list[int]:
    """Apply the missing migrations up to `target` (all by default); the versions applied now."""
    todo = available("postgres") if migrations is None else list(migrations)
    known = {m.version for m in todo}
    newest = max(known, default=0)
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        done = await applied(conn)
        unknown = [v for v in done if v not in known]
        if unknown:
            raise MigrationError(
                f"the database has schema version {max(done)}, newer than this program knows ({newest}); "
                "run a newer version of the bot, or restore a backup made by this one"
            )
        now: list[int] = []
        for migration in todo:
            if target is not None and migration.version > target:
                break
            if migration.version in done:
                continue
            try:
                async with conn.transaction():
                    await conn.execute(
                        "CREATE TABLE IF NOT EXISTS schema_migrations "
                        "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
                    )
                    await conn.execute(migration.sql)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                        migration.version,
                        migration.name,
                        datetime.now(UTC).isoformat(timespec="microseconds"),
                    )
            except asyncpg.PostgresError as exc:
                label = f"{migration.version:04d}_{migration.name}"
                raise MigrationError(f"migration {label} failed and was rolled back: {exc}") from exc
            now.append(migration.version)
        return now
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
