"""How much the expert's search is held back by what its seat cannot see: the same search against strong, its
worlds dealt three ways, on the same seeds.

Run: .venv/bin/python -m bench.expert_bounds [--players 4] [--games N] [--map usa] [--worlds 6] [--modes ...]

- `alike`: every card and ticket the seat cannot see dealt anew, all alike
  (`Search.infer` None);
- `reading`: dealt by what the table has seen (`Search.infer`, in games of
  any size here);
- `known`: a bound, not a player: the other players' tickets and hands as
  they really are; only the order of the card deck and of the ticket deck is
  dealt anew. The search peeks here, so this mode only says what better
  worlds could be worth (the expert itself never plays it).

Each decision searches a fixed number of worlds (`--worlds`) with no time
limit by default, so the three differ only in their worlds. The expert sits
in one seat, rotated, against strong in the others (chance: 1 / players).
Prints each mode's wins with a 95% interval (Wilson) and its moves unlike
strong's; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

import engine.expert as expert
from bench.autopilot import wilson
from engine import Game
from engine.strong import choose_strong
from maps import MAP_NAMES, load_board

MAX_MOVES = 3000
MODES = ("alike", "reading", "known")
SAMPLE_WORLD = expert.sample_world


@dataclass(frozen=True)
class Job:
    map_name: str
    players: int
    seat: int
    seed: str
    mode: str
    search: expert.Search


def known_world(
    game: Game, name: str, rng: random.Random, label: str, *_: object
) -> Game:  # the signature of expert.sample_world
    """The game as it is, except the order of the card deck, of the ticket deck and of the discard pile's
    future reshuffles (a peeking bound: the others' hands and tickets are the real ones)."""
    world = game.copy()
    s = world.state
    deck = sorted(s.piles.deck)
    rng.shuffle(deck)
    s.piles.deck = deck
    tickets = sorted(s.ticket_deck)
    rng.shuffle(tickets)
    s.ticket_deck = tickets
    s.piles.seed = label
    world.seed = label
    world.moves = []
    return world


def play(job: Job) -> tuple[float, int, int]:
    """(the expert seat's share of the victory, its decisions, those unlike strong's)."""
    sample: Callable[..., Game] = known_world if job.mode == "known" else SAMPLE_WORLD
    expert.sample_world = sample  # in this worker process, for this game
    names = [f"p{i}" for i in range(job.players)]
    game = Game(load_board(job.map_name), names, job.seed)
    tested = names[job.seat]
    decisions = differ = 0
    for _ in range(MAX_MOVES):
        if game.finished:
            break
        name = game.waiting_for()[0]
        move = choose_strong(game, name)
        if name == tested:
            chosen = expert.choose_expert(game, name, job.search)
            decisions += 1
            differ += chosen != move
            move = chosen
        game.apply(move)
    winners = game.winners() if game.finished else []
    return (1 / len(winners) if tested in winners else 0.0), decisions, differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4, help="players a game (default 4)")
    parser.add_argument("--games", type=int, default=48, help="games per mode (default 48)")
    parser.add_argument("--map", default="usa", choices=MAP_NAMES, help="the board (default usa)")
    parser.add_argument("--modes", default=",".join(MODES), help=f"some of {', '.join(MODES)}")
    parser.add_argument("--worlds", type=int, default=6, help="worlds a decision (default 6)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds a decision (default: none)")
    parser.add_argument(
        "--confidence", type=float, default=None, help="standard errors to deviate (default: the expert's default)"
    )
    parser.add_argument("--strength", type=float, default=expert.INFER, help="reading: how strongly (Search.infer)")
    parser.add_argument("--prefix", default="k5", help="seeds: this text before each game's number")
    parser.add_argument("--jobs", type=int, default=2, help="processes to play in (default 2)")
    args = parser.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    for mode in modes:
        if mode not in MODES:
            raise SystemExit(f"unknown mode {mode!r}: one of {', '.join(MODES)}")
    confidence = args.confidence or expert.DEFAULT_SEARCH.confidence_for(args.players)
    base = expert.Search(
        worlds=args.worlds,
        work=10**9,
        time_limit=args.time_limit,
        confidence=confidence,
        confidence_many=confidence,
        infer=args.strength,
        infer_players=args.players,
    )
    searches = {"alike": replace(base, infer=None), "reading": base, "known": replace(base, infer=None)}
    began = time.perf_counter()
    print(
        f"expert (one seat) against strong: {args.players} players, {args.map}, {args.worlds} worlds a decision,"
        f" deviating by {confidence:g} standard errors"
    )
    print(f"{'worlds':<10} {'played':>6} {'wins':>7} {'95% interval':>15} {'unlike strong':>16}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for mode in modes:
            jobs = [
                Job(args.map, args.players, i % args.players, f"{args.prefix}-{args.map}-{i}", mode, searches[mode])
                for i in range(args.games)
            ]
            results = list(pool.map(play, jobs))
            wins = sum(r[0] for r in results)
            low, high = wilson(wins, len(results))
            interval = f"{low:.1%}-{high:.1%}"
            unlike = f"{sum(r[2] for r in results)} of {sum(r[1] for r in results)}"
            print(f"{mode:<10} {len(results):>6} {wins / len(results):>7.1%} {interval:>15} {unlike:>16}")
    print(f"chance: {1 / args.players:.0%} ({time.perf_counter() - began:.0f} s, {args.jobs} processes)")


if __name__ == "__main__":
    main()
