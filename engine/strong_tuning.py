"""The strong autopilot's constants, its per-seat `Tuning`, its `Plan`, and the route weights it plans with.

`bench.strong_variants --set NAME=VALUE` changes a constant in every strong module that reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Game
from maps import Board

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


def base_weights(game: Game, long_worth: float = LONG_ROUTE_WORTH) -> list[float]:
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


def floored_weights(game: Game, long_worth: float = LONG_ROUTE_WORTH) -> list[float]:
    """`base_weights`, each at least 0.05 (worked out once per board and worth)."""
    board = game.board
    found = _FLOORED.get((id(board), long_worth))
    if found is not None and found[0] is board:
        return found[1]
    weights = [max(0.05, w) for w in base_weights(game, long_worth)]
    _FLOORED[(id(board), long_worth)] = (board, weights)
    return weights
