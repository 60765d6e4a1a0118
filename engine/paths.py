"""Shortest paths over a board: the one search the autopilots and the digest use.

`Search` is Dijkstra's search from a set of starting places over the routes
given a weight (the others are left out), kept: it goes on only as far as a
question needs, so one search from a ticket's origin serves all its targets.
Places are popped in one fixed order (by cost, then name; routes in the
board's order), so a question asked of a kept search gets the answer a fresh
search stopping at the first target it pops would give: the target place
settled first, with the same path back.

`missing_routes` is what the steady autopilot plays for and what the digest
shows: the routes on the cheapest missing paths of a seat's unfinished
tickets.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from typing import Generic, TypeVar

from engine.game import Game
from maps import Board

UNREACHABLE = 10**6  # the cost in trains of a place no route leads to

# a route's weight: trains (int) or a measure of trains (float)
W = TypeVar("W", int, float)

# each place's neighbours and the routes to them, in the board's route order
Neighbours = dict[str, list[tuple[str, int]]]
_NEIGHBOURS: dict[int, tuple[Board, Neighbours]] = {}


def neighbours(board: Board) -> Neighbours:
    """The board's places and, for each, the other end and id of its routes (built once per board)."""
    cached = _NEIGHBOURS.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    found: Neighbours = {}
    for route in board.routes:
        found.setdefault(route.a, []).append((route.b, route.id))
        found.setdefault(route.b, []).append((route.a, route.id))
    _NEIGHBOURS[id(board)] = (board, found)
    return found


class Search(Generic[W]):
    """The cheapest paths from some starting places over the routes `weights` gives (route id -> weight >= 0)."""

    def __init__(self, near: Neighbours, weights: Mapping[int, W], sources: Iterable[str], zero: W) -> None:
        self.near = near
        self.weights: Mapping[int, W] = weights
        self.cost: dict[str, W] = {}  # settled places, in the order they were settled
        self.rank: dict[str, int] = {}
        self.via: dict[str, tuple[str, int]] = {}
        self.best: dict[str, W] = {}
        self.queue: list[tuple[W, str]] = [(zero, place) for place in sorted(set(sources))]
        for _, place in self.queue:
            self.best[place] = zero
        heapq.heapify(self.queue)

    def _settle_until(self, goal: set[str]) -> None:
        """Pop places until one in `goal` is settled (or none is left)."""
        queue, best, near, settled = self.queue, self.best, self.near, self.cost
        weight, rank, via = self.weights.get, self.rank, self.via
        pop, push, known = heapq.heappop, heapq.heappush, best.get
        while queue:
            cost, place = pop(queue)
            if place in settled or cost > best[place]:
                continue
            rank[place] = len(settled)
            settled[place] = cost
            for nxt, route_id in near.get(place, ()):
                step = weight(route_id)
                if step is None:
                    continue
                c = cost + step
                old = known(nxt)
                if old is None or c < old:
                    best[nxt] = c
                    via[nxt] = (place, route_id)
                    push(queue, (c, nxt))
            if place in goal:
                return

    def cheapest(self, targets: Iterable[str]) -> tuple[W, list[int]] | None:
        """The target place settled first: (cost, route ids from it back to a start); None if none is reachable."""
        goal = set(targets)
        if not goal & self.cost.keys():
            self._settle_until(goal)
        reached = [t for t in goal if t in self.rank]
        if not reached:
            return None
        place = min(reached, key=self.rank.__getitem__)
        cost = self.cost[place]
        path = []
        while place in self.via:
            place, route_id = self.via[place]
            path.append(route_id)
        return cost, path


def shortest(
    board: Board,
    weights: Mapping[int, W] | Sequence[W | None],
    sources: Iterable[str],
    targets: Iterable[str],
    zero: W,
) -> tuple[W, list[int]] | None:
    """The cheapest path from any source to any target over the routes with a weight; None if there is none.

    What `Search(...).cheapest(targets)` answers, found alone: places are numbered in the order of their
    names, so the queue pops them in the same order, and the search stops at the first target it settles.
    """
    places, near = numbered(board)
    starts = set(sources)
    weight: Sequence[W | None] = weight_list(board, weights) if isinstance(weights, Mapping) else weights
    if not starts <= places.keys():
        listed = {rid: w for rid, w in enumerate(weight) if w is not None}
        return Search(neighbours(board), listed, starts, zero).cheapest(targets)
    goal = {places[t] for t in targets if t in places}
    n = len(near)
    best: list[W | None] = [None] * n
    done = [False] * n
    via: list[tuple[int, int] | None] = [None] * n
    queue = sorted((zero, places[p]) for p in starts)  # sorted: a heap already
    for _, place in queue:
        best[place] = zero
    pop, push = heapq.heappop, heapq.heappush
    while queue:
        cost, place = pop(queue)
        if done[place]:
            continue
        done[place] = True
        if place in goal:
            path = []
            step = via[place]
            while step is not None:
                place, route_id = step
                path.append(route_id)
                step = via[place]
            return cost, path
        for nxt, route_id in near[place]:
            w = weight[route_id]
            if w is None:
                continue
            c = cost + w
            old = best[nxt]
            if old is None or c < old:
                best[nxt] = c
                via[nxt] = (place, route_id)
                push(queue, (c, nxt))
    return None


def weight_list(board: Board, weights: Mapping[int, W]) -> list[W | None]:
    """`weights` as `shortest` reads them fastest: by route id, None for the routes without one."""
    out: list[W | None] = [None] * len(board.routes)
    for route_id, w in weights.items():
        out[route_id] = w
    return out


# each place's number (places in the order of their names), and by number its neighbours and the routes to
# them, in the board's route order
Numbered = tuple[dict[str, int], list[list[tuple[int, int]]]]
_NUMBERED: dict[int, tuple[Board, Numbered]] = {}


def numbered(board: Board) -> Numbered:
    """`neighbours(board)` with places numbered in the order of their names (built once per board)."""
    cached = _NUMBERED.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    near = neighbours(board)
    places = {name: i for i, name in enumerate(sorted(near))}
    found: Numbered = (places, [[(places[b], rid) for b, rid in near[name]] for name in sorted(near)])
    _NUMBERED[id(board)] = (board, found)
    return found


# ----- the routes a seat's tickets need, as the steady autopilot measures them ----------------------------------


def route_costs(game: Game, seat: int) -> dict[int, int]:
    """Cost in trains of each route this seat could use: 0 when owned, else its length."""
    s = game.state
    costs: dict[int, int] = {}
    for route in game.board.routes:
        owner = s.owner.get(route.id)
        if owner == seat:
            costs[route.id] = 0
        elif owner is None and game.route_status(seat, route) is None:
            costs[route.id] = route.length
    return costs


def _ticket_cost(game: Game, search: Search[int], ticket_id: int) -> tuple[int, list[int]]:
    """The cheapest way to finish a ticket (its targets by most points first): (trains, route ids)."""
    best: tuple[int, list[int]] = (UNREACHABLE, [])
    for target in sorted(game.board.tickets[ticket_id].targets, key=lambda t: -t.points):
        found = search.cheapest(game.board.nodes_of(target.name))
        if found is not None and found[0] < best[0]:
            best = found
    return best


def ticket_cost(game: Game, costs: dict[int, int], ticket_id: int) -> tuple[int, list[int]]:
    """The cheapest way to finish a ticket over routes costing `costs`: (trains, route ids)."""
    origin = game.board.nodes_of(game.board.tickets[ticket_id].origin)
    return _ticket_cost(game, Search(neighbours(game.board), costs, origin, 0), ticket_id)


def missing_routes(game: Game, seat: int) -> dict[int, list[int]]:
    """Route id -> this seat's unfinished tickets whose cheapest missing path needs it.

    Tickets that cannot be finished with the trains left are skipped. One search per set of starting places
    serves every ticket from there.
    """
    costs = route_costs(game, seat)
    near = neighbours(game.board)
    searches: dict[tuple[str, ...], Search[int]] = {}
    trains = game.state.players[seat].trains
    board = game.board
    needed: dict[int, list[int]] = {}
    for ticket_id, done, _ in game.ticket_progress(seat):
        if done:
            continue
        sources = tuple(sorted(set(board.nodes_of(board.tickets[ticket_id].origin))))
        search = searches.get(sources)
        if search is None:
            search = searches[sources] = Search(near, costs, sources, 0)
        cost, path = _ticket_cost(game, search, ticket_id)
        if cost > trains:
            continue
        for route_id in path:
            if costs[route_id] > 0:
                needed.setdefault(route_id, []).append(ticket_id)
    return needed
