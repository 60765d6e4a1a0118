"""Where the autopilot thinks (bot/service/thinking.py): the expert in a worker process, the same move as here."""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.runtime import settings as settings_module
from bot.runtime.settings import Settings, SettingsError, usable_cores
from bot.service.thinking import Thinking, expert_search
from engine import Game
from engine.autopilot import Level, choose_in_snapshot, choose_move
from engine.expert import DEFAULT_SEARCH, Search, choose_expert, choose_shared, search_share
from engine.moves import DrawTickets
from engine.snapshot import snapshot_text
from engine.state import Pending
from engine.strong import choose_strong
from maps import load_board

# a search bounded by its worlds, not the clock (the same information gives the same move in any process), that
# leaves strong's move for any gain: so the moves below are the search's own, not strong's
SMALL = Search(work=100_000, worlds=4, time_limit=None, confidence=0.0, confidence_many=0.0)


def _game(map_name: str, players: int, moves: int, seed: str) -> Game:
    game = Game(load_board(map_name), [f"p{i}" for i in range(players)], seed)
    while not game.finished and len(game.moves) < moves:
        game.apply(choose_move(game, game.waiting_for()[0], Level.STRONG))
    return game


def _decisions() -> Iterator[tuple[Game, str]]:
    """Positions where the expert searches: the first ticket choice, a turn's start, tickets drawn in play."""
    for map_name, players, moves in (("usa", 2, 0), ("usa", 2, 30), ("switzerland", 3, 40)):
        game = _game(map_name, players, moves, f"thinking-{map_name}-{moves}")
        yield game, game.waiting_for()[0]
    game = _game("usa", 2, 24, "thinking-keep")
    while game.state.pending is not None:
        game.apply(choose_move(game, game.waiting_for()[0], Level.STRONG))
    game.apply(DrawTickets(game.waiting_for()[0]))
    assert game.state.pending is Pending.KEEP
    yield game, game.waiting_for()[0]


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    yield executor
    executor.shutdown(wait=True, cancel_futures=True)


async def test_the_worker_makes_the_move_this_process_would(pool: ProcessPoolExecutor) -> None:
    thinking = Thinking(pool, SMALL)
    searched = 0
    for game, name in _decisions():
        here = choose_expert(game, name, SMALL)
        searched += here != choose_strong(game, name)
        moves_before = list(game.moves)
        there = await thinking.move(game, name, Level.EXPERT)
        assert there == here
        assert game.moves == moves_before  # the game was only read
    assert searched >= 2  # moves the search chose from what it read, not strong's
    assert thinking.executor is pool


async def test_steady_and_strong_think_here_and_never_in_the_worker() -> None:
    class Refusing(Executor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            raise AssertionError("steady and strong decide in a thread")

    game = _game("india", 2, 25, "thinking-levels")
    name = game.waiting_for()[0]
    thinking = Thinking(Refusing(), SMALL)
    for level in (Level.STEADY, Level.STRONG):
        assert await thinking.move(game, name, level) == choose_move(game, name, level)


async def test_a_broken_pool_does_not_stop_the_game(caplog: pytest.LogCaptureFixture) -> None:
    class Broken(Executor):
        calls = 0

        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            Broken.calls += 1
            raise BrokenProcessPool("a worker died")

    game = _game("usa", 2, 30, "thinking-broken")
    name = game.waiting_for()[0]
    thinking = Thinking(Broken(), SMALL)
    with caplog.at_level(logging.WARNING, logger="bot.service.thinking"):
        first = await thinking.move(game, name, Level.EXPERT)
        second = await thinking.move(game, name, Level.EXPERT)
    assert first == second == choose_expert(game, name, SMALL)
    assert Broken.calls == 1  # after it broke, the thread thinks
    told = [r for r in caplog.records if "worker process stopped" in r.getMessage()]
    assert len(told) == 1 and told[0].exc_info is None  # said once, without a traceback


def test_the_worker_reads_only_the_snapshot_and_moves() -> None:
    """`choose_in_snapshot` rebuilds the game from its snapshot: the move is the in-process one."""
    game = _game("amsterdam", 2, 18, "thinking-snapshot")
    name = game.waiting_for()[0]
    moved = choose_in_snapshot(snapshot_text(game), list(game.moves), name, Level.EXPERT, SMALL)
    assert moved == choose_expert(game, name, SMALL)
    assert choose_in_snapshot(snapshot_text(game), list(game.moves), name, "strong") == choose_strong(game, name)


def test_the_expert_time_limit_is_a_setting(tmp_path: Path) -> None:
    assert Settings.from_env({}, None).expert_seconds == 1.8
    assert Settings.from_env({"CONDUCTOR_EXPERT_SECONDS": " 0.5 "}, None).expert_seconds == 0.5
    assert Settings.from_env({"CONDUCTOR_EXPERT_SECONDS": ""}, None).expert_seconds == 1.8
    env = tmp_path / ".env"
    env.write_text("CONDUCTOR_EXPERT_SECONDS=3\n", encoding="utf-8")
    assert Settings.from_env({}, env).expert_seconds == 3.0
    for bad in ("0.1", "11", "nan", "inf", "-1", "two", "１"):
        with pytest.raises(
            SettingsError, match=r"CONDUCTOR_EXPERT_SECONDS must be a number of seconds from 0\.2 to 10"
        ):
            Settings.from_env({"CONDUCTOR_EXPERT_SECONDS": bad}, None)


def test_the_bots_search_gives_each_part_the_default_work() -> None:
    """Split between n processes, the bot's search bounds each part's work as an unsplit one's (the parts share
    `Search.work`): n times the default's; the time limit is the setting's, the rest the default search."""
    one, two = expert_search(1.8), expert_search(0.5, 2)
    assert one == DEFAULT_SEARCH
    assert two.work == 2 * DEFAULT_SEARCH.work and two.time_limit == 0.5
    assert replace(two, work=DEFAULT_SEARCH.work, time_limit=DEFAULT_SEARCH.time_limit) == DEFAULT_SEARCH


async def test_a_decision_split_between_the_workers_is_decided_from_every_part() -> None:
    executor = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))
    try:
        thinking = Thinking(executor, SMALL, parts=2)
        searched = 0
        for game, name in _decisions():
            here = choose_shared([search_share(game, name, SMALL, k, 2) for k in range(2)], len(game.names), SMALL)
            searched += here != choose_strong(game, name)
            assert await thinking.move(game, name, Level.EXPERT) == here
        assert searched >= 1
        # where the expert plays strong's move (a second card), no part searches
        game = _game("usa", 2, 20, "thinking-split-draw")
        while game.state.pending is not Pending.DRAW:
            game.apply(choose_move(game, game.waiting_for()[0], Level.STRONG))
        name = game.waiting_for()[0]
        assert await thinking.move(game, name, Level.EXPERT) == choose_strong(game, name)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def test_the_expert_processes_are_a_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # unset: two where the machine has two cores or more, one on a single core; Settings() itself the same
    assert Settings.from_env({}, None).expert_processes == min(2, usable_cores())
    assert Settings(database=tmp_path / "x.sqlite3").expert_processes == min(2, usable_cores())
    for cores, processes in ((1, 1), (2, 2), (16, 2)):
        monkeypatch.setattr(settings_module, "usable_cores", lambda cores=cores: cores)
        assert Settings.from_env({}, None).expert_processes == processes
        assert Settings.from_env({"CONDUCTOR_EXPERT_PROCESSES": "1"}, None).expert_processes == 1
    monkeypatch.setattr(settings_module, "usable_cores", lambda: 16)  # a machine with cores to spare
    assert Settings.from_env({"CONDUCTOR_EXPERT_PROCESSES": " 2 "}, None).expert_processes == 2
    env = tmp_path / ".env"
    env.write_text("CONDUCTOR_EXPERT_PROCESSES=4\n", encoding="utf-8")
    assert Settings.from_env({}, env).expert_processes == 4
    for bad in ("0", "9", "1.5", "two", "-1", "２"):
        with pytest.raises(SettingsError, match="CONDUCTOR_EXPERT_PROCESSES must be a whole number from 1 to 8"):
            Settings.from_env({"CONDUCTOR_EXPERT_PROCESSES": bad}, None)


def test_more_expert_processes_than_cores_are_refused_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The setting's message promises at most the machine's cores: on two cores, 3 is refused saying so."""
    monkeypatch.setattr(settings_module, "usable_cores", lambda: 2)
    assert Settings.from_env({"CONDUCTOR_EXPERT_PROCESSES": "2"}, None).expert_processes == 2
    for bad in ("3", "8"):
        with pytest.raises(SettingsError) as refused:
            Settings.from_env({"CONDUCTOR_EXPERT_PROCESSES": bad}, None)
        said = str(refused.value)
        assert "from 1 to 2" in said and "this one has 2" in said and repr(bad) in said, said
    monkeypatch.setattr(settings_module, "usable_cores", lambda: 1)
    with pytest.raises(SettingsError, match="from 1 to 1 "):
        Settings.from_env({"CONDUCTOR_EXPERT_PROCESSES": "2"}, None)
