"""The service's core: each game's lock, the cache of live games, versioned writes, and the clock.

It holds only the store's parts it needs to load a game and its clock
(`GameStore`, `HistoryStore`, private) and the members' settings for
`member_reads`; every other part of the service is given the store's parts it
uses in its own constructor (bot/service/game_service.py).

Each change runs under the game's own lock, as one store transaction that is
checked against the version the service read; the move is applied to a copy
of the game and the copy replaces the cached game only once the store has
committed. So a refused or failed action leaves both the database and the
cache as they were, and games never wait for each other's locks. Time comes
from the injected `clock`, so tests and simulated Discord time control it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from bot.service.checks import check_id
from bot.service.errors import IdKind, NotFound, ServiceError, StaleVersion, Why
from bot.service.known_plans import KnownPlans
from bot.service.loading import LiveGame, load
from bot.service.member_reads import MemberReads
from bot.service.models import GameInfo
from bot.service.observer import QUIET, Observer
from bot.store import (
    ClockRow,
    GameStore,
    HistoryStore,
    NewTimer,
    SettingsStore,
    Shards,
    UnknownGame,
    VersionConflict,
)
from engine import Game

log = logging.getLogger(__name__)

T = TypeVar("T")
# How long a member read as not away is taken as still not away without reading again. Another process may see
# them go away meanwhile: at worst the autopilot steps in for them that much later (that process, answering the
# member, plays their waiting turns at once itself).
NOT_AWAY_TRUSTED = timedelta(seconds=30)
MAX_PRESENT_KEPT = 20_000  # members kept so; past it, those whose time is over are dropped


def utc_now() -> datetime:
    return datetime.now(UTC)


class ServiceCore:
    """What every part of the service shares; knows nothing of Discord."""

    def __init__(
        self,
        game_store: GameStore,
        history_store: HistoryStore,
        settings_store: SettingsStore,
        *,
        rng: random.Random | None = None,
        cache_size: int = 1000,
        clock: Callable[[], datetime] | None = None,
        shards: Shards | None = None,
        observer: Observer = QUIET,
    ) -> None:
        self._game_store = game_store
        self._history_store = history_store
        self.observer = observer  # who hears what the service does, for metrics (bot/service/observer.py)
        # the shards this process serves (their servers' timers, outages, stage messages); None: every server
        self.shards = shards
        # seat order and seeds must not be predictable by players
        self.rng = rng if rng is not None else random.SystemRandom()
        self._cache: OrderedDict[int, LiveGame] = OrderedDict()
        self._cache_size = cache_size
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._clock = clock if clock is not None else utc_now
        self._timer_listeners: list[Callable[[datetime], None]] = []
        # each seat's game right after its last move, for catch-up digests without a replay (a cache only)
        self.after_last_move: dict[int, dict[int, Game]] = {}
        # each game's clock as last committed by this service (a cache only: the store holds the truth,
        # and any write but a move drops it, so it is read again)
        self.committed_clocks: dict[int, ClockRow] = {}
        self.known_plans = KnownPlans()  # the games' seats with a planned turn, as this process knows them
        # members this process read as not away, and until when it takes that as still true without reading again
        # (`NOT_AWAY_TRUSTED`; its own writes of a member's settings forget it at once)
        self.present_until: dict[int, datetime] = {}
        self.member_reads = MemberReads(settings_store)  # members' settings, the asks of one moment in one read

    def now(self) -> datetime:
        """The time as the service sees it (the injected clock), timezone-aware."""
        moment = self._clock()
        if moment.tzinfo is None:
            raise ValueError("the service's clock must give timezone-aware times (UTC)")
        return moment

    # ----- who hears of new timers -------------------------------------------------

    def add_timer_listener(self, listener: Callable[[datetime], None]) -> None:
        """Call `listener(soonest deadline)` whenever the service has written timers (the scheduler wakes up)."""
        self._timer_listeners.append(listener)

    def remove_timer_listener(self, listener: Callable[[datetime], None]) -> None:
        if listener in self._timer_listeners:
            self._timer_listeners.remove(listener)

    def timers_written(self, timers: Sequence[NewTimer] | None) -> None:
        if not timers:
            return
        soonest = min(t.deadline for t in timers)
        for listener in list(self._timer_listeners):
            try:
                listener(soonest)
            except Exception:
                log.exception("a timer listener failed")

    # ----- locking and the cache ---------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def locked(self, game_id: int, work: Callable[[], Awaitable[T]]) -> T:
        """Run `work` under the game's lock, to its end even if the caller is cancelled.

        A cancelled Discord interaction must not stop an action between the
        commit and the cache update; the shield lets it finish.
        """
        game_id = check_id(game_id, IdKind.GAME)

        async def run() -> T:
            async with self._lock(game_id):
                return await work()

        task = asyncio.ensure_future(run())
        task.add_done_callback(_retrieve)
        return await asyncio.shield(task)

    def working_copy(self, game: Game) -> Game:
        """A copy of a committed game, to make a move on or to hand out: the one place the service copies a game
        (the cached game is never changed in place). A claim takes one: the one its move is made on."""
        return game.copy()

    def remember(self, game_id: int, live: LiveGame) -> None:
        self._cache[game_id] = live
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            dropped, _ = self._cache.popitem(last=False)
            self.after_last_move.pop(dropped, None)
            self.committed_clocks.pop(dropped, None)

    def present(self, user_id: int, now: datetime) -> bool:
        """Was the member read as not away lately (so that the away check need not read them again)?"""
        until = self.present_until.get(user_id)
        return until is not None and now < until

    def seen_present(self, user_id: int, now: datetime) -> None:
        if len(self.present_until) >= MAX_PRESENT_KEPT:
            self.present_until = {u: t for u, t in self.present_until.items() if now < t}
        self.present_until[user_id] = now + NOT_AWAY_TRUSTED

    def forget_member(self, user_id: int) -> None:
        self.present_until.pop(user_id, None)

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)
        self.after_last_move.pop(game_id, None)
        self.committed_clocks.pop(game_id, None)

    async def stored_clock(self, game_id: int) -> ClockRow:
        """The game's clock as stored: from memory if this service committed it last or read it with the game,
        else read.

        One from memory may be behind another process's change: a move made
        with it is checked against the store in its own transaction
        (`NewMove.expected_clock`). A paused clock, which refuses moves by
        itself, is always read, and never kept.
        """
        clock = self.committed_clocks.get(game_id)
        if clock is None or clock.paused_at is not None:
            clock = await self._history_store.clock(game_id)
            if clock.paused_at is None:
                self.committed_clocks[game_id] = clock
        return clock

    async def live(self, game_id: int) -> LiveGame:
        """The game as committed; the caller holds its lock."""
        live = self._cache.get(game_id)
        if live is not None:
            self._cache.move_to_end(game_id)
            return live
        stored = await self._game_store.stored_game(game_id)
        if stored is None:
            raise NotFound(Why.NO_SUCH_GAME, {"game_id": game_id})
        loaded = await load(stored)
        if loaded.fresh_snapshot is not None:
            log.warning("game #%d: snapshot not used (%s); rebuilt from its move log", game_id, loaded.snapshot_problem)
            with contextlib.suppress(VersionConflict):  # someone else moved on meanwhile: theirs is the newer one
                await self._history_store.save_snapshot(
                    game_id, stored.game.version, len(stored.moves), loaded.fresh_snapshot
                )
        self.remember(game_id, loaded.live)
        if stored.clock is not None and stored.clock.paused_at is None:
            self.committed_clocks[game_id] = stored.clock  # read with the game, at the same moment
        return loaded.live

    async def stale(self, game_id: int) -> bool:
        """Has another process changed the game since this one cached it? One small read; the caller holds the
        game's lock. (Asked when this copy refuses a member: it may be out of date, not the member wrong.)"""
        live = self._cache.get(game_id)
        if live is None:
            return False
        row = await self._game_store.game(game_id)
        return row is not None and row.version != live.info.version

    async def act(self, game_id: int, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run a member's or moderator's action under the game's lock (as `locked`). If this process's copy of the
        game refuses it while another process has moved the game on (an overlapping deploy, a second shard), or
        the store refuses its write (the version compare-and-set: `expected` None), the game is read again and
        the action answered from it as stored."""

        async def fresh_if_refused() -> T:
            try:
                return await attempt()
            except ServiceError as exc:
                refused_write = isinstance(exc, StaleVersion) and exc.expected is None
                if not refused_write and not await self.stale(game_id):
                    raise
                self.forget(game_id)
                return await attempt()

        return await self.locked(game_id, fresh_if_refused)

    async def info(self, game_id: int) -> GameInfo:
        return (await self.live(game_id)).info

    async def fresh_info(self, game_id: int) -> GameInfo:
        self.forget(game_id)
        return await self.info(game_id)

    async def write(self, game_id: int, write: Callable[[], Awaitable[int]]) -> int:
        """A versioned store write; a version conflict means someone else came first."""
        self.committed_clocks.pop(game_id, None)  # the write may change the clock; a move puts it back once committed
        try:
            return await write()
        except VersionConflict:
            self.forget(game_id)
            raise StaleVersion(game_id, None, None) from None
        except UnknownGame:
            self.forget(game_id)
            raise NotFound(Why.NO_SUCH_GAME, {"game_id": game_id}) from None
        except BaseException:
            self.forget(game_id)  # the database may hold more than the cache knows
            raise

    async def game(self, game_id: int) -> GameInfo:
        return await self.locked(game_id, lambda: self.info(game_id))


def _retrieve(task: asyncio.Task[Any]) -> None:
    # the caller may have been cancelled; the outcome was still seen, so asyncio does not warn
    if not task.cancelled():
        task.exception()
