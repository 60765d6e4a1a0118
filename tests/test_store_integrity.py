"""A damaged database is found when the bot starts: it refuses to start and says how to restore a backup."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.service_support import open_service, play, started_game

import bot.runtime.app
from bot.commands.cli import main
from bot.store import SqliteStore
from bot.store.errors import StoreError
from bot.store.sqlite.core import integrity_problem

ROOT = Path(__file__).resolve().parent.parent


async def healthy_database(path: Path) -> None:
    service = await open_service(path)
    try:
        for _ in range(4):
            game, _ = await started_game(service, "usa", 3)
            await play(service, game, 40, random.Random(game))
    finally:
        await service.close()


def damage(source: Path, target: Path) -> None:
    """A copy of `source` whose last page starts with garbage: it opens, but a game's rows cannot be read."""
    data = bytearray(source.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    last = len(data) - page
    data[last : last + 64] = b"\xa5" * 64
    target.write_bytes(bytes(data))


async def test_the_quick_check_tells_a_damaged_copy_from_the_original(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    await healthy_database(live)
    assert integrity_problem(live) is None
    broken = tmp_path / "broken.sqlite3"
    damage(live, broken)
    problem = integrity_problem(broken)
    assert problem is not None and problem.strip()
    # the damage is not seen on opening; it is what made command after command fail later
    store = await SqliteStore.open(broken)
    failed = 0
    try:
        for game_id in range(1, 5):
            try:
                await store.games.stored_game(game_id)
            except StoreError:
                failed += 1
    finally:
        await store.close()
    assert failed
    assert integrity_problem(tmp_path / "not there yet.sqlite3") is None  # the bot creates it
    (tmp_path / "text.sqlite3").write_bytes(b"not a database at all" * 300)
    assert integrity_problem(tmp_path / "text.sqlite3") is not None


async def test_the_bot_refuses_to_start_on_a_damaged_database(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    await healthy_database(live)
    broken = tmp_path / "broken.sqlite3"
    damage(live, broken)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CONDUCTOR_"))}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "not-a-real-token", "CONDUCTOR_DATABASE": str(broken)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert f"the database {broken} is damaged" in done.stderr
    assert "python -m bot backup" in done.stderr and "copy your newest backup" in done.stderr
    assert "Traceback" not in done.stderr
    assert broken.read_bytes() != live.read_bytes()  # nothing was done to it


def test_a_healthy_database_goes_on_to_start_the_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Path] = []

    class Started(Exception):
        pass

    def create_bot(settings: bot.runtime.app.Settings) -> bot.runtime.app.ConductorBot:
        started.append(settings.database)
        raise Started

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("CONDUCTOR_DATABASE", str(tmp_path / "new.sqlite3"))
    monkeypatch.setattr(bot.runtime.app, "create_bot", create_bot)
    with pytest.raises(Started):
        main(["run"])
    assert started == [tmp_path / "new.sqlite3"]
