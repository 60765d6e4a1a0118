"""The autopilot's decisions, made off the event loop.

`steady` and `strong` decide in a few milliseconds to a few hundred, in a
thread. `expert` searches for up to its time limit (engine/expert.py, about
two seconds), all of it Python: in a thread it would hold the interpreter
that long, so with a process pool (the bot's) it decides in a worker
process. The worker gets the game as a snapshot with its moves
(engine/snapshot.py) and rebuilds it from that (`choose_in_snapshot`, which
imports only the engine, so the worker starts light): the expert reads only what
its seat may know, whichever process holds the game. A pool that broke (a
worker killed) is no reason to stop a game: the decision is then made in a
thread, and the bot's log says so once.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from engine import Game, Move
from engine.autopilot import Level, choose_in_snapshot, choose_move
from engine.expert import DEFAULT_SEARCH, Search
from engine.snapshot import snapshot_text

log = logging.getLogger(__name__)

# What the expert's time limit may be set to, in seconds (bot/runtime/settings.py, CONDUCTOR_EXPERT_SECONDS).
MIN_EXPERT_SECONDS = 0.2
MAX_EXPERT_SECONDS = 10.0


@dataclass
class Thinking:
    """Where and how hard the autopilot thinks: `executor` runs the expert's searches (None: a thread)."""

    executor: Executor | None = None
    search: Search = DEFAULT_SEARCH
    _broken_told: bool = field(default=False, init=False, repr=False)  # the log said the pool broke

    async def move(self, game: Game, name: str, level: Level) -> Move:
        """The autopilot's move for `name` at `level`, decided off the event loop."""
        if level is Level.EXPERT:
            if self.executor is not None:
                loop = asyncio.get_running_loop()
                job = (snapshot_text(game), list(game.moves), name, level, self.search)
                try:
                    return await loop.run_in_executor(self.executor, choose_in_snapshot, *job)
                except BrokenProcessPool:
                    if not self._broken_told:
                        log.warning("the expert's worker process stopped: the expert now thinks in a thread")
                        self._broken_told = True
                    self.executor = None
            return await asyncio.to_thread(choose_move, game, name, level, self.search)
        return await asyncio.to_thread(choose_move, game, name, level)


__all__ = ["MAX_EXPERT_SECONDS", "MIN_EXPERT_SECONDS", "Thinking"]
