"""The routes a player's unfinished tickets need, as the autopilot measures them, found faster for the digest.

`engine.autopilot.missing_routes` runs one shortest-path search per ticket
target, each building the board's adjacency again. The digest asks for it
on most "your turn" notices, so here each board's adjacency is built once
(the routes a player may not use are skipped as the search meets them), and
one search per set of starting places serves every target and every ticket
from there. The answer is the same, routes, tickets and order alike:
the search pops places in the same order as the autopilot's (same heap
entries, same ties), and the autopilot's search stops at the first target
place it pops, which is the target place popped first here.
tests/test_service_paths.py checks the two agree on many positions of every map.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from engine import Game
from engine.autopilot import UNREACHABLE, route_costs

# each place's neighbours and the routes to them, in the board's route order (the order the autopilot's search uses)
Neighbours = dict[str, list[tuple[str, int]]]
_neighbours: dict[str, Neighbours] = {}  # by map name


def neighbours(game: Game) -> Neighbours:
    board = game.board
    found = _neighbours.get(board.name)
    if found is None:
        found = {}
        for route in board.routes:
            found.setdefault(route.a, []).append((route.b, route.id))
            found.setdefault(route.b, []).append((route.a, route.id))
        _neighbours[board.name] = found
    return found


class _Search:
    """The autopilot's search from some starting places, kept: it goes on only as far as a question needs."""

    def __init__(self, near: Neighbours, costs: dict[int, int], sources: Iterable[str]) -> None:
        self.near = near
        self.costs = costs  # the routes the search may use (the others are left out), and their cost
        self.cost: dict[str, int] = {}  # settled places, in the order they were settled
        self.rank: dict[str, int] = {}
        self.via: dict[str, tuple[str, int]] = {}
        self.best: dict[str, int] = {}
        self.queue = [(0, place) for place in sorted(set(sources))]
        for _, place in self.queue:
            self.best[place] = 0
        heapq.heapify(self.queue)

    def _settle_until(self, goal: set[str]) -> None:
        """Pop places as the autopilot's search does until one in `goal` is settled (or none is left)."""
        queue, best, near, costs = self.queue, self.best, self.near, self.costs
        while queue:
            cost, place = heapq.heappop(queue)
            if cost > best.get(place, UNREACHABLE) or place in self.cost:
                continue
            self.rank[place] = len(self.cost)
            self.cost[place] = cost
            for nxt, route_id in near.get(place, ()):
                step = costs.get(route_id)
                if step is not None and cost + step < best.get(nxt, UNREACHABLE):
                    best[nxt] = cost + step
                    self.via[nxt] = (place, route_id)
                    heapq.heappush(queue, (cost + step, nxt))
            if place in goal:
                return

    def cheapest(self, targets: Iterable[str]) -> tuple[int, list[int]]:
        """The target place settled first: (trains, route ids from it back to a start)."""
        goal = set(targets)
        if not goal & self.cost.keys():
            self._settle_until(goal)
        reached = [t for t in goal if t in self.rank]
        if not reached:
            return UNREACHABLE, []
        place = min(reached, key=self.rank.__getitem__)
        cost = self.cost[place]
        path = []
        while place in self.via:
            place, route_id = self.via[place]
            path.append(route_id)
        return cost, path


def missing_routes(game: Game, seat: int) -> dict[int, list[int]]:
    """Route id -> this seat's unfinished tickets whose cheapest missing path needs it (as the autopilot's)."""
    costs = route_costs(game, seat)
    near = neighbours(game)
    searches: dict[tuple[str, ...], _Search] = {}
    trains = game.state.players[seat].trains
    board = game.board
    needed: dict[int, list[int]] = {}
    for ticket_id, done, _ in game.ticket_progress(seat):
        if done:
            continue
        ticket = board.tickets[ticket_id]
        sources = tuple(sorted(set(board.nodes_of(ticket.origin))))
        search = searches.get(sources)
        if search is None:
            search = searches[sources] = _Search(near, costs, sources)
        best: tuple[int, list[int]] = (UNREACHABLE, [])
        for target in sorted(ticket.targets, key=lambda t: -t.points):
            found = search.cheapest(board.nodes_of(target.name))
            if found[0] < best[0]:
                best = found
        cost, path = best
        if cost > trains:
            continue
        for route_id in path:
            if costs[route_id] > 0:
                needed.setdefault(route_id, []).append(ticket_id)
    return needed
