"""Autopilot benchmark: how often `strong` beats `steady`, and how long it thinks.

Run: .venv/bin/python -m bench.autopilot [--games N] [--games2 N] [--jobs J] [--prefix P]

- four-player USA: one strong seat against three steady ones, the strong
  seat rotated through every position (floor: it wins >= 60%; chance 25%);
- two-player games, strong against steady on every map, seats alternated
  (floor: >= 65% on each map);
- the strong autopilot's decision time, p50 and p99 (floor: p99 <= 500 ms).

A shared victory counts as a fraction (1 / winners). Prints PASS/FAIL per
floor; asserts nothing (win rates and speed live here, not in tests).
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine import Game
from engine.autopilot import Level, choose_move
from maps import MAP_NAMES, load_board

FOUR_PLAYER_FLOOR = 0.60
TWO_PLAYER_FLOOR = 0.65
P99_FLOOR_MS = 500.0
MAX_MOVES = 3000


@dataclass(frozen=True)
class Outcome:
    won: float  # the strong seat's share of the victory
    times: list[float]  # seconds per strong decision
    moves: int


def play(map_name: str, players: int, strong_seat: int, seed: str) -> Outcome:
    board = load_board(map_name)
    names = [f"p{i}" for i in range(players)]
    game = Game(board, names, seed)
    strong = names[strong_seat]
    times: list[float] = []
    for _ in range(MAX_MOVES):
        waiting = game.waiting_for()
        if not waiting:
            break
        name = waiting[0]
        if name == strong:
            start = time.perf_counter()
            move = choose_move(game, name, Level.STRONG)
            times.append(time.perf_counter() - start)
        else:
            move = choose_move(game, name, Level.STEADY)
        game.apply(move)
    winners = game.winners() if game.finished else []
    won = 1 / len(winners) if strong in winners else 0.0
    return Outcome(won, times, len(game.moves))


def _play(args: tuple[str, int, int, str]) -> Outcome:
    return play(*args)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="four-player USA games (default 200)")
    parser.add_argument("--games2", type=int, default=None, help="two-player games per map (default: games / 2)")
    parser.add_argument("--jobs", type=int, default=2, help="processes to play in (default 2)")
    parser.add_argument("--maps", default=",".join(MAP_NAMES), help="maps for the two-player games")
    parser.add_argument("--skip4", action="store_true", help="skip the four-player games")
    parser.add_argument("--prefix", default="", help="another set of seeds: this text before each game's seed")
    args = parser.parse_args()
    games2 = args.games2 if args.games2 is not None else max(args.games // 2, 1)
    times: list[float] = []
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs4 = [] if args.skip4 else [("usa", 4, i % 4, f"{args.prefix}bench-4p-{i}") for i in range(args.games)]
        results4 = list(pool.map(_play, jobs4, chunksize=4))
        by_map: dict[str, list[Outcome]] = {}
        for name in args.maps.split(","):
            jobs2 = [(name, 2, i % 2, f"{args.prefix}bench-2p-{name}-{i}") for i in range(games2)]
            by_map[name] = list(pool.map(_play, jobs2, chunksize=4))
    print(f"{'games':<28} {'played':>6} {'strong wins':>11} {'floor':>6}  verdict")
    ok_all = True
    if results4:
        rate = sum(o.won for o in results4) / len(results4)
        ok = rate >= FOUR_PLAYER_FLOOR
        ok_all &= ok
        times += [t for o in results4 for t in o.times]
        label = "usa, 4 players (1 strong)"
        print(f"{label:<28} {len(results4):>6} {rate:>10.1%} {FOUR_PLAYER_FLOOR:>6.0%}  {verdict(ok)}")
    for name, outcomes in by_map.items():
        rate = sum(o.won for o in outcomes) / len(outcomes)
        ok = rate >= TWO_PLAYER_FLOOR
        ok_all &= ok
        times += [t for o in outcomes for t in o.times]
        print(f"{name + ', 2 players':<28} {len(outcomes):>6} {rate:>10.1%} {TWO_PLAYER_FLOOR:>6.0%}  {verdict(ok)}")
    p50, p99 = percentile(times, 0.5) * 1000, percentile(times, 0.99) * 1000
    worst = max(times, default=0.0) * 1000
    ok = p99 <= P99_FLOOR_MS
    ok_all &= ok
    print()
    print(f"strong decisions: {len(times)}, p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {worst:.1f} ms")
    print(f"decision time p99 <= {P99_FLOOR_MS:.0f} ms: {verdict(ok)}")
    print(f"all floors: {verdict(ok_all)}  ({time.perf_counter() - began:.0f} s, {args.jobs} processes)")


if __name__ == "__main__":
    main()
