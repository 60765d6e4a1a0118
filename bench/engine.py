"""Engine benchmark: random legal games per second, and final scoring time.

Run: .venv/bin/python -m bench.engine [--games N]
Prints figures; asserts nothing (speed targets live here, not in tests).
"""

from __future__ import annotations

import argparse
import random
import time

from engine import Game
from engine.random_play import play_random
from maps import MAP_NAMES, load_board


def games_per_second(name: str, players: int, count: int) -> tuple[float, float]:
    board = load_board(name)
    moves = 0
    start = time.perf_counter()
    for seed in range(count):
        game = Game(board, [f"p{i}" for i in range(players)], seed)
        play_random(game, random.Random(seed))
        moves += len(game.moves)
    elapsed = time.perf_counter() - start
    return count / elapsed, moves / elapsed


def crowded_game(name: str) -> Game:
    """The end-of-game board with the most claimed routes among a few random games."""
    board = load_board(name)
    best: Game | None = None
    for seed in range(8):
        game = Game(board, [f"p{i}" for i in range(board.rules.max_players)], f"crowded-{seed}")
        play_random(game, random.Random(seed))
        if best is None or len(game.state.owner) > len(best.state.owner):
            best = game
    assert best is not None
    return best


def scoring_time(game: Game, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        game.score()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="random games per map and player count")
    args = parser.parse_args()
    print(f"{'map':<14} {'players':>7} {'games/s':>9} {'moves/s':>9}")
    for name in MAP_NAMES:
        board = load_board(name)
        for players in sorted({board.rules.min_players, board.rules.max_players}):
            gps, mps = games_per_second(name, players, args.games)
            print(f"{name:<14} {players:>7} {gps:>9.1f} {mps:>9.0f}")
    print()
    print(f"{'map':<14} {'routes claimed':>14} {'final scoring (ms)':>19}")
    for name in MAP_NAMES:
        game = crowded_game(name)
        ms = scoring_time(game, 20) * 1000
        print(f"{name:<14} {len(game.state.owner):>14} {ms:>19.2f}")


if __name__ == "__main__":
    main()
