"""Random legal play: for property tests, benchmarks and sample games."""

from __future__ import annotations

import random

from engine.game import Game
from engine.moves import Keep, Move, TunnelPay


def random_move(game: Game, rng: random.Random) -> Move | None:
    """A random legal move for whoever must act, or None when the game is over.

    Moves are picked by kind first (claim, cards, tickets) so that games end
    in a reasonable number of turns instead of drowning in ticket draws.
    """
    waiting = game.waiting_for()
    if not waiting:
        return None
    kinds = game.moves_by_kind(rng.choice(waiting))
    weights = {"Claim": 6, "DrawCard": 3, "DrawTickets": 1}
    names = sorted(kinds)
    kind = rng.choices(names, [weights.get(k, 1) for k in names])[0]
    choice = kinds[kind]
    if kind == "Keep":
        # keep few tickets most of the time, like cautious players do
        fewest = min(len(m.tickets) for m in choice if isinstance(m, Keep))
        few = [m for m in choice if isinstance(m, Keep) and len(m.tickets) == fewest]
        return rng.choice(few if rng.random() < 0.7 else choice)
    if kind == "TunnelPay" and rng.random() < 0.2:
        return TunnelPay(choice[0].player, None)
    return rng.choice(choice)


def play_random(game: Game, rng: random.Random, max_moves: int = 5000) -> Game:
    """Play random legal moves until the game ends or `max_moves` were made."""
    for _ in range(max_moves):
        move = random_move(game, rng)
        if move is None:
            break
        game.apply(move)
    return game
