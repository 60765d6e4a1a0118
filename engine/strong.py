"""The `strong` autopilot: plans its tickets as one network and looks ahead to the game's end.

It only reads what its seat may know: its own hand and tickets, the board
(who owns what), the face-up row, how many cards, trains and tickets each
player holds, and how many cards and tickets are left. Never the deck's
order, nor anyone else's hand or tickets. It uses no randomness, so the same
visible position always gives the same move.

How it plays:
- a plan: its unfinished tickets joined greedily (the cheapest connection
  first, routes already planned cost nothing), so tickets share routes;
  tickets it cannot finish with its trains or in the turns likely left are
  dropped from the plan (hopeless);
- the turns left are estimated from each opponent's trains and how fast
  they have been spending them;
- tickets are kept by expected value: every subset of the offer is planned
  with the tickets already held, and scored by its points times the chance
  the whole plan gets done (trains, cards to draw, turns left);
- routes of the plan are claimed most endangered first: those whose loss
  would cost the longest detour (single tracks, bottlenecks), near the
  opponents' networks, and longer ones;
- cards are drawn for the plan's colours (gray routes take the colour held
  most that the plan's coloured routes do not need); gray routes are paid with
  the colour the rest of the plan needs least; a tunnel is tried only with a
  card to spare for its surcharge (until the last turns);
- with its plan done it draws more tickets while there is time and trains,
  otherwise it claims long routes for points (with `Tuning.longest_worth`,
  also for what they add to its longest path); on its last turn it makes the
  claim worth most points now, and it never draws tickets late.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.claims import ClaimOption, LatePayments, most_left
from engine.game import Game
from engine.longest import longest_trail
from engine.moves import Claim, DrawCard, DrawTickets, Keep, Move, Pass, TunnelPay, payment_of
from engine.paths import shortest, weight_list
from engine.state import Pending, Phase
from engine.steady import placement
from maps import GRAY, WILD, Board, Route

INF = float("inf")
# Draw more tickets only with at least these many trains and turns left;
# before the plan is done, only with this many trains spare and turns of slack (fractions of the starting trains).
TICKET_TRAINS = 10
TICKET_TURNS = 7.0
EARLY_SPARE = 0.5
EARLY_MIN_TRAINS = 30  # not on small boards: a turn spent on tickets costs too much of a short game
EARLY_MIN_PLAYERS = 3  # not in two-player games: finishing first pays more
EARLY_SLACK = 0.4
# Prior trains spent per turn by a player (steady spends about one a turn on every map).
PRIOR_RATE = 1.1
PRIOR_TURNS = 6
# Cards of one wanted colour (or wilds) gathered per turn of drawing, face-up row included.
COLOUR_RATE = 0.8
# The chance of a plan: its slack in turns, less a safety margin, on a logistic scale;
# less when it leaves few trains spare; less per route to claim, for each opponent who may block it.
KEEP_SAFETY = 2.0
DROP_SAFETY = 2.0
DROP_CHANCE = 0.25
SLACK_SCALE = 2.5
SPARE_TRAINS = 6
BLOCK_RISK = 0.01
# Keep at most this many tickets of an offer (keeping more was measured to lose games).
MAX_KEEP: int | None = 2
# How much a ticket's loss weighs against its gain when choosing tickets (1: as much).
FAIL_WEIGHT = 1.0
# How much the detour a lost route would force weighs in choosing which route of the plan to claim first.
DANGER_WEIGHT = 1.0
# Cards to keep in hand beyond a tunnel's length before trying it (its surcharge is one card or more half the time).
TUNNEL_SPARE = 1
# How much a route's points beyond one a train lower its weight when planning (its length), per extra point a
# train: long routes score more per train, so a plan leans to them.
LONG_ROUTE_WORTH = 0.15
# What a merchandise cart or a tourist souvenir is worth when choosing routes, in trains.
CART_WORTH = 1.5
SOUVENIR_WORTH = 1.0


@dataclass(frozen=True)
class Tuning:
    """Some of the constants above set otherwise for one seat (None: the constant). The strong level plays with
    none set; the expert plays its own seat with the tuning `engine.expert.own_tuning` gives the game."""

    ticket_trains: int | None = None  # TICKET_TRAINS
    max_keep: int | None = None  # MAX_KEEP
    long_routes: float | None = None  # LONG_ROUTE_WORTH
    early_tickets: bool = True  # False: more tickets only once the plan is done (never by EARLY_SPARE's rule)
    longest_worth: float = 0.0  # once the plan is done, a claim's worth adds this much per train it lengthens
    # the seat's longest path (0: not weighed; only where the rules give a longest-path bonus)

    def long_route_worth(self) -> float:
        return LONG_ROUTE_WORTH if self.long_routes is None else self.long_routes


DEFAULT_TUNING = Tuning()


@dataclass
class Plan:
    routes: list[int]  # route ids still to claim
    trains: int  # their total length
    tickets: list[int]  # tickets it connects
    dropped: list[int]  # tickets it cannot connect
    paths: dict[int, list[int]]  # ticket -> its unclaimed routes


_BASE_WEIGHTS: dict[tuple[int, float], tuple[Board, list[float]]] = {}


def _base_weights(game: Game, long_worth: float = LONG_ROUTE_WORTH) -> list[float]:
    """Each route's weight before its extras' worth: its length, more for ferries and tunnels, less for long
    routes by `long_worth` for each point a train they score beyond one (they score more per train); worked out
    once per board and worth."""
    board = game.board
    found = _BASE_WEIGHTS.get((id(board), long_worth))
    if found is not None and found[0] is board:
        return found[1]
    points = game.rules.route_points
    weights = []
    for route in board.routes:
        w = float(route.length)
        w += 0.5 * route.ferries + (0.6 if route.tunnel else 0.0)
        w -= long_worth * (points.get(route.length, route.length) / route.length - 1)
        weights.append(w)
    _BASE_WEIGHTS[(id(board), long_worth)] = (board, weights)
    return weights


# ticket paths (see `Seat.ticket_path`) an expert's search keeps, by ticket and weights: at most this many
PATHS_KEPT = 4000


_FLOORED: dict[tuple[int, float], tuple[Board, list[float]]] = {}


def _floored_weights(game: Game, long_worth: float = LONG_ROUTE_WORTH) -> list[float]:
    """`_base_weights`, each at least 0.05 (worked out once per board and worth)."""
    board = game.board
    found = _FLOORED.get((id(board), long_worth))
    if found is not None and found[0] is board:
        return found[1]
    weights = [w if w > 0.05 else 0.05 for w in _base_weights(game, long_worth)]
    _FLOORED[(id(board), long_worth)] = (board, weights)
    return weights


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
        base = _base_weights(self.game, long_worth)
        # `extra_worth` is nothing without tourists, on routes without a cart or once the carts are gone
        tourists = self.rules.tourists is not None
        carts = s.merchandise_left > 0
        out: dict[int, float] = {}
        if not tourists and not carts:
            # no extra worth anywhere: each route open to this seat weighs its base, at least 0.05
            floor = _floored_weights(self.game, long_worth)
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
                out[rid] = w if w > 0.05 else 0.05
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


def choose_strong(game: Game, name: str, tuning: Tuning = DEFAULT_TUNING) -> Move:
    """The strong autopilot's move for `name`, who must be able to act now (`tuning`: its constants set
    otherwise)."""
    s = game.state
    seat = game.seat(name)
    if s.phase is Phase.OVER:
        raise ValueError("the game is over")
    if s.phase is Phase.SETUP_PLACE:
        return placement(game, name)
    if s.phase is Phase.SETUP_KEEP or s.pending is Pending.KEEP:
        return _keep(Seat(game, name, tuning))
    if s.current != seat:
        raise ValueError(f"{name} cannot act now")
    if s.pending is Pending.TUNNEL:
        options = game.tunnel_options(name)
        if not options:
            return TunnelPay(name, None)
        best = min(options, key=lambda pay: (pay[WILD], sum(pay.values())))
        return TunnelPay(name, payment_of(best))
    me = Seat(game, name, tuning)
    if s.pending is Pending.DRAW:
        return _draw(me, _goal(me))
    return _turn(me)


def _keep(me: Seat) -> Keep:
    offered = list(me.me.offered or [])
    least = me.game.keep_minimum(me.name)
    held = me.unfinished()
    turns = me.turns_left() if me.game.state.phase is Phase.PLAY else _setup_turns(me)
    best_key: tuple[float, float, int] | None = None
    best: tuple[int, ...] = tuple(offered[:least])
    most = MAX_KEEP if me.tuning.max_keep is None else me.tuning.max_keep
    top = len(offered) if most is None else min(len(offered), max(least, most))
    for k in range(least, top + 1):
        for subset in combinations(offered, k):
            plan = me.plan(held + list(subset))
            p = me.success(plan, turns, KEEP_SAFETY)
            value = sum(me.points(t) * (p - FAIL_WEIGHT * (1 - p)) for t in plan.tickets)
            value -= sum(me.board.tickets[t].worst for t in plan.dropped)
            key = (value, -plan.trains, -k)
            if best_key is None or key > best_key:
                best_key, best = key, subset
    chosen = sorted(best, key=offered.index)
    return Keep(me.name, tuple(me.game.ticket_ref(t) for t in chosen))


def _setup_turns(me: Seat) -> float:
    start = me.game.trains_option or me.rules.trains
    return max(start - me.rules.end_game_trains, 0) / PRIOR_RATE + 1


def _goal(me: Seat) -> Plan:
    """The plan for the unfinished tickets that can still be done in time."""
    tickets = me.unfinished()
    turns = me.turns_left()
    plan = me.plan(tickets)
    while plan.tickets and (plan.trains > me.trains or me.success(plan, turns, DROP_SAFETY) < DROP_CHANCE):
        # drop the ticket that costs most trains per point
        worst = _costliest(me, plan)
        tickets = [t for t in tickets if t != worst]
        plan = me.plan(tickets)
    return plan


def _more_tickets(me: Seat, plan: Plan, turns: float) -> bool:
    """Is there time and trains to take on more tickets?"""
    start = me.game.trains_option or me.rules.trains
    least = TICKET_TRAINS if me.tuning.ticket_trains is None else me.tuning.ticket_trains
    if me.trains < least or turns < TICKET_TURNS:
        return False
    if not plan.routes:
        return True
    if not me.tuning.early_tickets or start < EARLY_MIN_TRAINS or len(me.game.names) < EARLY_MIN_PLAYERS:
        # a seat tuned to finish its plan first, a short game, or one without crowding: finishing first pays more
        return False
    spare = me.trains - plan.trains
    slack = turns - len(plan.routes) - me.drawing_turns(plan.routes)
    return spare >= EARLY_SPARE * start and slack >= EARLY_SLACK * start


def _costliest(me: Seat, plan: Plan) -> int:
    """The ticket of the plan that costs most trains per point."""

    def cost(t: int) -> tuple[float, int]:
        return (sum(me.board.routes[r].length for r in plan.paths[t]) / me.points(t), t)

    return max(plan.tickets, key=cost)


def _danger(me: Seat, plan: Plan) -> dict[int, float]:
    """How badly losing each route of the plan would hurt: the detour it forces, and opponents nearby."""
    s = me.game.state
    near: Counter[str] = Counter()
    for route_id, owner in s.owner.items():
        if owner != me.seat:
            route = me.board.routes[route_id]
            near[route.a] += 1
            near[route.b] += 1
    base = dict(me.weights)
    for r in plan.routes:
        base[r] = 0.0
    listed = weight_list(me.board, base)
    out: dict[int, float] = {}
    for r in plan.routes:
        users = [t for t, path in plan.paths.items() if r in path]
        weights = list(listed)
        weights[r] = None
        for parallel in me.board.parallel(me.board.routes[r]):
            w = weights[parallel.id]
            if w is not None and w > 0:
                weights[parallel.id] = 0.0  # the other track would do as well
        detour = 0.0
        for t in users:
            cost, _, _ = me.ticket_path(t, weights)
            detour += min(cost, 20.0)
        route = me.board.routes[r]
        out[r] = detour + 0.4 * (near[route.a] + near[route.b])
    return out


def _turn(me: Seat) -> Move:
    game, name, s = me.game, me.name, me.game.state
    options = game.claim_options(name, lazy=True)
    if s.final_turns is not None:
        return _last_turn(me, options)
    plan = _goal(me)
    turns = me.turns_left()
    every = options  # the last resort: a game must not stall
    if turns > 2:
        options = [o for o in options if _tunnel_spare(me, o) >= TUNNEL_SPARE]
    pairs = {frozenset(me.board.routes[r].ends): r for r in plan.routes}
    on_plan = [o for o in options if frozenset(o.route.ends) in pairs]
    if on_plan:
        danger = _danger(me, plan)
        completes = _completions(me, [o.route for o in on_plan])

        def urgency(o: ClaimOption) -> tuple[float, int]:
            r = pairs[frozenset(o.route.ends)]
            wilds = min(pay[WILD] for pay in o.payments)
            worth = DANGER_WEIGHT * danger.get(r, 0.0) + o.route.length + 3 * completes[o.route.id]
            return (worth - 1.5 * wilds, -o.route.id)

        best = max(on_plan, key=urgency)
        return _claim(me, best, plan)
    can_draw = bool(game.card_draws(name))
    if s.ticket_deck and _more_tickets(me, plan, turns):
        return DrawTickets(name)
    if not plan.routes:
        return _points(me, options, every, can_draw, turns)
    spare = me.trains - plan.trains
    if options and not can_draw:  # (claiming off the plan with a big hand was measured: it loses games)
        fits = [o for o in options if o.route.length <= spare]
        if fits:
            return _claim(me, max(fits, key=lambda o: (o.route.length, -o.route.id)), plan)
    if can_draw:
        return _draw(me, plan)
    if every:
        return _claim(me, max(every, key=lambda o: (o.route.length, -o.route.id)), plan)
    if s.ticket_deck:
        return DrawTickets(name)
    return Pass(name)


def _tunnel_spare(me: Seat, option: ClaimOption) -> int:
    """Cards left over for a tunnel's surcharge after its best payment (plenty for other routes)."""
    if not option.route.tunnel:
        return 99
    if isinstance(option.payments, LatePayments):  # without listing them
        return option.payments.most_left()
    return most_left(option.payments, me.hand)


def _completions(me: Seat, routes: Sequence[Route]) -> dict[int, int]:
    """Route id -> points of the tickets claiming it would finish now."""
    unfinished = me.unfinished()
    out: dict[int, int] = {}
    for route in routes:
        net = me.network.extended((route,))
        gained = 0
        for t in unfinished:
            ticket = me.board.tickets[t]
            sources = me.board.nodes_of(ticket.origin)
            made = [x.points for x in ticket.targets if net.any_connected(sources, me.board.nodes_of(x.name))]
            if made:
                gained += max(made) + ticket.worst
        out[route.id] = gained
    return out


def _last_turn(me: Seat, options: Sequence[ClaimOption]) -> Move:
    """The final turn: the claim worth most points now."""
    if options:
        completes = _completions(me, [o.route for o in options])

        def worth(o: ClaimOption) -> tuple[int, int, int]:
            points = me.rules.route_points.get(o.route.length, 0) + completes[o.route.id]
            return (points, -min(p[WILD] for p in o.payments), -o.route.id)

        return _claim(me, max(options, key=worth), None)
    sources = me.game.card_draws(me.name)
    if sources:
        return DrawCard(me.name, "deck" if "deck" in sources else sources[0])
    if me.game.state.ticket_deck:
        return DrawTickets(me.name)
    return Pass(me.name)


def _points(
    me: Seat, options: Sequence[ClaimOption], every: Sequence[ClaimOption], can_draw: bool, turns: float
) -> Move:
    """No plan left: claim long routes for points (`options`; `every` claim as a last resort), or draw toward them."""
    name = me.name
    if options:
        lengthens = _lengthens(me, [o.route for o in options])
        best = max(
            options,
            key=lambda o: (
                me.rules.route_points.get(o.route.length, 0)
                + 2 * me.extra_worth(o.route)
                + lengthens.get(o.route.id, 0.0),
                -min(p[WILD] for p in o.payments),
                -o.route.id,
            ),
        )
        if best.route.length >= 3 or not can_draw or turns <= 2 or me.trains <= 4:
            return _claim(me, best, None)
    if can_draw:
        target = _long_target(me)
        return _draw(me, Plan([target] if target is not None else [], 0, [], [], {}))
    if every:
        return _claim(me, max(every, key=lambda o: (o.route.length, -o.route.id)), None)
    if me.game.state.ticket_deck:
        return DrawTickets(name)
    return Pass(name)


def _lengthens(me: Seat, routes: Sequence[Route]) -> dict[int, float]:
    """By route id: `Tuning.longest_worth` times the trains each route would add to this seat's longest path
    (empty when the tuning does not weigh it or the rules give no longest-path bonus)."""
    worth = me.tuning.longest_worth
    if worth == 0 or me.rules.longest_bonus == 0:
        return {}
    own = [me.board.routes[r] for r in me.me.routes]
    now = longest_trail(own)[0]
    return {route.id: worth * (longest_trail([*own, route])[0] - now) for route in routes}


def _long_target(me: Seat) -> int | None:
    """A free long route within this seat's trains, the one its hand is closest to paying."""
    best: tuple[float, int] | None = None
    for r, w in me.weights.items():
        route = me.board.routes[r]
        if w == 0 or route.length > me.trains:
            continue
        if route.color == GRAY:
            held = max(me.hand[c] for c in me.rules.colors)
        else:
            held = me.hand[route.color]
        if me.wild_useful([r]):
            held += me.hand[WILD]
        missing = max(route.length - held, 0)
        value = me.rules.route_points.get(route.length, 0) / (1 + missing / 2)
        if best is None or (value, -r) > (best[0], -best[1]):
            best = (value, r)
    return None if best is None else best[1]


def _draw(me: Seat, plan: Plan) -> Move:
    """Draw a card toward the plan's routes (the most endangered first)."""
    name = me.name
    sources = me.game.card_draws(name)
    second = me.game.state.pending is Pending.DRAW
    need, wilds = me.colour_needs(plan.routes)
    want: Counter[str] = Counter()
    for colour, n in need.items():
        short = n - me.hand[colour]
        if short > 0:
            want[colour] = short
    for colour in sorted(want, key=lambda c: (-want[c], c)):
        if colour in sources:
            return DrawCard(name, colour)
    useful = me.wild_useful(plan.routes)
    free_wild = not me.rules.faceup_wild_ends_draw
    if WILD in sources and useful and (free_wild or (wilds > me.hand[WILD] and not second)):
        return DrawCard(name, WILD)
    if "deck" in sources:
        return DrawCard(name, "deck")
    plain = [c for c in sources if c != WILD]
    return DrawCard(name, plain[0] if plain else sources[0])


def _claim(me: Seat, option: ClaimOption, plan: Plan | None) -> Claim:
    """Claim the route, paying what the rest of the plan needs least."""
    rest = [r for r in plan.routes if r != option.route.id] if plan is not None else []
    need, _ = me.colour_needs(rest)
    hand = me.hand

    def cost(pay: Counter[str]) -> tuple[int, int, int]:
        hurt = sum(max(need[c] - (hand[c] - n), 0) - max(need[c] - hand[c], 0) for c, n in pay.items() if c != WILD)
        held = max((hand[c] for c in pay if c != WILD), default=0)
        return (pay[WILD] * 2 + hurt, pay[WILD], -held)

    pay = min(option.payments, key=cost)
    souvenir = option.souvenirs[0] if len(option.souvenirs) == 2 else None
    return me.game.claim_for(me.name, option.route, pay, souvenir)


__all__ = ["Seat", "choose_strong"]
