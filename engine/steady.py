"""The `steady` autopilot: a legal, sensible move for any seat at any moment.

It keeps the cheapest tickets, claims routes on the shortest missing paths of
its tickets when it can pay, otherwise draws the colours those routes need,
and falls back to claiming whatever it can so that a game never stalls. It is
deterministic: the same game state always gives the same move. The paths are
engine/paths.py's; `choose_move` (engine/autopilot.py) picks the level.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.claims import ClaimOption
from engine.game import Game
from engine.moves import Claim, DrawCard, DrawTickets, Keep, Move, Pass, PlaceStack, TunnelPay, payment_of
from engine.paths import missing_routes, route_costs, ticket_cost
from engine.state import Pending, Phase
from maps import GRAY, WILD, Route

# Below this many trains the autopilot stops taking new tickets.
TICKET_TRAINS = 12
# With this many cards in hand it claims any route rather than keep drawing.
HOARD = 14


def choose_steady(game: Game, name: str) -> Move:
    """The steady autopilot's move for `name`, who must be able to act now."""
    s = game.state
    seat = game.seat(name)
    if s.phase is Phase.OVER:
        raise ValueError("the game is over")
    if s.phase is Phase.SETUP_PLACE:
        return placement(game, name)
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


def placement(game: Game, name: str) -> PlaceStack:
    """Where to place a tourist stack (San Francisco's setup): the free place most routes meet."""
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
