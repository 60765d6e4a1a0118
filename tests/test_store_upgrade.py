"""A database made by the bot before the schema had its Alembic history upgrades in place at its first start.

The fixtures were made by main at be8f5af (the last numbered migration, 0016) with
tests/fixtures/make_old_databases.py: an SQLite file kept as its SQL text (sqlite3's dump, built into a file
here), and a plain-SQL pg_dump restored here with psql. Each
holds three started games (0, 5 and 40 moves), settings, a timer and a DM refusal.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest
from helpers.dumps import restored_postgres
from helpers.service_support import open_service, play

from bot.store import Database, GameStatus, MigrationError, open_store
from bot.store.revisions import HEAD, head
from tools.pg_server import PgServer, new_database_name

FIXTURES = Path(__file__).parent / "fixtures"


async def check(database: Database) -> None:
    """Everything the old database held is there, and the games go on."""
    store = await open_store(database)
    try:
        games = await store.games.games_with_status(set(GameStatus))
        assert [len(stored.moves) for g in games if (stored := await store.games.stored_game(g.id)) is not None] == [
            0,
            5,
            40,
        ]
        assert (await store.settings.guild_settings(1)) == {"moderator_role_id": 42}
        assert (await store.settings.member_settings(100)) == {"language": "sv"}
        assert await store.messages.dm_refused(101)
        timers = await store.timers.timers()
        assert [t.kind for t in timers if t.game_id is None] == ["fixture"]
        assert {t.game_id for t in timers} == {None, *(g.id for g in games)}
        due = await store.timers.due_timers(datetime(2031, 1, 1, tzinfo=UTC))
        assert [t.kind for t in due if t.game_id is None] == ["fixture"]
        # revision 0017 made the table of the members' command rates
        assert await store.rates.admit_request(100, 1.0, 1, 10.0) is None
        assert await store.rates.admit_request(100, 2.0, 1, 10.0) == 9.0
    finally:
        await store.close()
    service = await open_service(database)
    try:
        for game in games:
            assert await play(service, game.id, 3, random.Random(game.id)) == 3
    finally:
        await service.close()
    store = await open_store(database)  # a second start changes nothing
    try:
        assert [len(s.moves) for g in games if (s := await store.games.stored_game(g.id)) is not None] == [3, 8, 43]
    finally:
        await store.close()


def test_an_sqlite_database_of_main_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "conductor.sqlite3"
    made = sqlite3.connect(path)
    try:
        made.executescript((FIXTURES / "main-0016.sqlite.sql").read_text(encoding="utf-8"))
    finally:
        made.close()
    asyncio.run(check(path))
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [(head(),)]
        assert conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone() == (16,)
    finally:
        conn.close()


def drop(server: PgServer, name: str) -> None:
    async def run() -> None:
        conn = await asyncpg.connect(server.url("postgres"))
        try:
            await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await conn.close()

    asyncio.run(run())


def test_a_postgres_database_of_main_upgrades_in_place(pg_server: PgServer) -> None:
    name = new_database_name()
    try:
        url = restored_postgres(pg_server, "main-0016.postgres.sql", name)
        asyncio.run(check(url))

        async def versions() -> tuple[object, object]:
            conn = await asyncpg.connect(url)
            try:
                return (
                    await conn.fetchval("SELECT version_num FROM alembic_version"),
                    await conn.fetchval("SELECT MAX(version) FROM schema_migrations"),
                )
            finally:
                await conn.close()

        assert asyncio.run(versions()) == (head(), 16)
    finally:
        drop(pg_server, name)


def test_a_database_of_a_newer_bot_is_refused(database: Database) -> None:
    async def run() -> None:
        await (await open_store(database)).close()
        if isinstance(database, Path):
            conn = sqlite3.connect(database)
            conn.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")
            conn.commit()
            conn.close()
        else:
            pg = await asyncpg.connect(str(database))
            await pg.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")
            await pg.close()
        with pytest.raises(MigrationError, match="newer than this program knows"):
            await open_store(database)

    asyncio.run(run())


def test_the_head_a_database_is_checked_against_is_alembics() -> None:
    assert head() == HEAD
