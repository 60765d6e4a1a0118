"""Planned turns through the service, on both stores: set while it is not the member's turn, played at once when
their turn comes (marked as planned in the history), falling back, stopping for a decision, cleared by the
member's own move and by a moderator's undo, kept across a restart, and never read by anyone else."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from helpers.service_support import open_service, refused, started_game

from bot.service import NO_CLOCK, GameService, NotAPlayer, WrongState
from bot.service.errors import InvalidInput, NotAllowed
from bot.service.kinds import Actor
from bot.service.plan_eval import DECK, Ending, ItemKind, PlanItem
from bot.service.settings import PLANS
from bot.service.tournaments.models import TablePlan, TournamentSettings
from bot.store import Database, NewPlan, PlanRow
from engine import DrawCard, Game, Keep
from engine.errors import AlreadyClaimed
from engine.random_play import random_move
from maps import WILD

MOD = 999


class Threads:
    """A thread per tournament table: here a fresh channel id."""

    def __init__(self) -> None:
        self.ids = itertools.count(7000)

    async def __call__(self, plan: TablePlan) -> int:
        return next(self.ids)


async def _to_turns(service: GameService, game_id: int) -> Game:
    """Keep the starting tickets of every seat: the first turn begins."""
    game = await service.reading.engine_game(game_id)
    info = await service.core.game(game_id)
    for name in game.names:
        keep = next(m for m in game.legal_moves(name) if isinstance(m, Keep))
        user = info.user_of(name)
        assert user is not None
        await service.play.act(game_id, user, keep)
    return await service.reading.engine_game(game_id)


async def _whose(service: GameService, game_id: int) -> tuple[int, str, Game]:
    game = await service.reading.engine_game(game_id)
    to_move = game.to_move()
    assert to_move is not None
    user = (await service.core.game(game_id)).user_of(to_move.player)
    assert user is not None
    return user, to_move.player, game


async def _next_member(service: GameService, game_id: int) -> tuple[int, str]:
    """The member whose turn comes after the current one (two players: the other)."""
    game = await service.reading.engine_game(game_id)
    to_move = game.to_move()
    assert to_move is not None
    nxt = game.names[(game.seat(to_move.player) + 1) % len(game.names)]
    user = (await service.core.game(game_id)).user_of(nxt)
    assert user is not None
    return user, nxt


async def _deck_twice(service: GameService, game_id: int) -> None:
    user, player, _ = await _whose(service, game_id)
    await service.play.act(game_id, user, DrawCard(player, DECK))
    await service.play.act(game_id, user, DrawCard(player, DECK))


async def test_a_plan_is_played_when_the_turn_comes_and_marked_as_planned(service: GameService) -> None:
    game_id, _ = await started_game(service, players=2)
    game = await _to_turns(service, game_id)
    planner, name = await _next_member(service, game_id)
    colour = next(c for c in game.state.piles.face_up if c and c != WILD)
    view = await service.plans.add(game_id, planner, PlanItem(ItemKind.CARDS, first=colour, second=DECK))
    assert view.items == (PlanItem(ItemKind.CARDS, first=colour, second=DECK),)
    await _deck_twice(service, game_id)  # the other member's turn: then the planner's comes
    after = await service.reading.engine_game(game_id)
    # the planner's turn was played at once (two cards, the face-up colour first), the turn passed back
    assert after.moves[-2:] == [DrawCard(name, colour), DrawCard(name, DECK)]
    assert after.to_move() is not None and after.to_move().player != name  # type: ignore[union-attr]
    live = await service.core.live(game_id)
    assert live.actors[-2:] == (Actor.PLAN, Actor.PLAN)
    told = [m for stage in await service.reading.history(game_id) for m in stage.moves]
    assert [m.planned for m in told[-3:]] == [False, True, True]  # typed in the history: played from a plan
    assert (await service.plans.show(game_id, planner)).items == ()  # the plan is used up


async def test_the_result_tells_the_member_alone_what_the_plan_did(service: GameService) -> None:
    game_id, _ = await started_game(service, players=2)
    game = await _to_turns(service, game_id)
    planner, name = await _next_member(service, game_id)
    absent = next(c for c in game.rules.colors if c not in game.state.piles.face_up)
    await service.plans.add(game_id, planner, PlanItem(ItemKind.CARDS, first=absent))
    await service.plans.add(game_id, planner, PlanItem(ItemKind.DECK))
    user, player, _ = await _whose(service, game_id)
    await service.play.act(game_id, user, DrawCard(player, DECK))
    result = await service.play.act(game_id, user, DrawCard(player, DECK))
    (planned,) = result.planned
    assert planned.user_id == planner and planned.player == name
    assert planned.outcome.ending is Ending.PLAYED and planned.outcome.played == 1
    assert planned.outcome.skipped[0].index == 0  # the face-up colour was not showing
    assert planned.private and all(e.user_id == planner for e in planned.private)  # the cards drawn blind


async def test_a_route_the_planner_claimed_before_falls_back(service: GameService) -> None:
    game_id, _ = await started_game(service, players=2)
    game = await _to_turns(service, game_id)
    planner, name = await _next_member(service, game_id)
    route = next(r for r in game.board.routes if not game.board.parallel(r))
    await service.plans.add(game_id, planner, PlanItem(ItemKind.CLAIM, route=route.id))
    await service.plans.add(game_id, planner, PlanItem(ItemKind.DECK))
    # the route is taken before the planner's turn: the claim does not apply, the deck does
    service.core.forget(game_id)
    live = await service.core.live(game_id)
    assert live.game is not None
    live.game.state.owner[route.id] = 1 - live.game.seat(name)
    user, player, _ = await _whose(service, game_id)
    await service.play.act(game_id, user, DrawCard(player, DECK))
    result = await service.play.act(game_id, user, DrawCard(player, DECK))
    (planned,) = result.planned
    assert isinstance(planned.outcome.skipped[0].refusal, AlreadyClaimed)
    assert planned.outcome.moves == (DrawCard(name, DECK), DrawCard(name, DECK))


async def test_a_plan_is_refused_on_the_members_turn_and_for_others(service: GameService) -> None:
    game_id, _users = await started_game(service, players=2)
    await _to_turns(service, game_id)
    user, _, _ = await _whose(service, game_id)
    with refused(WrongState, "your turn"):
        await service.plans.add(game_id, user, PlanItem(ItemKind.DECK))
    with pytest.raises(NotAPlayer):
        await service.plans.show(game_id, 4242)
    planner, _ = await _next_member(service, game_id)
    with pytest.raises(InvalidInput):
        await service.plans.add(game_id, planner, PlanItem(ItemKind.CLAIM, route=10_000))
    with pytest.raises(InvalidInput):
        await service.plans.add(game_id, planner, PlanItem(ItemKind.CARDS, first="plaid"))
    await service.settings.set_guild_config(1, PLANS, False)
    with pytest.raises(NotAllowed):
        await service.plans.add(game_id, planner, PlanItem(ItemKind.DECK))


async def test_an_undo_clears_every_plan(service: GameService) -> None:
    game_id, _ = await started_game(service, players=2)
    await _to_turns(service, game_id)
    planner, _ = await _next_member(service, game_id)
    await service.plans.add(game_id, planner, PlanItem(ItemKind.DECK))
    user, player, _ = await _whose(service, game_id)
    await service.play.act(game_id, user, DrawCard(player, DECK))
    await service.moderation.undo(game_id, MOD, 1, "a misclick")
    assert (await service.plans.show(game_id, planner)).items == ()


async def test_a_plan_stops_for_tickets_and_the_member_finishes_the_turn(service: GameService) -> None:
    game_id, _ = await started_game(service, players=2)
    await _to_turns(service, game_id)
    planner, name = await _next_member(service, game_id)
    await service.plans.add(game_id, planner, PlanItem(ItemKind.TICKETS))
    await _deck_twice(service, game_id)
    game = await service.reading.engine_game(game_id)
    to_move = game.to_move()
    assert to_move is not None and to_move.player == name and to_move.must == "keep"


async def test_a_plan_survives_a_restart(database: Database) -> None:
    first = await open_service(database)
    try:
        game_id, _ = await started_game(first, players=2)
        await _to_turns(first, game_id)
        planner, name = await _next_member(first, game_id)
        await first.plans.add(game_id, planner, PlanItem(ItemKind.DECK))
    finally:
        await first.close()
    second = await open_service(database)
    try:
        assert (await second.plans.show(game_id, planner)).items == (PlanItem(ItemKind.DECK),)
        await _deck_twice(second, game_id)
        game = await second.reading.engine_game(game_id)
        assert game.moves[-2:] == [DrawCard(name, DECK), DrawCard(name, DECK)]
    finally:
        await second.close()


async def test_a_plan_whose_turn_came_before_a_crash_is_played_at_the_next_start(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await open_service(database)
    try:
        game_id, _ = await started_game(first, players=2)
        await _to_turns(first, game_id)
        planner, name = await _next_member(first, game_id)
        await first.plans.add(game_id, planner, PlanItem(ItemKind.DECK))
        with monkeypatch.context() as patch:  # the process stops after the move that begins the planner's turn
            patch.setattr("bot.service.runner._planned_turn", _not_played)
            await _deck_twice(first, game_id)
        before = await first.reading.engine_game(game_id)
        assert before.to_move() is not None and before.to_move().player == name  # type: ignore[union-attr]
    finally:
        await first.close()
    second = await open_service(database)
    try:
        assert await second.timers.play_owed_plans() != []
        game = await second.reading.engine_game(game_id)
        assert game.moves[-2:] == [DrawCard(name, DECK), DrawCard(name, DECK)]
        assert (await second.core.live(game_id)).actors[-2:] == (Actor.PLAN, Actor.PLAN)
        assert (await second.plans.show(game_id, planner)).items == ()
        assert await second.timers.history_store.planned_games() == []
        assert await second.timers.play_owed_plans() == []  # once
    finally:
        await second.close()


async def test_a_start_leaves_a_plan_whose_turn_has_not_come(service: GameService) -> None:
    game_id, _ = await started_game(service, players=2)
    await _to_turns(service, game_id)
    planner, _ = await _next_member(service, game_id)
    await service.plans.add(game_id, planner, PlanItem(ItemKind.DECK))
    moves = len((await service.reading.engine_game(game_id)).moves)
    assert await service.timers.play_owed_plans() == []
    assert len((await service.reading.engine_game(game_id)).moves) == moves
    assert (await service.plans.show(game_id, planner)).items == (PlanItem(ItemKind.DECK),)


async def _not_played(*args: object) -> int:
    return 0


async def test_a_plan_is_in_no_record_and_no_log(service: GameService) -> None:
    game_id, _ = await started_game(service, players=2)
    await _to_turns(service, game_id)
    planner, _ = await _next_member(service, game_id)
    await service.plans.add(game_id, planner, PlanItem(ItemKind.CLAIM, route=3, pay=(("red", 2),)))
    rng = random.Random(1)
    game = await service.reading.engine_game(game_id)
    for _ in range(40):
        move = random_move(game, rng)
        if move is None:
            break
        user = (await service.core.game(game_id)).user_of(move.player)
        assert user is not None
        try:
            await service.play.act(game_id, user, move)
        except Exception:
            break
        game = await service.reading.engine_game(game_id)
    log = await service.audit.log(game_id)
    text = json.dumps([repr(e) for e in log])
    assert '"route": 3' not in text and "plan" not in text.replace("player", "")


async def test_a_plan_set_before_plans_were_turned_off_is_not_played_and_the_members_move_clears_it(
    service: GameService,
) -> None:
    game_id, _ = await started_game(service, players=2)
    await _to_turns(service, game_id)
    planner, name = await _next_member(service, game_id)
    await service.plans.add(game_id, planner, PlanItem(ItemKind.DECK))
    await service.settings.set_guild_config(1, PLANS, False)
    await _deck_twice(service, game_id)
    game = await service.reading.engine_game(game_id)
    to_move = game.to_move()
    assert to_move is not None and to_move.player == name and to_move.must == "turn"  # not played: waits
    await service.settings.set_guild_config(1, PLANS, True)
    assert (await service.plans.show(game_id, planner)).items == (PlanItem(ItemKind.DECK),)
    await service.play.act(game_id, planner, DrawCard(name, DECK))  # the member moves: the plan goes
    assert (await service.plans.show(game_id, planner)).items == ()


async def test_a_tournament_can_turn_plans_off_for_its_tables(service: GameService) -> None:
    settings = TournamentSettings(maps=("usa",), rounds=1, clock=NO_CLOCK, rated=False, plans=False)
    assert TournamentSettings.from_json(settings.to_json()).plans is False
    info = await service.tournaments.registration.create_tournament(1, 77, MOD, "Cup", settings)
    await service.tournaments.registration.open_registration(info.id, MOD)
    users = [300, 301, 302, 303]
    for user in users:
        await service.tournaments.registration.join_tournament(info.id, user, f"p{user}")
    started = await service.tournaments.rounds.start_round(info.id, MOD, Threads())
    game_id = started.round.tables[0].game_id
    assert game_id is not None
    await _to_turns(service, game_id)
    planner, _ = await _next_member(service, game_id)
    with refused(NotAllowed, "turned off in this tournament"):
        await service.plans.add(game_id, planner, PlanItem(ItemKind.DECK))


async def test_no_plan_outlives_its_game(service: GameService) -> None:
    game_id, _ = await started_game(service, players=2, trains=5)
    await _to_turns(service, game_id)
    planner, name = await _next_member(service, game_id)
    rng = random.Random(3)
    set_plans = 0
    while True:
        game = await service.reading.engine_game(game_id)
        if game.to_move() is not None and name not in game.waiting_for():
            if not await service.store.history.plans(game_id):  # a plan always waits for the planner's turn
                await service.plans.add(game_id, planner, PlanItem(ItemKind.DECK))
                set_plans += 1
        move = random_move(game, rng)
        if move is None:
            break
        user = (await service.core.game(game_id)).user_of(move.player)
        assert user is not None
        await service.play.act(game_id, user, move)
    assert set_plans > 1 and not (await service.core.game(game_id)).status.active
    assert await service.store.history.plans(game_id) == []  # the last move took every plan of the game with it


async def test_a_plan_that_cannot_be_read_is_logged_and_the_turn_waits(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    game_id, _ = await started_game(service, players=2)
    await _to_turns(service, game_id)
    planner, name = await _next_member(service, game_id)
    info = await service.core.game(game_id)
    seat = info.seat_of(planner)
    assert seat is not None and seat.seat is not None
    plan = NewPlan(seat.seat, planner, '[{"kind": "fly"}]', service.core.now())
    await service.store.history.put_plan(game_id, info.version, plan)
    service.core.known_plans.forget()  # written behind the service's back: as a new process, it reads plans anew
    await _deck_twice(service, game_id)  # the action itself goes through
    game = await service.reading.engine_game(game_id)
    assert game.to_move() is not None and game.to_move().player == name  # type: ignore[union-attr]
    assert "a planned turn could not be played" in caplog.text


async def test_plans_are_read_once_a_game_and_then_only_when_a_seat_has_one(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn begins at every other action: the games with plans are read once, then each game's when it has one
    (set, played and cleared here), so a game without plans costs no read a turn."""
    game_id, _ = await started_game(service, players=2)
    await _to_turns(service, game_id)
    reads: list[int] = []
    real = service.store.history.plans

    async def counted(game: int) -> list[PlanRow]:
        reads.append(game)
        return await real(game)

    monkeypatch.setattr(service.store.history, "plans", counted)
    for _ in range(3):
        await _deck_twice(service, game_id)
    assert reads == []  # known to have none since the first turns
    planner, name = await _next_member(service, game_id)
    await service.plans.add(game_id, planner, PlanItem(ItemKind.DECK))
    reads.clear()
    await _deck_twice(service, game_id)  # the planner's turn: read, played, known to be used up
    game = await service.reading.engine_game(game_id)
    assert game.moves[-2:] == [DrawCard(name, DECK), DrawCard(name, DECK)]
    assert reads == [game_id]
    for _ in range(2):
        await _deck_twice(service, game_id)
    assert reads == [game_id]
