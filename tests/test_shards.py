"""Two bot processes, shards 0 and 1 of 2, each in its own simulated Discord, on one PostgreSQL database.

Each process is a real subprocess (tests/shard_driver.py) running the bot
built by the harness. Games in each shard's server are served by their own
process only; deadlines fire once (counted in the audit: a timeout is stored
with the move of its effect); SIGKILL of one process loses no acknowledged
move and the other keeps serving; a restarted process takes its shard's
timers over.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg
import pytest

ROOT = Path(__file__).resolve().parent.parent


class Shard:
    """A bot process serving one shard of two, talked to line by line."""

    def __init__(self, url: str, shard: int, log: Path) -> None:
        env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'tests'}")
        self.log = log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "shard_driver.py"), url, str(shard), "2"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            cwd=ROOT,
            env=env,
            text=True,
        )
        self.ready = self.answer()

    def answer(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"the shard process ended (status {self.proc.wait()}); see {self.log.name}")
            if line.startswith("@ "):
                answer: dict[str, Any] = json.loads(line[2:])
                assert "error" not in answer, answer
                return answer

    def ask(self, command: str) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self.answer()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def quit(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


async def timeouts(url: str) -> dict[int, list[Any]]:
    """Each game's timeout audit entries (seat, timeout number)."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT game_id, details FROM audit_log WHERE action = 'timeout' ORDER BY id")
    finally:
        await conn.close()
    out: dict[int, list[Any]] = {}
    for row in rows:
        details = json.loads(row["details"])
        out.setdefault(int(row["game_id"]), []).append((details["seat"], details["timeouts"]))
    return out


@pytest.mark.timeout(300)
def test_two_shard_processes_share_one_database(pg_url: str, tmp_path: Path) -> None:
    log = tmp_path / "shards.log"
    zero, one = Shard(pg_url, 0, log), Shard(pg_url, 1, log)
    restarted: Shard | None = None
    try:
        # each server is on its own shard: (guild_id >> 22) % 2
        assert (zero.ready["guild"] >> 22) % 2 == 0 and (one.ready["guild"] >> 22) % 2 == 1
        game0 = zero.ask("open")["game"]
        game1 = one.ask("open")["game"]
        assert game0 != game1

        # shard 1: alice keeps her tickets (answered), then the process is killed
        kept = one.ask("keep alice")
        assert kept["waiting"] == ["bob"] and kept["moves"] == 1
        one.kill()

        # shard 0 keeps serving: a move, then two hours; its own deadline fires, shard 1's do not
        served = zero.ask("keep bob")
        assert served["waiting"] == ["alice"]
        after = zero.ask("advance 7200")
        assert after["timeouts_told"] >= 1
        assert game1 not in after["due_games"], "shard 0 sees the timers of shard 1's game"
        told = asyncio.run(timeouts(pg_url))
        assert [n for _, n in told.get(game0, [])] == [1], told  # alice's deadline, once
        assert game1 not in told, "shard 0 fired a timer of shard 1's game"

        # shard 1 again: the same server, channel and members; the answered move is there; the timer is its own
        restarted = Shard(pg_url, 1, log)
        assert restarted.ready == one.ready
        back = restarted.ask("state")
        assert back["game"] == game1 and back["moves"] == 1 and back["waiting"] == ["bob"]
        late = restarted.ask("advance 7200")
        assert late["timeouts_told"] >= 1
        assert late["fired"] >= 1
        zero.ask("advance 7200")  # more time on shard 0 fires nothing more
        told = asyncio.run(timeouts(pg_url))
        assert [n for _, n in told.get(game1, [])] == [1], told  # bob's deadline, once, by the restarted process
        assert [n for _, n in told.get(game0, [])] == [1], told  # still once
    finally:
        zero.quit()
        one.quit()
        if restarted is not None:
            restarted.quit()
