"""The one shortest-path search (engine/paths.py), kept from one set of starting places, gives exactly the
answer of a fresh search per question: the plain search the autopilots used before (one per ticket target,
stopping at the first target place it pops), with trains as weights (steady, the digest) or measures (strong)."""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence

import pytest

from engine import Game
from engine.paths import UNREACHABLE, Search, missing_routes, neighbours, route_costs, shortest
from engine.random_play import random_move
from maps import MAP_NAMES, Board, load_board

# every map at every player count it is played by, up to four
PLAYED = [
    (name, players)
    for name in MAP_NAMES
    for players in range(load_board(name).rules.min_players, min(4, load_board(name).rules.max_players) + 1)
]


def plain_shortest(
    board: Board, costs: dict[int, float], sources: Sequence[str], targets: Sequence[str]
) -> tuple[float, list[int]]:
    """A fresh search from the sources, stopping at the first target place it pops: (cost, route ids); inf if none."""
    adjacency: dict[str, list[tuple[str, float, int]]] = {}
    for route in board.routes:
        if route.id in costs:
            adjacency.setdefault(route.a, []).append((route.b, costs[route.id], route.id))
            adjacency.setdefault(route.b, []).append((route.a, costs[route.id], route.id))
    goal = set(targets)
    best: dict[str, float] = {}
    via: dict[str, tuple[str, int]] = {}
    queue: list[tuple[float, str]] = [(0, place) for place in sorted(set(sources))]
    for _, place in queue:
        best[place] = 0
    heapq.heapify(queue)
    while queue:
        cost, place = heapq.heappop(queue)
        if cost > best.get(place, math.inf):
            continue
        if place in goal:
            path = []
            while place in via:
                place, route_id = via[place]
                path.append(route_id)
            return cost, path
        for nxt, step, route_id in adjacency.get(place, []):
            if cost + step < best.get(nxt, math.inf):
                best[nxt] = cost + step
                via[nxt] = (place, route_id)
                heapq.heappush(queue, (cost + step, nxt))
    return math.inf, []


def plain_missing_routes(game: Game, seat: int) -> dict[int, list[int]]:
    """The steady autopilot's measure as it was: a fresh search per ticket target."""
    costs = route_costs(game, seat)
    weights = {r: float(c) for r, c in costs.items()}
    trains = game.state.players[seat].trains
    board = game.board
    needed: dict[int, list[int]] = {}
    for ticket_id, done, _ in game.ticket_progress(seat):
        if done:
            continue
        ticket = board.tickets[ticket_id]
        best: tuple[float, list[int]] = (UNREACHABLE, [])
        for target in sorted(ticket.targets, key=lambda t: -t.points):
            found = plain_shortest(board, weights, board.nodes_of(ticket.origin), board.nodes_of(target.name))
            if found[0] < best[0]:
                best = found
        cost, path = best
        if cost > trains:
            continue
        for route_id in path:
            if costs[route_id] > 0:
                needed.setdefault(route_id, []).append(ticket_id)
    return needed


@pytest.mark.parametrize(("map_name", "players"), PLAYED)
def test_the_needed_routes_are_the_plain_searches_at_every_move(map_name: str, players: int) -> None:
    rng = random.Random(f"{map_name}-{players}")
    for game_number in range(2):
        game = Game(load_board(map_name), [f"p{i}" for i in range(players)], f"seed-{game_number}")
        checked = 0
        while (move := random_move(game, rng)) is not None:
            game.apply(move)
            if len(game.moves) % 2:
                continue
            for seat in range(players):
                fast = missing_routes(game, seat)
                assert list(fast.items()) == list(plain_missing_routes(game, seat).items())
                checked += bool(fast)
        assert checked > 0  # positions where something is needed were compared, not only empty answers


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_a_kept_search_answers_as_fresh_ones_with_measured_weights(map_name: str) -> None:
    """Weights as the strong autopilot's (fractions, some routes free, some left out), many questions a search."""
    board = load_board(map_name)
    rng = random.Random(map_name)
    places = sorted(board.places)
    compared = 0
    for _ in range(40):
        weights: dict[int, float] = {}
        for route in board.routes:
            roll = rng.random()
            if roll < 0.15:
                continue
            weights[route.id] = 0.0 if roll < 0.3 else max(route.length + rng.choice([-0.15, 0.0, 0.5, 0.6]), 0.05)
        sources = rng.sample(places, rng.choice([1, 1, 2]))
        kept = Search(neighbours(board), weights, sources, 0.0)
        for _ in range(8):
            targets = rng.sample(places, rng.choice([1, 1, 3]))
            plain = plain_shortest(board, weights, sources, targets)
            fresh = shortest(board, weights, sources, targets, 0.0)
            answer = kept.cheapest(targets)
            if plain[0] == math.inf:
                assert fresh is None and answer is None
            else:
                assert fresh == plain and answer == plain
                compared += 1
    assert compared > 100


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_shortest_answers_as_a_search_with_ties(map_name: str) -> None:
    """`shortest` (places numbered) and `Search` pop places in the same order: the same answers, ties included
    (whole-train weights and many free routes make many paths of equal cost)."""
    board = load_board(map_name)
    rng = random.Random(f"ties-{map_name}")
    places = sorted(board.places)
    compared = 0
    for _ in range(60):
        weights: dict[int, int] = {}
        for route in board.routes:
            roll = rng.random()
            if roll >= 0.1:
                weights[route.id] = 0 if roll < 0.4 else rng.choice([1, 1, 2])
        sources = rng.sample(places, rng.choice([1, 2, 3]))
        for _ in range(6):
            targets = rng.sample(places, rng.choice([1, 2, 4]))
            fresh = shortest(board, weights, sources, targets, 0)
            assert fresh == Search(neighbours(board), weights, sources, 0).cheapest(targets)
            compared += fresh is not None
    assert compared > 100
