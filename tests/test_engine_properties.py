"""Invariants over random legal play on every map (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

import networkx as nx
from hypothesis import given
from hypothesis import strategies as st

from engine import Claim, DrawCard, Game, GameError, Keep, TunnelPay
from engine.moves import payment_of
from engine.random_play import play_random, random_move
from engine.record import outcome, parse_record, replay, to_record
from engine.scoring import Network, ticket_points
from engine.state import card_census, ticket_census
from engine.strong import Seat
from maps import MAP_NAMES, WILD, load_board


@st.composite
def games(draw: st.DrawFn) -> tuple[Game, random.Random]:
    name = draw(st.sampled_from(MAP_NAMES))
    board = load_board(name)
    n = draw(st.integers(board.rules.min_players, board.rules.max_players))
    trains = draw(st.one_of(st.none(), st.integers(3, 20)))
    seed = draw(st.one_of(st.integers(0, 10**6), st.text(min_size=1, max_size=8)))
    game = Game(board, [f"p{i}" for i in range(n)], seed, trains=trains)
    return game, random.Random(draw(st.integers(0, 2**32)))


def check_invariants(game: Game, start_trains: int) -> None:
    board, s = game.board, game.state
    # no card is ever created or lost
    assert card_census(s) == Counter(board.rules.deck())
    # no ticket is ever created or lost (Switzerland's returned ones are set aside)
    assert ticket_census(s) == sorted(t.id for t in board.tickets)
    owned = Counter[int]()
    for seat, p in enumerate(s.players):
        # no train is ever created or lost
        assert p.trains + sum(board.routes[r].length for r in p.routes) == start_trains
        assert p.trains >= 0
        # the public score is the route table applied to the player's routes
        assert p.route_points == sum(board.rules.route_points[board.routes[r].length] for r in p.routes)
        assert all(s.owner[r] == seat for r in p.routes)
        owned.update(p.routes)
        # nobody owns both tracks of a double route
        pairs = [frozenset(board.routes[r].ends) for r in p.routes]
        assert len(pairs) == len(set(pairs))
        assert all(n >= 0 for n in p.hand.values())
    assert sum(owned.values()) == len(s.owner)
    assert s.piles.face_up.count(None) == 0 or not s.piles.deck


def check_final_score(game: Game) -> None:
    board = game.board
    for seat, sc in enumerate(game.score()):
        p = game.state.players[seat]
        assert sc.total == sc.routes + sc.ticket_points + sum(sc.bonus.values())
        # tickets, computed independently with networkx
        g: nx.Graph = nx.Graph()
        g.add_edges_from(board.routes[r].ends for r in p.routes)
        points = 0
        for t in p.tickets:
            ticket = board.tickets[t]
            made = [
                target.points
                for target in ticket.targets
                if any(
                    g.has_node(a) and g.has_node(b) and nx.has_path(g, a, b)
                    for a in board.nodes_of(ticket.origin)
                    for b in board.nodes_of(target.name)
                )
            ]
            points += max(made) if made else -ticket.worst
        assert sc.ticket_points == points
        assert sc.completed + sc.failed == len(p.tickets)
        assert sc.longest <= sum(board.routes[r].length for r in p.routes)


def illegal_variants(game: Game, rng: random.Random) -> list[object]:
    """Moves that look plausible but break a rule, to check nothing changes."""
    tm = game.to_move()
    if tm is None:
        return []
    name = tm.player
    other = next(n for n in game.names if n != name)
    route = rng.choice(game.board.routes)
    return [
        DrawCard(other, "deck") if game.state.phase.value == "play" else Keep(name, ()),
        Claim(name, route.a, route.b, payment_of({WILD: route.length + 1})),
        Claim(name, route.a, route.b, payment_of({"not-a-card": route.length})),
        TunnelPay(name, payment_of({WILD: 1})),
        Keep(name, ()),
    ]


@given(games())
def test_random_games_keep_every_invariant(case: tuple[Game, random.Random]) -> None:
    game, rng = case
    start = game.state.players[0].trains
    for _ in range(3000):
        check_invariants(game, start)
        if rng.random() < 0.05:
            for bad in illegal_variants(game, rng):
                before = game.state.copy()
                try:
                    game.apply(bad)  # type: ignore[arg-type]
                except GameError:
                    assert game.state == before
                else:
                    # it was legal after all; keep playing from here
                    break
        move = random_move(game, rng)
        if move is None:
            break
        game.apply(move)
    check_invariants(game, start)
    check_final_score(game)


@given(games())
def test_written_record_replays_the_game(case: tuple[Game, random.Random]) -> None:
    game, rng = case
    play_random(game, rng, rng.randrange(0, 600))
    again = replay(parse_record(to_record(game)))
    assert again.state == game.state
    assert outcome(again) == outcome(game)


@given(games())
def test_every_listed_legal_move_is_accepted(case: tuple[Game, random.Random]) -> None:
    game, rng = case
    play_random(game, rng, rng.randrange(0, 300))
    for name in game.waiting_for():  # nobody once the game is over
        for move in game.legal_moves(name):
            game.copy().apply(move)


@given(games())
def test_kept_networks_match_the_routes_in_copies_that_part_ways(case: tuple[Game, random.Random]) -> None:
    """`Game.network` keeps each seat's network and extends it claim by claim: in a game and in copies made
    along the way, which then play on differently, it always joins exactly the places the seat's routes join
    (and the strong autopilot's memo of finished tickets agrees)."""
    game, rng = case
    board = game.board
    games_now = [game]
    for step in range(400):
        for g in games_now:
            for seat, p in enumerate(g.state.players):
                kept = g.network(seat)
                assert [r.id for r in kept.routes] == p.routes
                fresh = nx.Graph()
                fresh.add_edges_from(board.routes[r].ends for r in p.routes)
                for t in p.tickets:
                    ticket = board.tickets[t]
                    a, b = board.nodes_of(ticket.origin)[0], board.nodes_of(ticket.targets[0].name)[0]
                    joined = fresh.has_node(a) and fresh.has_node(b) and nx.has_path(fresh, a, b)
                    assert kept.connected(a, b) == joined
                    assert Seat(g, p.name).done(t) == (ticket_points(board, ticket, Network(kept.routes))[0])
        if step % 40 == 0 and len(games_now) < 4:
            games_now.append(games_now[-1].copy())
        moving = [g for g in games_now if not g.finished]
        if not moving:
            break
        for g in moving:
            move = random_move(g, rng)
            if move is not None:
                g.apply(move)
