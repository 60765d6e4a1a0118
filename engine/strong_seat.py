"""What one seat knows, and the measures the strong autopilot decides by (`Seat`)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from engine.game import Game
from engine.paths import shortest, weight_list
from engine.strong_tuning import (
    BLOCK_RISK,
    CART_WORTH,
    COLOUR_RATE,
    DEFAULT_TUNING,
    INF,
    PATHS_KEPT,
    PRIOR_RATE,
    PRIOR_TURNS,
    SLACK_SCALE,
    SOUVENIR_WORTH,
    SPARE_TRAINS,
    Plan,
    Tuning,
    base_weights,
    floored_weights,
)
from maps import GRAY, WILD, Route


class Seat:
    """What one seat knows, and the measures the strong autopilot decides by."""

    def __init__(self, game: Game, name: str, tuning: Tuning = DEFAULT_TUNING) -> None:
        self.game = game
        self.tuning = tuning
        self.name = name
        self.seat = game.seat(name)
        self.board = game.board
        self.rules = game.rules
        s = game.state
        self.me = s.players[self.seat]
        self.hand = self.me.hand
        self.trains = self.me.trains
        self.weights = self._weights()
        self.network = game.network(self.seat)
        # `plan`'s ticket paths, by ticket and the routes chosen before it (whose weights were then zero)
        self._paths: dict[tuple[int, frozenset[int]], tuple[float, list[int], int]] = {}

    # ----- the board as this seat sees it ------------------------------------

    def _weights(self) -> dict[int, float]:
        s = self.game.state
        owner = s.owner
        seat = self.seat
        # the routes `route_status` refuses this seat, claimed ones included, as bits
        closed = self.game._closed(seat)
        long_worth = self.tuning.long_route_worth()
        base = base_weights(self.game, long_worth)
        # `extra_worth` is nothing without tourists, on routes without a cart or once the carts are gone
        tourists = self.rules.tourists is not None
        carts = s.merchandise_left > 0
        out: dict[int, float] = {}
        if not tourists and not carts:
            # no extra worth anywhere: each route open to this seat weighs its base, at least 0.05
            floor = floored_weights(self.game, long_worth)
            own = 0
            for rid, holder in owner.items():
                if holder == seat:
                    own |= 1 << rid
            keep = ((1 << len(base)) - 1) & ~closed | own
            for rid in range(len(base)):
                if keep >> rid & 1:
                    out[rid] = 0.0 if own >> rid & 1 else floor[rid]
            return out
        for route in self.board.routes:
            rid = route.id
            if owner.get(rid) == seat:
                out[rid] = 0.0
            elif not closed >> rid & 1:
                # (weighing the cards still to draw for each route here was measured: it loses games)
                w = base[rid] - self.extra_worth(route) if tourists or (carts and route.cart) else base[rid]
                out[rid] = max(0.05, w)
        return out

    def extra_worth(self, route: Route) -> float:
        """What a map's extra rule adds to claiming a route (merchandise carts, tourist souvenirs), in trains."""
        s = self.game.state
        worth = 0.0
        if route.cart and s.merchandise_left > 0:
            worth += CART_WORTH
        if self.rules.tourists is not None:
            owned = set(self.me.souvenirs)
            for end in route.ends:
                stack = s.stacks.get(end)
                if stack is not None and stack.tokens > 0 and stack.symbol not in owned:
                    worth += SOUVENIR_WORTH
        return worth

    def ticket_path(
        self, ticket_id: int, weights: dict[int, float] | list[float | None]
    ) -> tuple[float, list[int], int]:
        """(cost, routes, points) of the best way to finish a ticket with these weights (by route id, or as
        `engine.paths.weight_list` lists them)."""
        if isinstance(weights, dict):
            weights = weight_list(self.board, weights)
        # the answer depends on the board, the ticket and the weights only: kept for the other decisions of
        # an expert's search, if this game is one of its worlds (see `engine.expert`)
        kept = self.game._paths_kept
        key = (ticket_id, tuple(weights) if kept is not None else ())
        if kept is not None:
            known = kept.get(key)
            if known is not None:
                return known
        ticket = self.board.tickets[ticket_id]
        sources = self.board.nodes_of(ticket.origin)
        best: tuple[float, list[int], int] = (INF, [], ticket.best)
        best_key = INF
        for target in ticket.targets:
            found = shortest(self.board, weights, sources, self.board.nodes_of(target.name), 0.0)
            if found is None:
                continue
            cost, path = found
            target_key = cost - 0.3 * target.points
            if target_key < best_key:
                best, best_key = (cost, path, target.points), target_key
        if kept is not None:
            if len(kept) >= PATHS_KEPT:
                kept.clear()
            kept[key] = best
        return best

    def done(self, ticket_id: int) -> bool:
        known = self.network.tickets_done.get(ticket_id)
        if known is not None:
            return known
        ticket = self.board.tickets[ticket_id]
        sources = self.board.nodes_of(ticket.origin)
        found = any(self.network.any_connected(sources, self.board.nodes_of(t.name)) for t in ticket.targets)
        self.network.tickets_done[ticket_id] = found
        return found

    def unfinished(self) -> list[int]:
        return [t for t in self.me.tickets if not self.done(t)]

    def plan(self, tickets: Sequence[int]) -> Plan:
        """Join the tickets greedily: cheapest connection first; planned routes then cost nothing."""
        weights = dict(self.weights)
        listed = weight_list(self.board, weights)  # the same weights, as the searches read them
        remaining = sorted(set(tickets), key=list(tickets).index)
        chosen: list[int] = []
        connected: list[int] = []
        dropped: list[int] = []
        paths: dict[int, list[int]] = {}
        known = self._paths
        while remaining:
            # the weights are this seat's with the routes chosen so far at zero: paths found for the same
            # choice (in this plan or another of this seat) are the same
            zeroed = frozenset(chosen)
            found = []
            for t in remaining:
                key = (t, zeroed)
                best = known.get(key)
                if best is None:
                    best = known[key] = self.ticket_path(t, listed)
                found.append((best, t))
            (cost, path, _), ticket = min(found, key=lambda f: (f[0][0], f[1]))
            remaining.remove(ticket)
            if cost == INF:
                dropped.append(ticket)
                continue
            connected.append(ticket)
            paths[ticket] = [r for r in path if self.game.state.owner.get(r) != self.seat]
            for r in path:
                if weights[r] > 0:
                    weights[r] = listed[r] = 0.0
                    chosen.append(r)
        trains = sum(self.board.routes[r].length for r in chosen)
        return Plan(chosen, trains, connected, dropped, paths)

    def points(self, ticket_id: int) -> int:
        return self.board.tickets[ticket_id].best

    # ----- time ----------------------------------------------------------------

    def turns_left(self) -> float:
        """My turns likely left before the game ends, judging by the opponents' trains and pace."""
        s = self.game.state
        if s.final_turns is not None:
            return 0.0
        n = len(s.players)
        start = self.game.trains_option or self.rules.trains
        prior = PRIOR_RATE
        est = INF
        for seat, p in enumerate(s.players):
            if seat == self.seat:
                continue
            taken = s.turn // n + (1 if seat < s.turn % n else 0)
            rate = ((start - p.trains) + prior * PRIOR_TURNS) / (taken + PRIOR_TURNS)
            est = min(est, max(p.trains - self.rules.end_game_trains, 0) / max(rate, 0.3))
        return est + 1

    # ----- cards ---------------------------------------------------------------

    def wild_useful(self, routes: Sequence[int]) -> bool:
        if not self.rules.wilds_only_on_tunnels:
            return True
        return any(self.board.routes[r].tunnel for r in routes)

    def colour_needs(self, routes: Sequence[int]) -> tuple[Counter[str], int]:
        """(cards of each colour the routes want, wilds they need); gray routes take the colour held most."""
        need: Counter[str] = Counter()
        wilds = 0
        grays: list[Route] = []
        for r in routes:
            route = self.board.routes[r]
            wilds += route.ferries
            if route.color == GRAY:
                grays.append(route)
            else:
                need[route.color] += route.length - route.ferries
        for route in sorted(grays, key=lambda g: (-g.length, g.id)):
            colour = max(self.rules.colors, key=lambda c: (self.hand[c] - need[c], c))
            need[colour] += route.length - route.ferries
        return need, wilds

    def drawing_turns(self, routes: Sequence[int]) -> float:
        """Turns of drawing the routes still need: two cards a turn, but one colour comes slowly."""
        need, wilds = self.colour_needs(routes)
        shorts = {c: max(n - self.hand[c], 0) for c, n in need.items()}
        have_wilds = self.hand[WILD] if self.wild_useful(routes) else 0
        total = max(sum(shorts.values()) + wilds - have_wilds, 0)
        worst = max(shorts.values(), default=0)
        return max(total / 2, max(worst - have_wilds, 0) / COLOUR_RATE)

    def success(self, plan: Plan, turns_left: float, safety: float = 0.0) -> float:
        """The chance the whole plan gets done (`safety`: turns of margin it wants)."""
        if plan.trains > self.trains:
            return 0.0
        if not plan.routes:
            return 1.0
        turns = len(plan.routes) + self.drawing_turns(plan.routes)
        slack = turns_left - turns - safety
        p = 1 / (1 + math.exp(-slack / SLACK_SCALE))
        spare = self.trains - plan.trains
        if spare < SPARE_TRAINS:
            p *= 1 - (SPARE_TRAINS - spare) / (SPARE_TRAINS * 2)
        blocked = BLOCK_RISK * (len(self.game.names) - 1)
        return p * (1 - blocked) ** len(plan.routes)


# ----- decisions -------------------------------------------------------------
