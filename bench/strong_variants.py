"""The strong autopilot with some of its constants changed, in one seat, against the plain strong autopilot.

Run: .venv/bin/python -m bench.strong_variants [--games N] [--games2 N] [--prefix P] [--set NAME=VALUE ...] [--own]

Each `--set` changes one of engine/strong.py's constants (TICKET_TRAINS,
KEEP_SAFETY, MAX_KEEP, ...) for the tested seat only: the constants are set
before each of its decisions and put back after it, so the other seats play
the plain strong autopilot. Without --set it plays strong against strong
(chance: 25% of four-player games, 50% of two-player ones), on the same seeds,
which is the figure to compare with. With --own the tested seat plays the
tuning the expert gives its own seat in that game (`engine.expert.own_tuning`,
its OWN_TUNINGS), the `--set` constants on top. Strong games are fast (about 50 ms a
four-player game), so thousands of games tell a change of a few percent: a
way to look for a better policy for the expert's search to start from
(docs/benchmarks.md). Prints win rates with 95% intervals (Wilson) and the
tested seat's mean margin over the best other player; asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import engine.strong as strong
import engine.strong_seat as strong_seat
import engine.strong_tuning as strong_tuning
from bench.autopilot import wilson
from engine import Game
from engine.expert import own_tuning
from engine.strong import DEFAULT_TUNING
from maps import MAP_NAMES, load_board

MAX_MOVES = 3000


@dataclass(frozen=True)
class Job:
    map_name: str
    players: int
    seat: int
    seed: str
    changes: tuple[tuple[str, float], ...]
    own: bool = False  # the tested seat plays the expert's own tuning for the game


def tunable() -> dict[str, float]:
    """The strong autopilot's numeric constants (engine/strong_tuning.py), by name."""
    out: dict[str, float] = {}
    for name, value in vars(strong_tuning).items():
        if name.isupper() and name not in ("INF", "PATHS_KEPT") and isinstance(value, int | float):
            out[name] = value
    return out


def _set(key: str, value: float) -> None:
    """Set a constant in every strong module that reads it (each imported its own name)."""
    for module in (strong_tuning, strong_seat, strong):
        if hasattr(module, key):
            setattr(module, key, value)


def play(job: Job) -> tuple[float, int]:
    """(the tested seat's share of the victory, its margin over the best other player)."""
    names = [f"p{i}" for i in range(job.players)]
    game = Game(load_board(job.map_name), names, job.seed)
    tested = names[job.seat]
    tuning = own_tuning(game) if job.own else DEFAULT_TUNING
    plain = tunable()
    for _ in range(MAX_MOVES):
        if game.finished:
            break
        name = game.waiting_for()[0]
        if name == tested:
            for key, value in job.changes:
                _set(key, value)
            try:
                move = strong.choose_strong(game, name, tuning)
            finally:
                for key, _ in job.changes:
                    _set(key, plain[key])
        else:
            move = strong.choose_strong(game, name)
        game.apply(move)
    winners = game.winners() if game.finished else []
    totals = [score.total for score in game.score()]
    margin = totals[job.seat] - max(t for i, t in enumerate(totals) if i != job.seat)
    return (1 / len(winners) if tested in winners else 0.0), margin


def parse_change(text: str, known: dict[str, float]) -> tuple[str, float]:
    name, _, value = text.partition("=")
    if name not in known:
        raise SystemExit(f"unknown constant {name!r}: one of {', '.join(sorted(known))}")
    return name, type(known[name])(float(value))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=800, help="four-player USA games (default 800)")
    parser.add_argument("--games2", type=int, default=400, help="two-player games per map (default 400)")
    parser.add_argument("--maps", default=",".join(MAP_NAMES), help="maps for the two-player games")
    parser.add_argument("--prefix", default="sv", help="seeds: this text before each game's number")
    parser.add_argument("--jobs", type=int, default=2, help="processes to play in (default 2)")
    parser.add_argument("--set", action="append", default=[], help="NAME=VALUE: a constant of the tested seat")
    parser.add_argument("--own", action="store_true", help="the tested seat plays the expert's own tuning")
    args = parser.parse_args()
    known = tunable()
    changes = tuple(parse_change(text, known) for text in args.set)
    rows: list[tuple[str, int, int]] = [("usa", 4, args.games)]
    rows += [(name, 2, args.games2) for name in args.maps.split(",") if args.games2]
    began = time.perf_counter()
    label = ", ".join(f"{k}={v:g}" for k, v in changes) or ("none" if args.own else "none (strong against strong)")
    if args.own:
        label = f"the expert's own tuning; {label}"
    print(f"changed in the tested seat: {label}")
    print(f"{'games':<24} {'played':>6} {'wins':>7} {'95% interval':>15} {'margin':>7}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for map_name, players, count in rows:
            if not count:
                continue
            jobs = [
                Job(map_name, players, i % players, f"{args.prefix}-{map_name}-{players}-{i}", changes, args.own)
                for i in range(count)
            ]
            results = list(pool.map(play, jobs, chunksize=8))
            wins = sum(r[0] for r in results)
            low, high = wilson(wins, len(results))
            margin = sum(r[1] for r in results) / len(results)
            interval = f"{low:.1%}-{high:.1%}"
            print(
                f"{f'{map_name}, {players} players':<24} {len(results):>6} {wins / len(results):>7.1%}"
                f" {interval:>15} {margin:>+7.1f}"
            )
    print(f"({time.perf_counter() - began:.0f} s, {args.jobs} processes)")


if __name__ == "__main__":
    main()
