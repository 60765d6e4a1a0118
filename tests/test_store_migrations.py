"""The schema's history on real database files: from empty, re-run, from the first schema, from any revision, and
from the numbered migrations it began as (tests/fixtures/old-*.sqlite.sql: databases those left at versions 1 and
9)."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers.service_support import open_service, replay_rows, same_game, stored
from test_store_history import sqlite_schema

from bot.store import MigrationError, SqliteStore, revisions
from bot.store.revisions import HEAD, NUMBERED, upgrade_sqlite
from engine import Game
from engine.moves import move_to_json
from engine.random_play import play_random
from engine.snapshot import canonical_json, snapshot
from maps import load_board

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).parent.parent


def schema(path: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute("SELECT type, name, COALESCE(sql, '') FROM sqlite_master"))
    finally:
        conn.close()


def chain() -> list[str]:
    """The revisions, oldest first."""
    from alembic.script import ScriptDirectory

    return [s.revision for s in reversed(list(ScriptDirectory.from_config(revisions.config()).walk_revisions()))]


def recorded(conn: sqlite3.Connection) -> list[str]:
    """The revision alembic_version holds (none for a database without it)."""
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'alembic_version'").fetchone():
        return []
    return [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")]


def numbered(conn: sqlite3.Connection) -> list[int]:
    """The versions the numbered migrations recorded (none for a database made by the history)."""
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'").fetchone():
        return []
    return [row[0] for row in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]


def from_dump(path: Path, dump: str) -> None:
    """A database as the numbered migrations left it (its SQL dump in tests/fixtures)."""
    conn = sqlite3.connect(path)
    try:
        conn.executescript((FIXTURES / dump).read_text(encoding="utf-8"))
    finally:
        conn.close()


def test_the_revisions_are_numbered_from_one_each_number_once() -> None:
    from alembic.script import ScriptDirectory

    directory = ScriptDirectory.from_config(revisions.config())
    found = chain()
    numbers = [int(r[:4]) for r in found]
    # from 1, rising, each number once; 12 to 15 never existed
    assert numbers[0] == 1 and numbers == sorted(set(numbers))
    assert numbers[:10] == list(range(1, 11))
    assert len(found) >= 2
    # one line: each revises the one before it, and does something
    for before, after in itertools.pairwise(found):
        assert directory.get_revision(after).down_revision == before
    assert all(callable(directory.get_revision(r).module.upgrade) for r in found)
    # every numbered migration has its revision, under its number
    assert set(NUMBERED.values()) <= set(found)
    assert all(int(revision[:4]) == version for version, revision in NUMBERED.items())


async def test_a_new_database_gets_every_migration_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "data" / "nested" / "conductor.sqlite3"
    store = await SqliteStore.open(path)
    await store.close()
    assert path.is_file()
    conn = sqlite3.connect(path)
    try:
        assert recorded(conn) == [HEAD] == [chain()[-1]]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()
    expected = {"guild_settings", "games", "seats", "moves", "snapshots", "timers", "messages", "alembic_version"}
    assert expected <= tables
    assert "schema_migrations" not in tables


async def test_opening_again_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = await SqliteStore.open(path)
    await store.settings.set_guild_setting(1, "moderator_role", 42)
    await store.close()
    before = schema(path)
    store = await SqliteStore.open(path)
    assert await store.settings.guild_settings(1) == {"moderator_role": 42}
    await store.close()
    assert schema(path) == before
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        upgrade_sqlite(conn)
        assert recorded(conn) == [HEAD]
    finally:
        conn.close()
    assert schema(path) == before


def test_a_database_at_head_is_only_read_without_alembic(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        upgrade_sqlite(conn)
    finally:
        conn.close()
    program = (
        "import sqlite3, sys\n"
        "from bot.store.revisions import upgrade_sqlite\n"
        f"upgrade_sqlite(sqlite3.connect({str(path)!r}, isolation_level=None))\n"
        "assert 'alembic' not in sys.modules, 'alembic was imported'\n"
    )
    subprocess.run([sys.executable, "-c", program], cwd=ROOT, check=True, env={"PYTHONPATH": str(ROOT)})


async def test_two_processes_starting_together_apply_each_migration_once(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    stores = await asyncio.gather(*(SqliteStore.open(path) for _ in range(4)))
    for store in stores:
        await store.close()
    conn = sqlite3.connect(path)
    try:
        assert recorded(conn) == [HEAD]
    finally:
        conn.close()
    alone = tmp_path / "alone.sqlite3"
    await (await SqliteStore.open(alone)).close()
    assert schema(path) == schema(alone)


def test_a_database_stopped_at_any_revision_upgrades_to_the_schema_of_a_new_one(tmp_path: Path) -> None:
    new = tmp_path / "new.sqlite3"
    conn = sqlite3.connect(new, isolation_level=None)
    try:
        upgrade_sqlite(conn)
    finally:
        conn.close()
    for revision in chain()[:-1]:
        path = tmp_path / f"{revision}.sqlite3"
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            upgrade_sqlite(conn, revision)
            assert recorded(conn) == [revision]
            upgrade_sqlite(conn)
            assert recorded(conn) == [HEAD]
        finally:
            conn.close()
        assert sqlite_schema(path) == sqlite_schema(new), revision


def write_first_schema_game(path: Path, made: str) -> Game:
    """A database as the first schema version wrote it (`made` by the history up to 0001_initial, or by the
    numbered migrations up to version 1 or 9: "old-0001", "old-0009"): a started game with moves and a
    snapshot."""
    if made == "history":
        conn = sqlite3.connect(path, isolation_level=None)
        upgrade_sqlite(conn, "0001_initial")
        assert recorded(conn) == ["0001_initial"]
        conn.close()
    else:
        from_dump(path, f"{made}.sqlite.sql")
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        board = load_board("india")
        game = play_random(Game(board, ["asha", "ben", "chen"], "v1-seed", pass_round_ends=True), random.Random(9), 60)
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


@pytest.mark.parametrize(("made", "versions"), [("history", []), ("old-0001", [1]), ("old-0009", list(range(1, 10)))])
async def test_a_first_schema_database_upgrades_itself_and_its_games_play_on(
    tmp_path: Path, made: str, versions: list[int]
) -> None:
    path = tmp_path / "old.sqlite3"
    game = write_first_schema_game(path, made)
    conn = sqlite3.connect(path)
    assert numbered(conn) == versions
    assert recorded(conn) == (["0001_initial"] if made == "history" else [])
    conn.close()

    service = await open_service(path)
    try:
        loaded = await service.reading.engine_game(7)
        assert same_game(loaded, game)
        # what the second migration added works on the upgraded database
        timer = await service.store.timers.add_timer(7, "turn", datetime.now(UTC) + timedelta(hours=1))
        assert [t.id for t in await service.store.timers.timers(7)] == [timer.id]
        await service.store.messages.add_message(7, "board", 2, 555)
        assert [m.message_id for m in await service.store.messages.messages(7)] == [555]
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
    assert recorded(conn) == [HEAD]
    assert numbered(conn) == versions  # the numbered migrations' own record is left as it was
    conn.close()
    rows = await stored(path, 7)
    assert len(rows.moves) == len(game.moves) + 1
    service = await open_service(path)
    try:
        assert same_game(await service.reading.engine_game(7), replay_rows(rows))
    finally:
        await service.close()


def test_a_database_newer_than_the_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    from_dump(path, "old-0009.sqlite.sql")
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("INSERT INTO schema_migrations VALUES (99, 'from_the_future', '2030-01-01')")
        with pytest.raises(MigrationError, match="schema version 99, newer than this program knows"):
            upgrade_sqlite(conn)
        assert recorded(conn) == []
        assert not conn.in_transaction
    finally:
        conn.close()


async def test_the_store_refuses_to_open_a_database_newer_than_itself(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    from_dump(path, "old-0001.sqlite.sql")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO schema_migrations VALUES (99, 'from_the_future', '2030-01-01')")
    conn.close()
    with pytest.raises(MigrationError, match="newer"):
        await SqliteStore.open(path)


REVISION = """from alembic import op
import sqlalchemy as sa

revision = {revision!r}
down_revision = {down!r}
branch_labels = None
depends_on = None


def upgrade() -> None:
{body}
"""


def _revision(folder: Path, revision: str, down: str, *body: str) -> None:
    text = REVISION.format(revision=revision, down=down, body="\n".join(f"    {line}" for line in body))
    (folder / "versions" / f"{revision}.py").write_text(text, encoding="utf-8")


def test_a_failing_migration_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The history runs in one transaction: a revision that fails takes the ones before it in the run along."""
    folder = tmp_path / "revisions"
    shutil.copytree(revisions.FOLDER, folder, ignore=shutil.ignore_patterns("__pycache__"))
    first = "9998_first"
    _revision(folder, first, HEAD, 'op.create_table("a", sa.Column("x", sa.Integer))')
    _revision(
        folder,
        "9999_second",
        first,
        'op.create_table("b", sa.Column("x", sa.Integer))',
        'op.execute("INSERT INTO missing VALUES (1)")',
    )
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    try:
        upgrade_sqlite(conn)  # at this program's head
        monkeypatch.setattr(revisions, "FOLDER", folder)
        monkeypatch.setattr(revisions, "HEAD", "9999_second")
        with pytest.raises(MigrationError, match="revision 9999_second failed and was rolled back"):
            upgrade_sqlite(conn)
        assert recorded(conn) == [HEAD]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "a" not in tables and "b" not in tables
        assert not conn.in_transaction
        _revision(folder, "9999_second", first, 'op.create_table("b", sa.Column("x", sa.Integer))')
        upgrade_sqlite(conn)
        assert recorded(conn) == ["9999_second"]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"a", "b"} <= tables
    finally:
        conn.close()
