"""Real games driven into the state where nobody can do anything but pass (docs/rules.md, "A game nobody can
finish").

Every move is a legal move of the engine. The drive first draws tickets (keeping the fewest) until the ticket
deck is empty; then each player claims the routes of its plan, made before the game: every route of three or
fewer spaces (one track of each double, which closes the other with these few players) shared out, topped up
with longer routes so that each player's routes take exactly all but `LEFT` of its pieces (the final round
never begins); between claims it draws cards, and once its plan is done it draws until no card is left to
take. Then every card is in a hand, nobody has pieces for a route still free, and each player must pass.
"""

from __future__ import annotations

import random
from functools import cache

from engine import Game
from engine.moves import Claim, DrawTickets, Keep, Move, Pass, PlaceStack, TunnelPay
from engine.options import MAX_TRAINS_OPTION
from engine.state import Pending, Phase
from maps import Board, load_board

LEFT = 3  # pieces each player keeps: with 2 or fewer the final round would begin

Ends = frozenset[str]


def _tracks(board: Board, players: int) -> list[tuple[Ends, int]]:
    """The routes to share out, by their ends, with their lengths: both tracks of a double when this many
    players may use both, else one."""
    both = players >= board.rules.both_doubles_from
    return [(frozenset(r.ends), r.length) for r in board.routes if both or not r.double_index]


def _share(board: Board, players: int, trains: int, rng: random.Random) -> list[set[Ends]] | None:
    """One try at the plans: each short route to the seat with the most room (never both tracks of a double
    to one seat), then each seat topped up with long routes; None when some seat's room is not used exactly."""
    tracks = _tracks(board, players)
    short = [t for t in tracks if t[1] <= LEFT]
    long = sorted((t for t in tracks if t[1] > LEFT), key=lambda t: (-t[1], sorted(t[0])))
    rng.shuffle(short)
    short.sort(key=lambda t: -t[1])
    plans: list[set[Ends]] = [set() for _ in range(players)]
    room = [trains - LEFT] * players
    for ends, length in short:
        free = [i for i in range(players) if ends not in plans[i]]
        seat = max(free, key=lambda i: (room[i], rng.random()))
        plans[seat].add(ends)
        room[seat] -= length
    for seat in range(players):
        for track in list(long):
            ends, length = track
            left = room[seat] - length
            if ends not in plans[seat] and (left == 0 or left > LEFT):  # the rest can still be long routes
                plans[seat].add(ends)
                room[seat] = left
                long.remove(track)
    return plans if not any(room) else None


def plan(board: Board) -> tuple[int, int, list[set[Ends]]]:
    """The seats, the pieces each (the `trains` option) and each seat's plan: every route of LEFT or fewer
    spaces is in one plan, and each plan takes exactly all but LEFT of its seat's pieces."""
    rules = board.rules
    rng = random.Random(board.rules.title)
    for players in range(rules.min_players, rules.max_players + 1):
        for trains in range(LEFT + 1, MAX_TRAINS_OPTION + 1):
            for _ in range(50):
                plans = _share(board, players, trains, rng)
                if plans is not None:
                    return players, trains, plans
    raise ValueError(f"{rules.title}: no plan")


class Drive:
    """The drive of one game: its plans, and the next move for whoever must act."""

    def __init__(self, game: Game, plans: list[set[Ends]]) -> None:
        self.game = game
        self.plans = plans

    def move(self) -> Move | None:
        game = self.game
        waiting = game.waiting_for()
        if not waiting:
            return None
        name = waiting[0]
        s = game.state
        if s.phase is Phase.SETUP_PLACE:
            return next(m for m in game.legal_moves(name) if isinstance(m, PlaceStack))
        if s.phase is Phase.SETUP_KEEP or s.pending is Pending.KEEP:
            keeps = [m for m in game.legal_moves(name) if isinstance(m, Keep)]
            return min(keeps, key=lambda m: len(m.tickets))
        if s.pending is Pending.TUNNEL:
            pays = [m for m in game.legal_moves(name) if isinstance(m, TunnelPay)]
            return pays[0]  # pay when the hand can, else give the tunnel up (listed last)
        if s.pending is Pending.DRAW:
            return game.legal_moves(name)[0]
        kinds = game.moves_by_kind(name)
        if "DrawTickets" in kinds:
            return DrawTickets(name)
        mine = self.plans[game.seat(name)]
        claims = [m for m in kinds.get("Claim", ()) if isinstance(m, Claim)]
        planned = [m for m in claims if frozenset((m.a, m.b)) in mine]
        if planned:
            return planned[0]
        draws = kinds.get("DrawCard", ())
        if draws:
            return draws[0]
        if claims:
            return claims[0]  # the drive failed: a claim off the plan (the final round may begin)
        return Pass(name)


@cache
def plan_of(map_name: str) -> tuple[int, int, list[set[Ends]]]:
    """`plan` of the map's board, worked out once."""
    return plan(load_board(map_name))


def drive(map_name: str, seed: str | int = "stalemate") -> Game:
    """A game of `map_name`, with the bot's rule that a whole round of passes ends it, driven until it is over
    (by the stalemate when the drive works)."""
    board = load_board(map_name)
    players, trains, plans = plan_of(map_name)
    game = Game(board, [f"p{i + 1}" for i in range(players)], seed, trains=trains, pass_round_ends=True)
    steps = Drive(game, plans)
    for _ in range(20000):
        move = steps.move()
        if move is None:
            return game
        game.apply(move)
    raise AssertionError(f"{map_name}: the drive did not end in 20000 moves")
