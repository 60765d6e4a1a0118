"""`python -m bot backup`: a consistent copy of the live database, taken while games are played."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest
from helpers.service_support import open_service, play, replay_rows, same_game, started_game

from bot.commands.backup import BackupError, backup
from bot.commands.cli import main
from bot.store import GameStatus, SqliteStore


async def check_copy(path: Path) -> int:
    """The copy opens, passes the integrity check, and every game in it loads as its moves replay."""
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        conn.close()
    service = await open_service(path)
    moves = 0
    try:
        for row in await service.store.games.games_with_status(set(GameStatus)):
            stored = await service.store.games.stored_game(row.id)
            assert stored is not None and stored.snapshot is not None
            assert stored.snapshot.move_count == len(stored.moves)
            assert same_game(await service.reading.engine_game(row.id), replay_rows(stored))
            moves += len(stored.moves)
    finally:
        await service.close()
    return moves


async def test_backups_taken_during_play_are_consistent(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    service = await open_service(live)
    try:
        games = [(await started_game(service, "usa", 3))[0] for _ in range(6)]
        playing = asyncio.gather(*(play(service, g, 60, random.Random(g)) for g in games))
        copies = []
        for i in range(4):
            await asyncio.sleep(0.05)
            copy = tmp_path / f"copy{i}.sqlite3"
            assert await asyncio.to_thread(backup, live, copy) == len(games)
            copies.append(copy)
        played = sum(await playing)
    finally:
        await service.close()
    counts = [await check_copy(c) for c in copies]
    assert counts == sorted(counts) and counts[-1] <= played
    assert counts[0] < played, "the backups should have been taken while moves were being made"


async def test_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    live = tmp_path / "live.sqlite3"
    service = await open_service(live)
    await started_game(service, "india", 2)
    await service.close()
    target = tmp_path / "backup.sqlite3"
    assert main(["backup", str(target), "--database", str(live)]) == 0
    assert "(1 game, " in capsys.readouterr().out
    assert await check_copy(target) == 0
    # the database from the configuration; and an existing backup is replaced
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CONDUCTOR_DATABASE", str(live))
    assert main(["backup", str(target)]) == 0
    assert "backed up" in capsys.readouterr().out
    assert not list(tmp_path.glob(".backup.sqlite3.partial-*"))


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("missing", "there is no database at"),
        ("same", "must not overwrite the live database"),
        ("no_folder", "does not exist"),
        ("not_conductor", "not a Conductor database"),
        ("not_sqlite", "cannot back up"),
    ],
)
async def test_a_backup_that_cannot_be_made_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setup: str, message: str
) -> None:
    live = tmp_path / "live.sqlite3"
    target = tmp_path / "copy.sqlite3"
    if setup in ("same", "no_folder"):
        await (await SqliteStore.open(live)).close()
    if setup == "same":
        target = live
    if setup == "no_folder":
        target = tmp_path / "nowhere" / "copy.sqlite3"
    if setup == "not_conductor":
        sqlite3.connect(live).execute("CREATE TABLE other (x)").connection.close()
    if setup == "not_sqlite":
        live.write_bytes(b"hello, I am a text file" * 100)
    before = live.read_bytes() if live.exists() else None
    with pytest.raises(BackupError, match=message):
        backup(live, target)
    assert main(["backup", str(target), "--database", str(live)]) == 1
    assert message in capsys.readouterr().err
    assert (live.read_bytes() if live.exists() else None) == before
    assert not (setup == "missing" and live.exists())
    assert not list(tmp_path.glob(".copy.sqlite3.partial-*"))


@pytest.mark.parametrize("spelling", ["database", "-wal", "-shm", "-journal", "dotdot", "symlink", "hardlink"])
async def test_a_backup_never_overwrites_the_live_database_or_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spelling: str
) -> None:
    live = tmp_path / "live.sqlite3"
    service = await open_service(live)  # open: the -wal and -shm files exist and hold committed games
    try:
        await started_game(service, "usa", 2)
        files = {p: p.read_bytes() for p in tmp_path.iterdir()}
        assert live.with_name("live.sqlite3-wal") in files and live.with_name("live.sqlite3-shm") in files
        (tmp_path / "sub").mkdir()
        target = {
            "database": live,
            "-wal": tmp_path / "live.sqlite3-wal",
            "-shm": tmp_path / "live.sqlite3-shm",
            "-journal": tmp_path / "live.sqlite3-journal",
            "dotdot": tmp_path / "sub" / ".." / "live.sqlite3-wal",
            "symlink": tmp_path / "sub" / "link",
            "hardlink": tmp_path / "sub" / "hard",
        }[spelling]
        if spelling == "symlink":
            target.symlink_to(live.with_name("live.sqlite3-wal"))
        if spelling == "hardlink":
            target.hardlink_to(live)
        with pytest.raises(BackupError, match="must not overwrite the live database or one of its files"):
            backup(live, target)
        assert main(["backup", str(target), "--database", str(live)]) == 1
        err = capsys.readouterr().err
        assert "must not overwrite the live database or one of its files" in err and "Traceback" not in err
        assert {p: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == files
        assert not (tmp_path / "live.sqlite3-journal").exists()
        assert len(await service.store.games.games_with_status(set(GameStatus))) == 1
    finally:
        await service.close()
    assert backup(live, tmp_path / "after.sqlite3") == 1  # a fresh path still works
