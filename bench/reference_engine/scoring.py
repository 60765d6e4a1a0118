"""Final scoring: tickets, longest continuous path and each map's bonuses."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

from maps import Board, Route, Ticket


class Network:
    """One player's routes as a graph of places."""

    def __init__(self, routes: Iterable[Route]) -> None:
        self.routes = list(routes)
        self._parent: dict[str, str] = {}
        for r in self.routes:
            self._union(r.a, r.b)

    def _find(self, x: str) -> str:
        parent = self._parent
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def _union(self, a: str, b: str) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self._parent[ra] = rb

    def connected(self, a: str, b: str) -> bool:
        if a not in self._parent or b not in self._parent:
            return False
        return self._find(a) == self._find(b)

    def any_connected(self, sources: Sequence[str], targets: Sequence[str]) -> bool:
        return any(self.connected(s, t) for s in sources for t in targets)

    def graph(self) -> nx.Graph:
        g: nx.Graph = nx.Graph()
        g.add_edges_from((r.a, r.b) for r in self.routes)
        return g


def ticket_points(board: Board, ticket: Ticket, network: Network) -> tuple[bool, int]:
    """(completed, points): the best connection made, or minus the lowest value."""
    sources = board.nodes_of(ticket.origin)
    made = [t.points for t in ticket.targets if network.any_connected(sources, board.nodes_of(t.name))]
    if made:
        return True, max(made)
    return False, -ticket.worst


def longest_trail(routes: Sequence[Route]) -> tuple[int, list[Route]]:
    """The longest trail (each route once, places may repeat) in trains, and its routes."""
    adjacency: dict[str, list[tuple[int, str]]] = {}
    for i, r in enumerate(routes):
        adjacency.setdefault(r.a, []).append((i, r.b))
        adjacency.setdefault(r.b, []).append((i, r.a))
    lengths = [r.length for r in routes]
    best = 0
    best_path: list[int] = []
    used = [False] * len(routes)
    path: list[int] = []

    def walk(place: str, length: int) -> None:
        nonlocal best, best_path
        if length > best:
            best = length
            best_path = list(path)
        for edge, nxt in adjacency[place]:
            if not used[edge]:
                used[edge] = True
                path.append(edge)
                walk(nxt, length + lengths[edge])
                path.pop()
                used[edge] = False

    # A longest trail cannot be extended, so an open one ends at two places of
    # odd degree, and a closed one uses every route of its component (which
    # then has no odd place). Starting from the odd places of each component,
    # or from any one place of a component without them, finds it.
    seen: set[str] = set()
    for root in sorted(adjacency):
        if root in seen:
            continue
        component = [root]
        seen.add(root)
        for place in component:
            for _, nxt in adjacency[place]:
                if nxt not in seen:
                    seen.add(nxt)
                    component.append(nxt)
        odd = sorted(p for p in component if len(adjacency[p]) % 2 == 1)
        for place in odd or [root]:
            walk(place, 0)
    return best, [routes[i] for i in best_path]


def two_disjoint_paths(network: Network, a: str, b: str) -> bool:
    """True when a and b are joined by two paths that share no route."""
    if not network.connected(a, b):
        return False
    g = network.graph()
    g.remove_edges_from(list(nx.bridges(g)))
    return bool(g.has_node(a) and g.has_node(b) and nx.has_path(g, a, b))


def ranked_bonus(counts: Sequence[int], ladder: Sequence[int]) -> list[int]:
    """Merchandise-style ranking: ties share a rank and skip the ranks they cover."""
    out = []
    for c in counts:
        if c <= 0:
            out.append(0)
            continue
        rank = sum(1 for other in counts if other > c)
        out.append(ladder[rank] if rank < len(ladder) else 0)
    return out


@dataclass
class PlayerScore:
    name: str
    routes: int
    completed: int = 0
    failed: int = 0
    ticket_points: int = 0
    longest: int = 0
    longest_routes: list[Route] = field(default_factory=list)
    bonus: dict[str, int] = field(default_factory=lambda: {"longest": 0, "mandala": 0, "merchandise": 0, "tourists": 0})
    ticket_results: list[tuple[int, bool, int]] = field(default_factory=list)  # (ticket id, done, points)

    @property
    def total(self) -> int:
        return self.routes + self.ticket_points + sum(self.bonus.values())


def winners(scores: Sequence[PlayerScore], longest_bonus: bool) -> list[str]:
    """Most points; then most completed tickets; then a holder of the longest-path bonus."""
    top = max(s.total for s in scores)
    tied = [s for s in scores if s.total == top]
    most = max(s.completed for s in tied)
    tied = [s for s in tied if s.completed == most]
    if longest_bonus:
        holders = [s for s in tied if s.bonus["longest"] > 0]
        if holders:
            tied = holders
    return [s.name for s in tied]
