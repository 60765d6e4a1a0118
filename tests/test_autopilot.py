"""The autopilot always makes a legal move and finishes games."""

from __future__ import annotations

import random
from collections import Counter

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Keep, Pending, Phase, TunnelPay
from engine.autopilot import choose_move
from engine.random_play import random_move
from maps import MAP_NAMES, WILD, load_board

# A generous bound: autopilot games take 45-200 turns on the real boards.
MAX_TURNS = 400


@st.composite
def autopilot_games(draw: st.DrawFn) -> Game:
    name = draw(st.sampled_from(MAP_NAMES))
    board = load_board(name)
    n = draw(st.integers(board.rules.min_players, board.rules.max_players))
    trains = draw(st.one_of(st.none(), st.integers(3, board.rules.trains)))
    return Game(board, [f"p{i}" for i in range(n)], draw(st.integers(0, 10**9)), trains=trains)


@settings(max_examples=40)
@given(autopilot_games())
def test_autopilot_only_games_finish(game: Game) -> None:
    moves = 0
    while not game.finished:
        name = game.waiting_for()[0]
        game.apply(choose_move(game, name))  # raises if the move were illegal
        moves += 1
        assert game.state.turn <= MAX_TURNS, "the autopilot stalled the game"
    assert moves > 0
    assert game.winners()


@settings(max_examples=60)
@given(autopilot_games(), st.integers(0, 2**32), st.integers(0, 400))
def test_autopilot_moves_are_legal_from_any_position(game: Game, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        move = random_move(game, rng)
        if move is None:
            return
        game.apply(move)
    for name in game.waiting_for():
        game.copy().apply(choose_move(game, name))


def test_keeps_the_cheapest_tickets() -> None:
    board = load_board("usa")
    graph: nx.Graph = nx.Graph()
    for route in board.routes:
        graph.add_edge(route.a, route.b, weight=route.length)
    for seed in range(10):
        game = Game(board, ["ann", "bob"], f"keep-{seed}")
        move = choose_move(game, "ann")
        assert isinstance(move, Keep)
        assert len(move.tickets) == board.rules.initial_keep
        offered = game.state.players[0].offered or []
        cost = {
            t: nx.shortest_path_length(graph, board.tickets[t].origin, board.tickets[t].targets[0].name, "weight")
            for t in offered
        }
        kept = [next(t for t in offered if board.tickets[t].key == game.resolve_ticket(ref)) for ref in move.tickets]
        left = [t for t in offered if t not in kept]
        assert max(cost[t] for t in kept) <= min(cost[t] for t in left)


def _setup_done(game: Game) -> None:
    while game.state.phase is not Phase.PLAY:
        game.apply(choose_move(game, game.waiting_for()[0]))


def test_tunnel_paid_when_possible_and_given_up_otherwise() -> None:
    board = load_board("switzerland")
    game = Game(board, ["ann", "bob"], "tunnel")
    _setup_done(game)
    tunnel = next(r for r in board.routes if r.tunnel and r.color != "gray" and r.length == 1)
    state = game.state
    ann = state.players[state.current]
    ann.hand = Counter({tunnel.color: 3})
    # the next three cards all match the tunnel colour: surcharge 3
    for card in (tunnel.color, WILD, tunnel.color):
        state.piles.deck.remove(card)
    state.piles.deck[:0] = [tunnel.color, WILD, tunnel.color]
    from engine import Claim
    from engine.moves import payment_of

    game.apply(Claim(ann.name, tunnel.a, tunnel.b, payment_of({tunnel.color: 1}), tunnel.color))
    assert state.pending is Pending.TUNNEL and state.tunnel is not None and state.tunnel.surcharge == 3
    # two cards left in hand: it cannot pay three more and gives up
    assert choose_move(game, ann.name) == TunnelPay(ann.name, None)
    ann.hand[tunnel.color] += 1
    assert choose_move(game, ann.name) == TunnelPay(ann.name, payment_of({tunnel.color: 3}))


def test_places_san_francisco_stacks() -> None:
    board = load_board("san_francisco")
    for n in (2, 3, 4):
        game = Game(board, [f"p{i}" for i in range(n)], n)
        _setup_done(game)
        placed = {st.symbol for st in game.state.stacks.values()}
        assert board.rules.tourists is not None
        assert placed == {s for s, _ in board.rules.tourists.symbols}
