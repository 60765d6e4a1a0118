"""The durable-timer runner: deadlines fire exactly once, across restarts, downtime and failures."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from helpers.clock_support import (
    HOUR,
    FakeTime,
    RecordingNotifier,
    mover,
    new_game,
    open_service,
    play_one,
    settle,
    timers,
    to_play_phase,
)

from bot.runtime.scheduler import Scheduler
from bot.service import ActionResult, GameService
from bot.service.clock import ClockSettings
from bot.store import GameStatus, NewMove, SqliteStore, StoreError
from bot.store.parts.history import History
from bot.store.sqlite.core import SqliteCore

QUIET = ClockSettings(turn_seconds=HOUR, reserve_seconds=0, reminders=())


async def timeouts(service: GameService, game_id: int) -> list[int]:
    return [a.details["timeouts"] for a in await service.audit.audit(game_id) if a.action == "timeout"]


async def running(service: GameService, notifier: RecordingNotifier, time: FakeTime) -> Scheduler:
    runner = Scheduler(service, notifier, sleep=time.sleep)
    runner.start()
    await settle(runner, time)
    return runner


@pytest.mark.parametrize("down_for", [HOUR / 2, 3 * HOUR], ids=["deadline-after-restart", "deadline-while-down"])
async def test_a_restart_between_scheduling_and_deadline_fires_it_once(tmp_path: Path, down_for: float) -> None:
    db = tmp_path / "conductor.sqlite3"
    time = FakeTime()
    notifier = RecordingNotifier()
    service = await open_service(db, time)
    game_id, _ = await new_game(service, QUIET)
    await to_play_phase(service, game_id)
    name, _ = await mover(service, game_id)
    moves = len((await service.reading.engine_game(game_id)).moves)
    runner = await running(service, notifier, time)
    await runner.stop()
    await service.close()

    time.advance(down_for)  # the bot is down
    service = await open_service(db, time)
    runner = await running(service, notifier, time)  # overdue timers fire at once
    if down_for < HOUR:
        assert await timeouts(service, game_id) == []
        time.advance(HOUR - down_for)
        await settle(runner, time)
    assert await timeouts(service, game_id) == [1]
    game = await service.reading.engine_game(game_id)
    assert len(game.moves) > moves and game.moves[moves].player == name
    assert (await mover(service, game_id))[0] != name
    # the next player's clock starts when the late deadline was handled, not at the old deadline
    (deadline,) = [t.deadline for t in await timers(service, game_id)]
    assert deadline == time.now + timedelta(hours=1)
    assert len(notifier.announced) == 1
    await runner.stop()
    await service.close()

    # and a second restart fires nothing again
    service = await open_service(db, time)
    runner = await running(service, notifier, time)
    assert await timeouts(service, game_id) == [1]
    seat = game.names.index(name)
    assert (await service.reading.clock_status(game_id)).seats[seat].timeouts == 1  # kept with the clock
    assert len(notifier.announced) == 1
    await runner.stop()
    await service.close()


class FailingHistory(History):
    """The real move log, except that a move that claims a timer fails before anything is written (a crash)."""

    async def append_move(self, game_id: int, expected_version: int, move: NewMove) -> int:
        if move.writes is not None and move.writes.claim_timer is not None:
            raise StoreError("the process died here")
        return await super().append_move(game_id, expected_version, move)


class FailingStore(SqliteStore):
    """The real store, with the failing move log."""

    def __init__(self, core: SqliteCore) -> None:
        super().__init__(core)
        self.history = FailingHistory(core)


async def test_a_crash_before_the_commit_fires_the_deadline_again_after_the_restart(tmp_path: Path) -> None:
    db = tmp_path / "conductor.sqlite3"
    time = FakeTime()
    notifier = RecordingNotifier()
    service = await open_service(db, time)
    game_id, _ = await new_game(service, QUIET)
    await to_play_phase(service, game_id)
    await service.close()

    failing = GameService(await FailingStore.open(db), clock=time)
    runner = Scheduler(failing, notifier, sleep=time.sleep, retry_after=60)
    time.advance(HOUR)
    assert await runner.run_due() == 1  # tried, failed, put off
    assert await timeouts(failing, game_id) == []
    assert notifier.announced == []
    (timer,) = await timers(failing, game_id)
    assert timer.deadline == time.now + timedelta(seconds=60)
    await failing.close()

    service = await open_service(db, time)
    runner = await running(service, notifier, time)
    assert await timeouts(service, game_id) == []
    time.advance(60)
    await settle(runner, time)
    assert await timeouts(service, game_id) == [1]
    assert len(notifier.announced) == 1
    await runner.stop()
    await service.close()


class BrokenNotifier(RecordingNotifier):
    async def announce(self, result: ActionResult) -> None:
        raise RuntimeError("Discord is down")


async def test_after_the_commit_a_timer_never_fires_twice(tmp_path: Path) -> None:
    db = tmp_path / "conductor.sqlite3"
    time = FakeTime()
    service = await open_service(db, time)
    game_id, _ = await new_game(service, QUIET)
    await to_play_phase(service, game_id)
    (timer,) = await timers(service, game_id)
    time.advance(HOUR)
    # two runners race for the same due timer (a second process, a restart mid-way): one effect
    first = Scheduler(service, BrokenNotifier(), sleep=time.sleep)
    second_service = await open_service(db, time)
    second = Scheduler(second_service, RecordingNotifier(), sleep=time.sleep)
    outcomes = await asyncio.gather(first.fire(timer), second.fire(timer))
    assert sum(1 for o in outcomes if o is not None and o.result is not None) == 1
    assert await timeouts(service, game_id) == [1]
    # the notifier failed after the commit: what the timer did stands, and nothing fires again
    await second_service.close()
    await service.close()
    service = await open_service(db, time)
    notifier = RecordingNotifier()
    runner = await running(service, notifier, time)
    assert await timeouts(service, game_id) == [1]
    assert notifier.announced == []
    await runner.stop()
    await service.close()


async def test_the_runner_wakes_for_a_sooner_timer(timed_service: GameService, time: FakeTime) -> None:
    service = timed_service
    notifier = RecordingNotifier()
    slow, _ = await new_game(service, ClockSettings(turn_seconds=24 * HOUR, reserve_seconds=0, reminders=()))
    await to_play_phase(service, slow)
    runner = await running(service, notifier, time)
    assert runner.next_deadline == time.now + timedelta(hours=24)
    quick, _ = await new_game(service, QUIET)
    await to_play_phase(service, quick)
    await settle(runner, time)
    assert runner.next_deadline == time.now + timedelta(hours=1)
    time.advance(HOUR)
    await settle(runner, time)
    assert await timeouts(service, quick) == [1] and await timeouts(service, slow) == []
    assert runner.fired == 1
    # it slept towards deadlines through the injected sleep, never longer than asked
    assert time.sleeps and max(time.sleeps) <= 24 * HOUR
    await runner.stop()


async def test_timers_of_a_game_that_ended_are_only_dropped(timed_service: GameService, time: FakeTime) -> None:
    service = timed_service
    notifier = RecordingNotifier()
    game_id, _ = await new_game(service, QUIET)
    await to_play_phase(service, game_id)
    await service.store.timers.add_timer(game_id, "deadline", time.now, {"seat": 0, "wait": "turn:0"})  # a stray one
    await service.lobby.cancel(game_id, 900, moderator=True, reason="test")
    await service.store.timers.add_timer(game_id, "deadline", time.now, {"seat": 0, "wait": "turn:0"})
    await service.store.timers.add_timer(None, "unknown", time.now)
    runner = Scheduler(service, notifier, sleep=time.sleep)
    assert await runner.run_due() == 2
    assert await service.store.timers.timers() == []
    assert notifier.announced == [] and notifier.reminders == []


async def test_stop_ends_the_task(timed_service: GameService, time: FakeTime) -> None:
    service = timed_service
    runner = Scheduler(service, RecordingNotifier(), sleep=time.sleep)
    runner.start()
    runner.start()  # twice is harmless
    await settle(runner, time)
    assert runner.running and runner.next_deadline is None
    await runner.stop()
    assert not runner.running
    await runner.stop()


async def test_an_autopilot_that_fails_after_a_members_move_is_retried_by_its_timer(
    timed_service: GameService, time: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.service.thinking as thinking

    service = timed_service
    notifier = RecordingNotifier()
    game_id, users = await new_game(service, QUIET, players=1, bots=1, max_players=2)
    await to_play_phase(service, game_id)
    assert (await mover(service, game_id))[1] == users[0]  # the autopilot always answers at once
    real = thinking.choose_move

    def broken(game: object, name: str, *level: object) -> object:
        raise RuntimeError("a bug in the autopilot")

    monkeypatch.setattr(thinking, "choose_move", broken)
    before = len((await service.reading.engine_game(game_id)).moves)
    while (await mover(service, game_id))[1] == users[0]:
        result = await play_one(service, game_id)  # the member's moves go in all the same
    assert result.game.status is GameStatus.PLAYING
    assert len((await service.reading.engine_game(game_id)).moves) > before
    assert [t.kind for t in await timers(service, game_id)] == ["autopilot"]
    monkeypatch.setattr(thinking, "choose_move", real)
    runner = Scheduler(service, notifier, sleep=time.sleep)
    await runner.run_due()
    assert (await mover(service, game_id))[1] == users[0]  # the autopilot took its turn
    assert notifier.announced and any(e.by_autopilot for e in notifier.announced[0].public)


async def test_the_runner_hears_of_deadlines_a_moderator_action_writes(
    timed_service: GameService, time: FakeTime
) -> None:
    service = timed_service
    notifier = RecordingNotifier()
    game_id, _ = await new_game(service, QUIET)
    await to_play_phase(service, game_id)
    await service.moderation.pause(game_id, 900, "break")
    runner = await running(service, notifier, time)
    assert runner.next_deadline is None  # nothing to wait for while paused
    time.advance(10 * HOUR)
    await service.moderation.resume(game_id, 900, "back")
    await settle(runner, time)
    assert runner.next_deadline == time.now + timedelta(hours=1)
    time.advance(HOUR)
    await settle(runner, time)
    assert await timeouts(service, game_id) == [1]
    await runner.stop()
