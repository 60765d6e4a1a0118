"""The autopilot: a legal, sensible move for any seat at any moment, at a level.

Levels: `steady` (this module) and `strong` (engine/strong.py), chosen by
`choose_move(game, name, level)`.

The steady level:

It keeps the cheapest tickets, claims routes on the shortest missing paths of
its tickets when it can pay, otherwise draws the colours those routes need,
and falls back to claiming whatever it can so that a game never stalls. It is
deterministic: the same game state always gives the same move.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import StrEnum

from engine.claims import ClaimOption
from engine.game import Game
from engine.moves import Claim, DrawCard, DrawTickets, Keep, Move, Pass, PlaceStack, TunnelPay, payment_of
from engine.state import Pending, Phase
from maps import GRAY, WILD, Route

# Below this many trains the autopilot stops taking new tickets.
TICKET_TRAINS = 12
# With this many cards in hand it claims any route rather than keep drawing.
HOARD = 14
UNREACHABLE = 10**6


class Level(StrEnum):
    """How well the autopilot plays."""

    STEADY = "steady"  # shortest paths for its cheapest tickets
    STRONG = "strong"  # plans its tickets together and looks ahead to the game's end


LEVELS = tuple(level.value for level in Level)


def choose_move(game: Game, name: str, level: Level | str = Level.STEADY) -> Move:
    """The autopilot's move for `name`, who must be able to act now, at `level`."""
    if Level(level) is Level.STRONG:
        from engine.strong import choose_strong

        return choose_strong(game, name)
    return _steady(game, name)


def _steady(game: Game, name: str) -> Move:
    s = game.state
    seat = game.seat(name)
    if s.phase is Phase.OVER:
        raise ValueError("the game is over")
    if s.phase is Phase.SETUP_PLACE:
        return _placement(game, name)
    if s.phase is Phase.SETUP_KEEP or s.pending is Pending.KEEP:
        return _keep(game, name)
    if s.current != seat:
        raise ValueError(f"{name} cannot act now")
    if s.pending is Pending.TUNNEL:
        options = game.tunnel_options(name)
        return TunnelPay(name, payment_of(options[0]) if options else None)
    if s.pending is Pending.DRAW:
        return _draw(game, name, second=True)
    return _turn(game, name)


# ----- paths -----------------------------------------------------------------


def route_costs(game: Game, seat: int) -> dict[int, int]:
    """Cost in trains of each route this seat could use: 0 when owned, else its length."""
    s = game.state
    costs: dict[int, int] = {}
    for route in game.board.routes:
        owner = s.owner.get(route.id)
        if owner == seat:
            costs[route.id] = 0
        elif owner is None and game.route_status(seat, route) is None:
            costs[route.id] = route.length
    return costs


def _shortest(
    game: Game, costs: dict[int, int], sources: Iterable[str], targets: Sequence[str]
) -> tuple[int, list[int]]:
    """The cheapest way from any source to any target: (trains, route ids)."""
    adjacency: dict[str, list[tuple[str, int, int]]] = {}
    for route in game.board.routes:
        if route.id in costs:
            adjacency.setdefault(route.a, []).append((route.b, costs[route.id], route.id))
            adjacency.setdefault(route.b, []).append((route.a, costs[route.id], route.id))
    goal = set(targets)
    best: dict[str, int] = {}
    via: dict[str, tuple[str, int]] = {}
    queue = [(0, place) for place in sorted(set(sources))]
    for _, place in queue:
        best[place] = 0
    heapq.heapify(queue)
    while queue:
        cost, place = heapq.heappop(queue)
        if cost > best.get(place, UNREACHABLE):
            continue
        if place in goal:
            path = []
            while place in via:
                place, route_id = via[place]
                path.append(route_id)
            return cost, path
        for nxt, step, route_id in adjacency.get(place, []):
            if cost + step < best.get(nxt, UNREACHABLE):
                best[nxt] = cost + step
                via[nxt] = (place, route_id)
                heapq.heappush(queue, (cost + step, nxt))
    return UNREACHABLE, []


def ticket_cost(game: Game, costs: dict[int, int], ticket_id: int) -> tuple[int, list[int]]:
    ticket = game.board.tickets[ticket_id]
    sources = game.board.nodes_of(ticket.origin)
    best: tuple[int, list[int]] = (UNREACHABLE, [])
    for target in sorted(ticket.targets, key=lambda t: -t.points):
        found = _shortest(game, costs, sources, game.board.nodes_of(target.name))
        if found[0] < best[0]:
            best = found
    return best


def missing_routes(game: Game, seat: int) -> dict[int, list[int]]:
    """Route id -> this seat's unfinished tickets whose cheapest missing path needs it.

    Tickets that cannot be finished with the trains left are skipped.
    """
    costs = route_costs(game, seat)
    trains = game.state.players[seat].trains
    needed: dict[int, list[int]] = {}
    for ticket_id, done, _ in game.ticket_progress(seat):
        if done:
            continue
        cost, path = ticket_cost(game, costs, ticket_id)
        if cost > trains:
            continue
        for route_id in path:
            if costs[route_id] > 0:
                needed.setdefault(route_id, []).append(ticket_id)
    return needed


def _wanted_routes(game: Game, seat: int) -> list[Route]:
    """Routes on the cheapest missing paths of this seat's unfinished tickets."""
    return [game.board.routes[r] for r in missing_routes(game, seat)]


# ----- decisions -------------------------------------------------------------


def _keep(game: Game, name: str) -> Keep:
    seat = game.seat(name)
    offered = game.state.players[seat].offered or []
    costs = route_costs(game, seat)
    ranked = sorted(offered, key=lambda t: (ticket_cost(game, costs, t)[0], offered.index(t)))
    chosen = ranked[: game.keep_minimum(name)]
    chosen.sort(key=offered.index)
    return Keep(name, tuple(game.ticket_ref(t) for t in chosen))


def _placement(game: Game, name: str) -> PlaceStack:
    s = game.state
    symbol = game.unplaced_symbols()[0]
    degree: Counter[str] = Counter()
    for route in game.board.routes:
        degree[route.a] += 1
        degree[route.b] += 1
    free = [p for p in game.board.places if p not in s.stacks]
    at = max(free, key=lambda p: (degree[p], p))
    return PlaceStack(name, symbol, at)


def _payment(option: ClaimOption, hand: Counter[str]) -> Counter[str]:
    """Fewest wilds, then the colour held most."""
    return min(
        option.payments,
        key=lambda pay: (pay[WILD], -max((hand[c] for c in pay if c != WILD), default=0)),
    )


def _claim(game: Game, name: str, option: ClaimOption) -> Claim:
    route = option.route
    hand = game.state.players[game.seat(name)].hand
    souvenir = option.souvenirs[0] if len(option.souvenirs) == 2 else None
    return game.claim_for(name, route, _payment(option, hand), souvenir)


def _needed_colours(game: Game, seat: int, wanted: Sequence[Route]) -> list[str]:
    hand = game.state.players[seat].hand
    need: Counter[str] = Counter()
    for route in wanted:
        if route.color == GRAY:
            colour = max(game.rules.colors, key=lambda c: (hand[c], c))
            need[colour] += route.length
        else:
            need[route.color] += max(route.length - hand[route.color], 0) + 1
    return [c for c, _ in sorted(need.items(), key=lambda kv: (-kv[1], kv[0]))]


def _draw(game: Game, name: str, second: bool) -> Move:
    seat = game.seat(name)
    sources = game.card_draws(name)
    wanted = _wanted_routes(game, seat)
    for colour in _needed_colours(game, seat, wanted):
        if colour in sources:
            return DrawCard(name, colour)
    if "deck" in sources:
        return DrawCard(name, "deck")
    plain = [c for c in sources if c != WILD]
    return DrawCard(name, plain[0] if plain else sources[0])


def _turn(game: Game, name: str) -> Move:
    seat = game.seat(name)
    s = game.state
    player = s.players[seat]
    options = {o.route.id: o for o in game.claim_options(name)}
    wanted = _wanted_routes(game, seat)
    on_path = [options[r.id] for r in wanted if r.id in options]
    if on_path:
        best = max(on_path, key=lambda o: (o.route.length, -o.route.id))
        return _claim(game, name, best)
    can_draw = bool(game.card_draws(name))
    if not wanted and player.trains >= TICKET_TRAINS and s.ticket_deck:
        return DrawTickets(name)
    if options and (not wanted or not can_draw or player.cards >= HOARD or player.trains < TICKET_TRAINS // 2):
        affordable = [o for o in options.values() if o.route.length <= player.trains]
        best = max(affordable, key=lambda o: (o.route.length, -o.route.id))
        return _claim(game, name, best)
    if can_draw:
        return _draw(game, name, second=False)
    if s.ticket_deck:
        return DrawTickets(name)
    return Pass(name)
