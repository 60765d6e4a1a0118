"""India's Mandala bonus: tickets completed by two separate paths score extra.

A completed city ticket qualifies when its two places are joined by two
paths that share no route; the bonus grows with the number of such tickets.
It adds nothing to the state: the bonus is read from the routes at the end.

Two places are joined by two paths that share no route exactly when they lie
in one piece of the player's network once its bridges (the routes whose loss
would split it) are taken out. The bridges are found once per network
(`two_route_pieces`, with networkx), not once per ticket: scoring runs at the
end of every simulated game of the expert autopilot.
"""

from __future__ import annotations

import networkx as nx

from engine.extras.base import Extra
from engine.scoring import Network, PlayerScore
from engine.state import GameState
from maps import Board


def two_route_pieces(network: Network) -> dict[str, int]:
    """Each place of the network -> the piece it lies in once the network's bridges are taken out: two places
    in one piece are joined by two paths that share no route. Parallel routes between the same two places
    count as one link, as a single track."""
    g = network.graph()
    g.remove_edges_from(list(nx.bridges(g)))
    return {place: i for i, part in enumerate(nx.connected_components(g)) for place in part}


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
