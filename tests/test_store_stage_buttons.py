"""Revision 0011_stage_buttons on both stores: a database from before it has the live buttons of its games marked.

A stage message posted from now on is marked in the write that records it
(tests/test_store_sqlite.py); the messages of an older database are marked by
the revision: the newest stage message of every game being played, unless it
is the final one. Nothing else, so the first start after the upgrade edits no
message of a finished game.
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

# (game id, status)
GAMES = [(1, "playing"), (2, "finished"), (3, "setup"), (4, "cancelled"), (5, "playing"), (6, "playing")]
# (game id, kind, message id, created at)
MESSAGES = [
    (1, "setup", 101, STAMP),
    (1, "turn:1", 102, STAMP),
    (1, "turn:2", 103, LATER),
    (1, "reminder", 104, LATER),  # newer, but no stage
    (2, "turn:7", 201, STAMP),
    (2, "final", 202, LATER),
    (2, "breakdown", 203, LATER),
    (3, "setup", 301, STAMP),
    (4, "turn:3", 401, STAMP),
    (5, "turn:4", 502, STAMP),
    (5, "turn:4#1", 501, LATER),  # posted again after an undo: newer, with a smaller id
    (6, "place:1", 601, STAMP),
    (6, "place:2", 602, STAMP),  # the same moment: the larger id is the newer
]
MARKED = {103, 301, 501, 602}


def game_values(game_id: int, status: str) -> tuple[object, ...]:
    return (game_id, 1, 10 + game_id, 100, "usa", "s", status, STAMP, STAMP)


GAME_SQL = (
    "INSERT INTO games (id, guild_id, channel_id, host_user_id, map, seed, status, created_at, updated_at) VALUES ({})"
)
MESSAGE_SQL = "INSERT INTO messages (game_id, kind, channel_id, message_id, created_at) VALUES ({})"


def test_the_sqlite_migration_marks_the_newest_stage_message_of_games_being_played(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "old.sqlite3", isolation_level=None)
    try:
        upgrade_sqlite(conn, "0010_tournament_messages")
        conn.execute("BEGIN")
        for game_id, status in GAMES:
            conn.execute(GAME_SQL.format(", ".join("?" * 9)), game_values(game_id, status))
        for game_id, kind, message_id, at in MESSAGES:
            conn.execute(MESSAGE_SQL.format("?, ?, ?, ?, ?"), (game_id, kind, 10 + game_id, message_id, at))
        conn.execute("COMMIT")
        upgrade_sqlite(conn, "0011_stage_buttons")
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0011_stage_buttons",)]
        marked = {row[0] for row in conn.execute("SELECT message_id FROM messages WHERE buttons = 1")}
        assert marked == MARKED
        assert conn.execute("SELECT count(*) FROM messages").fetchone()[0] == len(MESSAGES)
    finally:
        conn.close()


@pytest.fixture
def blank_pg(pg_server: PgServer) -> str:
    """An empty PostgreSQL database (not from the migrated template)."""
    return blank_postgres(pg_server)


async def test_the_postgres_migration_marks_the_same_messages(blank_pg: str) -> None:
    conn = await asyncpg.connect(blank_pg)
    try:
        await upgrade_postgres(blank_pg, conn, "0010_tournament_messages")
        for game_id, status in GAMES:
            await conn.execute(GAME_SQL.format(", ".join(f"${i}" for i in range(1, 10))), *game_values(game_id, status))
        for game_id, kind, message_id, at in MESSAGES:
            await conn.execute(MESSAGE_SQL.format("$1, $2, $3, $4, $5"), game_id, kind, 10 + game_id, message_id, at)
        await upgrade_postgres(blank_pg, conn, "0011_stage_buttons")
        assert await conn.fetchval("SELECT version_num FROM alembic_version") == "0011_stage_buttons"
        marked = {row[0] for row in await conn.fetch("SELECT message_id FROM messages WHERE buttons = 1")}
        assert marked == MARKED
    finally:
        await conn.close()
