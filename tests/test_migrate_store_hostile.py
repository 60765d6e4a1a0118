"""`python -m bot migrate-store FROM TO` given a damaged or foreign FROM, as an operator would.

Each bad FROM gives one line on standard error and exit 1; FROM keeps every
byte (and gets no file beside it); TO stays empty, so the same command with
a good FROM then works. A Conductor database at an older revision (or numbered migration) is copied,
its schema brought up to date in a private copy only.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest
from helpers.service_support import open_service, play, started_game

from bot.commands import store_copy
from bot.commands.cli import main
from bot.commands.store_copy import TABLES
from bot.store import StoreError
from bot.store.revisions import NUMBERED

FIXTURES = Path(__file__).parent / "fixtures"


async def _played(path: Path) -> None:
    service = await open_service(path)
    try:
        rng = random.Random(5)
        for map_name in ("usa", "switzerland"):
            game_id, _ = await started_game(service, map_name)
            await play(service, game_id, 20, rng)
    finally:
        await service.close()


def _sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in statements:
            conn.execute(statement)
        conn.execute("PRAGMA journal_mode = DELETE")  # one file, nothing beside it
    finally:
        conn.close()


def _copy_of(good: Path, path: Path, *statements: str) -> None:
    shutil.copyfile(good, path)
    _sql(path, *statements)


def _damaged_page(good: Path, path: Path) -> None:
    """The good database with the first page of its moves table overwritten."""
    shutil.copyfile(good, path)
    conn = sqlite3.connect(path)
    try:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'moves'").fetchone()[0]
    finally:
        conn.close()
    with path.open("r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(b"\x0d\xff\xff\xff\x00\x07" + bytes(range(256)) * 4)


def _truncated(good: Path, path: Path) -> None:
    data = good.read_bytes()
    path.write_bytes(data[: len(data) * 3 // 5 + 100])


def _hostile_files(good: Path, folder: Path) -> dict[str, Path]:
    """Every kind of bad FROM, by what it is."""
    makers: dict[str, Callable[[Path], None]] = {
        "zero-length": lambda p: p.write_bytes(b""),
        "random bytes": lambda p: p.write_bytes(random.Random(1).randbytes(8192)),
        "SQLite header then random bytes": lambda p: p.write_bytes(
            b"SQLite format 3\x00" + random.Random(2).randbytes(8192)
        ),
        "a text file": lambda p: p.write_text("games,moves\n1,2\n"),
        "only the SQLite header": lambda p: p.write_bytes(b"SQLite format 3\x00"),
        "truncated Conductor database": lambda p: _truncated(good, p),
        "Conductor database with a damaged page": lambda p: _damaged_page(good, p),
        "another program's database": lambda p: _sql(p, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"),
        "an empty SQLite database": lambda p: _sql(p, "PRAGMA user_version = 1"),
        "Conductor database of a newer version": lambda p: _copy_of(
            good, p, "UPDATE alembic_version SET version_num = '9999_future'"
        ),
        "Conductor database with a table missing": lambda p: _copy_of(good, p, "DROP TABLE tournament_messages"),
        "Conductor database with a changed table": lambda p: _copy_of(
            good, p, "ALTER TABLE heartbeat ADD COLUMN extra TEXT"
        ),
        "Conductor database with unreadable moves": lambda p: _copy_of(
            good, p, "DROP TRIGGER IF EXISTS moves_no_update", "UPDATE moves SET move = '{not json' WHERE idx = 3"
        ),
        "Conductor database with a text for a number": lambda p: _copy_of(
            good, p, "UPDATE seats SET user_id = 'somebody' WHERE game_id = 1 AND joined = 0"
        ),
    }
    files = {}
    for index, (what, make) in enumerate(makers.items()):
        path = folder / f"hostile-{index}.sqlite3"
        make(path)
        files[what] = path
    files["a missing file"] = folder / "nowhere.sqlite3"
    (folder / "a-folder.sqlite3").mkdir()
    files["a folder"] = folder / "a-folder.sqlite3"
    return files


def _state(path: Path) -> tuple[str, list[str]]:
    """The file's hash and what lies beside it."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "-"
    return digest, sorted(os.listdir(path.parent))


async def _rows_in(url: str) -> dict[str, int]:
    conn = await asyncpg.connect(url)
    try:
        counts = {t: int(await conn.fetchval(f"SELECT COUNT(*) FROM {t}")) for t in TABLES}
    finally:
        await conn.close()
    return {t: n for t, n in counts.items() if n}


def test_every_bad_source_is_one_line_and_changes_neither_side(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good" / "live.sqlite3"
    good.parent.mkdir()
    asyncio.run(_played(good))
    _sql(good)  # checkpointed into one file
    folder = tmp_path / "hostile"
    folder.mkdir()
    failures = []
    for what, path in _hostile_files(good, folder).items():
        before = _state(path)
        status = main(["migrate-store", str(path), pg_url])
        captured = capsys.readouterr()
        lines = captured.err.strip().splitlines()
        if status != 1 or len(lines) != 1 or "Traceback" in captured.err or captured.out:
            failures.append(f"{what}: exit {status}, out {captured.out!r}, err {captured.err!r}")
        elif not lines[0].startswith("migrate-store failed: "):
            failures.append(f"{what}: {lines[0]!r}")
        if _state(path) != before:
            failures.append(f"{what}: the source changed")
        left = asyncio.run(_rows_in(pg_url))
        if left:
            failures.append(f"{what}: the target kept rows {left}")
    assert not failures, "\n".join(failures)
    # the target is as it was: the good source goes in
    before = _state(good)
    assert main(["migrate-store", str(good), pg_url]) == 0
    assert "2 games replayed to the same state" in capsys.readouterr().out
    assert _state(good) == before


def test_a_bad_source_is_named_for_what_is_wrong(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good" / "live.sqlite3"
    good.parent.mkdir()
    asyncio.run(_played(good))
    _sql(good)
    files = _hostile_files(good, tmp_path)
    expected = {
        "zero-length": "is empty (0 bytes)",
        "random bytes": "is not an SQLite database",
        "Conductor database with a damaged page": "is damaged",
        "another program's database": "not Conductor's",
        "Conductor database of a newer version": "newer than this program knows",
        "Conductor database with a table missing": "table tournament_messages is missing",
        "Conductor database with a text for a number": "table seats cannot be copied",
        "a missing file": "there is no file",
        "a folder": "is a folder",
        "Conductor database with unreadable moves": "game #",
    }
    for what, words in expected.items():
        assert main(["migrate-store", str(files[what]), pg_url]) == 1
        assert words in capsys.readouterr().err, what


def test_a_source_at_an_older_migration_is_copied_and_left_as_it_was(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(old, isolation_level=None)
    try:  # as the numbered migrations left it at version 8
        conn.executescript((FIXTURES / "old-0008.sqlite.sql").read_text(encoding="utf-8"))
        conn.execute(
            "INSERT INTO guild_settings (guild_id, key, value, updated_at) "
            "VALUES (1, 'turn_seconds', '3600', '2026-01-01T00:00:00+00:00')"
        )
    finally:
        conn.close()
    before = _state(old)
    assert main(["migrate-store", str(old), pg_url]) == 0
    assert "counts equal" in capsys.readouterr().out
    assert _state(old) == before
    conn = sqlite3.connect(old)
    try:
        assert max(r[0] for r in conn.execute("SELECT version FROM schema_migrations")) == 8 < len(NUMBERED)
    finally:
        conn.close()
    assert asyncio.run(_rows_in(pg_url)) == {"guild_settings": 1}


def test_a_read_only_source_is_copied(tmp_path: Path, pg_url: str) -> None:
    """Read-only on disk, and named like an SQLite URI's options: it is still only read."""
    source = tmp_path / "live?mode=rwc&cache=shared#x.sqlite3"
    asyncio.run(_played(source))
    _sql(source)
    before = _state(source)
    source.chmod(0o444)
    try:
        assert main(["migrate-store", str(source), pg_url]) == 0
    finally:
        source.chmod(0o644)
    assert _state(source) == before


def test_a_copy_that_fails_its_check_is_taken_out_again(
    tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The check after the commit is the last line of defence: if it fails, TO is emptied again."""
    source = tmp_path / "live.sqlite3"
    asyncio.run(_played(source))

    async def differs(*_: object) -> None:
        raise StoreError("game #1 differs between the source and the copy")

    monkeypatch.setattr(store_copy, "verify", differs)
    assert main(["migrate-store", str(source), pg_url]) == 1
    assert capsys.readouterr().err == (
        "migrate-store failed: game #1 differs between the source and the copy; the target was emptied again\n"
    )
    assert asyncio.run(_rows_in(pg_url)) == {}
    monkeypatch.undo()
    assert main(["migrate-store", str(source), pg_url]) == 0


def test_a_source_left_with_its_write_ahead_log_is_copied_whole_and_unchanged(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot that stopped without a checkpoint leaves committed rows in the -wal file: they are copied too."""
    live = tmp_path / "live" / "conductor.sqlite3"
    live.parent.mkdir()
    asyncio.run(_played(live))
    writer = sqlite3.connect(live, isolation_level=None)
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute(
            "INSERT INTO guild_settings (guild_id, key, value, updated_at) "
            "VALUES (1, 'turn_seconds', '3600', '2026-01-01T00:00:00+00:00')"
        )
        crashed = tmp_path / "crashed"
        crashed.mkdir()
        for name in ("conductor.sqlite3", "conductor.sqlite3-wal"):
            shutil.copyfile(live.parent / name, crashed / name)  # the files as a crash would leave them
    finally:
        writer.close()
    source = crashed / "conductor.sqlite3"
    wal = crashed / "conductor.sqlite3-wal"
    assert wal.stat().st_size > 0
    before = [hashlib.sha256(p.read_bytes()).hexdigest() for p in (source, wal)]
    assert main(["migrate-store", str(source), pg_url]) == 0
    assert "2 games replayed" in capsys.readouterr().out
    assert asyncio.run(_rows_in(pg_url))["guild_settings"] == 1
    assert [hashlib.sha256(p.read_bytes()).hexdigest() for p in (source, wal)] == before
