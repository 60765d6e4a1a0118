"""Reminders fall at fractions of the turn time (with extensions), so they come before the turn time is used up,
also when a reserve makes the deadline later; with a reserve, two more tell when it starts and when 90% of it is
used."""

from __future__ import annotations

from datetime import timedelta

import pytest
from helpers.clock_support import HOUR, FakeTime, mover, new_game, timers, to_play_phase

from bot.service import GameService
from bot.service.clock import ClockSettings

MOD = 900


@pytest.fixture
def service(timed_service: GameService) -> GameService:
    return timed_service


async def test_reminders_come_within_the_turn_time_before_the_reserve(service: GameService, time: FakeTime) -> None:
    clock = ClockSettings(turn_seconds=HOUR, reserve_seconds=2 * HOUR, reminders=(0.5, 0.9))
    game_id, _ = await new_game(service, clock)
    await to_play_phase(service, game_id)
    await mover(service, game_id)
    start = time()
    due = sorted((t.kind, t.deadline - start) for t in await timers(service, game_id))
    assert due == [
        ("deadline", timedelta(hours=3)),  # the turn time and the whole reserve
        ("reminder", timedelta(minutes=30)),
        ("reminder", timedelta(minutes=54)),
        ("reminder", timedelta(hours=1)),  # the turn time is up: the reserve starts
        ("reminder", timedelta(hours=2, minutes=48)),  # 90% of the reserve used
    ]
    # an extension stretches the turn time the reminders are fractions of
    await service.moderation.extend(game_id, MOD, HOUR, "slow")
    due = sorted((t.kind, t.deadline - start) for t in await timers(service, game_id))
    assert due == [
        ("deadline", timedelta(hours=4)),
        ("reminder", timedelta(hours=1)),
        ("reminder", timedelta(minutes=108)),
        ("reminder", timedelta(hours=2)),
        ("reminder", timedelta(hours=3, minutes=48)),
    ]
