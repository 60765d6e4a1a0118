"""What a database holds before the store writes anything to it, and whether it is Conductor's to open.

Read at every start, before the first write (on SQLite before even the journal mode is set):

- no table at all: a new database, which the whole history makes;
- tables but no record of Conductor's schema (no `alembic_version` row, no `schema_migrations` row), or an
  `alembic_version` of another program beside tables none of which is Conductor's: another program's database,
  refused naming its tables (`ForeignDatabase`);
- a revision of this program's history older than `HEAD`: the history brings it up to date (and the schema it
  leaves is checked as at `HEAD`, in the same transaction, see `revisions._run`);
- `HEAD`: every table this program declares (bot/store/schema.py) must be there with exactly its columns, or the
  start is refused naming what is missing or added (`SchemaMismatch`); types, checks and indexes are the
  history's, and `migrate-store` compares them;
- a revision numbered after `HEAD` the way this history numbers them: a newer program's (`MigrationError`);
- anything else (text that is no revision of this history, several revisions at once): `UnknownRevision`.

Tables of other PostgreSQL schemas count when deciding whether a database is empty; only the store's own schema
(the first of the search path) is compared with the declared tables.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.store.errors import ForeignDatabase, MigrationError, SchemaMismatch, UnknownRevision
from bot.store.schema import metadata

if TYPE_CHECKING:
    import asyncpg

    from bot.store.postgres.connection import Conn

# the tables the history keeps for itself
HISTORY = ("alembic_version", "schema_migrations")
# how this history names its revisions (`NNNN_what`): a newer program's revision is numbered after HEAD's
NUMBERED_REVISION = re.compile(r"(\d{4})_[a-z0-9_]+")
# the most problems of one database a message names
MOST_NAMED = 6


@dataclass(frozen=True)
class Found:
    """A database as read before anything is written to it."""

    tables: dict[str, tuple[str, ...]]  # each table with its columns (another PostgreSQL schema's as schema.table)
    revisions: tuple[str, ...] | None  # the rows of alembic_version; None without that table
    numbered: bool  # schema_migrations has a row (a database from before the Alembic history)


def read_sqlite(conn: sqlite3.Connection) -> Found:
    """What the SQLite database on `conn` holds; only reads."""
    names = [
        str(row[0])
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        )
    ]
    tables = {
        name: tuple(str(row[1]) for row in conn.execute(f'PRAGMA table_info("{name.replace(chr(34), chr(34) * 2)}")'))
        for name in names
    }
    revisions = None
    if "alembic_version" in tables:
        revisions = tuple(str(row[0]) for row in conn.execute("SELECT version_num FROM alembic_version"))
    numbered = "schema_migrations" in tables and conn.execute("SELECT 1 FROM schema_migrations").fetchone() is not None
    return Found(tables, revisions, numbered)


# every ordinary or partitioned table outside PostgreSQL's own schemas, with its columns in order
POSTGRES_TABLES = r"""
SELECT n.nspname = current_schema() AS own, n.nspname AS schema, c.relname AS name,
       COALESCE(array_agg(a.attname::text ORDER BY a.attnum) FILTER (WHERE a.attnum > 0 AND NOT a.attisdropped),
                '{}') AS columns
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_attribute a ON a.attrelid = c.oid
WHERE c.relkind IN ('r', 'p') AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\_%'
GROUP BY n.nspname, c.relname
"""


async def read_postgres(conn: Conn | asyncpg.Connection[Any]) -> Found:
    """What the PostgreSQL database on `conn` holds; only reads."""
    tables = {
        (str(r["name"]) if r["own"] else f"{r['schema']}.{r['name']}"): tuple(r["columns"])
        for r in await conn.fetch(POSTGRES_TABLES)
    }
    revisions = None
    if "alembic_version" in tables:
        revisions = tuple(str(r[0]) for r in await conn.fetch("SELECT version_num FROM alembic_version"))
    numbered = "schema_migrations" in tables and bool(
        await conn.fetchval("SELECT EXISTS (SELECT 1 FROM schema_migrations)")
    )
    return Found(tables, revisions, numbered)


@lru_cache
def known(folder: Path) -> frozenset[str]:
    """The revisions of the history in `folder` (each file is named after its revision)."""
    return frozenset(path.stem for path in (folder / "versions").glob("[0-9]*.py"))


def shown(text: str) -> str:
    """A value read from the database as a message may quote it: on one line, at most 60 characters."""
    quoted = repr(text)
    return quoted if len(quoted) <= 60 else quoted[:59] + "…"


def judge(found: Found, head: str, folder: Path) -> bool:
    """Whether the database is at `head` as this program makes it (True: nothing to do) or is for the history to
    make or bring up to date (False); a MigrationError saying what is wrong if it is neither."""
    own = tuple(sorted(name for name in found.tables if name not in HISTORY))
    recorded = found.revisions or ()
    if not recorded and not found.numbered:
        if own:
            raise ForeignDatabase(own)
        return False  # new: the whole history makes it
    if len(recorded) > 1:
        raise UnknownRevision(tuple(shown(r) for r in recorded), head)
    if not recorded:
        return False  # from before the Alembic history: `revisions._numbered` finds where it stands
    revision = recorded[0]
    if revision == head:
        problems = mismatches(found.tables)
        if problems:
            raise SchemaMismatch(head, problems)
        return True
    if revision in known(folder):
        return False
    if not any(table.name in found.tables for table in metadata.sorted_tables):
        raise ForeignDatabase(own, shown(revision))
    number = NUMBERED_REVISION.fullmatch(revision)
    if number and int(number[1]) > (int(head[:4]) if head[:4].isdigit() else 0):
        raise MigrationError(
            f"the database's schema revision {revision} is newer than this program knows ({head}); "
            "run a newer version of the bot, or restore a backup made by this one"
        )
    raise UnknownRevision((shown(revision),), head)


def mismatches(tables: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """How the tables differ from those this program declares: each declared table missing, or with a column
    missing or one added; the first few."""
    problems = []
    for table in metadata.sorted_tables:
        columns = tables.get(table.name)
        if columns is None:
            problems.append(f"its table {table.name} is missing")
            continue
        declared = [column.name for column in table.columns]
        lacking = [name for name in declared if name not in columns]
        added = [name for name in columns if name not in declared]
        if lacking:
            problems.append(f"its table {table.name} lacks the column{'s' * (len(lacking) > 1)} {', '.join(lacking)}")
        if added:
            problems.append(
                f"its table {table.name} has the column{'s' * (len(added) > 1)} {', '.join(added)}, "
                "which this program does not make"
            )
    if len(problems) > MOST_NAMED:
        problems[MOST_NAMED - 1 :] = [f"{len(problems) - MOST_NAMED + 1} more differences"]
    return tuple(problems)
