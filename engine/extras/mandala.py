"""India's Mandala bonus: tickets completed by two separate paths score extra.

A completed city ticket qualifies when its two places are joined by two
paths that share no route; the bonus grows with the number of such tickets.
It adds nothing to the state: the bonus is read from the routes at the end.

Two places are joined by two paths that share no route exactly when they lie
in one piece of the player's network once its bridges (the routes whose loss
would split it) are taken out. The bridges are found once per network
(`two_route_pieces`), not once per ticket: scoring runs at the end of every
simulated game of the expert autopilot.
"""

from __future__ import annotations

from engine.extras.base import Extra
from engine.scoring import Network, PlayerScore
from engine.state import GameState
from maps import Board


def two_route_pieces(network: Network) -> dict[str, int]:
    """Each place of the network -> the piece it lies in once the network's bridges are taken out: two places
    in one piece are joined by two paths that share no route. Parallel routes between the same two places
    count as one link, as a single track."""
    links: dict[str, set[str]] = {}
    for r in network.routes:
        if r.a != r.b:
            links.setdefault(r.a, set()).add(r.b)
            links.setdefault(r.b, set()).add(r.a)
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    bridges: set[frozenset[str]] = set()
    for root in sorted(links):
        if root in order:
            continue
        order[root] = low[root] = len(order)
        stack: list[tuple[str, str | None, list[str]]] = [(root, None, sorted(links[root]))]
        while stack:
            node, parent, todo = stack[-1]
            if todo:
                nxt = todo.pop()
                if nxt == parent:
                    continue
                if nxt in order:
                    low[node] = min(low[node], order[nxt])
                else:
                    order[nxt] = low[nxt] = len(order)
                    stack.append((nxt, node, sorted(links[nxt])))
                continue
            stack.pop()
            if parent is not None:
                low[parent] = min(low[parent], low[node])
                if low[node] > order[parent]:
                    bridges.add(frozenset((parent, node)))
    piece: dict[str, int] = {}
    for start in sorted(links):
        if start in piece:
            continue
        piece[start] = label = len(piece)
        todo = [start]
        while todo:
            node = todo.pop()
            for nxt in links[node]:
                if nxt not in piece and frozenset((node, nxt)) not in bridges:
                    piece[nxt] = label
                    todo.append(nxt)
    return piece


def two_disjoint_paths(network: Network, a: str, b: str) -> bool:
    """True when a and b are joined by two paths that share no route."""
    if not network.connected(a, b):
        return False
    piece = two_route_pieces(network)
    return a in piece and b in piece and piece[a] == piece[b]


class Mandala(Extra):
    @staticmethod
    def applies(board: Board) -> bool:
        return bool(board.rules.mandala_bonus)

    def bonus(self, state: GameState, scores: list[PlayerScore], networks: list[Network]) -> None:
        tickets = self.board.tickets
        for sc, network in zip(scores, networks, strict=True):
            qualifying = 0
            piece: dict[str, int] | None = None
            for ticket_id, done, _ in sc.ticket_results:
                ticket = tickets[ticket_id]
                if done and not ticket.is_country_ticket:
                    if piece is None:
                        piece = two_route_pieces(network)
                    a, b = ticket.origin, ticket.targets[0].name
                    if a in piece and b in piece and piece[a] == piece[b]:
                        qualifying += 1
            sc.bonus["mandala"] = self.rules.mandala_points(qualifying)
