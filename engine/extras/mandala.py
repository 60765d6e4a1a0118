"""India's Mandala bonus: tickets completed by two separate paths score extra.

A completed city ticket qualifies when its two places are joined by two
paths that share no route; the bonus grows with the number of such tickets.
It adds nothing to the state: the bonus is read from the routes at the end.
"""

from __future__ import annotations

import networkx as nx

from engine.extras.base import Extra
from engine.scoring import Network, PlayerScore
from engine.state import GameState
from maps import Board


def two_disjoint_paths(network: Network, a: str, b: str) -> bool:
    """True when a and b are joined by two paths that share no route."""
    if not network.connected(a, b):
        return False
    g = network.graph()
    g.remove_edges_from(list(nx.bridges(g)))
    return bool(g.has_node(a) and g.has_node(b) and nx.has_path(g, a, b))


class Mandala(Extra):
    @staticmethod
    def applies(board: Board) -> bool:
        return bool(board.rules.mandala_bonus)

    def bonus(self, state: GameState, scores: list[PlayerScore], networks: list[Network]) -> None:
        tickets = self.board.tickets
        for sc, network in zip(scores, networks, strict=True):
            qualifying = 0
            for ticket_id, done, _ in sc.ticket_results:
                ticket = tickets[ticket_id]
                if done and not ticket.is_country_ticket:
                    if two_disjoint_paths(network, ticket.origin, ticket.targets[0].name):
                        qualifying += 1
            sc.bonus["mandala"] = self.rules.mandala_points(qualifying)
