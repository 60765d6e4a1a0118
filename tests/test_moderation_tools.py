"""Moderator tools through the real service on real database files: replace, undo, end, autopilot, audit, log."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from typing import Any

import asyncpg
import pytest
from helpers.clock_support import (
    GUILD,
    HOUR,
    FakeTime,
    mover,
    new_game,
    play_one,
    timers,
    to_play_phase,
)
from helpers.service_support import refused, replay_rows, same_game, stored

from bot.present.audit import log_actor, log_text
from bot.present.events import public_text
from bot.present.moderation import mod_line
from bot.service import (
    GameFull,
    GameService,
    InvalidInput,
    NotAllowed,
    NotAPlayer,
    StaleVersion,
    Why,
    WrongState,
)
from bot.service.clock import ClockSettings
from bot.service.events import SeatGiven
from bot.service.record import record_of
from bot.service.scores import FinalScores
from bot.service.settings import GuildConfig, may_moderate
from bot.store import Database, GameStatus
from engine import Game
from engine.autopilot import choose_move
from engine.record import outcome, parse_record, replay
from maps import MAP_NAMES, load_board

MOD = 900
HOURLY = ClockSettings(turn_seconds=HOUR, reserve_seconds=0)


@pytest.fixture
def service(timed_service: GameService) -> GameService:
    """These tests run the service on simulated time (`time`)."""
    return timed_service


def without_version(view: Any) -> Any:
    return replace(view, version=0)


async def test_moderator_commands_refuse_non_moderators(service: GameService) -> None:
    # nobody but Manage Server until a moderator role is set
    with pytest.raises(NotAllowed):
        await service.settings.check_moderator(GUILD, 5, role_ids=[55], manage_guild=False)
    await service.settings.check_moderator(GUILD, 5, role_ids=[], manage_guild=True)
    await service.settings.set_guild_config(GUILD, "moderator_role_id", 55)
    await service.settings.check_moderator(GUILD, 5, role_ids=[1, 55], manage_guild=False)
    with refused(NotAllowed, Why.MODERATORS_ONLY):
        await service.settings.check_moderator(GUILD, 5, role_ids=[1, 2], manage_guild=False)
    config = GuildConfig(GUILD, moderator_role_id=55)
    assert may_moderate(config, role_ids=[55], manage_guild=False)
    assert not may_moderate(GuildConfig(GUILD), role_ids=[55], manage_guild=False)
    # the service's moderator methods need a real moderator id and a reason that is text
    game_id, _ = await new_game(service, HOURLY)
    for bad in (0, -3, True):
        with pytest.raises(InvalidInput):
            await service.moderation.pause(game_id, bad, "why")
    with pytest.raises(InvalidInput):
        await service.moderation.pause(game_id, MOD, None)  # type: ignore[arg-type]
    assert await service.audit.audit(game_id) == []


async def test_replace_moves_the_private_view_to_the_substitute(service: GameService, database: Database) -> None:
    game_id, users = await new_game(service, HOURLY)
    await to_play_phase(service, game_id)
    await play_one(service, game_id)
    old_user = users[1]
    seat = next(s for s in (await service.core.game(game_id)).seats if s.user_id == old_user)
    assert seat.seat is not None and seat.player is not None
    before = await service.reading.private_view(game_id, old_user)
    result = await service.moderation.replace(game_id, MOD, seat.seat, 200, "Sub", "left the server")
    assert "Sub" in public_text(result.game, result.public[0]) and result.mod_log
    (given,) = result.private_for(200)
    assert isinstance(given.data, SeatGiven)
    assert given.kind == "seat_given" and without_version(given.data.view) == without_version(before)
    assert [e.kind for e in result.private_for(old_user)] == ["seat_taken"]
    # the substitute sees the seat and may act for it; the old player neither
    assert without_version(await service.reading.private_view(game_id, 200)) == without_version(before)
    with pytest.raises(NotAPlayer):
        await service.reading.private_view(game_id, old_user)
    game = await service.reading.engine_game(game_id)
    with pytest.raises(NotAPlayer):
        await service.play.act(game_id, old_user, choose_move(game, seat.player))
    assert [g.id for g in await service.reading.games_of_user(200)] == [game_id]
    assert await service.reading.games_of_user(old_user) == []
    while (await mover(service, game_id))[1] != 200:
        await play_one(service, game_id)
    await play_one(service, game_id)  # the substitute moves
    with refused(WrongState, Why.ALREADY_PLAYS):
        await service.moderation.replace(game_id, MOD, seat.seat, users[0], "Host", "no")
    # the record notes the change and still replays: the seat's name in the game stayed the same
    record = (await service.audit.export_record(game_id, MOD, moderator=True)).record
    (change,) = record["conductor"]["seat_changes"]
    assert change["action"] == "replace" and change["moderator_user_id"] == MOD
    assert (change["from_user_id"], change["to_user_id"], change["player"]) == (old_user, 200, seat.player)
    assert record["players"][seat.seat] == seat.player
    assert record["conductor"]["seats"][seat.seat]["user_id"] == 200
    replayed = replay(parse_record(json.loads(json.dumps(record))))
    assert same_game(replayed, await service.reading.engine_game(game_id))
    assert same_game(replay_rows(await stored(database, game_id)), replayed)


async def record_now(service: GameService, game_id: int) -> dict[str, Any]:
    """The game's record as it stands, read from the store: no moderator's read to audit."""
    rows = await service.store.games.stored_game(game_id)
    assert rows is not None
    return record_of(rows, await service.store.history.audit_log(game_id))


async def test_undo_restores_the_exact_earlier_state(service: GameService, database: Database) -> None:
    game_id, users = await new_game(service, HOURLY, players=3)
    await to_play_phase(service, game_id)
    for _ in range(6):
        await play_one(service, game_id)
    earlier = await service.reading.engine_game(game_id)
    public = await service.reading.public_view(game_id)
    private = {u: await service.reading.private_view(game_id, u) for u in users}
    record = await record_now(service, game_id)
    clock_before = await service.reading.clock_status(game_id)
    for _ in range(7):
        await play_one(service, game_id)
    version = (await service.core.game(game_id)).version
    result = await service.moderation.undo(game_id, MOD, 7, "a misclick and what followed")
    assert result.game.version > version
    now = await service.reading.engine_game(game_id)
    assert same_game(now, earlier)
    assert without_version(await service.reading.public_view(game_id)) == without_version(public)
    for user in users:
        assert without_version(await service.reading.private_view(game_id, user)) == without_version(private[user])
    after = await record_now(service, game_id)
    notes = after.pop("conductor")
    assert after == {k: v for k, v in record.items() if k != "conductor"}
    assert [m["action"] for m in notes["moderation"]] == ["undo"] and notes["seat_changes"] == []
    assert same_game(replay_rows(await stored(database, game_id)), earlier)
    # whoever must act gets a fresh turn; the one whose turn it was again hears it
    (notice,) = result.notices
    assert notice.user_id == (await mover(service, game_id))[1]
    assert [s.waiting for s in (await service.reading.clock_status(game_id)).seats] == [
        s.waiting for s in clock_before.seats
    ]
    # buttons from before the undo are stale
    game = await service.reading.engine_game(game_id)
    name, user = await mover(service, game_id)
    with pytest.raises(StaleVersion):
        await service.play.act(game_id, user, choose_move(game, name), expected_version=version)
    # the moves taken back stay in the audit, not in the game
    log = await service.audit.log(game_id)
    assert sum(e.kind == "undone_move" for e in log) == 7 and sum(e.kind == "undo" for e in log) == 1
    assert len(await service.store.history.undone_moves(game_id)) == 7
    (audit,) = await service.audit.audit(game_id)
    assert (audit.action, audit.details["moves"], audit.reason) == ("undo", 7, "a misclick and what followed")
    # the game goes on from there
    await play_one(service, game_id)
    with pytest.raises(InvalidInput):
        await service.moderation.undo(game_id, MOD, 10_000, "too many")
    # all the way back: the deal, before anyone chose tickets
    count = len((await service.reading.engine_game(game_id)).moves)
    await service.moderation.undo(game_id, MOD, count, "start over")
    info = await service.core.game(game_id)
    assert info.status is GameStatus.SETUP
    dealt = await service.reading.engine_game(game_id)
    assert (
        dealt.moves == []
        and dealt.state
        == Game(
            dealt.board, dealt.names, dealt.seed, dealt.trains_option, dealt.initial_cards, dealt.initial_tickets
        ).state
    )


async def test_the_move_log_still_refuses_deletes_that_are_not_an_undo(
    service: GameService, database: Database
) -> None:
    game_id, _ = await new_game(service, HOURLY)
    await to_play_phase(service, game_id)
    await service.moderation.undo(game_id, MOD, 1, "test")
    statements = [
        f"DELETE FROM moves WHERE game_id = {game_id}",
        "DELETE FROM audit_log",
        "UPDATE audit_log SET reason = 'changed'",
    ]
    if isinstance(database, str):  # PostgreSQL: its triggers raise
        pg = await asyncpg.connect(database)
        try:
            for statement in statements:
                with pytest.raises(asyncpg.RaiseError, match="append-only"):
                    await pg.execute(statement)
        finally:
            await pg.close()
        return
    conn = sqlite3.connect(database)
    try:
        for statement in statements:
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(statement)
    finally:
        conn.close()


async def test_end_with_scoring_or_abandon(service: GameService, time: FakeTime) -> None:
    scored, _users = await new_game(service, HOURLY)
    await to_play_phase(service, scored)
    for _ in range(10):
        await play_one(service, scored)
    expected = (await service.reading.engine_game(scored)).score()
    result = await service.moderation.end(scored, MOD, True, "time is up for the round")
    assert result.game.status is GameStatus.FINISHED
    scores = next(e for e in result.public if e.kind == "final_scores")
    assert isinstance(scores.data, FinalScores)
    assert [s.total for s in scores.data.scores] == [s.total for s in expected]
    view = (await service.reading.public_view(scored)).table
    assert view is not None and view.scores is not None
    assert view.finished and view.to_move is None and view.scores.winners == scores.data.winners
    assert await timers(service, scored) == []
    name, user = await mover(service, scored)
    game = await service.reading.engine_game(scored)
    with pytest.raises(WrongState):
        await service.play.act(scored, user, choose_move(game, name))
    assert (await service.reading.private_view(scored, user)).options is None
    await service.audit.export_record(scored)  # anyone may have the record now
    (audit,) = await service.audit.audit(scored)
    assert audit.details["score"] is True and audit.details["winners"] == list(scores.data.winners)

    abandoned, _ = await new_game(service, HOURLY)
    await to_play_phase(service, abandoned)
    result = await service.moderation.end(abandoned, MOD, False, "players vanished")
    assert result.game.status is GameStatus.CANCELLED
    assert all(e.kind != "final_scores" for e in result.public)
    table = (await service.reading.public_view(abandoned)).table
    assert table is not None and table.scores is None
    with pytest.raises(WrongState):
        await service.moderation.end(abandoned, MOD, True, "again")

    lobby = (await service.lobby.create_game(GUILD, 77, 100, "a", "usa")).game.id
    with refused(WrongState, Why.NOTHING_TO_SCORE):
        await service.moderation.end(lobby, MOD, True, "x")
    assert (await service.moderation.end(lobby, MOD, False, "x")).game.status is GameStatus.CANCELLED


async def test_every_moderator_action_is_audited_and_logged(service: GameService, time: FakeTime) -> None:
    game_id, _users = await new_game(service, HOURLY)
    await to_play_phase(service, game_id)
    await play_one(service, game_id)
    done: list[tuple[str, str]] = []

    async def step(action: str, reason: str, call: Any) -> None:
        time.advance(60)
        result = await call
        assert result.mod_log and reason in mod_line(result.mod_log[-1]) and f"<@{MOD}>" in mod_line(result.mod_log[-1])
        done.append((action, reason))

    name, _ = await mover(service, game_id)
    seat = (await service.reading.engine_game(game_id)).names.index(name)
    await step("pause", "lunch", service.moderation.pause(game_id, MOD, "lunch"))
    await step("resume", "back", service.moderation.resume(game_id, MOD, "back"))
    await step("extend", "slow connection", service.moderation.extend(game_id, MOD, 600, "slow connection"))
    await step(
        "autopilot", "away", service.moderation.set_autopilot(game_id, seat, moderator_user_id=MOD, reason="away")
    )
    back = service.moderation.set_autopilot(game_id, seat, False, moderator_user_id=MOD, reason="returned")
    await step("autopilot", "returned", back)
    await step("replace", "swap", service.moderation.replace(game_id, MOD, seat, 300, "Third", "swap"))
    await step("undo", "oops", service.moderation.undo(game_id, MOD, 1, "oops"))
    await step("end", "done", service.moderation.end(game_id, MOD, True, "done"))
    audit = await service.audit.audit(game_id)
    assert [(a.action, a.reason) for a in audit] == done
    assert all(a.moderator_user_id == MOD for a in audit)
    times = [a.created_at for a in audit]
    assert times == sorted(times) and times[-1] == time.now
    log = await service.audit.log(game_id)
    kinds = [e.kind for e in log]
    for action, _ in done:
        assert action in kinds
    moves = [e for e in log if e.kind == "move"]
    assert moves and all(e.at is not None and log_actor(e) for e in moves)
    played = [e for e in log if e.kind in ("move", "undone_move")]
    assert any(log_actor(e) == f"the autopilot for {name}" for e in played)  # while the seat was handed over
    text = log_text(await service.core.game(game_id), log, {900: "Mo"})  # the log names members, never mentions them
    assert text.count("\n") == len(log) and "moderator Mo" in text and "<@" not in text
    record = (await service.audit.export_record(game_id)).record
    assert [m["action"] for m in record["conductor"]["moderation"]] == [a for a, _ in done]
    assert [c["action"] for c in record["conductor"]["seat_changes"]] == ["autopilot", "autopilot", "replace"]


async def test_a_seat_handed_to_the_autopilot_plays_at_once_and_comes_back(service: GameService) -> None:
    game_id, _users = await new_game(service, HOURLY)
    await to_play_phase(service, game_id)
    name, _user = await mover(service, game_id)
    seat = (await service.reading.engine_game(game_id)).names.index(name)
    result = await service.moderation.set_autopilot(game_id, seat, moderator_user_id=MOD, reason="asleep")
    moved = [e for e in result.public if e.player == name and e.by_autopilot]
    assert moved, "the autopilot took the turn at once"
    assert (await mover(service, game_id))[0] != name
    # the other member plays; the autopilot answers for the seat every time
    for _ in range(4):
        await play_one(service, game_id)
        assert (await mover(service, game_id))[0] != name
    with refused(WrongState, Why.ALREADY_AUTOPILOT):
        await service.moderation.set_autopilot(game_id, seat, moderator_user_id=MOD, reason="again")
    await service.moderation.set_autopilot(game_id, seat, False, moderator_user_id=MOD, reason="awake")
    while (await mover(service, game_id))[0] != name:
        await play_one(service, game_id)
    await play_one(service, game_id)  # by hand again
    game = await service.reading.engine_game(game_id)
    assert any(m.player == name for m in game.moves[-2:])


async def test_autopilot_players_in_the_lobby(service: GameService) -> None:
    created = await service.lobby.create_game(GUILD, 31, 100, "host", "usa", max_players=3, clock=HOURLY, bots=1)
    game_id = created.game.id
    assert [(s.user_id, s.display_name, s.autopilot, s.bot) for s in created.game.seats] == [
        (100, "host", False, False),
        (-1, "Autopilot 1", True, True),
    ]
    with pytest.raises(NotAllowed):
        await service.lobby.add_bot(game_id, 101)
    await service.lobby.add_bot(game_id, 100)
    with pytest.raises(GameFull):
        await service.lobby.add_bot(game_id, 100)
    await service.lobby.remove_bot(game_id, 100, -1)
    with pytest.raises(NotAPlayer):
        await service.lobby.remove_bot(game_id, 100, 100)
    await service.lobby.add_bot(game_id, 100)  # takes the free number again
    assert sorted(s.user_id for s in (await service.core.game(game_id)).seats) == [-2, -1, 100]
    with pytest.raises(InvalidInput):
        await service.lobby.create_game(GUILD, 32, 100, "host", "usa", max_players=2, bots=2)
    # an autopilot player never becomes the host: the game is off when the last member leaves
    alone = (await service.lobby.create_game(GUILD, 33, 100, "host", "usa", bots=2)).game.id
    left = await service.lobby.leave(alone, 100)
    assert left.game.status is GameStatus.CANCELLED and left.public[-1].kind == "cancelled"
    # at the start the autopilot players choose their tickets at once; only the member is waited for
    result = await service.lobby.start(game_id, 100)
    keeps = [e for e in result.public if e.kind == "keep"]
    assert len(keeps) == 2 and all(e.by_autopilot for e in keeps)
    assert result.waiting is not None and result.waiting.user_ids == (100,)
    assert {e.user_id for e in result.private} == {100}  # nothing is told to an autopilot player
    assert [t.data["seat"] for t in await timers(service, game_id)] == [
        s.seat for s in result.game.seats if s.user_id == 100
    ] * 3


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("map_name", MAP_NAMES)
async def test_autopilot_players_finish_a_game_with_no_member_acting(
    service: GameService, database: Database, map_name: str, seed: int
) -> None:
    service.core.rng = random.Random(seed)  # another seat order and deal
    players = load_board(map_name).rules.max_players
    game_id, users = await new_game(service, HOURLY, map_name=map_name, players=1, bots=players - 1)
    host = next(s for s in (await service.core.game(game_id)).seats if s.user_id == users[0])
    assert host.seat is not None
    result = await service.moderation.set_autopilot(game_id, host.seat, moderator_user_id=MOD, reason="all bots")
    assert result.game.status is GameStatus.FINISHED and result.waiting is None
    assert any(e.kind == "final_scores" for e in result.public)
    game = await service.reading.engine_game(game_id)
    assert game.finished and game.state.turn <= 400
    rows = await stored(database, game_id)
    assert all(m.actor == "autopilot" and m.user_id is None for m in rows.moves)
    # every move was legal: the record replays to the same end
    record = (await service.audit.export_record(game_id)).record
    replayed = replay(parse_record(record))
    assert same_game(replayed, game) and outcome(replayed)["winners"] == game.winners()
    assert await timers(service, game_id) == []


async def test_a_moderator_reading_the_log_or_record_is_audited_without_changing_the_game(
    service: GameService, time: FakeTime
) -> None:
    game_id, _ = await new_game(service, HOURLY)
    await to_play_phase(service, game_id)
    before = await service.core.game(game_id)
    time.advance(30)
    await service.audit.note_read(game_id, MOD, "read_log", "dispute at table 3")
    await service.audit.note_read(game_id, MOD, "export", "")
    audit = await service.audit.audit(game_id)
    assert [(a.action, a.reason, a.moderator_user_id) for a in audit] == [
        ("read_log", "dispute at table 3", MOD),
        ("export", "", MOD),
    ]
    assert audit[0].created_at == time.now
    assert (await service.core.game(game_id)).version == before.version  # open buttons stay valid
    assert "read the log - dispute at table 3" in log_text(
        await service.core.game(game_id), await service.audit.log(game_id)
    )
    with pytest.raises(InvalidInput):
        await service.audit.note_read(game_id, 0, "export")
