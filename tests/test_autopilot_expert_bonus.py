"""The expert's scoring claim (`Search.bonus`): the claim that adds most to the seat's score beyond its route's own
points (a ticket it finishes, India's Mandala bonus, the longest path), weighed by the search like its other
candidates, read only from what the seat may know."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import networkx as nx
import pytest

import engine.expert as expert
from engine import Game
from engine.expert import Search, choose_expert, scoring_claim
from engine.moves import Claim, Move
from engine.strong import choose_strong
from maps import GRAY, MAP_NAMES, Board, Route, load_board
from tests.test_autopilot_expert import hidden_anew
from tests.test_autopilot_expert_block import seat_turns

SEARCH = Search(seed="t", worlds=4, work=10**6, time_limit=None)


def at_first_turn(board: Board, seed: str) -> Game:
    """A two-player game at p0's first turn."""
    game = Game(board, ["p0", "p1"], seed)
    while game.state.phase.name != "PLAY":
        game.apply(choose_strong(game, game.waiting_for()[0]))
    if game.state.current != 0:
        game.apply(choose_strong(game, "p1"))
        game.apply(choose_strong(game, "p1"))
    assert game.state.current == 0 and game.state.pending is None
    return game


def cards_for(route: Route) -> Counter[str]:
    return Counter({"red" if route.color == GRAY else route.color: route.length})


def path(board: Board, a: str, b: str, avoid: set[frozenset[str]]) -> list[Route]:
    """The fewest routes from a to b, none between two places of `avoid` (and no tunnel or ferry)."""
    graph: nx.Graph[str] = nx.Graph()
    for r in board.routes:
        if frozenset(r.ends) not in avoid and not r.tunnel and not r.ferries:
            graph.add_edge(r.a, r.b, route=r)
    places = nx.shortest_path(graph, a, b)
    return [graph.edges[x, y]["route"] for x, y in itertools.pairwise(places)]


def test_the_claim_that_finishes_a_ticket() -> None:
    board = load_board("usa")
    game = at_first_turn(board, "bonus-ticket")
    denver_el_paso = next(t.id for t in board.tickets if t.origin == "Denver" and t.targets[0].name == "El Paso")
    me = game.state.players[0]
    me.tickets = [denver_el_paso]
    first, last = path(board, "Denver", "El Paso", set())
    game._place_route(0, first, Counter(), None)
    me.hand = cards_for(last)
    move = scoring_claim(game, "p0", 1.0)
    assert isinstance(move, Claim) and {move.a, move.b} == set(last.ends)
    game.copy().apply(move)  # legal
    assert scoring_claim(game, "p0", 9.0) is None  # it adds 8 (from -4 to +4), not 9


def one_claim_from_a_mandala() -> tuple[Game, Route]:
    """A two-player India game at p0's turn: p0 holds Ambala - Ratiam, done by one path, and a second path but
    for its last route, whose cards p0 holds (and cards for something else)."""
    board = load_board("india")
    game = at_first_turn(board, "bonus-mandala")
    ticket = board.tickets[3]  # Ambala - Ratiam
    me = game.state.players[0]
    me.tickets = [ticket.id]
    one = path(board, ticket.origin, ticket.targets[0].name, set())
    two = path(board, ticket.origin, ticket.targets[0].name, {frozenset(r.ends) for r in one})
    for r in one + two[:-1]:
        game._place_route(0, r, Counter(), None)
    me.hand = cards_for(two[-1]) + Counter(black=3)
    return game, two[-1]


def test_the_claim_that_closes_a_second_path_for_the_mandala_bonus() -> None:
    game, closing = one_claim_from_a_mandala()
    assert game.score()[0].bonus.get("mandala", 0) == 0
    move = scoring_claim(game, "p0", 1.0)
    assert isinstance(move, Claim) and {move.a, move.b} == set(closing.ends)
    after = game.copy()
    after.apply(move)
    assert after.score()[0].bonus["mandala"] == 5
    assert scoring_claim(game, "p0", 6.0) is None  # it adds 5


def test_the_search_weighs_it_only_with_the_option(monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = one_claim_from_a_mandala()
    weighed: list[list[Move]] = []
    real = expert._evaluate

    def spy(game: Game, name: str, candidates: list[Move], *rest: Any) -> Any:
        weighed.append(list(candidates))
        return real(game, name, candidates, *rest)

    monkeypatch.setattr(expert, "_evaluate", spy)
    bonus = scoring_claim(game, "p0", 1.0)
    choose_expert(game, "p0", SEARCH)
    assert bonus not in weighed[-1]  # strong's candidates miss it: strong does not play for the Mandala bonus
    choose_expert(game, "p0", replace(SEARCH, bonus=1.0))
    assert bonus in weighed[-1]


def test_the_scoring_claim_is_read_from_what_the_seat_may_know() -> None:
    """On every map, at the seat's turns of strong games, the scoring claim is the same with everything the seat
    cannot see dealt anew (Switzerland's tunnels are placed, never played out)."""
    rng = random.Random("blind-bonus")
    found: Counter[str] = Counter()
    for map_name, game in seat_turns("bonus", every=3):
        move = scoring_claim(game, "p0", 1.0)
        assert scoring_claim(hidden_anew(game, "p0", rng), "p0", 1.0) == move
        found[map_name] += isinstance(move, Claim)
    assert set(found) == set(MAP_NAMES), found
