"""The schema's history (bot/store/revisions) makes the schema the bot's databases of main have, on both stores.

A new database (the whole history run) is compared by introspection with a database of main before this history
was Alembic's (tests/fixtures/main-0016.*, upgraded in place) and with one the numbered migrations left at
version 9 (tests/fixtures/old-0009.*, made by tests/fixtures/make_stopped_databases.py, upgraded in place):
tables, columns with their types, nullability and defaults, keys, checks, indexes and triggers. The tables
of bot/store/schema.py, which every query is built on, are those the history makes (Alembic's comparison).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from helpers.dumps import restored_postgres
from sqlalchemy import Connection, UniqueConstraint
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.store import MigrationError, open_store, schema
from bot.store.revisions import HEAD
from tools.pg_server import PgServer

FIXTURES = Path(__file__).parent / "fixtures"
# the tables each database keeps for itself besides Conductor's
OWN_TABLES = {"schema_migrations", "sqlite_sequence", "alembic_version"}


def _squeeze(sql: str) -> str:
    sql = re.sub(r"\s+", " ", sql.replace('"', "")).strip()
    return re.sub(r"\( ", "(", re.sub(r" \)", ")", sql))


def _checks(sql: str) -> list[str]:
    """The CHECK constraints of a CREATE TABLE, each as `CHECK (...)` with its spaces squeezed."""
    found = []
    for match in re.finditer(r"\bCHECK\s*\(", sql, re.IGNORECASE):
        depth, start = 0, match.end() - 1
        for end in range(start, len(sql)):
            depth += {"(": 1, ")": -1}.get(sql[end], 0)
            if depth == 0:
                found.append(_squeeze(sql[start : end + 1]))
                break
    return sorted(found)


def sqlite_schema(path: Path) -> dict[str, Any]:
    """Every table (with its columns, keys, checks and indexes) and trigger of the SQLite database at `path`."""
    conn = sqlite3.connect(path)
    try:
        tables: dict[str, Any] = {}
        for name, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"):
            if name in OWN_TABLES:
                continue
            keys: dict[int, list[Any]] = {}
            for row in conn.execute(f'PRAGMA foreign_key_list("{name}")'):
                keys.setdefault(row[0], []).append(row[2:])
            indexes = []
            for _, index, unique, origin, partial in conn.execute(f'PRAGMA index_list("{name}")'):
                columns = tuple(r[2] for r in conn.execute(f'PRAGMA index_info("{index}")'))
                made = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (index,)).fetchone()
                named = origin == "c"  # made by CREATE INDEX, not for a key (whose index SQLite names by its place)
                sql_of = _squeeze(made[0]) if made and made[0] else ""
                indexes.append((index if named else "", unique, origin, partial, columns, sql_of))
            tables[name] = {
                "rowid": "WITHOUT ROWID" not in sql.upper(),
                "columns": [tuple(r[1:]) for r in conn.execute(f'PRAGMA table_xinfo("{name}")')],
                "keys": sorted(tuple(map(tuple, rows)) for rows in keys.values()),
                "checks": _checks(sql),
                "indexes": sorted(indexes),
            }
        triggers = {
            name: (table, _squeeze(sql))
            for name, table, sql in conn.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")
        }
    finally:
        conn.close()
    return {"tables": tables, "triggers": triggers}


async def postgres_schema(url: str) -> dict[str, Any]:
    """Every table (columns, constraints, indexes), sequence, trigger and function of the database at `url`."""
    conn = await asyncpg.connect(url)
    try:
        own = list(OWN_TABLES)
        columns = await conn.fetch(
            "SELECT table_name, ordinal_position, column_name, data_type, is_nullable, column_default, "
            "collation_name, is_identity, identity_generation FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name <> ALL($1::text[]) ORDER BY 1, 2",
            own,
        )
        constraints = await conn.fetch(
            "SELECT conrelid::regclass::text, conname, contype, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> ALL($1::text[]) ORDER BY 1, 2",
            own,
        )
        indexes = await conn.fetch(
            "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' "
            "AND tablename <> ALL($1::text[]) ORDER BY 1, 2",
            own,
        )
        sequences = await conn.fetch(
            "SELECT sequencename, data_type::text, start_value, increment_by FROM pg_sequences "
            "WHERE schemaname = 'public' ORDER BY 1"
        )
        triggers = await conn.fetch(
            "SELECT tgrelid::regclass::text, tgname, pg_get_triggerdef(oid) FROM pg_trigger "
            "WHERE NOT tgisinternal ORDER BY 1, 2"
        )
        functions = await conn.fetch(
            "SELECT proname, prosrc FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1"
        )
    finally:
        await conn.close()
    return {
        what: [tuple(row) for row in rows]
        for what, rows in {
            "columns": columns,
            "constraints": constraints,
            "indexes": indexes,
            "sequences": sequences,
            "triggers": triggers,
            "functions": functions,
        }.items()
    }


def _sqlite_from(tmp_path: Path, dump: str) -> Path:
    path = tmp_path / f"{dump}.sqlite3"
    made = sqlite3.connect(path)
    try:
        made.executescript((FIXTURES / dump).read_text(encoding="utf-8"))
    finally:
        made.close()
    return path


async def _opened(database: Path | str) -> None:
    await (await open_store(database)).close()


def test_the_history_makes_the_sqlite_schema_of_main(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    asyncio.run(_opened(fresh))
    made = sqlite_schema(fresh)
    assert set(made["tables"]) == {t.name for t in schema.TABLES}
    games = made["tables"]["games"]
    assert len(games["checks"]) == 2 and games["rowid"] is True and len(games["indexes"]) == 2
    assert made["tables"]["heartbeat"]["checks"] == []  # 0008 took the one-row check off
    assert made["tables"]["seats"]["rowid"] is False
    assert set(made["triggers"]) == {
        "moves_in_order",
        "moves_no_update",
        "moves_no_delete",
        "audit_log_no_update",
        "audit_log_no_delete",
    }
    for dump in ("main-0016.sqlite.sql", "old-0009.sqlite.sql"):
        old = _sqlite_from(tmp_path, dump)
        asyncio.run(_opened(old))
        assert sqlite_schema(old) == made, dump
        conn = sqlite3.connect(old)
        try:
            assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD,)]
        finally:
            conn.close()


def test_the_history_makes_the_postgres_schema_of_main(pg_server: PgServer, pg_url: str) -> None:
    made = asyncio.run(postgres_schema(pg_url))  # a copy of a database the whole history made
    assert {row[0] for row in made["columns"]} == {t.name for t in schema.TABLES}
    assert len(made["triggers"]) == 5 and len(made["functions"]) == 4
    for dump in ("main-0016.postgres.sql", "old-0009.postgres.sql"):
        url = restored_postgres(pg_server, dump)
        asyncio.run(_opened(url))
        assert asyncio.run(postgres_schema(url)) == made, dump
        assert asyncio.run(_recorded(url)) == HEAD


async def _recorded(url: str) -> object:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT version_num FROM alembic_version")
    finally:
        await conn.close()


def test_a_postgres_database_of_a_newer_numbered_migration_is_refused(pg_server: PgServer) -> None:
    url = restored_postgres(pg_server, "old-0009.postgres.sql")

    async def run() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("INSERT INTO schema_migrations VALUES (99, 'from_the_future', '2030-01-01')")
        finally:
            await conn.close()
        with pytest.raises(MigrationError, match="schema version 99, newer than this program knows"):
            await open_store(url)
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SELECT to_regclass('alembic_version')") is None
        finally:
            await conn.close()

    asyncio.run(run())


def _differences(connection: Connection) -> list[Any]:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, schema.metadata))


def test_the_declared_tables_are_those_the_history_makes(pg_url: str) -> None:
    """Alembic's comparison of bot/store/schema.py (declared as on PostgreSQL) with a new database finds no table,
    column, type, nullability, primary or foreign key apart; indexes and unique constraints live in the history
    alone."""

    async def compare() -> list[Any]:
        engine = create_async_engine(pg_url.replace("postgresql://", "postgresql+asyncpg://", 1), poolclass=NullPool)
        try:
            async with engine.connect() as connection:
                return await connection.run_sync(_differences)
        finally:
            await engine.dispose()

    differences = asyncio.run(compare())
    history_only = {
        d
        for d in differences
        if isinstance(d, tuple)
        and (
            d[0] == "remove_index"
            or (d[0] == "remove_constraint" and isinstance(d[1], UniqueConstraint))
            or (d[0] == "remove_table" and d[1].name in OWN_TABLES)
        )
    }
    assert len(history_only) >= 18
    assert [d for d in differences if d not in history_only] == []
