"""The moves the expert weighs against strong's: every keep, a turn's alternatives, a blocking and a scoring
claim."""

from __future__ import annotations

import math
from collections import Counter

from engine.expert_search import COLOUR_WEIGHT, INFER, TURN_CANDIDATES, Search
from engine.expert_worlds import Leaning
from engine.game import Game
from engine.moves import DrawTickets, Keep, Move
from engine.paths import weight_list
from engine.state import Phase
from engine.strong import DEFAULT_TUNING, Seat, Tuning, claim_move, draw_move, goal


def keeps(game: Game, name: str, fallback: Move) -> list[Move]:
    """Every choice of the offered tickets, strong's first."""
    moves = [m for m in game.legal_moves(name) if isinstance(m, Keep)]
    return [fallback] + [m for m in moves if m != fallback]


def turn_candidates(game: Game, name: str, fallback: Move, tuning: Tuning = DEFAULT_TUNING) -> list[Move]:
    """Strong's move, then its alternatives: drawing for the plan, the plan's claims, tickets, the best points."""
    s = game.state
    if s.phase is not Phase.PLAY or s.pending is not None or s.current != game.seat(name):
        return [fallback]
    me = Seat(game, name, tuning)
    plan = goal(me)
    out: list[Move] = [fallback]

    def add(move: Move) -> None:
        if move not in out and len(out) < TURN_CANDIDATES:
            out.append(move)

    options = game.claim_options(name, lazy=True)
    pairs = {frozenset(me.board.routes[r].ends) for r in plan.routes}
    on_plan = [o for o in options if frozenset(o.route.ends) in pairs]
    on_plan.sort(key=lambda o: (-o.route.length, o.route.id))
    if on_plan:
        add(claim_move(me, on_plan[0], plan))
    if game.card_draws(name):
        add(draw_move(me, plan))
    if s.ticket_deck and s.final_turns is None and me.trains >= 8:
        add(DrawTickets(name))
    affordable = [o for o in options if o.route.length <= me.trains]
    if affordable:
        best = max(affordable, key=lambda o: (me.rules.route_points.get(o.route.length, 0), -o.route.id))
        add(claim_move(me, best, plan))
    for option in on_plan[1:]:
        add(claim_move(me, option, plan))
    return out


# At most this many of each other seat's likeliest tickets, and of the claims on their paths, are weighed
# for `blocking_claim`.
BLOCK_TICKETS = 4
BLOCK_CLAIMS = 6


def blocking_claim(
    game: Game, name: str, leanings: dict[int, Leaning], least: float, strength: float = INFER
) -> Move | None:
    """The claim that most lengthens the paths of the tickets the others likely hold (by their `Leaning`,
    each ticket weighted as the worlds of this inference `strength` deal it), when it lengthens them by at
    least `least` trains: a ticket it cuts off counts its path's cost again. None when no claim does. Read
    from the public board, the leanings and the seat's own hand only."""
    me = Seat(game, name)
    plan = goal(me)
    options = [o for o in game.claim_options(name, lazy=True) if o.route.length <= me.trains]
    if not options:
        return None
    likely: list[tuple[str, int, float, float]] = []  # (seat's name, ticket, weight, cost now)
    paths: set[int] = set()
    views: dict[str, Seat] = {}
    board = game.board
    for seat, leaning in sorted(leanings.items()):
        other = game.names[seat]
        held = len(game.state.players[seat].tickets)
        lean = {
            t: leaning.progress[t] + COLOUR_WEIGHT * leaning.colours[t]
            for t in leaning.progress
            if leaning.progress[t] >= 0
        }
        if not lean or not held:
            continue
        top = max(lean.values())
        total = sum(math.exp(strength * (v - top)) for v in lean.values())
        view = views[other] = Seat(game, other)
        weights = weight_list(board, view.weights)
        for t in sorted(lean, key=lambda t: (-lean[t], t))[:BLOCK_TICKETS]:
            cost, path, _ = view.ticket_path(t, weights)
            if cost <= 0 or cost == math.inf:
                continue  # done already, or out of reach
            likely.append((other, t, min(held * math.exp(strength * (lean[t] - top)) / total, 1.0), cost))
            paths.update(path)
    if not likely:
        return None
    near = [o for o in options if o.route.id in paths or any(p.id in paths for p in board.parallel(o.route))]
    near.sort(key=lambda o: (-o.route.length, o.route.id))
    one_track = len(game.names) < game.rules.both_doubles_from  # a claim closes the other track too
    best: tuple[float, Move] | None = None
    for option in near[:BLOCK_CLAIMS]:
        # the routes the claim closes to the others (not played out: a tunnel's cards are not the seat's to see)
        closed = {option.route.id} | ({p.id for p in board.parallel(option.route)} if one_track else set())
        hurt = 0.0
        lists: dict[str, list[float | None]] = {}
        for other, t, weight, cost in likely:
            view = views[other]
            if other not in lists:
                lists[other] = weight_list(board, {r: w for r, w in view.weights.items() if r not in closed})
            then, _, _ = view.ticket_path(t, lists[other])
            hurt += weight * (2 * cost if then == math.inf else then - cost)
        if hurt >= least and (best is None or hurt > best[0]):
            best = (hurt, claim_move(me, option, plan))
    return best[1] if best is not None else None


def scoring_claim(game: Game, name: str, least: float) -> Move | None:
    """The claim that adds most to the seat's score as if the game ended now beyond its route's own points
    (the tickets it finishes, the longest path, India's Mandala bonus, merchandise, souvenirs), when it adds at
    least `least`; None when none does. The seat's own score reads only its own tickets and the public board;
    a tunnel is placed, not played out (its cards are not the seat's to see)."""
    seat = game.seat(name)
    me = Seat(game, name)
    plan = goal(me)
    points = game.rules.route_points
    now = game.score()[seat].total
    best: tuple[float, int, Move] | None = None
    for option in game.claim_options(name, lazy=True):
        route = option.route
        if route.length > me.trains:
            continue
        claim = claim_move(me, option, plan)
        trial = game.copy()
        if route.tunnel:
            trial._place_route(seat, route, Counter(), None)
        else:
            trial.apply(claim)
        gain = trial.score()[seat].total - now - points.get(route.length, 0)
        if gain >= least and (best is None or (gain, -route.id) > best[:2]):
            best = (gain, -route.id, claim)
    return None if best is None else best[2]


def add_searched_claims(
    game: Game, name: str, candidates: list[Move], search: Search, leanings: dict[int, Leaning] | None
) -> None:
    """Add to a turn's `candidates` the claims the search asks for: the one that most blocks the others (by their
    `leanings`, when given) and the one worth most beyond its route's points."""
    if search.block is not None and search.infer is not None and leanings is not None:
        block = blocking_claim(game, name, leanings, search.block, search.infer)
        if block is not None and block not in candidates:
            candidates.append(block)
    if search.bonus is not None:
        bonus = scoring_claim(game, name, search.bonus)
        if bonus is not None and bonus not in candidates:
            candidates.append(bonus)
