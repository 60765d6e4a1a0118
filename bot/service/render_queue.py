"""The render queue: every image is drawn here, a few at a time, off the event loop, fairly across games.

Drawing a board takes a while, and one member can ask for many. So requests
wait in a queue per game, and a small fixed pool of workers (`workers`, 1 by
default) takes them round-robin across games, the game served longest ago
first (a game new to the queue counts as never served): a burst of requests in
one game delays another game's image by at most the renders already running
when it arrives. Urgent requests (the image of a game's stage message,
which every player waits for) go before the rest: a game with an urgent
request is served first, and within a game its urgent requests come first.
Identical requests (the same `key`: game, stage and who looks) share one
render while it is pending or running. A failing render fails only its own
requests; the worker goes on.

Workers are tasks that run while something waits and end when nothing does.
Observers (`observe`) see each render as it starts, with the games of the
renders it waited behind: running when it arrived, or started after that.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
Runner = Callable[[Callable[[], Any]], Awaitable[Any]]


@dataclass(frozen=True)
class RenderStart:
    """A render as it starts: which game, what, whether urgent, and the games of the renders it waited behind."""

    game_id: int
    key: Hashable
    urgent: bool
    behind: tuple[int, ...]


@dataclass(eq=False)
class _Job:
    game_id: int
    key: Hashable
    draw: Callable[[], Any]
    urgent: bool
    done: asyncio.Future[Any]
    behind: list[int] = field(default_factory=list)


@dataclass
class _GameLine:
    urgent: deque[_Job] = field(default_factory=deque)
    normal: deque[_Job] = field(default_factory=deque)
    served: int = -1  # when a render of this game last started (-1: not while it had anything waiting)

    def __bool__(self) -> bool:
        return bool(self.urgent or self.normal)

    def take(self) -> _Job:
        return self.urgent.popleft() if self.urgent else self.normal.popleft()


class RenderQueue:
    """`await queue.render(game_id, key, draw)`: `draw()` run by a worker; the same `key` shares one render."""

    def __init__(
        self, workers: int = 1, *, run: Runner = asyncio.to_thread, drawn: Callable[[str, float], None] | None = None
    ) -> None:
        if workers < 1:
            raise ValueError("a render queue needs at least one worker")
        self._workers_wanted = workers
        self._run = run
        self._lines: dict[int, _GameLine] = {}  # games with pending jobs
        self._starts = 0  # renders started so far
        self._inflight: dict[Hashable, _Job] = {}  # pending or running, by key
        self._running: list[_Job] = []
        self._workers: list[asyncio.Task[None]] = []
        self._observers: list[Callable[[RenderStart], None]] = []
        self._drawn = drawn  # told each image's kind (its key's first part) and the seconds it took to draw

    def observe(self, observer: Callable[[RenderStart], None]) -> None:
        """Call `observer` as each render starts."""
        self._observers.append(observer)

    def running(self) -> tuple[int, ...]:
        """The games of the renders being drawn now."""
        return tuple(job.game_id for job in self._running)

    def pending(self) -> int:
        """How many renders wait for a worker."""
        return sum(len(line.urgent) + len(line.normal) for line in self._lines.values())

    async def render(self, game_id: int, key: Hashable, draw: Callable[[], T], *, urgent: bool = False) -> T:
        """What `draw()` returns (or raises), drawn by a worker when this game's turn comes."""
        job = self._inflight.get(key)
        if job is None:
            loop = asyncio.get_running_loop()
            job = _Job(game_id, key, draw, urgent, loop.create_future(), [j.game_id for j in self._running])
            self._inflight[key] = job
            line = self._lines.setdefault(game_id, _GameLine())
            (line.urgent if urgent else line.normal).append(job)
            self._start_workers()
        elif urgent and not job.urgent and job in self._lines.get(job.game_id, _GameLine()).normal:
            line = self._lines[job.game_id]
            line.normal.remove(job)
            line.urgent.append(job)
            job.urgent = True
        result: T = await asyncio.shield(job.done)
        return result

    def _start_workers(self) -> None:
        self._workers = [w for w in self._workers if not w.done()]
        while len(self._workers) < self._workers_wanted:
            self._workers.append(asyncio.create_task(self._work(), name="conductor-render"))

    def _next(self) -> _Job | None:
        """The next job: of the games with an urgent job (else of all), the one served longest ago."""
        if not self._lines:
            return None
        games = [g for g, line in self._lines.items() if line.urgent] or list(self._lines)
        game_id = min(games, key=lambda g: self._lines[g].served)  # ties: the one waiting longest
        line = self._lines[game_id]
        job = line.take()
        line.served = self._starts
        if not line:
            del self._lines[game_id]
        return job

    async def _work(self) -> None:
        """Draw until nothing waits; a worker is started again by the next request."""
        while (job := self._next()) is not None:
            self._begin(job)
            try:
                result = await self._run(job.draw if self._drawn is None else partial(_timed, job, self._drawn))
            except asyncio.CancelledError:
                self._finish(job)
                if not job.done.done():
                    job.done.cancel()
                raise
            except Exception as exc:
                self._finish(job)
                if not job.done.done():
                    job.done.set_exception(exc)
            else:
                self._finish(job)
                if not job.done.done():
                    job.done.set_result(result)

    def _begin(self, job: _Job) -> None:
        self._starts += 1
        for line in self._lines.values():
            for waiting in (*line.urgent, *line.normal):
                waiting.behind.append(job.game_id)
        self._running.append(job)
        start = RenderStart(job.game_id, job.key, job.urgent, tuple(job.behind))
        for observer in self._observers:
            try:
                observer(start)
            except Exception:
                log.exception("a render queue observer failed")

    def _finish(self, job: _Job) -> None:
        self._running.remove(job)
        if self._inflight.get(job.key) is job:
            del self._inflight[job.key]

    async def stop(self) -> None:
        """Stop the workers; renders still waiting fail with CancelledError."""
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        for line in self._lines.values():
            for job in (*line.urgent, *line.normal):
                job.done.cancel()
        self._lines.clear()
        self._inflight.clear()


def _timed(job: _Job, drawn: Callable[[str, float], None]) -> Any:
    """`job.draw()`, its time told to `drawn` with the image's kind (in the drawing thread)."""
    started = time.perf_counter()
    try:
        return job.draw()
    finally:
        kind = job.key[0] if isinstance(job.key, tuple) and job.key and isinstance(job.key[0], str) else "other"
        drawn(kind, time.perf_counter() - started)
