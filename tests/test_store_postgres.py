"""What only the PostgreSQL store has to show: the history's triggers written for it, and one effect per action
across processes.

Everything else the store, the service, the clocks and the crash test check
runs on both stores through the `database` fixture (tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest
from helpers.service_support import open_service, play, started_game

from bot.commands.cli import main
from bot.commands.store_copy import TABLES
from bot.service.tournaments.models import TournamentSettings
from bot.store import GameChange, GameStatus, NewGame, PostgresStore, TimerGone, VersionConflict, Writes, open_store
from bot.store.revisions import HEAD, triggers
from engine.moves import move_to_json
from engine.random_play import random_move
from tests.helpers.dumps import blank_postgres
from tools.pg_server import PgServer

ROOT = Path(__file__).parent.parent
CLICK = Path(__file__).parent / "helpers" / "pg_click.py"


def test_every_migration_has_its_twin_on_the_other_store() -> None:
    """The triggers are the one part of the history written for each database: each revision that has them has
    them for both."""
    from alembic.script import ScriptDirectory

    from bot.store.revisions import config

    revisions = {s.revision for s in ScriptDirectory.from_config(config()).walk_revisions()}
    sqlite = set(triggers.SQLITE)
    postgres = set(triggers.POSTGRES)
    lacking_pg = sorted(sqlite - postgres)
    lacking_sqlite = sorted(postgres - sqlite)
    assert not lacking_pg, (
        f"revisions with SQLite triggers but none for PostgreSQL: {lacking_pg}; add them to "
        "bot/store/revisions/triggers.py, doing the same to the PostgreSQL schema"
    )
    assert not lacking_sqlite, (
        f"revisions with PostgreSQL triggers but none for SQLite: {lacking_sqlite}; add them to "
        "bot/store/revisions/triggers.py"
    )
    assert sqlite <= revisions
    assert len(revisions) >= 7


@pytest.fixture
def blank_url(pg_server: PgServer) -> str:
    """An empty database (not from the migrated template)."""
    return blank_postgres(pg_server)


async def test_two_processes_starting_together_migrate_once(blank_url: str) -> None:
    stores = await asyncio.gather(*(PostgresStore.open(blank_url) for _ in range(4)))
    for store in stores:
        await store.close()
    conn = await asyncpg.connect(blank_url)
    try:
        assert [row[0] for row in await conn.fetch("SELECT version_num FROM alembic_version")] == [HEAD]
        assert await conn.fetchval("SELECT to_regclass('schema_migrations')") is None
    finally:
        await conn.close()


async def test_the_same_click_from_two_processes_gives_one_move(pg_url: str, tmp_path: Path) -> None:
    service = await open_service(pg_url)
    try:
        game_id, _ = await started_game(service)
        rng = random.Random(5)
        for _ in range(3):  # past the deal's ticket choices, into play
            for _ in range(3):
                game = await service.reading.engine_game(game_id)
                move = random_move(game, rng)
                assert move is not None
                info = await service.core.game(game_id)
                user = info.user_of(move.player)
                assert user is not None
                await service.play.act(game_id, user, move, expected_version=info.version)
        game = await service.reading.engine_game(game_id)
        move = random_move(game, rng)
        assert move is not None
        info = await service.core.game(game_id)
        user = info.user_of(move.player)
        assert user is not None
        before = len(game.moves)
    finally:
        await service.close()
    go = tmp_path / "go"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    args = [pg_url, str(game_id), str(user), str(info.version), json.dumps(move_to_json(move)), str(go)]
    procs = [
        subprocess.Popen(
            [sys.executable, str(CLICK), *args], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(2)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == b"ready", proc.stderr.read() if proc.stderr else b""
        go.touch()
        outcomes = []
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err.decode()
            outcomes.append(out.decode().strip())
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert sorted(outcomes) == ["applied", "refused StaleVersion"], outcomes
    store = await open_store(pg_url)
    try:
        stored = await store.games.stored_game(game_id)
        assert stored is not None
        assert len(stored.moves) == before + 1
        assert stored.moves[-1].move == move_to_json(move)
        assert stored.game.version == info.version + 1
    finally:
        await store.close()


async def test_a_timer_is_claimed_by_one_of_two_connections(pg_url: str) -> None:
    first, second = await PostgresStore.open(pg_url), await PostgresStore.open(pg_url)
    try:
        service = await open_service(pg_url)
        try:
            game_id, _ = await started_game(service)
        finally:
            await service.close()
        row = await first.games.game(game_id)
        assert row is not None
        timer = await first.timers.add_timer(game_id, "test", datetime.now(UTC) + timedelta(hours=1))
        change = GameChange(writes=Writes(claim_timer=timer.id), bump=False)
        outcomes = await asyncio.gather(
            first.history.apply_change(game_id, row.version, change),
            second.history.apply_change(game_id, row.version, change),
            return_exceptions=True,
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["TimerGone", "int"], outcomes
        assert await first.timers.timer(timer.id) is None
        bumped = GameChange(writes=Writes(), bump=True)
        outcomes = await asyncio.gather(
            first.history.apply_change(game_id, row.version, bumped),
            second.history.apply_change(game_id, row.version, bumped),
            return_exceptions=True,
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["VersionConflict", "int"], outcomes
        assert any(isinstance(o, VersionConflict) for o in outcomes)
        assert not any(isinstance(o, TimerGone) for o in outcomes)
    finally:
        await first.close()
        await second.close()


async def _played_sqlite(path: Path) -> tuple[int, int]:
    """A few games on an SQLite file, one with a moderator's undo (audit and undone moves); (games, moves)."""
    service = await open_service(path)
    try:
        rng = random.Random(11)
        total = 0
        for map_name in ("usa", "switzerland", "san_francisco"):
            game_id, _ = await started_game(service, map_name)
            total += await play(service, game_id, 25, rng)
        await service.lobby.create_game(1, 99_999, 100, "p0", "india")  # a lobby, nothing to replay
        await service.moderation.undo(game_id, 7, 2, "test")
        await service.store.settings.set_guild_setting(1, "turn_seconds", 3600)
        tournament = await service.tournaments.registration.create_tournament(
            1, 88_888, 7, "Spring cup", TournamentSettings(("usa",), 2)
        )
        await service.tournaments.registration.open_registration(tournament.id, 7)
        await service.tournaments.registration.join_tournament(tournament.id, 100, "p0")
        return 4, total - 2
    finally:
        await service.close()


def test_migrate_store_copies_verifies_and_refuses_a_full_target(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "live.sqlite3"
    games, moves = asyncio.run(_played_sqlite(source))
    assert main(["migrate-store", str(source), pg_url]) == 0
    out = capsys.readouterr().out
    assert f"({games} games, {moves} moves), counts equal, 3 games replayed to the same state" in out

    async def check() -> None:
        sqlite_store, pg_store = await open_store(source), await open_store(pg_url)
        try:
            for row in await sqlite_store.games.games_with_status(set(GameStatus)):
                assert await pg_store.games.stored_game(row.id) == await sqlite_store.games.stored_game(row.id)
                assert await pg_store.timers.timers(row.id) == await sqlite_store.timers.timers(row.id)
                assert await pg_store.history.audit_log(row.id) == await sqlite_store.history.audit_log(row.id)
                assert await pg_store.history.undone_moves(row.id) == await sqlite_store.history.undone_moves(row.id)
            assert await pg_store.settings.guild_settings(1) == {"turn_seconds": 3600}
            # the copied ids go on: a new game gets the next id
            new = await pg_store.games.create_game(NewGame(1, 123_456, 100, "p0", "usa"))
            assert new.id == max(r.id for r in await sqlite_store.games.games_with_status(set(GameStatus))) + 1
        finally:
            await sqlite_store.close()
            await pg_store.close()

    asyncio.run(check())
    assert main(["migrate-store", str(source), pg_url]) == 1
    assert "not empty" in capsys.readouterr().err
    assert main(["migrate-store", pg_url, pg_url]) == 1  # FROM must be a file


def test_backup_of_postgres_is_an_sqlite_file_that_migrate_store_puts_back(
    tmp_path: Path, pg_server: PgServer, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "live.sqlite3"
    games, moves = asyncio.run(_played_sqlite(source))
    urls = []
    for _ in range(2):
        urls.append(blank_postgres(pg_server))
    assert main(["migrate-store", str(source), urls[0]]) == 0
    copy = tmp_path / "backup.sqlite3"
    assert main(["backup", str(copy), "--database", urls[0]]) == 0
    assert f"({games} games" in capsys.readouterr().out
    assert database_fingerprint_sync(copy) == database_fingerprint_sync(source)
    assert main(["migrate-store", str(copy), urls[1]]) == 0
    assert f"({games} games, {moves} moves), counts equal" in capsys.readouterr().out


def test_migrate_store_and_backup_copy_every_table(tmp_path: Path) -> None:
    """Every table of the schema (SQLite, the whole history run) is one that migrate-store and backup copy."""
    path = tmp_path / "schema.sqlite3"

    async def make() -> None:
        store = await open_store(path)
        await store.close()

    asyncio.run(make())
    conn = sqlite3.connect(path)
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()
    assert names - {"schema_migrations", "sqlite_sequence", "alembic_version"} == set(TABLES)


def database_fingerprint_sync(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table but schema_migrations, in key order."""
    conn = sqlite3.connect(path)
    try:
        return {t: [tuple(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2")] for t in TABLES}
    finally:
        conn.close()
