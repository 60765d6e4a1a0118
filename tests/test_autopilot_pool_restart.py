"""The expert's worker process killed (bot/service/thinking.py): the next decision runs in a new worker process, not
in the bot's own; new pools that keep breaking end in a thread, said once."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from test_autopilot_thinking import SMALL, _game

from bot.service import thinking as thinking_module
from bot.service.thinking import MAX_POOL_RESTARTS, Thinking
from engine.autopilot import Level
from engine.expert import choose_expert

ROOT = Path(__file__).resolve().parent.parent


def spawned() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))


def worker_pids(pool: Executor) -> set[int]:
    assert isinstance(pool, ProcessPoolExecutor)
    return set(pool._processes or {})  # the pool's worker processes (by pid)


async def test_a_killed_worker_is_replaced_and_the_next_decision_runs_in_the_new_one(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    made: list[ProcessPoolExecutor] = []

    def make() -> ProcessPoolExecutor:
        made.append(spawned())
        return made[-1]

    game = _game("usa", 2, 30, "thinking-killed")
    name = game.waiting_for()[0]
    expected = choose_expert(game, name, SMALL)
    thinking = Thinking(make(), SMALL, make_executor=make)
    try:
        assert await thinking.move(game, name, Level.EXPERT) == expected
        (first,) = worker_pids(made[0])
        os.kill(first, signal.SIGKILL)
        for _ in range(200):  # the pool notices its worker died
            if made[0]._broken:
                break
            await asyncio.sleep(0.05)

        def not_here(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("the expert decided in the bot's own process")

        monkeypatch.setattr(thinking_module, "choose_move", not_here)  # the thread's way to decide
        with caplog.at_level(logging.WARNING, logger="bot.service.thinking"):
            assert await thinking.move(game, name, Level.EXPERT) == expected
        assert len(made) == 2 and thinking.executor is made[1]
        (second,) = worker_pids(made[1])
        assert second != first and second != os.getpid()
        assert any("a new one is started" in r.getMessage() for r in caplog.records)
        # and it goes on there
        assert await thinking.move(game, name, Level.EXPERT) == expected
        assert worker_pids(made[1]) == {second}
    finally:
        thinking.close()
        for pool in made:
            pool.shutdown(wait=True, cancel_futures=True)


async def test_pools_that_keep_breaking_end_in_a_thread_said_once(caplog: pytest.LogCaptureFixture) -> None:
    class Broken(Executor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            raise BrokenProcessPool("a worker died")

    made: list[Broken] = []

    def make() -> Broken:
        made.append(Broken())
        return made[-1]

    game = _game("usa", 2, 30, "thinking-broken-again")
    name = game.waiting_for()[0]
    thinking = Thinking(Broken(), SMALL, make_executor=make)
    with caplog.at_level(logging.WARNING, logger="bot.service.thinking"):
        first = await thinking.move(game, name, Level.EXPERT)
        second = await thinking.move(game, name, Level.EXPERT)
    assert first == second == choose_expert(game, name, SMALL)
    assert len(made) == MAX_POOL_RESTARTS and thinking.executor is None
    told = [r.getMessage() for r in caplog.records]
    assert sum("now thinks in a thread" in t for t in told) == 1, told


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity")
def test_a_start_with_more_expert_processes_than_cores_is_refused_in_one_line(tmp_path: Path) -> None:
    """`python -m bot` on one core (its affinity) with CONDUCTOR_EXPERT_PROCESSES=2: refused at start, before it
    connects, in one line that says the most this machine takes."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CONDUCTOR_"))}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "not-a-token", "CONDUCTOR_EXPERT_PROCESSES": "2"}
    env["CONDUCTOR_DATABASE"] = str(tmp_path / "c.sqlite3")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}),
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "CONDUCTOR_EXPERT_PROCESSES must be a whole number from 1 to 1" in lines[0], lines
    assert "this one has 1" in lines[0] and not (tmp_path / "c.sqlite3").exists()
