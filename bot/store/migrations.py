"""The numbered schema migrations (frozen): SQL files, each applied once, in one transaction, and recorded.

PostgreSQL has its own twin of each file (bot/store/postgres/migrations.py applies them).
`bot/store/migrations/NNNN_name.sql` holds them. At start-up the store applies
the ones a database lacks, so an old database upgrades itself and a database
that is up to date is left alone. They end at 0016, the baseline of the
schema's history, which goes on in `bot/store/revisions` (Alembic, one for both
stores): no migration is added here any more. The functions here are
synchronous: they run on the store's database thread.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class MigrationError(RuntimeError):
    """The schema cannot be brought up to date; the message says why."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def available(flavour: str = "sqlite") -> list[Migration]:
    """The project's migrations for SQLite or ("postgres") PostgreSQL, in order; numbered from 1, each number
    once (a gap is allowed: branches developed side by side each take their own number, and a database applies
    every migration it has not applied yet, whatever its number).

    SQLite's are in `migrations/`, PostgreSQL's twins (same numbers and names) in `migrations/postgres/`.
    """
    found: list[Migration] = []
    folder = resources.files("bot.store").joinpath("migrations")
    if flavour == "postgres":
        folder = folder.joinpath("postgres")
    elif flavour != "sqlite":
        raise ValueError(f"no migrations for {flavour!r}")
    for entry in folder.iterdir():
        match = FILE_NAME.match(entry.name)
        if match is None:
            continue
        found.append(Migration(int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    numbers = [m.version for m in found]
    if not numbers or numbers[0] != 1 or len(set(numbers)) != len(numbers):
        raise MigrationError(f"migration files must be numbered from 1, each number once; found {numbers}")
    return found


def statements(sql: str) -> list[str]:
    """The SQL statements of a script, split where SQLite itself says a statement ends.

    Splitting at every `;` would cut triggers (`BEGIN ...; END;`) and texts
    holding a `;`; `sqlite3.complete_statement` knows both.
    """
    out: list[str] = []
    pending = ""
    for piece in sql.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            out.append(pending.strip())
            pending = ""
    rest = pending[:-1].strip()  # the split added a ";" that was not in the script
    if _has_code(rest):
        raise MigrationError(f"the script ends inside a statement: {rest[:80]!r}")
    return [s for s in out if _has_code(s)]


def _has_code(sql: str) -> bool:
    lines = (line.split("--", 1)[0].strip() for line in sql.splitlines())
    return any(line and line != ";" for line in lines)


def applied(conn: sqlite3.Connection) -> list[int]:
    """Versions recorded in the database, in order; none for a new database."""
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").fetchone()
    if exists is None:
        return []
    return [row[0] for row in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]


def migrate(
    conn: sqlite3.Connection,
    migrations: Sequence[Migration] | None = None,
    target: int | None = None,
) -> list[int]:
    """Apply the missing migrations up to `target` (all by default); the versions applied now.

    `conn` must be in autocommit mode (isolation_level None): each migration
    is its own BEGIN IMMEDIATE ... COMMIT, and the check of what is applied
    happens inside it, so two processes starting together apply each once.
    """
    todo = available() if migrations is None else list(migrations)
    known = {m.version for m in todo}
    newest = max(known, default=0)
    done = applied(conn)
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
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            if conn.execute("SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,)).fetchone():
                conn.execute("COMMIT")
                continue
            for statement in statements(migration.sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, datetime.now(UTC).isoformat(timespec="microseconds")),
            )
            conn.execute("COMMIT")
        except BaseException as exc:
            conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                label = f"{migration.version:04d}_{migration.name}"
                raise MigrationError(f"migration {label} failed and was rolled back: {exc}") from exc
            raise
        now.append(migration.version)
    return now
