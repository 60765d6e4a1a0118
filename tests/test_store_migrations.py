"""Schema migrations on real database files: from empty, re-run, and from the first schema."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers.service_support import open_service, replay_rows, same_game, stored

from bot.store import MigrationError, SqliteStore
from bot.store.migrations import Migration, applied, available, migrate, statements
from engine import Game
from engine.moves import move_to_json
from engine.random_play import play_random
from engine.snapshot import canonical_json, snapshot
from maps import load_board


def schema(path: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute("SELECT type, name, COALESCE(sql, '') FROM sqlite_master"))
    finally:
        conn.close()


def test_the_migration_files_are_numbered_from_one_each_number_once() -> None:
    found = available()
    numbers = [m.version for m in found]
    # from 1, rising, each number once; gaps are allowed (parallel branches each take their own number)
    assert numbers[0] == 1 and numbers == sorted(set(numbers))
    assert numbers[:10] == list(range(1, 11))
    assert len(found) >= 2
    assert all(statements(m.sql) for m in found)


async def test_a_new_database_gets_every_migration_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "data" / "nested" / "conductor.sqlite3"
    store = await SqliteStore.open(path)
    await store.close()
    assert path.is_file()
    conn = sqlite3.connect(path)
    try:
        assert applied(conn) == [m.version for m in available()]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()
    expected = {"guild_settings", "games", "seats", "moves", "snapshots", "timers", "messages", "schema_migrations"}
    assert expected <= tables


async def test_opening_again_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = await SqliteStore.open(path)
    await store.set_guild_setting(1, "moderator_role", 42)
    await store.close()
    before = schema(path)
    store = await SqliteStore.open(path)
    assert await store.guild_settings(1) == {"moderator_role": 42}
    await store.close()
    assert schema(path) == before
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert migrate(conn) == []
        count = conn.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0]
    finally:
        conn.close()
    assert count == len(available())


async def test_two_processes_starting_together_apply_each_migration_once(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    stores = await asyncio.gather(*(SqliteStore.open(path) for _ in range(4)))
    for store in stores:
        await store.close()
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall()
    finally:
        conn.close()
    assert [r[0] for r in rows] == [m.version for m in available()]


def write_first_schema_game(path: Path) -> Game:
    """A database as the first schema version wrote it: a started game with moves and a snapshot."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert migrate(conn, target=1) == [1]
        board = load_board("india")
        game = play_random(Game(board, ["asha", "ben", "chen"], "v1-seed"), random.Random(9), 60)
        stamp = datetime(2025, 1, 1, tzinfo=UTC).isoformat(timespec="microseconds")
        conn.execute("BEGIN")
        conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_user_id, map, options, seed, cards, tickets, "
            "status, version, created_at, updated_at) VALUES (7, 1, 2, 100, 'india', ?, 'v1-seed', ?, ?, "
            "'playing', ?, ?, ?)",
            (
                json.dumps({"max_players": 4}),
                json.dumps(game.initial_cards),
                json.dumps(game.initial_tickets),
                len(game.moves) + 3,
                stamp,
                stamp,
            ),
        )
        for seat, name in enumerate(game.names):
            conn.execute(
                "INSERT INTO seats (game_id, user_id, display_name, joined, seat, player, joined_at) "
                "VALUES (7, ?, ?, ?, ?, ?, ?)",
                (100 + seat, name.upper(), seat, seat, name, stamp),
            )
        for index, move in enumerate(game.moves):
            conn.execute(
                "INSERT INTO moves (game_id, idx, move, user_id, created_at) VALUES (7, ?, ?, ?, ?)",
                (index, json.dumps(move_to_json(move)), 100 + game.names.index(move.player), stamp),
            )
        conn.execute(
            "INSERT INTO snapshots (game_id, move_count, data, updated_at) VALUES (7, ?, ?, ?)",
            (len(game.moves), canonical_json(snapshot(game)), stamp),
        )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return game


async def test_a_first_schema_database_upgrades_itself_and_its_games_play_on(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    game = write_first_schema_game(path)
    conn = sqlite3.connect(path)
    assert applied(conn) == [1]
    conn.close()

    service = await open_service(path)
    try:
        loaded = await service.reading.engine_game(7)
        assert same_game(loaded, game)
        # what the second migration added works on the upgraded database
        timer = await service.store.add_timer(7, "turn", datetime.now(UTC) + timedelta(hours=1))
        assert [t.id for t in await service.store.timers(7)] == [timer.id]
        await service.store.add_message(7, "board", 2, 555)
        assert [m.message_id for m in await service.store.messages(7)] == [555]
        # and the old game goes on
        view = await service.reading.public_view(7)
        assert view.table is not None and view.table.to_move is not None
        to_move = view.table.to_move
        assert to_move.user_id is not None
        moves = (await service.reading.engine_game(7)).legal_moves(to_move.player)
        await service.play.act(7, to_move.user_id, moves[0], expected_version=view.version)
    finally:
        await service.close()
    conn = sqlite3.connect(path)
    assert applied(conn) == [m.version for m in available()]
    conn.close()
    rows = await stored(path, 7)
    assert len(rows.moves) == len(game.moves) + 1
    service = await open_service(path)
    try:
        assert same_game(await service.reading.engine_game(7), replay_rows(rows))
    finally:
        await service.close()


def test_a_database_newer_than_the_program_is_refused(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    try:
        migrate(conn)
        conn.execute("INSERT INTO schema_migrations VALUES (99, 'from_the_future', '2030-01-01')")
        with pytest.raises(MigrationError, match="schema version 99, newer than this program knows"):
            migrate(conn)
    finally:
        conn.close()


async def test_the_store_refuses_to_open_a_database_newer_than_itself(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    await (await SqliteStore.open(path)).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO schema_migrations VALUES (99, 'from_the_future', '2030-01-01')")
    conn.close()
    with pytest.raises(MigrationError, match="newer"):
        await SqliteStore.open(path)


def test_a_failing_migration_leaves_nothing_behind(tmp_path: Path) -> None:
    good = Migration(1, "first", "CREATE TABLE a (x INTEGER);")
    bad = Migration(2, "second", "CREATE TABLE b (x INTEGER);\nINSERT INTO missing VALUES (1);")
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    try:
        with pytest.raises(MigrationError, match="0002_second failed and was rolled back"):
            migrate(conn, [good, bad])
        assert applied(conn) == [1]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "a" in tables and "b" not in tables
        assert not conn.in_transaction
        fixed = Migration(2, "second", "CREATE TABLE b (x INTEGER);")
        assert migrate(conn, [good, fixed]) == [2]
    finally:
        conn.close()


def test_statements_are_split_where_sqlite_says_they_end() -> None:
    sql = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER t_guard BEFORE DELETE ON t
    BEGIN
        SELECT RAISE(ABORT, 'no; never');
    END;
    INSERT INTO t VALUES ('c;d')
    """
    parts = statements(sql)
    assert len(parts) == 3
    assert parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")
    conn = sqlite3.connect(":memory:")
    for part in parts:
        conn.execute(part)
    assert conn.execute("SELECT x FROM t").fetchall() == [("c;d",)]


def test_a_script_ending_inside_a_statement_is_refused() -> None:
    with pytest.raises(MigrationError, match="ends inside a statement"):
        statements("CREATE TABLE t (x TEXT DEFAULT 'unfinished);")
