"""Durable timers: turn deadlines, reminders and autopilot turns, fired once, also across restarts.

The pattern of RoboDanny's reminder cog: the timers live in the store's
`timers` table; one task sleeps until the soonest of them (an asyncio.Event
wakes it early when the service writes a sooner one) and hands it to
`GameService.fire_timer`, which commits the timer's effect in the same
transaction that deletes it. So a crash before that commit fires the timer
again after the restart, and a crash after it never fires it twice. On
start-up every timer that fell due while the bot was down fires at once:
late rather than never.

What a timer did comes back to the front end through a `Notifier`. Reminders
are sent after their commit, so one lost in a crash at that very moment is
not sent again (better than twice); a deadline's moves are in the game
whether or not their announcement got out.

Waiting uses the injectable `sleep` (asyncio.sleep by default, so a test
driver that moves the event loop's time, like SimCord's advance_time, moves
it), and deadlines are compared with the service's own clock (`service.now`).
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
    ) -> None:
        self.service = service
        self.notifier = notifier
        self._sleep = sleep
        self._max_sleep = max_sleep  # look again at least this often (the wall clock may jump)
        self._retry_after = retry_after  # a timer whose handling failed is tried again this much later
        self._wake = asyncio.Event()  # a flag: a sooner timer was written (nothing awaits it)
        self._sleeper: asyncio.Future[object] | None = None  # the current wait; cancelled to wake up early
        self._task: asyncio.Task[None] | None = None
        self._next: datetime | None = None  # the deadline the task sleeps towards
        self.idle = False  # the task is waiting (for a deadline or a new timer), not handling one
        self.fired = 0  # timers handled since start (tests and diagnostics)

    # ----- life cycle --------------------------------------------------------------

    def start(self) -> None:
        if self._task is not None and not self._task.done():
            return
        self.service.add_timer_listener(self._timer_written)
        self._task = asyncio.create_task(self._run(), name="conductor-scheduler")

    async def stop(self) -> None:
        self.service.remove_timer_listener(self._timer_written)
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

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
                await self.run_due()
                timer = await self.service.next_timer()
                self._next = None if timer is None else timer.deadline
                if timer is None:
                    await self._wait(None)
                    continue
                delay = (timer.deadline - self.service.now()).total_seconds()
                if delay > 0:
                    await self._wait(min(delay, self._max_sleep))
            except asyncio.CancelledError:
                raise
            except Exception:
                # the store may be briefly unavailable; never let the loop die
                log.exception("the scheduler failed; it tries again in %s s", self._retry_after)
                await self._wait(self._retry_after)

    async def _wait(self, seconds: float | None) -> None:
        """Until `seconds` have passed (None: `max_sleep`) or a sooner timer was written."""
        if self._wake.is_set():
            return
        sleeper = asyncio.ensure_future(self._sleep(self._max_sleep if seconds is None else seconds))
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
            due = await self.service.due_timers(self.service.now())
            if not due:
                break
            for timer in due:
                await self.fire(timer)
                handled += 1
        return handled

    async def fire(self, timer: TimerRow) -> TimerOutcome | None:
        """Handle one due timer and tell the notifier what it did; a failure postpones the timer."""
        try:
            outcome = await self.service.fire_timer(timer)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer %d (%s, game #%s) failed; tried again later", timer.id, timer.kind, timer.game_id)
            later = self.service.now() + timedelta(seconds=self._retry_after)
            try:
                await self.service.postpone_timer(timer.id, later)
            except Exception:
                log.exception("timer %d could not be postponed", timer.id)
            return None
        self.fired += 1
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
        for call in calls:
            try:
                await call()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the notifier failed; what the timer did stands")
