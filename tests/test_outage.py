"""Time while the bot is down counts against no one: the heartbeat, and the clocks moved on at start-up."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from helpers.clock_support import (
    HOUR,
    START,
    FakeTime,
    RecordingNotifier,
    new_game,
    open_service,
    settle,
    timers,
    to_play_phase,
)

from bot.present.events import public_text
from bot.runtime.scheduler import Scheduler
from bot.service import EventKind, GameService
from bot.service.clock import ClockSettings
from bot.store import ClockRow, SqliteStore, TimerRow

MINUTE = 60
# reminders at 30 and 54 minutes of a turn, the deadline at 60
CLOCK = ClockSettings(turn_seconds=HOUR, reserve_seconds=0, reminders=(0.5, 0.9))


async def test_the_heartbeat_is_kept_and_overwritten(tmp_path: Path) -> None:
    db = tmp_path / "conductor.sqlite3"
    store = await SqliteStore.open(db)
    assert await store.settings.alive_at() is None
    await store.settings.set_alive_at(START)
    await store.settings.set_alive_at(START + timedelta(minutes=1))
    assert await store.settings.alive_at() == START + timedelta(minutes=1)
    await store.close()
    store = await SqliteStore.open(db)
    assert await store.settings.alive_at() == START + timedelta(minutes=1)
    await store.close()


async def started(service: GameService, notifier: RecordingNotifier, time: FakeTime) -> Scheduler:
    runner = Scheduler(service, notifier, sleep=time.sleep, heartbeat=MINUTE)
    await runner.begin()
    await settle(runner, time)
    return runner


async def timeouts(service: GameService, game_id: int) -> list[int]:
    return [a.details["timeouts"] for a in await service.audit.audit(game_id) if a.action == "timeout"]


def deadline_of(rows: list[TimerRow]) -> list[object]:
    return [t.deadline for t in rows if t.kind == "deadline"]


async def twenty_minutes_in(tmp_path: Path, time: FakeTime, notifier: RecordingNotifier) -> tuple[int, Scheduler]:
    """A game 20 minutes into a 1-hour turn, with the bot's scheduler running."""
    service = await open_service(tmp_path / "conductor.sqlite3", time)
    game_id, _ = await new_game(service, CLOCK)
    await to_play_phase(service, game_id)
    runner = await started(service, notifier, time)
    assert await service.timers.last_alive() == time.now
    time.advance(20 * MINUTE)
    await settle(runner, time)
    assert await service.timers.last_alive() == time.now  # the running bot writes its heartbeat
    assert notifier.reminders == []
    return game_id, runner


async def test_a_long_outage_moves_the_clocks_on_and_sends_the_missed_reminder(tmp_path: Path) -> None:
    time = FakeTime()
    notifier = RecordingNotifier()
    game_id, runner = await twenty_minutes_in(tmp_path, time, notifier)
    await runner.stop()  # a clean shutdown
    await runner.service.close()

    time.advance(5 * HOUR)  # the bot is down
    service = await open_service(tmp_path / "conductor.sqlite3", time)
    runner = await started(service, notifier, time)
    assert await timeouts(service, game_id) == []
    assert deadline_of(await timers(service, game_id)) == [time.now + timedelta(minutes=40)]
    (told,) = notifier.announced
    (event,) = told.public
    assert event.kind is EventKind.OUTAGE
    assert "offline for 5 h" in public_text(told.game, event) and "moved on" in public_text(told.game, event)
    outages = [a for a in await service.audit.audit(game_id) if a.action == "outage"]
    assert [a.details["seconds"] for a in outages] == [5 * HOUR]
    # both reminders fell due while the bot was down: one is sent at start, with the time really left
    (reminder,) = notifier.reminders
    assert "Time left: 40 min" in reminder[2]

    time.advance(39 * MINUTE)
    await settle(runner, time)
    assert await timeouts(service, game_id) == [] and len(notifier.reminders) == 1
    time.advance(2 * MINUTE)
    await settle(runner, time)
    assert await timeouts(service, game_id) == [1]
    await runner.stop()
    await service.close()


async def test_a_later_reminder_moves_on_with_the_clock(tmp_path: Path) -> None:
    time = FakeTime()
    notifier = RecordingNotifier()
    game_id, runner = await twenty_minutes_in(tmp_path, time, notifier)
    await runner.stop()
    await runner.service.close()

    time.advance(5 * MINUTE)  # down from minute 20 to 25 of the turn: no reminder fell due
    service = await open_service(tmp_path / "conductor.sqlite3", time)
    runner = await started(service, notifier, time)
    assert notifier.reminders == []
    assert deadline_of(await timers(service, game_id)) == [time.now + timedelta(minutes=40)]
    time.advance(9 * MINUTE)  # minute 29 of the clock as it runs now
    await settle(runner, time)
    assert notifier.reminders == []
    time.advance(2 * MINUTE)
    await settle(runner, time)
    assert len(notifier.reminders) == 1 and "Time left: 29 min" in notifier.reminders[0][2]
    await runner.stop()
    await service.close()


async def test_a_short_restart_changes_nothing(tmp_path: Path) -> None:
    time = FakeTime()
    notifier = RecordingNotifier()
    game_id, runner = await twenty_minutes_in(tmp_path, time, notifier)
    before = await timers(runner.service, game_id)
    await runner.stop()
    await runner.service.close()

    time.advance(30)
    service = await open_service(tmp_path / "conductor.sqlite3", time)
    runner = await started(service, notifier, time)
    assert [(t.kind, t.deadline) for t in await timers(service, game_id)] == [(t.kind, t.deadline) for t in before]
    assert notifier.announced == [] and notifier.reminders == []
    assert [a for a in await service.audit.audit(game_id) if a.action == "outage"] == []
    await runner.stop()
    await service.close()


async def test_a_crash_counts_the_outage_from_the_last_heartbeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    time = FakeTime()
    notifier = RecordingNotifier()
    game_id, runner = await twenty_minutes_in(tmp_path, time, notifier)
    time.advance(50)  # less than a heartbeat's interval: none is written
    await settle(runner, time)

    async def dead() -> None:
        return None

    monkeypatch.setattr(runner.service.timers, "heartbeat", dead)  # the process dies: it writes nothing more
    await runner.stop()
    await runner.service.close()

    time.advance(5 * HOUR)
    service = await open_service(tmp_path / "conductor.sqlite3", time)
    runner = await started(service, notifier, time)
    outages = [a for a in await service.audit.audit(game_id) if a.action == "outage"]
    assert [a.details["seconds"] for a in outages] == [5 * HOUR + 50]
    assert deadline_of(await timers(service, game_id)) == [time.now + timedelta(minutes=40)]
    assert await timeouts(service, game_id) == []
    await runner.stop()
    await service.close()


async def test_a_paused_game_needs_nothing(tmp_path: Path) -> None:
    time = FakeTime()
    notifier = RecordingNotifier()
    service = await open_service(tmp_path / "conductor.sqlite3", time)
    game_id, _ = await new_game(service, CLOCK)
    await to_play_phase(service, game_id)
    await service.moderation.pause(game_id, 999, "lunch")
    runner = await started(service, notifier, time)
    await runner.stop()
    time.advance(5 * HOUR)
    runner = await started(service, notifier, time)
    assert notifier.announced == [] and notifier.reminders == []
    assert [a for a in await service.audit.audit(game_id) if a.action == "outage"] == []
    await service.moderation.resume(game_id, 999, "back")
    assert deadline_of(await timers(service, game_id)) == [time.now + timedelta(hours=1)]
    assert await timeouts(service, game_id) == []
    await runner.stop()
    await service.close()


async def test_a_game_that_cannot_be_moved_on_does_not_stop_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    time = FakeTime()
    service = await open_service(tmp_path / "conductor.sqlite3", time)
    broken, _ = await new_game(service, CLOCK)
    fine, _ = await new_game(service, CLOCK)
    alive = time.now
    time.advance(HOUR)
    real_clock = service.store.history.clock

    async def clock(game_id: int) -> ClockRow:
        if game_id == broken:
            raise RuntimeError("a damaged row")
        return await real_clock(game_id)

    monkeypatch.setattr(service.store.history, "clock", clock)
    results = await service.timers.forgive_outage(time.now, alive)
    assert [r.game.id for r in results] == [fine]
    await service.close()
