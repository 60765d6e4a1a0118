"""The expert's own seat plays a tuned strong in two-player games on Amsterdam, San Francisco, Switzerland and India
and in four-player USA, and only there."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

import engine.expert as expert
from engine import Claim, DrawTickets, Game, Keep
from engine.expert import OWN_TUNINGS, SMALL_TICKET_TRAINS, Search, choose_expert, own_tuning
from engine.strong import DEFAULT_TUNING, LONG_ROUTE_WORTH, Seat, Tuning, choose_strong, goal, lengthens
from maps import Route, load_board
from tests.test_autopilot_expert import hidden_anew

# Bounded by work only, so a decision is a function of what it is given.
SMALL = Search(seed="test", worlds=4, work=10**6, time_limit=None)
TUNED = Tuning(ticket_trains=SMALL_TICKET_TRAINS)
SWISS = OWN_TUNINGS[("switzerland", 2)]
USA4 = OWN_TUNINGS[("usa", 4)]


@pytest.mark.parametrize(
    ("board", "players", "tuning"),
    [
        ("san_francisco", 2, TUNED),
        ("amsterdam", 2, TUNED),
        ("san_francisco", 3, DEFAULT_TUNING),
        ("amsterdam", 4, DEFAULT_TUNING),
        ("usa", 2, DEFAULT_TUNING),
        ("usa", 4, USA4),
        ("usa", 3, DEFAULT_TUNING),
        ("switzerland", 2, SWISS),
        ("switzerland", 3, DEFAULT_TUNING),
        ("india", 2, Tuning(long_routes=5.0)),
        ("india", 3, DEFAULT_TUNING),
    ],
)
def test_the_tuning_follows_the_board_and_the_players(board: str, players: int, tuning: Tuning) -> None:
    game = Game(load_board(board), [f"p{i}" for i in range(players)], "tuning")
    assert own_tuning(game) == tuning


def test_a_game_option_of_few_trains_keeps_the_plain_tuning() -> None:
    """The tunings were measured with each board's own number of trains, not with a trains option."""
    game = Game(load_board("usa"), ["ann", "bob"], "few", trains=15)
    assert own_tuning(game) == DEFAULT_TUNING
    for board in ("san_francisco", "switzerland"):
        assert own_tuning(Game(load_board(board), ["ann", "bob"], "other", trains=30)) == DEFAULT_TUNING
        rules_trains = load_board(board).rules.trains
        assert own_tuning(Game(load_board(board), ["ann", "bob"], "own", trains=rules_trains)) != DEFAULT_TUNING


def late_ticket_draw(board: str, below: int = SMALL_TICKET_TRAINS) -> tuple[Game, str]:
    """A two-player position where plain strong draws tickets with fewer than `below` trains left."""
    for i in range(200):
        game = Game(load_board(board), ["ann", "bob"], f"late-{i}")
        while not game.finished:
            name = game.waiting_for()[0]
            move = choose_strong(game, name)
            s = game.state
            if isinstance(move, DrawTickets) and s.players[game.seat(name)].trains < below:
                return game, name
            game.apply(move)
    raise AssertionError("no late ticket draw in 200 games")


@pytest.mark.parametrize(("board", "tuning"), [("san_francisco", TUNED), ("amsterdam", TUNED), ("switzerland", SWISS)])
def test_tuned_strong_draws_no_tickets_late(board: str, tuning: Tuning) -> None:
    assert tuning.ticket_trains is not None
    game, name = late_ticket_draw(board, tuning.ticket_trains)
    assert not isinstance(choose_strong(game, name, tuning), DrawTickets)
    assert isinstance(choose_strong(game, name, DEFAULT_TUNING), DrawTickets)


def test_the_swiss_tuning_keeps_three_tickets_where_plain_strong_keeps_two() -> None:
    for i in range(200):
        game = Game(load_board("switzerland"), ["ann", "bob"], f"keep-{i}")
        while not game.finished:
            name = game.waiting_for()[0]
            move = choose_strong(game, name)
            if isinstance(move, Keep) and len(game.state.players[game.seat(name)].offered or []) >= 3:
                tuned = choose_strong(game, name, SWISS)
                assert isinstance(tuned, Keep)
                assert len(move.tickets) <= 2
                if len(tuned.tickets) == 3:
                    return
            game.apply(move)
    raise AssertionError("the tuned strong kept three tickets of no offer in 200 games")


def test_with_no_time_it_plays_its_tuned_strong() -> None:
    """Its first candidate, and its move when no world fits in the time, is its own seat's tuned strong."""
    game, name = late_ticket_draw("san_francisco")
    hurried = choose_expert(game, name, Search(seed="h", worlds=4, work=10**6, time_limit=0.0))
    assert hurried == choose_strong(game, name, TUNED)
    assert not isinstance(hurried, DrawTickets)


def test_only_its_own_seat_is_tuned_in_the_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """In its playouts the other seat plays plain strong (the level it plays against); its own seat the tuning."""
    game, name = late_ticket_draw("san_francisco")
    seen: dict[str, set[Tuning]] = {}
    real = choose_strong

    def spy(world: Game, who: str, tuning: Tuning = DEFAULT_TUNING) -> Any:
        seen.setdefault(who, set()).add(tuning)
        return real(world, who, tuning)

    monkeypatch.setattr(expert, "choose_strong", spy)
    choose_expert(game, name, SMALL)
    other = next(n for n in game.names if n != name)
    assert seen[name] == {TUNED}
    assert seen[other] == {DEFAULT_TUNING}


def test_the_same_move_whatever_it_cannot_see() -> None:
    """The tuning reads only the board and the number of players: the no-peek property holds with it."""
    rng = random.Random(3)
    for board in ("san_francisco", "amsterdam", "switzerland"):
        game, name = late_ticket_draw(board)
        move = choose_expert(game, name, SMALL)
        for _ in range(2):
            assert choose_expert(hidden_anew(game, name, rng), name, SMALL) == move


def test_the_lean_to_long_routes_weighs_each_route_by_its_points_a_train() -> None:
    """A route weighs its length less `long_routes` for each point a train it scores beyond one (at least 0.05);
    plain strong keeps its small lean."""
    game = Game(load_board("usa"), ["ann", "bob", "cid", "dan"], "lean")
    points = game.rules.route_points
    plain = Seat(game, "ann").weights
    leaning = Seat(game, "ann", Tuning(long_routes=3.5)).weights
    assert USA4.long_routes == 3.5 and DEFAULT_TUNING.long_route_worth() == LONG_ROUTE_WORTH == 0.15
    for route in game.board.routes:
        extra = points[route.length] / route.length - 1
        assert plain[route.id] == pytest.approx(max(route.length - 0.15 * extra, 0.05))
        assert leaning[route.id] == pytest.approx(max(route.length - 3.5 * extra, 0.05))
    six = next(r for r in game.board.routes if r.length == 6)
    one = next(r for r in game.board.routes if r.length == 1)
    assert leaning[six.id] < leaning[one.id] < plain[six.id]


def test_leaning_plans_score_more_route_points_a_train() -> None:
    """Planned with the lean, the tickets' paths on an empty board take longer routes: more route points for the
    trains they cost, over all the tickets of USA and of Switzerland."""
    for board, tuning in (("usa", USA4), ("switzerland", SWISS)):
        game = Game(load_board(board), ["ann", "bob"], "plans")
        points = game.rules.route_points
        rates = {}
        for label, seat in (("plain", Seat(game, "ann")), ("leaning", Seat(game, "ann", tuning))):
            scored = trains = 0
            for t in range(len(game.board.tickets)):
                plan = seat.plan([t])
                scored += sum(points.get(game.board.routes[r].length, 0) for r in plan.routes)
                trains += plan.trains
            rates[label] = scored / trains
        assert rates["leaning"] > rates["plain"] * 1.1, (board, rates)


def early_ticket_draw() -> tuple[Game, str]:
    """A four-player USA position where plain strong draws tickets before its plan is done."""
    for i in range(100):
        game = Game(load_board("usa"), ["ann", "bob", "cid", "dan"], f"early-{i}")
        while not game.finished:
            name = game.waiting_for()[0]
            move = choose_strong(game, name)
            if isinstance(move, DrawTickets) and goal(Seat(game, name)).routes:
                return game, name
            game.apply(move)
    raise AssertionError("no early ticket draw in 100 games")


def test_the_four_player_usa_tuning_draws_no_tickets_before_its_plan_is_done() -> None:
    game, name = early_ticket_draw()
    assert isinstance(choose_strong(game, name, DEFAULT_TUNING), DrawTickets)
    assert not isinstance(choose_strong(game, name, USA4), DrawTickets)
    assert not USA4.early_tickets and DEFAULT_TUNING.early_tickets


def test_the_same_move_whatever_it_cannot_see_in_four_player_usa() -> None:
    game, name = early_ticket_draw()
    rng = random.Random(5)
    move = choose_expert(game, name, SMALL)
    for _ in range(2):
        assert choose_expert(hidden_anew(game, name, rng), name, SMALL) == move


def test_the_four_player_usa_tuning_weighs_what_a_claim_adds_to_its_longest_path() -> None:
    """`lengthens`: `longest_worth` for each train a route adds to the seat's longest path; nothing for plain strong
    or where the rules give no longest-path bonus."""
    game = Game(load_board("usa"), ["ann", "bob", "cid", "dan"], "longest")
    routes = game.board.routes
    first = next(r for r in routes if r.length == 4)
    state = game.state
    state.owner[first.id] = 0
    state.players[0].routes.append(first.id)
    joined = next(r for r in routes if first.b in (r.a, r.b) and first.a not in (r.a, r.b))
    apart = next(r for r in routes if {r.a, r.b}.isdisjoint({first.a, first.b}) and r.length <= first.length)
    found = lengthens(Seat(game, "ann", USA4), [joined, apart])
    assert USA4.longest_worth == 1.0 and DEFAULT_TUNING.longest_worth == 0.0
    assert found == {joined.id: float(joined.length), apart.id: 0.0}
    assert lengthens(Seat(game, "ann", replace(USA4, longest_worth=2.0)), [joined])[joined.id] == 2 * joined.length
    assert lengthens(Seat(game, "ann"), [joined, apart]) == {}
    amsterdam = Game(load_board("amsterdam"), ["ann", "bob"], "longest")
    assert lengthens(Seat(amsterdam, "ann", USA4), amsterdam.board.routes[:3]) == {}


def claimed(game: Game, claim: Claim) -> Route:
    """The route `claim` would take (claimed on a copy of the game)."""
    trial = game.copy()
    before = set(trial.state.owner)
    trial.apply(claim)
    (rid,) = set(trial.state.owner) - before
    return game.board.routes[rid]


def test_with_its_plan_done_it_claims_toward_its_longest_path() -> None:
    """Where weighing the longest path changes the four-player USA tuning's claim, the claim it makes instead
    lengthens its longest path more."""
    unweighed = replace(USA4, longest_worth=0.0)
    changed = 0
    for i in range(20):
        game = Game(load_board("usa"), ["ann", "bob", "cid", "dan"], f"path-{i}")
        while not game.finished:
            name = game.waiting_for()[0]
            move = choose_strong(game, name, USA4)
            other = choose_strong(game, name, unweighed)
            if move != other and isinstance(move, Claim):
                seat = Seat(game, name, USA4)
                mine = claimed(game, move)
                adds = lengthens(seat, [mine])[mine.id]
                if isinstance(other, Claim):
                    theirs = claimed(game, other)
                    assert adds > lengthens(seat, [theirs])[theirs.id]
                else:
                    assert adds > 0
                changed += 1
            game.apply(move)
        if changed >= 5:
            return
    raise AssertionError(f"the longest path changed only {changed} claims in 20 games")
