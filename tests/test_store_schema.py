"""The tables of bot/store/schema.py (every query is built on them) are those the history makes, on both stores."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg

from bot.store import open_store, schema

PG_TYPES = {"bigint": "BIGINT", "integer": "INTEGER", "text": "TEXT", "double precision": "DOUBLE"}
# the tables each database keeps for itself besides Conductor's
OWN_TABLES = {"schema_migrations", "sqlite_sequence", "alembic_version"}


def declared() -> dict[str, list[tuple[str, bool, bool]]]:
    """Each table's columns as declared: (name, may be NULL, in the primary key), in order."""
    return {
        t.name: [(c.name, bool(c.nullable) and not c.primary_key, c.primary_key) for c in t.columns]
        for t in schema.TABLES
    }


def test_the_sqlite_schema_is_the_declared_one(tmp_path: Path) -> None:
    path = tmp_path / "made.sqlite3"

    async def make() -> None:
        await (await open_store(path)).close()

    asyncio.run(make())
    conn = sqlite3.connect(path)
    try:
        names = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        found = {
            name: [(str(r[1]), not r[3] and not r[5], bool(r[5])) for r in conn.execute(f'PRAGMA table_info("{name}")')]
            for name in names - OWN_TABLES
        }
    finally:
        conn.close()
    assert found == declared()


def test_the_postgres_schema_is_the_declared_one(pg_url: str) -> None:
    async def read() -> dict[str, list[tuple[str, bool, bool]]]:
        conn = await asyncpg.connect(pg_url)
        try:
            columns = await conn.fetch(
                "SELECT table_name, column_name, is_nullable, data_type FROM information_schema.columns "
                "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
            )
            keys = await conn.fetch(
                "SELECT k.table_name, k.column_name FROM information_schema.key_column_usage k "
                "JOIN information_schema.table_constraints c ON c.constraint_name = k.constraint_name "
                "AND c.table_name = k.table_name WHERE c.constraint_type = 'PRIMARY KEY' AND c.table_schema = 'public'"
            )
        finally:
            await conn.close()
        primary = {(r[0], r[1]) for r in keys}
        found: dict[str, list[tuple[str, bool, bool]]] = {}
        for table, column, nullable, kind in columns:
            if table in OWN_TABLES:
                continue
            assert kind in PG_TYPES, (table, column, kind)
            declared_type = schema.metadata.tables[table].c[column].type.compile()
            assert declared_type.startswith(PG_TYPES[kind]), (table, column, kind, declared_type)
            found.setdefault(table, []).append((column, nullable == "YES", (table, column) in primary))
        return found

    assert asyncio.run(read()) == declared()


def test_every_table_is_copied_parents_first() -> None:
    seen: set[str] = set()
    for table in schema.TABLES:
        for key in table.foreign_keys:
            assert key.column.table.name in seen or key.column.table is table, (table.name, key.target_fullname)
        seen.add(table.name)
    assert {t.name for t in schema.IDENTITY_TABLES} == {
        "games",
        "timers",
        "audit_log",
        "tournaments",
        "tournament_audit",
        "held_messages",
    }
