"""Revision 0019_table_message_keys on both stores: a message may be recorded under several stage keys.

The live table is one message edited for every stage (bot/table/live_table.py), recorded under each stage's
key. Before the revision a unique index on the message id refused every key after the first (an insert that
is ignored on a conflict: silently); after it, the rows of an older database are all there and a second key
of the same message is kept.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.store.revisions import upgrade_postgres, upgrade_sqlite
from tests.helpers.dumps import blank_postgres
from tools.pg_server import PgServer

STAMP = "2026-01-01T10:00:00.000000+00:00"
LATER = "2026-01-01T11:00:00.000000+00:00"
GAME_SQL = (
    "INSERT INTO games (id, guild_id, channel_id, host_user_id, map, seed, status, created_at, updated_at) VALUES ({})"
)
MESSAGE_SQL = "INSERT INTO messages (game_id, kind, channel_id, message_id, created_at, buttons) VALUES ({})"
OLD = [(1, "setup", 10, 101, STAMP, 0), (1, "turn:1", 10, 102, STAMP, 1)]
SECOND_KEY = (1, "turn:2", 10, 102, LATER, 1)  # the table (message 102) shows the next turn
GAME = (1, 1, 10, 100, "usa", "s", "playing", STAMP, STAMP)


def test_sqlite_keeps_a_second_key_of_a_message_after_the_revision(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "old.sqlite3", isolation_level=None)
    try:
        upgrade_sqlite(conn, "0017_member_rates")
        conn.execute(GAME_SQL.format(", ".join("?" * 9)), GAME)
        for row in OLD:
            conn.execute(MESSAGE_SQL.format(", ".join("?" * 6)), row)
        with pytest.raises(sqlite3.IntegrityError):  # what the old index refused
            conn.execute(MESSAGE_SQL.format(", ".join("?" * 6)), SECOND_KEY)
        upgrade_sqlite(conn, "0019_table_message_keys")
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0019_table_message_keys",)]
        conn.execute(MESSAGE_SQL.format(", ".join("?" * 6)), SECOND_KEY)
        kinds = conn.execute("SELECT kind FROM messages WHERE message_id = 102 ORDER BY created_at").fetchall()
        assert kinds == [("turn:1",), ("turn:2",)]
        with pytest.raises(sqlite3.IntegrityError):  # the same key twice is still one row
            conn.execute(MESSAGE_SQL.format(", ".join("?" * 6)), SECOND_KEY)
        plan = " ".join(str(r) for r in conn.execute("EXPLAIN QUERY PLAN DELETE FROM messages WHERE message_id = 1"))
        assert "messages_message" in plan  # found by its index, not by a scan
    finally:
        conn.close()


@pytest.fixture
def blank_pg(pg_server: PgServer) -> str:
    """An empty PostgreSQL database (not from the migrated template)."""
    return blank_postgres(pg_server)


async def test_postgres_keeps_a_second_key_of_a_message_after_the_revision(blank_pg: str) -> None:
    conn = await asyncpg.connect(blank_pg)
    try:
        await upgrade_postgres(blank_pg, conn, "0017_member_rates")
        await conn.execute(GAME_SQL.format(", ".join(f"${i}" for i in range(1, 10))), *GAME)
        insert = MESSAGE_SQL.format(", ".join(f"${i}" for i in range(1, 7)))
        for row in OLD:
            await conn.execute(insert, *row)
        with pytest.raises(asyncpg.UniqueViolationError):
            await conn.execute(insert, *SECOND_KEY)
        await upgrade_postgres(blank_pg, conn, "0019_table_message_keys")
        assert await conn.fetchval("SELECT version_num FROM alembic_version") == "0019_table_message_keys"
        await conn.execute(insert, *SECOND_KEY)
        kinds = await conn.fetch("SELECT kind FROM messages WHERE message_id = 102 ORDER BY created_at")
        assert [r[0] for r in kinds] == ["turn:1", "turn:2"]
        with pytest.raises(asyncpg.UniqueViolationError):
            await conn.execute(insert, *SECOND_KEY)
        indexes = await conn.fetch("SELECT indexname FROM pg_indexes WHERE tablename = 'messages'")
        assert "messages_message" in {r[0] for r in indexes}
        assert "messages_id" not in {r[0] for r in indexes}
    finally:
        await conn.close()
