"""The tournaments' timers through the real service, on both stores (issue 22): a round's deadline and the end of
a re-paired round's old games, each a timer of no game stored with the round it is for.

- At a round's deadline the timer hands the tables still playing to the front (`TimerOutcome.overdue`), once;
  the deadline of an attempt that was paired again tells nothing (the new attempt has its own).
- A re-pairing that stops after storing the new pairing (the service is closed: a crash) leaves its clean-up
  timer, which ends the old games when the service is opened again and the timer fires.
"""

from __future__ import annotations

import pytest
from helpers.clock_support import FakeTime
from helpers.service_support import GUILD, open_service
from test_tournament_service import CHANNEL, MOD, USERS, Threads

from bot.service import NO_CLOCK, GameService
from bot.service.kinds import TimerKind
from bot.service.tournaments.models import TournamentInfo, TournamentSettings
from bot.store import Database, TimerRow


async def gameless(service: GameService) -> list[TimerRow]:
    return [t for t in await service.store.timers.timers() if t.game_id is None]


THREADS = Threads()  # fresh thread ids for every table of every test (a channel holds one game)


async def running(service: GameService, players: int, minutes: int | None = 30) -> TournamentInfo:
    """A one-round tournament on India of `players` members (nobody moves), its round running."""
    settings = TournamentSettings(maps=("india",), rounds=1, clock=NO_CLOCK, round_deadline_minutes=minutes)
    info = await service.tournaments.registration.create_tournament(GUILD, CHANNEL, MOD, "Quick", settings)
    await service.tournaments.registration.open_registration(info.id, MOD)
    for user in USERS[:players]:
        await service.tournaments.registration.join_tournament(info.id, user, f"p{user}")
    started = await service.tournaments.rounds.start_round(info.id, MOD, THREADS)
    return started.tournament


async def test_a_rounds_deadline_tells_its_overdue_tables_once(timed_service: GameService, time: FakeTime) -> None:
    service = timed_service
    info = await running(service, 5)
    r = info.rounds[0]
    [timer] = await gameless(service)
    assert timer.kind == TimerKind.ROUND_DEADLINE and timer.deadline == r.deadline
    assert await service.timers.due_timers(time.now) == []
    time.advance(31 * 60)
    [due] = await service.timers.due_timers(time.now)
    outcome = await service.timers.fire_timer(due)
    assert outcome.overdue is not None and outcome.game is None
    assert outcome.overdue.tournament.id == info.id and outcome.overdue.round.round == 1
    assert [t.table_no for t in outcome.overdue.tables] == [1, 2]
    assert await gameless(service) == []
    again = await service.timers.fire_timer(due)  # another process had it too
    assert again.overdue is None


async def test_no_deadline_no_timer_and_a_finished_round_tells_nothing(
    timed_service: GameService, time: FakeTime
) -> None:
    service = timed_service
    await running(service, 3, minutes=None)
    assert await gameless(service) == []
    info = await running(service, 3)
    await service.tournaments.sanctions.adjudicate(info.id, MOD, 1, 1, score=True, reason="done early")
    time.advance(31 * 60)
    [due] = await service.timers.due_timers(time.now)
    assert (await service.timers.fire_timer(due)).overdue is None
    assert await gameless(service) == []


async def test_a_repaired_round_has_its_own_deadline(timed_service: GameService, time: FakeTime) -> None:
    service = timed_service
    info = await running(service, 5)
    time.advance(10 * 60)
    repaired = await service.tournaments.rounds.repair_round(info.id, MOD, THREADS, reason="wrong seats")
    timers = {(t.kind, t.data.get("attempt")): t for t in await gameless(service)}
    assert set(timers) == {
        (TimerKind.ROUND_DEADLINE, 1),
        (TimerKind.ROUND_DEADLINE, 2),
        (TimerKind.REPAIR_CLEANUP, None),
    }
    assert timers[TimerKind.ROUND_DEADLINE, 2].deadline == repaired.round.deadline
    time.advance(25 * 60)  # the first attempt's deadline: nothing to tell
    for due in await service.timers.due_timers(time.now):
        assert (await service.timers.fire_timer(due)).overdue is None
    time.advance(10 * 60)
    [due] = await service.timers.due_timers(time.now)
    outcome = await service.timers.fire_timer(due)
    assert outcome.overdue is not None and outcome.overdue.round.attempt == 2


async def test_a_repairing_stopped_by_a_crash_ends_the_old_games_when_the_service_is_back(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await open_service(database)
    try:
        info = await running(service, 5)
        old = [t.game_id for t in info.rounds[0].tables]
        assert all(g is not None for g in old)

        async def crash(*args: object, **kwargs: object) -> None:
            raise RuntimeError("the bot stopped here")

        monkeypatch.setattr(service.lobby, "cancel", crash)
        with pytest.raises(RuntimeError, match="stopped here"):
            await service.tournaments.rounds.repair_round(info.id, MOD, THREADS, reason="wrong seats")
        monkeypatch.undo()
    finally:
        await service.close()
    service = await open_service(database)
    try:
        after = await service.tournaments.desk.tournament(info.id)
        assert after.rounds[0].attempt == 2
        for game_id in old:
            assert game_id is not None and (await service.core.game(game_id)).status.active
        due = [t for t in await service.timers.due_timers(service.core.now()) if t.kind == TimerKind.REPAIR_CLEANUP]
        assert len(due) == 1
        await service.timers.fire_timer(due[0])
        for game_id in old:
            assert game_id is not None and not (await service.core.game(game_id)).status.active
        assert await gameless(service) != [] and all(
            t.kind == TimerKind.ROUND_DEADLINE for t in await gameless(service)
        )
        started = await service.tournaments.rounds.start_round(info.id, MOD, THREADS)  # opens the new tables
        assert all(t.game_id is not None and t.game_id not in old for t in started.round.tables)
    finally:
        await service.close()
