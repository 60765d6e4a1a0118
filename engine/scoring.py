"""Final scoring: tickets, the longest continuous path, and each extra rule's bonus."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import networkx as nx

from maps import Board, Route, Ticket


class Network:
    """One player's routes as a graph of places."""

    def __init__(self, routes: Iterable[Route]) -> None:
        self.routes = list(routes)
        self._parent: dict[str, str] = {}
        self.tickets_done: dict[int, bool] = {}  # ticket id -> finished by these routes (the strong autopilot's)
        for r in self.routes:
            self._union(r.a, r.b)

    def extended(self, routes: Iterable[Route]) -> Network:
        """A new network: these routes and the given ones (this one unchanged; the tickets it finished stay
        finished)."""
        out = Network.__new__(Network)
        out._parent = dict(self._parent)
        out.routes = list(self.routes)
        for r in routes:
            out.routes.append(r)
            out._union(r.a, r.b)
        out.tickets_done = {t: True for t, done in self.tickets_done.items() if done}
        return out

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


class TieRule(StrEnum):
    """What decided between players tied on points (the rules' order: tickets first, then the longest path)."""

    TICKETS = "tickets"  # one of them completed the most tickets
    LONGEST = "longest"  # still tied on tickets, one of them holds the longest-path bonus
    SHARED = "shared"  # nothing separated them: they share the victory


@dataclass(frozen=True)
class TieBreak:
    """A tie on points and how `winners` broke it."""

    points: int
    tied: tuple[str, ...]  # everyone with the most points, in seat order
    completed: tuple[int, ...]  # the tickets each of them completed
    rule: TieRule
    winners: tuple[str, ...]


def tie_break(scores: Sequence[PlayerScore], longest_bonus: bool) -> TieBreak | None:
    """How the winners were found among players tied on points; None when one player has the most points."""
    if not scores:
        return None
    top = max(s.total for s in scores)
    tied = [s for s in scores if s.total == top]
    if len(tied) < 2:
        return None
    won = winners(scores, longest_bonus)
    most = max(s.completed for s in tied)
    if len(won) > 1:
        rule = TieRule.SHARED
    elif sum(1 for s in tied if s.completed == most) == 1:
        rule = TieRule.TICKETS
    else:
        rule = TieRule.LONGEST
    return TieBreak(top, tuple(s.name for s in tied), tuple(s.completed for s in tied), rule, tuple(won))
