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

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from engine.claims import ClaimOption, LatePayments, most_left
from engine.game import Game
from engine.longest import longest_trail
from engine.moves import Claim, DrawCard, DrawTickets, Keep, Move, Pass, TunnelPay, payment_of
from engine.paths import weight_list
from engine.state import Pending, Phase
from engine.steady import placement
from engine.strong_seat import Seat
from engine.strong_tuning import (
    DANGER_WEIGHT,
    DEFAULT_TUNING,
    DROP_CHANCE,
    DROP_SAFETY,
    EARLY_MIN_PLAYERS,
    EARLY_MIN_TRAINS,
    EARLY_SLACK,
    EARLY_SPARE,
    FAIL_WEIGHT,
    KEEP_SAFETY,
    LONG_ROUTE_WORTH,
    MAX_KEEP,
    PRIOR_RATE,
    TICKET_TRAINS,
    TICKET_TURNS,
    TUNNEL_SPARE,
    Plan,
    Tuning,
    floored_weights,
)
from maps import GRAY, WILD, Route

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
        return draw_move(me, goal(me))
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


def goal(me: Seat) -> Plan:
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
    plan = goal(me)
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
        return claim_move(me, best, plan)
    can_draw = bool(game.card_draws(name))
    if s.ticket_deck and _more_tickets(me, plan, turns):
        return DrawTickets(name)
    if not plan.routes:
        return _points(me, options, every, can_draw, turns)
    spare = me.trains - plan.trains
    if options and not can_draw:  # (claiming off the plan with a big hand was measured: it loses games)
        fits = [o for o in options if o.route.length <= spare]
        if fits:
            return claim_move(me, max(fits, key=lambda o: (o.route.length, -o.route.id)), plan)
    if can_draw:
        return draw_move(me, plan)
    if every:
        return claim_move(me, max(every, key=lambda o: (o.route.length, -o.route.id)), plan)
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

        return claim_move(me, max(options, key=worth), None)
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
        gains = lengthens(me, [o.route for o in options])
        best = max(
            options,
            key=lambda o: (
                me.rules.route_points.get(o.route.length, 0) + 2 * me.extra_worth(o.route) + gains.get(o.route.id, 0.0),
                -min(p[WILD] for p in o.payments),
                -o.route.id,
            ),
        )
        if best.route.length >= 3 or not can_draw or turns <= 2 or me.trains <= 4:
            return claim_move(me, best, None)
    if can_draw:
        target = _long_target(me)
        return draw_move(me, Plan([target] if target is not None else [], 0, [], [], {}))
    if every:
        return claim_move(me, max(every, key=lambda o: (o.route.length, -o.route.id)), None)
    if me.game.state.ticket_deck:
        return DrawTickets(name)
    return Pass(name)


def lengthens(me: Seat, routes: Sequence[Route]) -> dict[int, float]:
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
        held = max(me.hand[c] for c in me.rules.colors) if route.color == GRAY else me.hand[route.color]
        if me.wild_useful([r]):
            held += me.hand[WILD]
        missing = max(route.length - held, 0)
        value = me.rules.route_points.get(route.length, 0) / (1 + missing / 2)
        if best is None or (value, -r) > (best[0], -best[1]):
            best = (value, r)
    return None if best is None else best[1]


def draw_move(me: Seat, plan: Plan) -> Move:
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


def claim_move(me: Seat, option: ClaimOption, plan: Plan | None) -> Claim:
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


__all__ = [
    "DEFAULT_TUNING",
    "LONG_ROUTE_WORTH",
    "Plan",
    "Seat",
    "Tuning",
    "choose_strong",
    "claim_move",
    "draw_move",
    "floored_weights",
    "goal",
    "lengthens",
]
