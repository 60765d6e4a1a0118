"""The game's scoring: each player's score as the game stands, the winners and how a tie was broken (the
`Scoring` part of `Game`; the scores, networks and tie rules themselves are engine/scoring.py's)."""

from __future__ import annotations

from engine.longest import longest_trail
from engine.scoring import Network, PlayerScore, TieBreak, ticket_points, tie_break, winners
from engine.turns import TurnFlow
from maps import Route


class Scoring(TurnFlow):
    """The score of every player, as if the game ended now."""

    # per seat: its list of routes, their number and its `Network` then (see `network`)
    _networks_kept: dict[int, tuple[list[int], int, Network]]

    def network(self, seat: int) -> Network:
        """The seat's routes as a `Network`, kept per seat and extended by the routes it claims since (routes
        are only ever added to a seat's list; a new list, as a restored state's, is worked out anew)."""
        routes = self.state.players[seat].routes
        kept = self._networks_kept.get(seat)
        if kept is not None and kept[0] is routes:
            if kept[1] == len(routes):
                return kept[2]
            network = kept[2].extended(self.board.routes[r] for r in routes[kept[1] :])
        else:
            network = Network(self.board.routes[r] for r in routes)
        self._networks_kept[seat] = (routes, len(routes), network)
        return network

    def longest(self, seat: int) -> tuple[int, list[Route]]:
        return longest_trail([self.board.routes[r] for r in self.state.players[seat].routes])

    def ticket_progress(self, seat: int) -> list[tuple[int, bool, int]]:
        """(ticket id, done now, points it would score now) for each kept ticket."""
        return self._ticket_results(self.state.players[seat].tickets, self.network(seat))

    def score(self) -> list[PlayerScore]:
        """Every player's full score as if the game ended now."""
        scores = []
        networks = []
        for seat, p in enumerate(self.state.players):
            sc = PlayerScore(p.name, p.route_points)
            network = self.network(seat)
            sc.ticket_results = self._ticket_results(p.tickets, network)
            for _, done, points in sc.ticket_results:
                sc.ticket_points += points
                if done:
                    sc.completed += 1
                else:
                    sc.failed += 1
            sc.longest, sc.longest_routes = self.longest(seat)
            scores.append(sc)
            networks.append(network)
        if self.rules.longest_bonus:
            best = max(sc.longest for sc in scores)
            for sc in scores:
                if best > 0 and sc.longest == best:
                    sc.bonus["longest"] = self.rules.longest_bonus
        self.extras.bonus(self.state, scores, networks)
        return scores

    def _ticket_results(self, tickets: list[int], network: Network) -> list[tuple[int, bool, int]]:
        out = []
        for t in tickets:
            done, points = ticket_points(self.board, self.board.tickets[t], network)
            out.append((t, done, points))
        return out

    def winners(self) -> list[str]:
        return winners(self.score(), self.rules.longest_bonus > 0)

    def tie_break(self) -> TieBreak | None:
        """How a tie on points was broken, if there was one."""
        return tie_break(self.score(), self.rules.longest_bonus > 0)
