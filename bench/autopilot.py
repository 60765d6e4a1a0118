"""Autopilot benchmark: how often a level beats the one below it, and how long it thinks.

Run: .venv/bin/python -m bench.autopilot [--expert] [--games N] [--games2 N] [--jobs J] [--prefix P]

Without --expert, `strong` against `steady`:
- four-player USA: one strong seat against three steady ones, the strong
  seat rotated through every position (floor: it wins >= 60%; chance 25%);
- two-player games, strong against steady on every map, seats alternated
  (floor: >= 65% on each map);
- the strong autopilot's decision time, p50 and p99 (floor: p99 <= 500 ms).

With --expert, `expert` against `strong` in the same games (floors: >= 60%
of four-player USA games against three strong seats, >= 65% of two-player
games on every map, decision p99 <= 2 s); --time-limit, --work, --worlds,
--search-seed, --infer (--no-infer, --infer-players) and the others set its
search (engine/expert.py's `Search`). The issue's figure
is 400 games of each; an expert game takes a minute or more of CPU, so a
quick run (--games 8) only shows the way.

A shared victory counts as a fraction (1 / winners). Each win rate comes with
its 95% confidence interval (Wilson). Prints PASS/FAIL per floor; asserts
nothing (win rates and speed live here, not in tests).
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass

from engine import Game
from engine.autopilot import Level, choose_move, choose_split
from engine.expert import DEFAULT_SEARCH, Search
from maps import MAP_NAMES, load_board

FOUR_PLAYER_FLOOR = 0.60
TWO_PLAYER_FLOOR = 0.65
P99_FLOOR_MS = {Level.STRONG: 500.0, Level.EXPERT: 2000.0}
MAX_MOVES = 3000


@dataclass(frozen=True)
class Outcome:
    won: float  # the tested seat's share of the victory
    times: list[float]  # seconds per decision of the tested seat
    moves: int
    differ: int = 0  # the tested seat's moves unlike the level below's in its place


@dataclass(frozen=True)
class Job:
    map_name: str
    players: int
    seat: int  # the tested level's seat
    seed: str
    level: Level  # the tested level; the others play the level below it
    search: Search = DEFAULT_SEARCH
    split: int = 1  # the expert's search in this many processes


_HELPERS: dict[int, Executor] = {}  # by size: the processes that play the other parts of a split search


def helpers(size: int) -> Executor:
    """This process's helpers for split searches (started once, kept for its games)."""
    if size not in _HELPERS:
        _HELPERS[size] = ProcessPoolExecutor(size)
    return _HELPERS[size]


BELOW = {Level.STRONG: Level.STEADY, Level.EXPERT: Level.STRONG}


def play(job: Job) -> Outcome:
    board = load_board(job.map_name)
    names = [f"p{i}" for i in range(job.players)]
    game = Game(board, names, job.seed)
    tested = names[job.seat]
    times: list[float] = []
    differ = 0
    for _ in range(MAX_MOVES):
        waiting = game.waiting_for()
        if not waiting:
            break
        name = waiting[0]
        if name == tested:
            start = time.perf_counter()
            if job.level is Level.EXPERT and job.split > 1:
                move = choose_split(game, name, job.search, helpers(job.split - 1), job.split)
            else:
                move = choose_move(game, name, job.level, job.search)
            times.append(time.perf_counter() - start)
            differ += move != choose_move(game, name, BELOW[job.level])
        else:
            move = choose_move(game, name, BELOW[job.level])
        game.apply(move)
    winners = game.winners() if game.finished else []
    won = 1 / len(winners) if tested in winners else 0.0
    return Outcome(won, times, len(game.moves), differ)


def play_all(pool: Executor, jobs: list[Job], expert: bool, split: int) -> list[Outcome]:
    """The games, in the pool's processes; with a split search one at a time here, so that the machine's cores
    go to each decision's parts."""
    if split > 1:
        return [play(job) for job in jobs]
    return list(pool.map(play, jobs, chunksize=1 if expert else 4))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% confidence interval of a win rate (Wilson score interval)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--expert", action="store_true", help="expert against strong (default: strong against steady)")
    parser.add_argument("--games", type=int, default=200, help="four-player USA games (default 200)")
    parser.add_argument("--games2", type=int, default=None, help="two-player games per map (default: games / 2)")
    parser.add_argument("--jobs", type=int, default=2, help="processes to play in (default 2)")
    parser.add_argument("--maps", default=",".join(MAP_NAMES), help="maps for the two-player games")
    parser.add_argument("--skip4", action="store_true", help="skip the four-player games")
    parser.add_argument("--prefix", default="", help="another set of seeds: this text before each game's seed")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_SEARCH.time_limit, help="expert: seconds a move")
    parser.add_argument(
        "--work",
        type=int,
        default=None,
        help="expert: simulated moves a move (default: the bot's, 16,000 for each process of --split)",
    )
    parser.add_argument("--worlds", type=int, default=DEFAULT_SEARCH.worlds, help="expert: sampled worlds a move")
    parser.add_argument("--search-seed", default=DEFAULT_SEARCH.seed, help="expert: the search seed")
    parser.add_argument(
        "--prune", type=float, default=DEFAULT_SEARCH.prune, help="expert: drop candidates surely not better"
    )
    parser.add_argument(
        "--confidence", type=float, default=DEFAULT_SEARCH.confidence, help="expert: standard errors to deviate"
    )
    parser.add_argument(
        "--confidence-many",
        type=float,
        default=DEFAULT_SEARCH.confidence_many,
        help="expert: standard errors to deviate with three or more players (0: as --confidence)",
    )
    parser.add_argument(
        "--horizon", type=int, default=DEFAULT_SEARCH.horizon, help="expert: rollout moves before the estimate"
    )
    parser.add_argument(
        "--infer", type=float, default=DEFAULT_SEARCH.infer, help="expert: how strongly worlds read the table"
    )
    parser.add_argument("--no-infer", action="store_true", help="expert: worlds dealt without reading the table")
    parser.add_argument(
        "--infer-players", type=int, default=DEFAULT_SEARCH.infer_players, help="expert: read it up to N players"
    )
    parser.add_argument(
        "--block", type=float, default=DEFAULT_SEARCH.block, help="expert: weigh a claim that blocks this many trains"
    )
    parser.add_argument(
        "--bonus",
        type=float,
        default=DEFAULT_SEARCH.bonus,
        help="expert: weigh the claim adding this many points beyond its route's (tickets, bonuses)",
    )
    parser.add_argument("--split", type=int, default=1, help="expert: processes per decision (default 1)")
    args = parser.parse_args()
    level = Level.EXPERT if args.expert else Level.STRONG
    limit = args.time_limit if args.time_limit > 0 else None
    search = Search(
        args.search_seed,
        args.worlds,
        args.work if args.work is not None else DEFAULT_SEARCH.work * max(args.split, 1),
        limit,
        prune=args.prune,
        confidence=args.confidence,
        confidence_many=args.confidence_many or None,
        horizon=args.horizon,
        infer=None if args.no_infer else args.infer,
        infer_players=args.infer_players,
        block=args.block,
        bonus=args.bonus,
    )
    games2 = args.games2 if args.games2 is not None else max(args.games // 2, 1)
    times: list[float] = []
    differ = 0
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs4 = [
            Job("usa", 4, i % 4, f"{args.prefix}bench-4p-{i}", level, search, args.split)
            for i in range(0 if args.skip4 else args.games)
        ]
        results4 = play_all(pool, jobs4, args.expert, args.split)
        by_map: dict[str, list[Outcome]] = {}
        for name in args.maps.split(","):
            jobs2 = [
                Job(name, 2, i % 2, f"{args.prefix}bench-2p-{name}-{i}", level, search, args.split)
                for i in range(games2)
            ]
            by_map[name] = play_all(pool, jobs2, args.expert, args.split)
    below = BELOW[level].value
    print(f"{level.value} against {below}")
    print(f"{'games':<28} {'played':>6} {'wins':>7} {'95% interval':>15} {'floor':>6}  verdict")
    ok_all = True
    rows = [(f"usa, 4 players (1 {level.value})", results4, FOUR_PLAYER_FLOOR)] if results4 else []
    rows += [(f"{name}, 2 players", outcomes, TWO_PLAYER_FLOOR) for name, outcomes in by_map.items() if outcomes]
    for label, outcomes, floor in rows:
        wins = sum(o.won for o in outcomes)
        rate = wins / len(outcomes)
        low, high = wilson(wins, len(outcomes))
        ok = rate >= floor
        ok_all &= ok
        times += [t for o in outcomes for t in o.times]
        differ += sum(o.differ for o in outcomes)
        interval = f"{low:.1%}-{high:.1%}"
        print(f"{label:<28} {len(outcomes):>6} {rate:>7.1%} {interval:>15} {floor:>6.0%}  {verdict(ok)}")
    p50, p99 = percentile(times, 0.5) * 1000, percentile(times, 0.99) * 1000
    worst = max(times, default=0.0) * 1000
    ok = p99 <= P99_FLOOR_MS[level]
    ok_all &= ok
    print()
    print(f"{level.value} decisions: {len(times)}, p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {worst:.1f} ms")
    print(f"moves unlike {below}'s in its place: {differ} of {len(times)}")
    print(f"decision time p99 <= {P99_FLOOR_MS[level]:.0f} ms: {verdict(ok)}")
    if args.expert:
        limit = "none" if search.time_limit is None else f"{search.time_limit:g} s"
        horizon = "to the end" if search.horizon is None else f"{search.horizon} moves, then estimated"
        print(f"search: seed {search.seed!r}, at most {search.worlds} worlds, {search.work} moves, {limit}")
        if args.split > 1:
            print(f"... split between {args.split} processes a decision")
        pruned = "never" if search.prune is None else f"below {search.prune:g} standard errors"
        print(f"rollouts: {horizon}; candidates dropped: {pruned}; deviates by {search.confidence:g} standard errors")
        if search.confidence_many is not None:
            print(f"... by {search.confidence_many:g} standard errors in games of three or more players")
        inferred = "no" if search.infer is None else f"strength {search.infer:g}, up to {search.infer_players} players"
        print(f"worlds read the table (seen cards, tickets by routes): {inferred}")
        if search.block is not None:
            print(f"a blocking claim weighed when it lengthens the others' likely paths by {search.block:g} trains")
        if search.bonus is not None:
            print(f"the claim adding most beyond its route's points weighed from {search.bonus:g} points")
    processes = args.split if args.split > 1 else args.jobs
    print(f"all floors: {verdict(ok_all)}  ({time.perf_counter() - began:.0f} s, {processes} processes)")


if __name__ == "__main__":
    main()
