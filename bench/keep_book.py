"""The expert's opening book for four-player USA: how often its own seat wins with each pair of first tickets kept.

Run: .venv/bin/python -m bench.keep_book [--games N] [--prefix P] [--jobs N] [--out FILE]

The first tickets decide much of a four-player game: with the same three
tickets offered, the expert's own seat (the strong autopilot with the
expert's tuning, `engine.expert.own_tuning`) against three plain strong
seats wins 4% of its games with one pair kept and 75% with another, and the
pair strong's keep rule picks wins about five points less than the best
pair of the offer (docs/benchmarks.md). So for every pair of the map's
tickets this plays `--games` four-player games in which the seat (rotated
through the four seats) is offered the pair and a third ticket (drawn by the
game's seed from the others), keeps the pair, and plays the rest of the game
with its tuning against three plain strong seats. Each pair's share of wins
(a shared victory counts its share) goes into the book, which
`engine.keep_book` reads: at the first keep the expert's own seat keeps the
offered pair that won most. The book depends only on the tickets, so keeping
by it reads nothing but the seat's own offer.

Writes the book (JSON) to --out and prints the pairs' spread; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from engine import Game
from engine.expert import own_tuning
from engine.keep_book import BOOK_PATH, pair_key
from engine.moves import Keep, Move
from engine.state import Phase
from engine.strong import DEFAULT_TUNING, choose_strong
from maps import load_board

MAP = "usa"
PLAYERS = 4
MAX_MOVES = 3000


@dataclass(frozen=True)
class Job:
    pair: tuple[int, int]
    index: int
    prefix: str


def play(job: Job) -> float:
    """The seat's share of the victory in one game where it keeps the pair."""
    board = load_board(MAP)
    a, b = job.pair
    seed = f"{job.prefix}-{a}-{b}-{job.index}"
    rng = random.Random(seed)
    others = [t.id for t in board.tickets if t.id not in job.pair]
    offer = [a, b, rng.choice(others)]
    rng.shuffle(offer)
    deck = [t.id for t in board.tickets if t.id not in offer]
    rng.shuffle(deck)
    seat = job.index % PLAYERS
    # the seats are offered the deck's first tickets in turn: this seat's three are the offer
    deal = board.rules.initial_deal
    order = deck[: deal * seat] + offer + deck[deal * seat :]
    names = [f"p{i}" for i in range(PLAYERS)]
    game = Game(board, names, seed, tickets=order)
    tested = names[seat]
    tuning = own_tuning(game)
    for _ in range(MAX_MOVES):
        if game.finished:
            break
        name = game.waiting_for()[0]
        move: Move
        if name == tested and game.state.phase is Phase.SETUP_KEEP:
            move = Keep(name, (game.ticket_ref(a), game.ticket_ref(b)))
        else:
            move = choose_strong(game, name, tuning if name == tested else DEFAULT_TUNING)
        game.apply(move)
    winners = game.winners() if game.finished else []
    return 1 / len(winners) if tested in winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=192, help="games for each pair of tickets (default 192)")
    parser.add_argument("--prefix", default="kb", help="seeds: this text before each game's pair and number")
    parser.add_argument("--jobs", type=int, default=2, help="processes to play in (default 2)")
    parser.add_argument("--out", type=Path, default=BOOK_PATH, help="where to write the book")
    args = parser.parse_args()
    board = load_board(MAP)
    pairs = list(combinations(range(len(board.tickets)), 2))
    began = time.perf_counter()
    jobs = [Job(pair, i, args.prefix) for pair in pairs for i in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(play, jobs, chunksize=32))
    wins: dict[str, float] = {}
    for k, pair in enumerate(pairs):
        share = sum(results[k * args.games : (k + 1) * args.games]) / args.games
        wins[pair_key(board, *pair)] = round(share, 4)
    book = {"map": MAP, "players": PLAYERS, "games": args.games, "prefix": args.prefix, "wins": wins}
    args.out.write_text(json.dumps(book, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    ranked = sorted(wins.values())
    print(f"{len(pairs)} pairs of {MAP} tickets, {args.games} four-player games each, seeds {args.prefix}-*")
    print(f"wins: lowest {ranked[0]:.1%}, median {ranked[len(ranked) // 2]:.1%}, highest {ranked[-1]:.1%}")
    print(f"written to {args.out} ({time.perf_counter() - began:.0f} s, {args.jobs} processes)")


if __name__ == "__main__":
    main()
