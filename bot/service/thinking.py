"""The autopilot's decisions, made off the event loop.

`steady` and `strong` decide in a few milliseconds to a few hundred, in a
thread. `expert` searches for up to its time limit (engine/expert.py, about
two seconds), all of it Python: in a thread it would hold the interpreter
that long, so with a process pool (the bot's) it decides in a worker
process. The worker gets the game as a snapshot with its moves
(engine/snapshot.py) and rebuilds it from that (`choose_in_snapshot`, which
imports only the engine, so the worker starts light): the expert reads only what
its seat may know, whichever process holds the game. A pool that broke (a
worker killed) is no reason to stop a game: a new pool is started
(`make_executor`, the bot's) and the decision made there, and the log says
so. Should new pools break again at once (three in a row without a decision
made), or without a way to start one, the expert thinks in a thread from
then on, and the log says so once.

With `parts` above one the expert's search is split between that many
worker processes (the pool should hold as many): each plays worlds of its
own to the same deadline (the parts of `engine.autopilot.split_search`), and the
move is decided here from all of them (`engine.expert.choose_shared`, a
few microseconds), so a decision the time limit ends weighs about that many
times the worlds. The bot's search (`expert_search`) bounds each part's work
as an unsplit search's, so one that the work bound ends (most two-player
decisions) weighs that many times the worlds too, in the same time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace

from engine import Game, Move
from engine.autopilot import Level, choose_in_snapshot, choose_move, split_search
from engine.expert import DEFAULT_SEARCH, Search
from engine.snapshot import snapshot_text

log = logging.getLogger(__name__)

# What the expert's time limit may be set to, in seconds (bot/runtime/settings.py, CONDUCTOR_EXPERT_SECONDS).
MIN_EXPERT_SECONDS = 0.2
MAX_EXPERT_SECONDS = 10.0
# How many processes a decision's search may be split between (CONDUCTOR_EXPERT_PROCESSES).
MAX_EXPERT_PROCESSES = 8


def expert_search(seconds: float, parts: int = 1) -> Search:
    """The bot's expert search: the default one with a time limit of `seconds` a decision, split between
    `parts` processes, each with the default's work bound (the parts share `Search.work`, so it is that many
    times the default's)."""
    return replace(DEFAULT_SEARCH, time_limit=seconds, work=DEFAULT_SEARCH.work * max(parts, 1))


# New pools started in a row, each broken before it made a decision, before the expert thinks in a thread for good.
MAX_POOL_RESTARTS = 3


@dataclass
class Thinking:
    """Where and how hard the autopilot thinks: `executor` runs the expert's searches (None: a thread), each
    split between `parts` of its processes; `make_executor` starts a new one when it breaks (None: a thread then).
    The executor in use is this object's: `close` shuts it down."""

    executor: Executor | None = None
    search: Search = DEFAULT_SEARCH
    parts: int = 1
    make_executor: Callable[[], Executor] | None = None
    _broken_told: bool = field(default=False, init=False, repr=False)  # the log said the expert went to a thread
    _restarts: int = field(default=0, init=False, repr=False)  # new pools since the last decision made in one

    async def move(self, game: Game, name: str, level: Level) -> Move:
        """The autopilot's move for `name` at `level`, decided off the event loop."""
        if level is Level.EXPERT:
            while self.executor is not None:
                broken = self.executor
                try:
                    moved = await self._in_workers(broken, game, name)
                except BrokenProcessPool:
                    self._replace(broken)
                    continue
                self._restarts = 0
                return moved
            return await asyncio.to_thread(choose_move, game, name, level, self.search)
        return await asyncio.to_thread(choose_move, game, name, level)

    def _replace(self, broken: Executor) -> None:
        """A worker of `broken` died: a new pool in its place (once, if several decisions found it broken)."""
        if self.executor is not broken:
            return  # another decision replaced it already
        broken.shutdown(wait=False, cancel_futures=True)
        self.executor = None
        if self.make_executor is not None and self._restarts < MAX_POOL_RESTARTS:
            self._restarts += 1
            log.warning("the expert's worker process stopped: a new one is started")
            self.executor = self.make_executor()
        elif not self._broken_told:
            log.warning("the expert's worker process stopped: the expert now thinks in a thread")
            self._broken_told = True

    def close(self) -> None:
        """Stop the worker processes (the bot's, at its close)."""
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None

    async def _in_workers(self, executor: Executor, game: Game, name: str) -> Move:
        """The expert's move, searched in the worker processes (split between `parts` of them,
        `engine.autopilot.split_search`)."""
        loop = asyncio.get_running_loop()
        split = split_search(game, name, self.search, self.parts)
        if split is None:
            text, moves = snapshot_text(game), list(game.moves)
            return await loop.run_in_executor(
                executor, choose_in_snapshot, text, moves, name, Level.EXPERT, self.search
            )
        shares = await asyncio.gather(
            *(loop.run_in_executor(executor, function, *args) for function, args in map(split.job, range(self.parts)))
        )
        return split.decide(shares)


__all__ = ["MAX_EXPERT_PROCESSES", "MAX_EXPERT_SECONDS", "MIN_EXPERT_SECONDS", "Thinking", "expert_search"]
