"""Durable timers: turn deadlines, reminders and autopilot turns (and the tournaments' round deadlines), fired
once, also across restarts.

The pattern of RoboDanny's reminder cog: the timers live in the store's
`timers` table; one task sleeps until the soonest of them (an asyncio.Event
wakes it early when the service writes a sooner one) and hands it to
`GameService.fire_timer`, which commits the timer's effect in the same
transaction that deletes it. So a crash before that commit fires the timer
again after the restart, and a crash after it never fires it twice.

With several bot processes (shards, bot/store/shards.py), each runs the
timers of its own shards' games only (the store's queries pick them), and
keeps a heartbeat per shard; the claim in the store still fires each timer
once, and a process that starts serving a shard finds its timers there.

Time while the bot is down counts against no one. The running loop writes a
heartbeat every `heartbeat` seconds (and `stop` writes one at a clean
shutdown); `begin`, the bot's start, first asks the service to forgive the
outage since the last heartbeat (`GameService.forgive_outage`: every running
clock moves on by it, each game's channel is told, a reminder that fell due
meanwhile is due at once), then starts the loop. A timer due at start for
another reason (its handling failed, the loop was started without `begin`)
fires at once: late rather than never.

What a timer did comes back to the front end through a `Notifier`. Reminders
are sent after their commit, so one lost in a crash at that very moment is
not sent again (better than twice); a deadline's moves are in the game
whether or not their announcement got out.

`tick`, if given, is awaited on every pass of the loop (so at least every
`heartbeat` seconds): the front end sends the direct messages it held for
later then (bot/table/notify.py).

Waiting uses the injectable `sleep` (asyncio.sleep by default, so a test
driver that moves the event loop's time, like SimCord's advance_time, moves
it), and deadlines are compared with the service's own clock (`service.core.now`).
The task waits only on that sleep (in a task of its own, cancelled to wake it
early), never on an event that only other code can set: a test driver that
waits until the bot is idle sees a sleeping task, not a stuck one. With no
timer at all it still looks again every `max_sleep` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Protocol

from bot.service import ActionResult, GameService, ModLogEntry, Reminder, TimerOutcome, TimerRow
from bot.service.tournaments.models import OverdueTables

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[object]]


class Notifier(Protocol):
    """How the front end hears what a timer did. Each call should not raise (failures are logged and dropped)."""

    async def remind(self, reminder: Reminder) -> None:
        """Remind a member whose time runs out: by DM, or by a mention in the game's channel where DMs are closed."""
        ...

    async def announce(self, result: ActionResult) -> None:
        """Post what happened, exactly as for the result of a command: public events in the game's channel,
        private events and turn notices to their members. (Its `mod_log` is empty: those entries come through
        `mod_log`.)"""
        ...

    async def mod_log(self, entry: ModLogEntry) -> None:
        """Post an entry to the server's moderators' log channel (guild setting `mod_log_channel_id`), if one is set."""
        ...

    async def overdue(self, notice: OverdueTables) -> None:
        """Tell a tournament's moderators that a round's deadline passed with these tables still playing."""
        ...


class Scheduler:
    """Runs the service's timers. `start()` once the service is open; `await stop()` before closing it."""

    def __init__(
        self,
        service: GameService,
        notifier: Notifier,
        *,
        sleep: Sleep = asyncio.sleep,
        max_sleep: float = 3600.0,
        retry_after: float = 60.0,
        heartbeat: float = 60.0,
        tick: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self.service = service
        self.notifier = notifier
        self._sleep = sleep
        self._max_sleep = max_sleep  # look again at least this often (the wall clock may jump)
        self._retry_after = retry_after  # a timer whose handling failed is tried again this much later
        self._heartbeat = heartbeat  # note that the bot runs at least this often
        self._tick = tick  # called on every pass of the loop, so at least every heartbeat (held DMs go out)
        self._beat_at: datetime | None = None  # when the last heartbeat was written
        self._wake = asyncio.Event()  # a flag: a sooner timer was written (nothing awaits it)
        self._sleeper: asyncio.Future[object] | None = None  # the current wait; cancelled to wake up early
        self._task: asyncio.Task[None] | None = None
        self._next: datetime | None = None  # the deadline the task sleeps towards
        self.idle = False  # the task is waiting (for a deadline or a new timer), not handling one
        self.fired = 0  # timers handled since start (tests and diagnostics)

    # ----- life cycle --------------------------------------------------------------

    async def begin(self) -> list[ActionResult]:
        """Start after a (re)start of the bot: forgive the time it was down, tell the games, then `start()`.

        The results of the games whose clocks moved on (also announced).
        """
        results: list[ActionResult] = []
        shards = self.service.core.shards
        # a process of a sharded bot forgives each of its shards' own time down (each has its own heartbeat)
        for shard in [None] if shards is None else shards.each():
            try:
                last = await self.service.timers.last_alive(shard)
                results += await self.service.timers.forgive_outage(self.service.core.now(), last, shard)
            except Exception:
                log.exception("the time the bot was down could not be forgiven; the clocks run as they stand")
            try:
                results += await self.service.timers.play_owed_plans(shard)
            except Exception:
                log.exception("the planned turns owed could not be played; they are played when their games move")
        for result in results:
            try:
                await self.notifier.announce(result)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("game #%d: the notifier failed; the clock moved on all the same", result.game.id)
        self.start()
        return results

    def start(self) -> None:
        if self._task is not None and not self._task.done():
            return
        self.service.core.add_timer_listener(self._timer_written)
        self._task = asyncio.create_task(self._run(), name="conductor-scheduler")

    async def stop(self) -> None:
        self.service.core.remove_timer_listener(self._timer_written)
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        try:
            await self.service.timers.heartbeat()  # a clean shutdown: the bot ran until now
        except Exception:
            log.exception("the last heartbeat could not be written")

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def woken(self) -> bool:
        """A sooner timer was written and the task has not looked at it yet."""
        return self._wake.is_set()

    @property
    def next_deadline(self) -> datetime | None:
        """The deadline the task sleeps towards (None: no timer at all)."""
        return self._next

    def _timer_written(self, soonest: datetime) -> None:
        if self._next is None or soonest < self._next:
            self._wake.set()
            if self._sleeper is not None:
                self._sleeper.cancel()

    # ----- the loop ----------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            try:
                self._wake.clear()
                await self._beat()
                await self.run_due()
                await self._ticked()
                timer = await self.service.timers.next_timer()
                self._next = None if timer is None else timer.deadline
                delay = self._max_sleep
                if timer is not None:
                    delay = min(delay, (timer.deadline - self.service.core.now()).total_seconds())
                delay = min(delay, self._heartbeat)
                if delay > 0:
                    await self._wait(delay)
            except asyncio.CancelledError:
                raise
            except Exception:
                # the store may be briefly unavailable; never let the loop die
                log.exception("the scheduler failed; it tries again in %s s", self._retry_after)
                await self._wait(self._retry_after)

    async def _ticked(self) -> None:
        """The `tick` of every pass; its failure is logged and never holds up the timers."""
        if self._tick is None:
            return
        try:
            await self._tick()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the scheduler's tick failed; it runs again on the next pass")

    async def _beat(self) -> None:
        """Write the heartbeat if the last one is `heartbeat` seconds old."""
        now = self.service.core.now()
        if self._beat_at is None or (now - self._beat_at).total_seconds() >= self._heartbeat:
            await self.service.timers.heartbeat()
            self._beat_at = now

    async def _wait(self, seconds: float) -> None:
        """Until `seconds` have passed or a sooner timer was written."""
        if self._wake.is_set():
            return
        sleeper = asyncio.ensure_future(self._sleep(seconds))
        self._sleeper = sleeper
        self.idle = True
        try:
            await asyncio.wait({sleeper})  # a cancelled sleeper ends the wait without raising here
        finally:
            self.idle = False
            self._sleeper = None
            sleeper.cancel()
            await asyncio.gather(sleeper, return_exceptions=True)

    async def run_due(self) -> int:
        """Handle every timer due now (also those written while handling); how many were handled."""
        handled = 0
        for _ in range(1000):  # each pass handles at least one timer or stops
            due = await self.service.timers.due_timers(self.service.core.now())
            if not due:
                break
            self.service.core.observer.timers_due(len(due))
            for timer in due:
                await self.fire(timer)
                handled += 1
        return handled

    async def fire(self, timer: TimerRow) -> TimerOutcome | None:
        """Handle one due timer and tell the notifier what it did; a failure postpones the timer."""
        observer = self.service.core.observer
        late = (self.service.core.now() - timer.deadline).total_seconds()
        try:
            outcome = await self.service.timers.fire_timer(timer)
        except asyncio.CancelledError:
            raise
        except Exception:
            observer.timer_fired(timer.kind, late, failed=True)
            log.exception("timer %d (%s, game #%s) failed; tried again later", timer.id, timer.kind, timer.game_id)
            later = self.service.core.now() + timedelta(seconds=self._retry_after)
            try:
                await self.service.timers.postpone_timer(timer.id, later)
            except Exception:
                log.exception("timer %d could not be postponed", timer.id)
            return None
        self.fired += 1
        observer.timer_fired(timer.kind, late, failed=False)
        await self._tell(outcome)
        return outcome

    async def _tell(self, outcome: TimerOutcome) -> None:
        calls: list[Callable[[], Awaitable[None]]] = []
        for reminder in outcome.reminders:
            calls.append(partial(self.notifier.remind, reminder))
        if outcome.result is not None:
            calls.append(partial(self.notifier.announce, replace(outcome.result, mod_log=())))
        if outcome.game is not None:
            entries = outcome.mod_log or (() if outcome.result is None else outcome.result.mod_log)
            for entry in entries:
                calls.append(partial(self.notifier.mod_log, entry))
        if outcome.overdue is not None:
            calls.append(partial(self.notifier.overdue, outcome.overdue))
        for call in calls:
            try:
                await call()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the notifier failed; what the timer did stands")
