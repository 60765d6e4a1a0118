"""Timers: what the scheduler (bot/runtime/scheduler.py) finds due and hands over, once each.

A timer's effect commits together with the timer's deletion, so it is
handled exactly once: a reminder, a timeout (the autopilot plays the turn, or
the game waits for a moderator), or an autopilot seat's turn.

Time while the bot is down counts against no one: the running bot writes a
heartbeat, and at start-up `forgive_outage` moves every running clock on by
the time since the last one (a reminder that fell due meanwhile is sent at
once, the later ones move on with the clock).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Protocol

from bot.service import clock as clocks
from bot.service.core import ServiceCore
from bot.service.errors import NotFound, StaleVersion
from bot.service.events import Outage, PublicEvent, Timeout
from bot.service.kinds import GAME_TIMERS, AuditAction, EventKind, ReminderPhase, TimeoutPolicy, TimerKind
from bot.service.loading import LiveGame
from bot.service.results import ActionResult, ModLogEntry, Reminder
from bot.service.runner import Runner, waiting_of
from bot.service.timer_outcome import TimerOutcome
from bot.store import ACTIVE, ClockRow, GameChange, NewAudit, SeatClockRow, Shards, TimerGone, TimerRow, Writes
from bot.store.protocols import GameStore, HistoryStore, SettingsStore, TimerStore
from bot.store.shards import heartbeat_key

log = logging.getLogger(__name__)

# the reason stored with a timeout's audit entry (it is data: the record exports it)
TIMEOUT_REASON = "time ran out"
OUTAGE_REASON = "the bot was offline"

# a shorter gap between the last heartbeat and the start is a restart, not an outage
MIN_OUTAGE_SECONDS = 120.0


def _claim_only(timer_id: int) -> GameChange:
    return GameChange(Writes(claim_timer=timer_id), bump=False)


class GamelessTimers(Protocol):
    async def fire_gameless(self, timer: TimerRow) -> TimerOutcome | None:
        """Handle a due timer of no game if it is one of this part's; None if not."""
        ...


class TimerService:
    def __init__(
        self,
        core: ServiceCore,
        game_store: GameStore,
        history_store: HistoryStore,
        timer_store: TimerStore,
        settings_store: SettingsStore,
        runner: Runner,
    ) -> None:
        self.core = core
        self.game_store = game_store
        self.history_store = history_store
        self.timer_store = timer_store
        self.settings_store = settings_store
        self.runner = runner
        # who handles a due timer of no game (the tournaments' round deadlines), asked in order (set when assembled)
        self.gameless: list[GamelessTimers] = []

    async def next_timer(self) -> TimerRow | None:
        """The timer due soonest, of any game of this process's shards."""
        return await self.timer_store.next_timer(self.core.shards)

    async def due_timers(self, now: datetime) -> list[TimerRow]:
        """Every timer of this process's shards due at `now`, soonest first."""
        return await self.timer_store.due_timers(now, self.core.shards)

    async def postpone_timer(self, timer_id: int, deadline: datetime) -> None:
        """Try a timer again later (its handling failed)."""
        await self.timer_store.postpone_timer(timer_id, deadline)

    async def heartbeat(self) -> None:
        """Note that the bot is running now (a note per shard of this process)."""
        now = self.core.now()
        if self.core.shards is None:
            await self.settings_store.set_alive_at(now)
            return
        for shard in self.core.shards.each():
            await self.settings_store.set_alive_at(now, shard.heartbeat_key)

    async def last_alive(self, shard: Shards | None = None) -> datetime | None:
        """When the bot (the process running `shard`, one shard) last noted it was running (None: never)."""
        return await self.settings_store.alive_at(heartbeat_key(shard))

    async def forgive_outage(
        self, started_at: datetime, last_alive: datetime | None, shard: Shards | None = None
    ) -> list[ActionResult]:
        """The bot was down from `last_alive` to `started_at`: every running clock moves on by that time.

        `shard`: the games of that shard's servers only (a process of a sharded bot forgives its own outage).

        Call it at start-up, before any timer fires. Each active game with a
        running clock gets its waits (and so its deadlines, reminders and
        reserve) moved on, in one transaction with an audit entry, and a result
        whose public event (`EventKind.OUTAGE`) tells the channel. A reminder
        that fell due during the outage is due at once. Paused games need
        nothing; a gap under `MIN_OUTAGE_SECONDS` is a restart and changes nothing.
        """
        if last_alive is None:
            return []
        outage = started_at - last_alive
        if outage.total_seconds() < MIN_OUTAGE_SECONDS:
            return []
        results = []
        for row in await self.game_store.games_with_status(ACTIVE):
            if shard is not None and not shard.owns(row.guild_id):
                continue
            try:
                result = await self.core.locked(row.id, partial(self._forgive, row.id, started_at, outage))
            except (StaleVersion, NotFound):
                continue  # moved on or gone meanwhile: its clock is as the change left it
            except Exception:
                log.exception("game #%d: its clock could not be moved on by the outage", row.id)
                continue
            if result is not None:
                results.append(result)
        return results

    async def play_owed_plans(self, shard: Shards | None = None) -> list[ActionResult]:
        """The planned turns whose turn came while nothing played them, played now (the bot stopped between the
        move that began the turn and the plan's own moves); the results, to show. Call it at start-up.

        `shard`: the games of that shard's servers only. A game whose plan is not for the seat to move now, or
        whose turn is under way, is left as it is (the plan is played when its turn comes).
        """
        results = []
        for game_id in await self.history_store.planned_games():
            try:
                result = await self.core.locked(game_id, partial(self._play_owed_plan, game_id, shard))
            except (StaleVersion, NotFound):
                continue  # moved on or gone meanwhile: its plan is played (or cleared) as the game goes on
            except Exception:
                log.exception("game #%d: its planned turn could not be played at start-up", game_id)
                continue
            if result is not None:
                results.append(result)
        return results

    async def _play_owed_plan(self, game_id: int, shard: Shards | None) -> ActionResult | None:
        live = await self.core.live(game_id)
        if shard is not None and not shard.owns(live.info.guild_id):
            return None
        if live.game is None or not live.info.status.active:
            return None
        clock = await self.history_store.clock(game_id)
        if clock.paused_at is not None:
            return None
        run = self.runner.run(live, clock)
        if await self.runner.autoplay(run) == 0 and not run.planned:
            return None
        return await self.runner.result(run)

    async def _forgive(self, game_id: int, started_at: datetime, outage: timedelta) -> ActionResult | None:
        live = await self.core.live(game_id)
        info, game = live.info, live.game
        stored = await self.history_store.clock(game_id)
        if game is None or not info.status.active or not info.clock.enabled or stored.paused_at is not None:
            return None
        if all(c.since is None for c in stored.seats):
            return None
        owed = {c.seat: i for c in stored.seats if (i := clocks.owed_reminder(info.clock, c, started_at)) is not None}
        seconds = round(outage.total_seconds(), 3)
        audit = NewAudit(None, AuditAction.OUTAGE, {"seconds": seconds}, OUTAGE_REASON, self.core.now())
        await self.runner.change(live, clocks.forgiven(stored, outage), audit=audit, bump=False, owed=owed)
        event = PublicEvent(EventKind.OUTAGE, Outage(seconds))
        return ActionResult(info, (event,), (), waiting_of(info, game))

    async def _fire_gameless(self, timer: TimerRow) -> TimerOutcome:
        """A due timer of no game: the part it belongs to handles it; one that nothing handles is deleted."""
        for handler in self.gameless:
            outcome = await handler.fire_gameless(timer)
            if outcome is not None:
                return outcome
        log.warning("timer %d (%s) has nothing to handle it; deleted", timer.id, timer.kind)
        await self.timer_store.delete_timer(timer.id)
        return TimerOutcome(None)

    async def fire_timer(self, timer: TimerRow) -> TimerOutcome:
        """Handle a due timer, once: its effect commits together with the timer's deletion.

        A timer that no longer fits the game (the turn it was for is over, the
        game is paused or over) is only deleted. If someone else handled it
        first, nothing happens.
        """
        if timer.game_id is None:
            return await self._fire_gameless(timer)
        if timer.kind not in GAME_TIMERS:
            log.warning("timer %d (%s) has nothing to handle it; deleted", timer.id, timer.kind)
            await self.timer_store.delete_timer(timer.id)
            return TimerOutcome(None)
        game_id = timer.game_id

        async def work() -> TimerOutcome:
            live = await self.core.live(game_id)
            info, game = live.info, live.game
            clock = await self.history_store.clock(game_id)
            seat = timer.data.get("seat")
            current = clock.seat(seat) if isinstance(seat, int) and game and 0 <= seat < len(game.names) else None
            if (
                game is None
                or not info.status.active
                or clock.paused_at is not None
                or current is None
                or current.wait is None
                or current.wait != timer.data.get("wait")
            ):
                await self.core.write(
                    game_id,
                    lambda: self.history_store.apply_change(game_id, info.version, _claim_only(timer.id)),
                )
                return TimerOutcome(info)
            if timer.kind == TimerKind.REMINDER:
                return await self._remind(live, clock, current, timer)
            if timer.kind == TimerKind.AUTOPILOT:
                run = self.runner.run(live, clock)
                if await self.runner.autoplay(run, claim_timer=timer.id, after_action=False) == 0:
                    await self.core.write(
                        game_id, lambda: self.history_store.apply_change(game_id, info.version, _claim_only(timer.id))
                    )
                    return TimerOutcome(info)
                return TimerOutcome(run.live.info, await self.runner.result(run))
            return await self._timeout(live, clock, current, timer)

        try:
            return await self.core.locked(game_id, work)
        except (TimerGone, StaleVersion):
            return TimerOutcome(None)  # handled elsewhere, or the game moved on: a timer still due is seen again
        except NotFound:
            await self.timer_store.delete_timer(timer.id)
            return TimerOutcome(None)

    async def _remind(self, live: LiveGame, clock: ClockRow, c: SeatClockRow, timer: TimerRow) -> TimerOutcome:
        info = live.info
        index = timer.data.get("index")
        reminded = replace(c, reminded=max(c.reminded, (index if isinstance(index, int) else 0) + 1))
        after = clocks.with_seat(clock, reminded)
        change = GameChange(Writes(clock=after, claim_timer=timer.id), bump=False)
        await self.core.write(info.id, lambda: self.history_store.apply_change(info.id, info.version, change))
        sitter = info.seats[c.seat]
        if sitter.autopilot:
            return TimerOutcome(info)
        now = self.core.now()
        turn_over = (
            info.clock.turn_seconds is not None
            and c.since is not None
            and (now - c.since).total_seconds() > info.clock.turn_seconds + c.extra_seconds
        )
        phase = clocks.reminder_phase(info.clock, index if isinstance(index, int) else 0)
        turn_over = turn_over or phase is not ReminderPhase.TURN
        reminder = Reminder(
            info, sitter.user_id, clocks.deadline(info.clock, c), now, turn_over, info.clock.policy, phase
        )
        return TimerOutcome(info, reminders=(reminder,))

    async def _timeout(self, live: LiveGame, clock: ClockRow, c: SeatClockRow, timer: TimerRow) -> TimerOutcome:
        info, game = live.info, live.game
        assert game is not None
        now = self.core.now()
        seat = c.seat
        player = game.names[seat]
        sitter = info.seats[seat]
        timeouts = c.timeouts + 1
        clock = clocks.with_seat(clock, replace(c, timed_out=True, timeouts=timeouts))
        policy = info.clock.policy
        details = {"seat": seat, "player": player, "user_id": sitter.user_id, "timeouts": timeouts, "policy": policy}
        audit = NewAudit(None, AuditAction.TIMEOUT, details, TIMEOUT_REASON, now)
        facts = Timeout(seat, player, sitter.display_name, sitter.user_id, timeouts, policy)
        event = PublicEvent(EventKind.TIMEOUT, facts, player, sitter.user_id)
        line = ModLogEntry(info, AuditAction.TIMEOUT, None, "", facts)
        if policy is TimeoutPolicy.AUTOPILOT:
            run = self.runner.run(live, clock)
            run.stored_clock = None  # the timeout is not written yet: it goes with the autopilot's first move
            run.public.append(event)
            if timeouts >= clocks.REPORT_TIMEOUTS_FROM:
                run.mod_log.append(line)
            if await self.runner.autoplay(run, claim_timer=timer.id, audit=(audit,), after_action=False) == 0:
                await self.runner.change(live, clock, audit=audit, bump=False, claim_timer=timer.id)
            return TimerOutcome(run.live.info, await self.runner.result(run), mod_log=tuple(run.mod_log))
        await self.runner.change(live, clock, audit=audit, bump=False, claim_timer=timer.id)
        result = ActionResult(info, (event,), (), waiting_of(info, game), (), (line,))
        return TimerOutcome(info, result, mod_log=(line,))
