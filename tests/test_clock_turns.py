"""Turn clocks through the real service on real database files, with simulated time.

Deadlines and reminders, the reserve, the two timeout policies, pause and
extend, server defaults, and the catch-up digest.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import timedelta

import pytest
from helpers.clock_support import (
    GUILD,
    HOUR,
    START,
    FakeTime,
    RecordingNotifier,
    mover,
    new_game,
    play_one,
    play_until,
    settle,
    timers,
    to_play_phase,
)
from helpers.service_support import refused

from bot.present.audit import log_actor
from bot.present.events import public_text
from bot.present.moderation import mod_line
from bot.runtime.scheduler import Scheduler
from bot.service import GameInfo, GameService, InvalidInput, NotAllowed, Why, WrongState
from bot.service.clock import NO_CLOCK, ClockSettings
from bot.store import GameStatus, TimerRow
from engine import DrawCard, Game
from engine.autopilot import choose_move

MOD = 900
HOURLY = ClockSettings(turn_seconds=HOUR, reserve_seconds=0, reminders=(0.5, 0.9))


@pytest.fixture
def service(timed_service: GameService) -> GameService:
    """These tests run the service on simulated time (`time`)."""
    return timed_service


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
async def scheduler(service: GameService, notifier: RecordingNotifier, time: FakeTime) -> AsyncIterator[Scheduler]:
    """A scheduler that is not running: tests call run_due() after moving the time."""
    return Scheduler(service, notifier, sleep=time.sleep)


def turn_of(name: str) -> Callable[[Game, GameInfo], bool]:
    def ready(game: Game, info: GameInfo) -> bool:
        to_move = game.to_move()
        return to_move is not None and to_move.player == name and game.state.pending is None

    return ready


def kinds(rows: list[TimerRow]) -> list[tuple[str, object, object]]:
    return [(t.kind, t.deadline, t.data.get("seat")) for t in rows]


async def test_new_games_take_the_servers_clock_unless_given_one(service: GameService) -> None:
    default = await service.settings.guild_config(GUILD)
    assert default.clock == ClockSettings() and default.clock.turn_seconds == 24 * HOUR
    assert default.moderator_role_id is None and default.mod_log_channel_id is None
    await service.settings.set_guild_config(GUILD, "turn_seconds", 2 * HOUR)
    await service.settings.set_guild_config(GUILD, "timeout_policy", "wait")
    await service.settings.set_guild_config(GUILD, "reminders", [0.25, 0.75])
    config = await service.settings.set_guild_config(GUILD, "mod_log_channel_id", 66)
    assert config.clock == ClockSettings(turn_seconds=2 * HOUR, policy="wait", reminders=(0.25, 0.75))
    assert config.mod_log_channel_id == 66
    created = await service.lobby.create_game(GUILD, 1, 100, "ann", "usa")
    assert created.game.clock == config.clock
    assert (await service.reading.public_view(created.game.id)).options.clock.turn_seconds == 2 * HOUR
    own = ClockSettings(turn_seconds=600, reserve_seconds=60, policy="autopilot")
    assert (await service.lobby.create_game(GUILD, 2, 100, "ann", "usa", clock=own)).game.clock == own
    # 0 = no clock by default; None forgets the setting
    config = await service.settings.set_guild_config(GUILD, "turn_seconds", 0)
    assert not config.clock.enabled
    config = await service.settings.set_guild_config(GUILD, "turn_seconds", None)
    assert config.clock.turn_seconds == 24 * HOUR
    for key, value in [("turn_seconds", -5), ("timeout_policy", "sleep"), ("reminders", [0.9, 0.5]), ("x", 1)]:
        with pytest.raises(InvalidInput):
            await service.settings.set_guild_config(GUILD, key, value)
    with pytest.raises(InvalidInput):
        ClockSettings(turn_seconds=0)


async def test_a_game_without_a_clock_has_no_deadlines(service: GameService) -> None:
    game_id, _ = await new_game(service, NO_CLOCK)
    assert await timers(service, game_id) == []
    await to_play_phase(service, game_id)
    assert await timers(service, game_id) == []
    with refused(WrongState, Why.NO_CLOCK):
        await service.moderation.extend(game_id, MOD, 600, "more time")


async def test_deadlines_and_reminders_follow_the_player_to_move(service: GameService, time: FakeTime) -> None:
    game_id, _users = await new_game(service, HOURLY)
    # while choosing tickets, everyone has their own clock from the deal
    at = START
    expected = []
    for seat in (0, 1):
        expected += [
            ("reminder", at + timedelta(minutes=30), seat),
            ("reminder", at + timedelta(minutes=54), seat),
            ("deadline", at + timedelta(hours=1), seat),
        ]
    assert sorted(kinds(await timers(service, game_id)), key=str) == sorted(expected, key=str)
    time.advance(600)
    info = await service.core.game(game_id)
    first = (await service.reading.engine_game(game_id)).names[0]
    user = info.user_of(first)
    assert user is not None
    game = await service.reading.engine_game(game_id)
    await service.play.act(game_id, user, choose_move(game, first))
    # the one who chose has no timers any more; the other's are unchanged
    assert sorted(kinds(await timers(service, game_id)), key=str) == sorted([e for e in expected if e[2] == 1], key=str)
    time.advance(600)
    await to_play_phase(service, game_id)
    # the first turn's clock starts when the turn does
    name, _ = await mover(service, game_id)
    seat = (await service.reading.engine_game(game_id)).names.index(name)
    now = time.now
    turn = [
        ("reminder", now + timedelta(minutes=30), seat),
        ("reminder", now + timedelta(minutes=54), seat),
        ("deadline", now + timedelta(hours=1), seat),
    ]
    assert kinds(await timers(service, game_id)) == turn
    # the first card of a draw does not end the turn, nor restart its clock
    time.advance(120)
    game = await service.reading.engine_game(game_id)
    result = await service.play.act(game_id, (await mover(service, game_id))[1], DrawCard(name, "deck"))
    assert result.waiting is not None and result.waiting.must == "draw"
    assert kinds(await timers(service, game_id)) == turn
    time.advance(60)
    await play_one(service, game_id)
    other, _ = await mover(service, game_id)
    assert other != name
    assert [t.data["seat"] for t in await timers(service, game_id)] == [1 - seat] * 3


async def test_reminders_come_at_the_right_moments_and_only_once(
    service: GameService, notifier: RecordingNotifier, time: FakeTime
) -> None:
    game_id, _ = await new_game(service, HOURLY)
    await to_play_phase(service, game_id)
    _name, user = await mover(service, game_id)
    runner = Scheduler(service, notifier, sleep=time.sleep)
    runner.start()
    try:
        await settle(runner, time)
        assert notifier.reminders == []
        time.advance(29 * 60)
        await settle(runner, time)
        assert notifier.reminders == []
        time.advance(2 * 60)  # 31 min: half time has passed
        await settle(runner, time)
        assert [(g, u) for g, u, _ in notifier.reminders] == [(game_id, user)]
        assert "Time left: 29 min" in notifier.reminders[0][2]
        time.advance(10 * 60)
        await settle(runner, time)
        assert len(notifier.reminders) == 1
        time.advance(14 * 60)  # 55 min: near the end
        await settle(runner, time)
        assert len(notifier.reminders) == 2 and "5 min" in notifier.reminders[1][2]
        # a restart of the runner sends nothing again
        await runner.stop()
        runner = Scheduler(service, notifier, sleep=time.sleep)
        runner.start()
        await settle(runner, time)
        assert len(notifier.reminders) == 2
        assert (await service.reading.clock_status(game_id)).seats[0].timeouts == 0
    finally:
        await runner.stop()


async def test_a_timeout_lets_the_autopilot_finish_the_turn_and_repeats_are_reported(
    service: GameService, scheduler: Scheduler, notifier: RecordingNotifier, time: FakeTime
) -> None:
    game_id, _ = await new_game(service, HOURLY)
    await to_play_phase(service, game_id)
    name, user = await mover(service, game_id)
    await service.play.act(game_id, user, DrawCard(name, "deck"))  # half a turn, then silence
    moves_before = len((await service.reading.engine_game(game_id)).moves)
    time.advance(HOUR - 1)
    assert await scheduler.run_due() == 2  # the two reminders
    assert notifier.announced == []
    time.advance(1)
    assert await scheduler.run_due() == 1
    game = await service.reading.engine_game(game_id)
    made = game.moves[moves_before:]
    assert [m.player for m in made] == [name] and isinstance(made[0], DrawCard)  # the second card
    other, _ = await mover(service, game_id)
    assert other != name
    (result,) = notifier.announced
    assert result.public[0].kind == "timeout" and name in public_text(result.game, result.public[0])
    assert result.public[1].by_autopilot is True
    assert result.notices and result.notices[0].user_id != user  # the next player hears it is their turn
    assert notifier.mod_logs == []  # a first timeout is not reported
    log = await service.audit.log(game_id)
    assert [e.kind for e in log[-2:]] == ["timeout", "move"]
    assert log_actor(log[-1]) == f"the autopilot for {name} (time ran out)" and log[-1].at == time.now
    # the other player moves; the same player times out again: now the moderators hear of it
    await play_until(service, game_id, turn_of(name))
    time.advance(HOUR)
    await scheduler.run_due()
    seat = game.names.index(name)
    assert (await service.reading.clock_status(game_id)).seats[seat].timeouts == 2
    assert len(notifier.mod_logs) == 1
    guild, logged_game, line = notifier.mod_logs[0]
    assert (guild, logged_game) == (GUILD, game_id) and "twice" in line and name in line
    assert all(not r.mod_log for r in notifier.announced)  # posted once, through mod_log only
    audit = await service.audit.audit(game_id)
    assert [(a.action, a.moderator_user_id, a.details["timeouts"]) for a in audit] == [
        ("timeout", None, 1),
        ("timeout", None, 2),
    ]


async def test_the_wait_policy_calls_a_moderator_once_and_extend_restarts_the_clock(
    service: GameService, scheduler: Scheduler, notifier: RecordingNotifier, time: FakeTime
) -> None:
    clock = ClockSettings(turn_seconds=HOUR, reserve_seconds=0, policy="wait")
    game_id, _ = await new_game(service, clock)
    await to_play_phase(service, game_id)
    name, _user = await mover(service, game_id)
    moves = len((await service.reading.engine_game(game_id)).moves)
    time.advance(HOUR)
    await scheduler.run_due()
    assert len((await service.reading.engine_game(game_id)).moves) == moves  # nobody moved for them
    assert len(notifier.mod_logs) == 1 and "waits for a moderator" in notifier.mod_logs[0][2]
    assert [e.kind for e in notifier.announced[0].public] == ["timeout"]
    assert await timers(service, game_id) == []
    seat = (await service.reading.engine_game(game_id)).names.index(name)
    assert (await service.reading.clock_status(game_id)).seats[seat].waiting_for_moderator is True
    time.advance(5 * HOUR)
    assert await scheduler.run_due() == 0
    assert len(notifier.mod_logs) == 1  # once, not every hour
    # a moderator gives more time: the clock runs again from now
    result = await service.moderation.extend(game_id, MOD, 2 * HOUR, "family emergency")
    assert "2 h more" in public_text(result.game, result.public[0]) and result.mod_log
    deadlines = [t.deadline for t in await timers(service, game_id) if t.kind == "deadline"]
    assert deadlines == [time.now + timedelta(hours=2)]
    time.advance(2 * HOUR)
    await scheduler.run_due()
    assert len(notifier.mod_logs) == 2
    # the player may still move late, and the game goes on
    other = next(n for n in (await service.reading.engine_game(game_id)).names if n != name)
    await play_until(service, game_id, turn_of(other))
    assert [t.data["seat"] for t in await timers(service, game_id)] == [1 - seat] * 3


async def test_the_reserve_covers_a_slow_turn_and_is_used_up(service: GameService, time: FakeTime) -> None:
    clock = ClockSettings(turn_seconds=HOUR, reserve_seconds=2 * HOUR, reminders=())
    game_id, _ = await new_game(service, clock)
    await to_play_phase(service, game_id)
    name, _ = await mover(service, game_id)
    seat = (await service.reading.engine_game(game_id)).names.index(name)
    started = time.now
    assert [t.deadline for t in await timers(service, game_id)] == [started + timedelta(hours=3)]
    time.advance(1.5 * HOUR)
    other = next(n for n in (await service.reading.engine_game(game_id)).names if n != name)
    await play_until(service, game_id, turn_of(other))  # the turn ends after 1.5 h: half an hour of reserve used
    status = await service.reading.clock_status(game_id)
    assert status.seats[seat].reserve_left == pytest.approx(1.5 * HOUR)
    await play_until(service, game_id, turn_of(name))
    assert [t.deadline for t in await timers(service, game_id)] == [time.now + timedelta(hours=2.5)]


async def test_pause_stops_the_clock_and_refuses_moves(
    service: GameService, scheduler: Scheduler, notifier: RecordingNotifier, time: FakeTime
) -> None:
    game_id, _ = await new_game(service, HOURLY)
    await to_play_phase(service, game_id)
    name, user = await mover(service, game_id)
    began = time.now
    time.advance(20 * 60)
    result = await service.moderation.pause(game_id, MOD, "server outage")
    assert result.public[0].kind == "paused" and "server outage" in mod_line(result.mod_log[0])
    assert await timers(service, game_id) == []
    assert (await service.reading.clock_status(game_id)).paused is True
    with refused(WrongState, Why.PAUSED):
        await service.play.act(game_id, user, DrawCard(name, "deck"))
    with refused(WrongState, Why.ALREADY_PAUSED):
        await service.moderation.pause(game_id, MOD, "again")
    time.advance(5 * HOUR)
    assert await scheduler.run_due() == 0
    assert notifier.reminders == [] and notifier.announced == []
    await service.moderation.resume(game_id, MOD, "back")
    paused = timedelta(hours=5)
    seat = (await service.reading.engine_game(game_id)).names.index(name)
    assert kinds(await timers(service, game_id)) == [
        ("reminder", began + paused + timedelta(minutes=30), seat),
        ("reminder", began + paused + timedelta(minutes=54), seat),
        ("deadline", began + paused + timedelta(hours=1), seat),
    ]
    with refused(WrongState, Why.NOT_PAUSED):
        await service.moderation.resume(game_id, MOD, "twice")
    await service.play.act(game_id, user, DrawCard(name, "deck"))
    assert [a.action for a in await service.audit.audit(game_id)] == ["pause", "resume"]
    assert (await service.audit.audit(game_id))[1].details["paused_seconds"] == 5 * HOUR


async def test_an_autopilot_seat_cannot_be_played_by_hand(service: GameService) -> None:
    game_id, users = await new_game(service, HOURLY)
    await to_play_phase(service, game_id)
    name, user = await mover(service, game_id)
    other = next(u for u in users if u != user)
    other_seat = next(s for s in (await service.core.game(game_id)).seats if s.user_id == other)
    assert other_seat.seat is not None
    await service.moderation.set_autopilot(game_id, other_seat.seat, moderator_user_id=MOD, reason="gone")
    game = await service.reading.engine_game(game_id)
    with refused(NotAllowed, Why.AUTOPILOT_SEAT):
        await service.play.act(game_id, other, choose_move(game, name))
    assert (await service.core.game(game_id)).status is GameStatus.PLAYING
