"""Tournament benchmark (issue 14): pairing a round of 500 players, standings of 500 players over 9 rounds.

Run: .venv/bin/python -m bench.tournament [--players N] [--rounds R] [--table-size S] [--repeat K]

A seeded tournament is played out: every round is paired by
`bot.service.tournaments.pair_round` (table size 4 by default, on a 2-5 player map) from
the standings so far, each table gets random places (with some ties), scores
and tickets, and the standings are worked out again. Then it times, best of
`repeat`: pairing the last round (after all the others' history) and the
standings of all rounds' games. It prints the figures, the repeated pairs of
the timed round and the floor (1 s each, PASS/FAIL); it asserts nothing
(speed targets live here, not in tests).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bot.service.tournaments import Finish, History, TableResult, pair_round, repeated_pairs, standings, table_sizes

FLOOR_S = 1.0  # the brief: well under a second each


def play_table(seats: tuple[int, ...], rng: random.Random) -> TableResult:
    """Random results at one table: places 1..N with an occasional tie, scores and tickets."""
    order = list(seats)
    rng.shuffle(order)
    finishes = []
    place = 1
    for position, player in enumerate(order, start=1):
        if position > 1 and rng.random() >= 0.1:  # one in ten shares the place above
            place = position
        finishes.append(Finish(player, place, rng.randint(40, 160), rng.randint(0, 6)))
    return TableResult(finishes)


def play(players: int, rounds: int, seed: int, args_size: int) -> tuple[list[int], History, list[TableResult]]:
    """The first `rounds` rounds played; returns the standing order, the history and the games."""
    rng = random.Random(seed)
    field = list(range(1, players + 1))
    rng.shuffle(field)
    history = History()
    games: list[TableResult] = []
    for number in range(rounds):
        pairing = pair_round(
            field, history, table_size=args_size, min_players=2, max_players=5, seed=f"{seed}:{number}"
        )
        history = history.after_round(pairing.tables)
        games.extend(play_table(seats, rng) for seats in pairing.tables)
        field = [row.player for row in standings(games)]
    return field, history, games


def best_of(repeat: int, job: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        job()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--table-size", type=int, default=4, help="2 to 5 (the map is 2-5 players)")
    args = parser.parse_args()
    args_size = args.table_size
    start = time.perf_counter()
    field, history, games = play(args.players, args.rounds - 1, seed=14, args_size=args_size)
    last = pair_round(field, history, table_size=args_size, min_players=2, max_players=5, seed="bench")
    rng = random.Random(99)
    all_games = games + [play_table(seats, rng) for seats in last.tables]
    print(f"{args.players} players, {args.rounds} rounds played out in {time.perf_counter() - start:.1f} s")

    pairing_s = best_of(
        args.repeat,
        lambda: pair_round(field, history, table_size=args_size, min_players=2, max_players=5, seed="bench"),
    )
    home: list[list[int]] = []
    for size in table_sizes(len(field), args_size, 2, 5):
        home.append(field[sum(map(len, home)) : sum(map(len, home)) + size])
    repeats_home = repeated_pairs(home, history)
    standings_s = best_of(args.repeat, lambda: standings(all_games))
    for name, seconds in (
        (f"pairing round {args.rounds} ({len(last.tables)} tables)", pairing_s),
        (f"standings over {args.rounds} rounds ({len(all_games)} games)", standings_s),
    ):
        verdict = "PASS" if seconds <= FLOOR_S else "FAIL"
        print(f"{name}: {seconds * 1000:.1f} ms (floor {FLOOR_S * 1000:.0f} ms) {verdict}")
    print(f"repeated pairs in round {args.rounds}: {last.repeats} (tables straight down the standings: {repeats_home})")


if __name__ == "__main__":
    main()
