"""Crash safety: a process playing moves is killed with SIGKILL at random moments, many times (on each store).

After every kill the database must open, every game must load and equal the
replay of its committed moves, and every move the process saw committed
must be there.
"""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.service_support import open_service, replay_rows, same_game

from bot.store import Database, GameStatus

HELPER = Path(__file__).parent / "helpers" / "crash_player.py"
ROOT = Path(__file__).parent.parent
KILLS = 30


def committed_lines(log: Path) -> list[tuple[int, int, dict[str, Any]]]:
    """Every complete COMMIT line; a line cut by the kill has no newline and is ignored."""
    out = []
    for line in log.read_text().splitlines(keepends=True):
        if line.startswith("COMMIT ") and line.endswith("\n"):
            _, game, index, move = line.split(" ", 3)
            out.append((int(game), int(index), json.loads(move)))
    return out


def run_and_kill(db: Database, log: Path, seed: int, delay: float, after_ready: bool) -> None:
    """Start the player and SIGKILL it `delay` seconds after it starts (or after it starts playing)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    proc = subprocess.Popen(
        [sys.executable, str(HELPER), str(db), str(log), str(seed)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        if after_ready:
            # a slow machine must not turn every kill into a kill during start-up
            deadline = time.monotonic() + 30
            while not (log.exists() and "READY" in log.read_text()) and proc.poll() is None:
                assert time.monotonic() < deadline, "the player never got ready"
                time.sleep(0.01)
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    else:
        pytest.fail(f"the player stopped by itself: {proc.stderr.read().decode() if proc.stderr else ''}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()


async def check(db: Database, seen: dict[tuple[int, int], dict[str, Any]], caplog: pytest.LogCaptureFixture) -> int:
    """Everything must load and agree; the number of moves in the database."""
    if not isinstance(db, str):  # SQLite's own check of its file (a PostgreSQL server keeps its pages itself)
        conn = sqlite3.connect(db)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            conn.close()
    caplog.clear()
    service = await open_service(db)
    total = 0
    try:
        for row in await service.store.games.games_with_status(set(GameStatus)):
            stored = await service.store.games.stored_game(row.id)
            assert stored is not None
            if stored.game.seed is None:
                continue  # a lobby: nothing dealt yet
            assert stored.snapshot is not None and stored.snapshot.move_count == len(stored.moves)
            assert same_game(await service.reading.engine_game(row.id), replay_rows(stored))
            total += len(stored.moves)
            logged = {m.index: m.move for m in stored.moves}
            for (game_id, index), move in seen.items():
                if game_id == row.id:
                    assert logged.get(index) == move, f"committed move {index} of game #{game_id} is missing"
        assert {g for g, _ in seen} <= {r.id for r in await service.store.games.games_with_status(set(GameStatus))}
    finally:
        await service.close()
    assert "snapshot not used" not in caplog.text  # the snapshot is written with its move, never behind
    return total


async def test_killed_at_random_moments_nothing_committed_is_lost(
    tmp_path: Path, database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.service")
    db = database
    rng = random.Random(20260301)
    seen: dict[tuple[int, int], dict[str, Any]] = {}
    totals = []
    for round_ in range(KILLS):
        log = tmp_path / f"round{round_}.log"
        # the first kills land during start-up (migrations, lobbies, the deal), the rest during play
        during_start = round_ < 4
        delay = rng.uniform(0.05, 0.4) if during_start else rng.uniform(0.0, 0.6)
        run_and_kill(db, log, round_, delay, after_ready=not during_start)
        if log.exists():
            for game_id, index, move in committed_lines(log):
                seen[(game_id, index)] = move
        totals.append(await check(db, seen, caplog))
    assert totals == sorted(totals), "moves disappeared between rounds"
    assert len(seen) > 200, f"too few moves were played to mean anything ({len(seen)})"
    print(f"{KILLS} kills, {len(seen)} moves seen committed, {totals[-1]} in the database")
