"""Engine benchmark: random legal games per second, and final scoring time.

Run: .venv/bin/python -m bench.engine [--games N] [--rounds N]
     [--baseline ROOT [--legal-only] [--strong-games N] [--map MAP --players N]]

With `--baseline ROOT`, first issue #28's figure: four-player USA random
games per second of the engine of the checkout at ROOT ("today's engine":
main at commit be8f5af114fad7d57059f1ec5f1b46cc42f9c32e when issue #28's engine
work began) and of this one, each played by the random player as it was
before moves were listed lazily: it asks `legal_moves()` for every move (the
full list, claims and payments enumerated) and picks a kind, then a move
(bench/legal_play.py). Each engine runs in its own process (bench/legal_play.py
with its checkout first on the import path); each seed's game is played by
one, then the other, round after round, and each seed counts with its best
time in each engine. Both must play the same games move for move (told).
Then, the same way, what the expert autopilot's search spends its time in:
whole games of the strong autopilot in every seat, scored (its rollouts),
and game starts with three decisions of the expert's search bounded by work
(`--strong-games` seeds of each, 6 by default). `--map` and `--players` play
these comparisons on another board or with another number of players (any
checkout can be the baseline: a later one shows what a change gained). Prints games/s of both
engines and the ratio; asserts nothing. To have today's engine beside this
one:

    git -C MAIN worktree add --detach /tmp/conductor-be8f5af be8f5af114fad7d57059f1ec5f1b46cc42f9c32e
    .venv/bin/python -m bench.engine --baseline /tmp/conductor-be8f5af --legal-only
    git -C MAIN worktree remove /tmp/conductor-be8f5af

(MAIN: any clone of the repository; without `--legal-only` the figures below
follow.)

Then (first, without `--baseline`) issue #17's figure: four-player USA random games per second of this
engine and of the reference (the engine of main at commit baada59, kept in
bench/reference_engine/), measured side by side in this one run: each seed's game
is played by one engine and then the other, round after round, so that a
noisy, shared machine slows both alike, and each seed counts with its best
time in each engine. Both engines play the same games
move for move (checked here too). The ratio must be at least 5 (PASS/FAIL).
Then games per second on every map, and the final scoring time.
Prints figures; asserts nothing (speed targets live here, not in tests).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from bench.reference_engine.game import Game as ReferenceGame
from bench.reference_engine.random_play import play_random as reference_play_random
from engine import Game
from engine.moves import move_to_json
from engine.random_play import play_random
from maps import MAP_NAMES, load_board

SPEEDUP_FLOOR = 5.0  # issue #17: at least 5x the engine of main at baada59
BASELINE_COMMIT = "be8f5af"  # issue #28: today's engine, main when the work on its core began
HERE = Path(__file__).resolve().parent


def usa_game(fast: bool, seed: int) -> tuple[float, list[dict[str, object]]]:
    """Seconds to play one random four-player USA game, and its moves."""
    board = load_board("usa")
    players = [f"p{i}" for i in range(4)]
    start = time.perf_counter()
    if fast:
        game = Game(board, players, seed)
        play_random(game, random.Random(seed))
        moves = game.moves
    else:
        ref = ReferenceGame(board, players, seed)
        reference_play_random(ref, random.Random(seed))
        moves = ref.moves
    elapsed = time.perf_counter() - start
    return elapsed, [move_to_json(m) for m in moves]


def speedup(games: int, rounds: int) -> None:
    """Each seed's game is played by the reference, then by this engine, round after round;
    each seed counts with its fastest time in each engine (a shared machine only ever slows)."""
    best_ref = [float("inf")] * games
    best_fast = [float("inf")] * games
    same = True
    for _ in range(rounds):
        for seed in range(games):
            ref_time, ref_moves = usa_game(False, seed)
            fast_time, fast_moves = usa_game(True, seed)
            best_ref[seed] = min(best_ref[seed], ref_time)
            best_fast[seed] = min(best_fast[seed], fast_time)
            same = same and ref_moves == fast_moves
    ref_gps = games / sum(best_ref)
    fast_gps = games / sum(best_fast)
    ratio = fast_gps / ref_gps
    verdict = "PASS" if ratio >= SPEEDUP_FLOOR and same else "FAIL"
    print(f"four-player USA random games, {games} seeds, each seed's best of {rounds} alternating plays")
    print(f"  reference (main at baada59) {ref_gps:8.1f} games/s")
    print(f"  this engine                 {fast_gps:8.1f} games/s")
    told = "yes" if same else "NO"
    print(f"  ratio {ratio:.2f}x (floor {SPEEDUP_FLOOR:.0f}x), same games move for move: {told}  {verdict}")


class LegalPlayer:
    """A process playing random games over `legal_moves()` with the engine of the checkout at `root`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)  # the engine comes from `root` alone
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "legal_play.py"), str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def play(self, mode: str, seed: int, map_name: str = "usa", players: int = 4) -> tuple[float, int, str]:
        """(seconds, moves, digest of the moves) of the game of `seed` on this map with this many players
        (`mode`: "legal", "strong" or "expert")."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{mode} {seed} {map_name} {players}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the player of {self.root} stopped (exit {self.proc.wait()})")
        answer = json.loads(line)
        return float(answer["seconds"]), int(answer["moves"]), str(answer["digest"])

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def checkout_name(root: Path) -> str:
    """The commit checked out at `root`, short (its path when git cannot tell)."""
    try:
        found = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return str(root)
    return found.stdout.strip()


def legal_speedup(
    baseline: Path, games: int, rounds: int, strong_games: int, map_name: str = "usa", players: int = 4
) -> None:
    """Issue #28: the old random player over `legal_moves()`, the engine at `baseline` and this one, each
    seed's game by one then the other, round after round; each seed counts with its best time. Then the same
    for games of the strong autopilot in every seat (the expert's rollouts) and for expert game starts."""
    label = f"{players}-player {map_name}" if (map_name, players) != ("usa", 4) else "four-player USA"
    other = checkout_name(baseline)
    old = LegalPlayer(baseline)
    new = LegalPlayer(HERE.parent)
    try:
        for mode, count, what in (
            ("legal", games, "random games over legal_moves()"),
            ("strong", strong_games, "games of strong in every seat, scored"),
            ("expert", strong_games, "game starts: 40 strong moves, 3 expert decisions (8 worlds, work 800)"),
        ):
            if not count:
                continue
            best_old = [float("inf")] * count
            best_new = [float("inf")] * count
            moves = [0] * count
            same = True
            for _ in range(rounds):
                for seed in range(count):
                    old_time, old_moves, old_digest = old.play(mode, seed, map_name, players)
                    new_time, new_moves, new_digest = new.play(mode, seed, map_name, players)
                    best_old[seed] = min(best_old[seed], old_time)
                    best_new[seed] = min(best_new[seed], new_time)
                    moves[seed] = new_moves
                    same = same and old_digest == new_digest and old_moves == new_moves
            old_gps = count / sum(best_old)
            new_gps = count / sum(best_new)
            old_ms = sum(best_old) / sum(moves) * 1000
            new_ms = sum(best_new) / sum(moves) * 1000
            print(f"{label} {what}, {count} seeds, each seed's best of {rounds} alternations")
            for who, gps, ms in ((f"the engine at {other}", old_gps, old_ms), ("this engine", new_gps, new_ms)):
                print(f"  {who:<30} {gps:8.2f} games/s, {ms:7.3f} ms a move")
            told = "yes" if same else "NO"
            print(f"  ratio {new_gps / old_gps:.2f}x, same games move for move: {told}")
    finally:
        old.close()
        new.close()


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
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds of the side-by-side comparison")
    parser.add_argument("--speedup-only", action="store_true", help="print only the comparison with the reference")
    parser.add_argument(
        "--baseline", type=Path, help=f"a checkout of today's engine (main at {BASELINE_COMMIT}) to compare with"
    )
    parser.add_argument("--legal-only", action="store_true", help="with --baseline, print only that comparison")
    parser.add_argument("--map", default="usa", choices=MAP_NAMES, help="with --baseline, the map (default usa)")
    parser.add_argument("--players", type=int, default=4, help="with --baseline, the players (default 4)")
    parser.add_argument(
        "--strong-games",
        type=int,
        default=6,
        help="with --baseline, strong games and expert game starts to compare too (0: none)",
    )
    args = parser.parse_args()
    if args.baseline is not None:
        legal_speedup(
            args.baseline.resolve(), max(args.games, 40), args.rounds, args.strong_games, args.map, args.players
        )
        if args.legal_only:
            return
        print()
    speedup(max(args.games, 40), args.rounds)
    if args.speedup_only:
        return
    print()
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
