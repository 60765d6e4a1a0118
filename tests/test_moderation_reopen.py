"""Reopening a game a moderator ended, through the real service: exactly as it was, fair clocks, refusals;
and the store's version check for changes that keep the game's version."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from helpers.clock_support import HOUR, FakeTime, mover, new_game, open_service, play_one, timers, to_play_phase
from helpers.service_support import refused

from bot.present.events import public_text
from bot.present.moderation import mod_line
from bot.service import GameService, NotAllowed, Why, WrongState
from bot.service.clock import ClockSettings
from bot.service.reopen import REOPEN_SECONDS
from bot.store import Database, GameChange, GameStatus, NewAudit, StoreError, VersionConflict, Writes
from engine.autopilot import choose_move

MOD = 900
CLOCK = ClockSettings(turn_seconds=HOUR, reserve_seconds=HOUR)


@pytest.fixture
def service(timed_service: GameService) -> GameService:
    return timed_service


@pytest.mark.parametrize("score", [False])  # a scored end is final: see test_a_scored_end_is_final
async def test_reopen_restores_the_game_seats_and_clocks(service: GameService, time: FakeTime, score: bool) -> None:
    game_id, _users = await new_game(service, CLOCK, players=3)
    await to_play_phase(service, game_id)
    await play_one(service, game_id)
    name, _ = await mover(service, game_id)
    seat = (await service.reading.engine_game(game_id)).names.index(name)
    await service.moderation.extend(game_id, MOD, 600, "slow", seat)
    other = (seat + 1) % 3
    await service.moderation.set_autopilot(game_id, other, True, moderator_user_id=MOD, reason="away")
    time.advance(1200)
    before_info = await service.core.game(game_id)
    before_game = await service.reading.engine_game(game_id)
    before_clock = await service.store.history.clock(game_id)

    await service.moderation.end(game_id, MOD, score, "evening over")
    assert await timers(service, game_id) == []
    time.advance(5 * HOUR)  # far past the turn time and the reserve
    result = await service.reopen.reopen(game_id, MOD, "ended by mistake")

    info = await service.core.game(game_id)
    assert info.status is before_info.status is GameStatus.PLAYING
    assert info.seats == before_info.seats and info.seats[other].autopilot
    assert (await service.reading.engine_game(game_id)).moves == before_game.moves
    clock = await service.store.history.clock(game_id)
    shifted = tuple(
        c if c.since is None else replace(c, since=c.since + timedelta(hours=5)) for c in before_clock.seats
    )
    assert clock.seats == shifted and clock.paused_at is None
    assert {t.kind for t in await timers(service, game_id)} >= {"deadline"}
    (event,) = [e for e in result.public if e.kind == "reopened"]
    assert "5 h after it ended" in public_text(result.game, event)
    assert "reopened the game" in mod_line(result.mod_log[-1]) and "ended by mistake" in mod_line(result.mod_log[-1])
    assert [a.action for a in await service.audit.audit(game_id)][-2:] == ["end", "reopen"]
    # the player on turn moves as before
    name_now, user = await mover(service, game_id)
    assert name_now == name
    await service.play.act(game_id, user, choose_move(await service.reading.engine_game(game_id), name))


async def test_a_paused_game_comes_back_paused_and_a_lobby_as_a_lobby(service: GameService, time: FakeTime) -> None:
    game_id, _ = await new_game(service, CLOCK)
    await to_play_phase(service, game_id)
    await service.moderation.pause(game_id, MOD, "checking")
    paused = await service.store.history.clock(game_id)
    await service.moderation.end(game_id, MOD, False, "x")
    time.advance(HOUR)
    await service.reopen.reopen(game_id, MOD, "y")
    assert await service.store.history.clock(game_id) == paused and await timers(service, game_id) == []

    lobby = (await service.lobby.create_game(1, 4242, 100, "a", "usa")).game.id
    await service.lobby.join(lobby, 101, "b")
    seats = (await service.core.game(lobby)).seats
    await service.moderation.end(lobby, MOD, False, "x")
    await service.reopen.reopen(lobby, MOD, "y")
    info = await service.core.game(lobby)
    assert info.status is GameStatus.LOBBY and info.seats == seats


async def test_reopen_refusals(service: GameService, time: FakeTime) -> None:
    game_id, _ = await new_game(service, CLOCK)
    with refused(WrongState, Why.NOT_ENDED_BY_MODERATOR):
        await service.reopen.reopen(game_id, MOD, "x")
    await service.moderation.end(game_id, MOD, False, "x")
    time.advance(REOPEN_SECONDS + 1)
    with refused(WrongState, Why.REOPEN_TOO_LATE, hours=24):
        await service.reopen.reopen(game_id, MOD, "x")
    assert (await service.core.game(game_id)).status is GameStatus.CANCELLED

    first = (await service.lobby.create_game(1, 5151, 100, "a", "usa")).game.id
    await service.moderation.end(first, MOD, False, "x")
    second = (await service.lobby.create_game(1, 5151, 100, "a", "usa")).game.id
    with refused(WrongState, Why.NEWER_GAME, game_id=first, newer=second):
        await service.reopen.reopen(first, MOD, "x")
    # reopened once, it is not ended any more
    await service.moderation.end(second, MOD, False, "x")
    await service.reopen.reopen(second, MOD, "x")
    with refused(WrongState, Why.NOT_ENDED_BY_MODERATOR):
        await service.reopen.reopen(second, MOD, "x")


async def test_a_scored_end_is_final(service: GameService, time: FakeTime) -> None:
    """Scoring a game as it stands shows every player's tickets: it never runs again, and its record is everyone's
    at once; an abandoned game's record waits until it can no longer be reopened."""
    scored, users = await new_game(service, CLOCK)
    await to_play_phase(service, scored)
    await play_one(service, scored)
    await service.moderation.end(scored, MOD, True, "evening over")
    with refused(WrongState, Why.REOPEN_SCORED, game_id=scored):
        await service.reopen.reopen(scored, MOD, "x")
    assert (await service.core.game(scored)).status is GameStatus.FINISHED
    assert (await service.audit.export_record(scored, users[0])).record["seed"]

    abandoned, users = await new_game(service, CLOCK)
    await to_play_phase(service, abandoned)
    await service.moderation.end(abandoned, MOD, False, "evening over")
    with refused(NotAllowed, Why.RECORD_REOPENABLE, game_id=abandoned):
        await service.audit.export_record(abandoned, users[0])
    with refused(NotAllowed, Why.SEATED_MODERATOR, game_id=abandoned, what="record"):
        await service.audit.export_record(abandoned, users[0], moderator=True)
    assert (await service.audit.export_record(abandoned, MOD, moderator=True)).mod_log is not None  # audited
    time.advance(REOPEN_SECONDS + 1)
    assert (await service.audit.export_record(abandoned, users[0])).record["seed"]


async def test_a_change_that_keeps_the_version_is_still_checked_against_it(
    service: GameService, time: FakeTime
) -> None:
    """Pause and extend keep the game's version (open menus stay good) but still lose to a newer write."""
    game_id, _ = await new_game(service, CLOCK)
    await to_play_phase(service, game_id)
    version = (await service.core.game(game_id)).version
    await service.moderation.pause(game_id, MOD, "x")
    await service.moderation.extend(game_id, MOD, 60, "x")
    assert (await service.core.game(game_id)).version == version
    audit = NewAudit(MOD, "pause", {}, "x", time())
    with pytest.raises(VersionConflict):
        await service.store.history.apply_change(game_id, version - 1, GameChange(Writes(audit=[audit]), bump=False))
    with pytest.raises(StoreError):
        change = GameChange(Writes(), status=GameStatus.CANCELLED, bump=False)
        await service.store.history.apply_change(game_id, version, change)
    await service.moderation.resume(game_id, MOD, "x")
    assert (await service.core.game(game_id)).version == version + 1


async def test_a_game_ended_before_ends_kept_the_clock_reopens_with_a_fresh_turn(
    database: Database, time: FakeTime
) -> None:
    first = await open_service(database, time)
    game_id, _ = await new_game(first, CLOCK)
    await to_play_phase(first, game_id)
    version = (await first.core.game(game_id)).version
    old_end = NewAudit(MOD, "end", {"score": False}, "old", time())
    change = GameChange(Writes(timers=[], audit=[old_end]), status=GameStatus.CANCELLED)
    await first.store.history.apply_change(game_id, version, change)
    await first.close()
    time.advance(HOUR)
    service = await open_service(database, time)
    try:
        await service.reopen.reopen(game_id, MOD, "x")
        name, _ = await mover(service, game_id)
        seat = (await service.reading.engine_game(game_id)).names.index(name)
        assert (await service.store.history.clock(game_id)).seat(seat).since == time()
    finally:
        await service.close()
