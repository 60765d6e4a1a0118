"""The expert's decisions judged one by one: how much its moves unlike strong's are worth.

Run: .venv/bin/python -m bench.expert_quality [--games SPEC] [--every K] [--oracle N] [--config LABEL:KEY=VALUE,...]

Win rates over a few dozen games cannot tell two searches apart (a game turns
on a handful of moves, and the 95% intervals are +-20%). This looks at the
decisions instead. Games of the strong autopilot in every seat are played
(`--games`: map:players:index, comma separated); at every `--every`-th decision
of theirs (choosing tickets, the start of a turn) each search configuration
is asked for its move, work-bounded. Where it is not strong's, both moves are
played in `--oracle` worlds sampled from the seat's view (engine/expert.py's
`sample_world`, from a seed of their own) and played out to the end by strong
in every seat: the mean difference of the seat's final value (margin plus win
bonus) is what leaving strong's move was worth there. It prints, for each
configuration, how many moves were unlike strong's, their mean worth with its
standard error, and the worth per decision (zero where it played strong's
move). The oracle's own noise is about 38 points per world, so 48 worlds judge
one move to about +-5.5 points; the mean over the moves is tighter.

The oracle's worlds do not read the table (engine/expert.py's `Search.infer`):
every unseen card and ticket is dealt alike, so it judges searches that do
by a view less informed than theirs (and the win rates of bench.autopilot
are the measure for those).

A configuration is a label and Search fields (horizon, prune, confidence,
confidence_many, work, worlds, infer, infer_players) or the module's constants (DEVIATE, MIN_WORLDS,
TURN_CANDIDATES), e.g. `--config 'short:horizon=24,prune=1,confidence=2.5'`;
`--config full` is the search as it was before it read the table (bounded
by --work; `infer=16` reads it). Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import engine.expert as expert
import engine.expert_candidates as expert_candidates
import engine.expert_search as expert_search
import engine.expert_value as expert_value
import engine.expert_worlds as expert_worlds
from engine import Game
from engine.expert import Search, choose_expert, sample_world
from engine.moves import Move
from engine.state import Pending, Phase
from engine.strong import choose_strong
from maps import load_board

CONSTANTS = ("DEVIATE", "MIN_WORLDS", "TURN_CANDIDATES")
Position = tuple[str, int, Game, str, Move]  # game spec, decision number, position, seat's name, strong's move


def positions(specs: list[str], every: int) -> list[Position]:
    """Every `every`-th decision of strong self-play games."""
    out: list[Position] = []
    for spec in specs:
        map_name, players, index = spec.split(":")
        names = [f"p{i}" for i in range(int(players))]
        game = Game(load_board(map_name), names, f"dq-{map_name}:{players}:{index}")  # seeds as in docs/benchmarks.md
        k = 0
        while not game.finished:
            name = game.waiting_for()[0]
            s = game.state
            keep = s.phase is Phase.SETUP_KEEP or s.pending is Pending.KEEP
            decision = keep or (s.phase is Phase.PLAY and s.pending is None)
            move = choose_strong(game, name)
            if decision:
                if k % every == 0:
                    out.append((spec, k, game.copy(), name, move))
                k += 1
            game.apply(move)
    return out


def worth(position: Position, move: Move, worlds: int, kept: dict[tuple[str, int, str], float]) -> float:
    """The mean gain of `move` over strong's in `worlds` sampled worlds played out to the end."""
    spec, k, game, name, strong = position
    key = (spec, k, repr(move))
    if key not in kept:
        seat = game.seat(name)
        total = 0.0
        for w in range(worlds):
            label = f"oracle:{spec}:{k}:{w}"
            world = sample_world(game, name, random.Random(label), label)
            one, other = world.copy(), world.copy()
            one.apply(move)
            other.apply(strong)
            total += expert._rollout(one, seat)[0] - expert._rollout(other, seat)[0]
        kept[key] = total / worlds
    return kept[key]


# the expert's modules: each imported the constants it reads under their own names
EXPERT_MODULES = (expert_search, expert, expert_candidates, expert_value, expert_worlds)


def _set(name: str, value: float) -> None:
    for module in EXPERT_MODULES:
        if hasattr(module, name):
            setattr(module, name, value)


@contextmanager
def constants(values: dict[str, float]) -> Iterator[None]:
    saved = {name: getattr(expert_search, name) for name in values}
    for name, value in values.items():
        _set(name, type(saved[name])(value))
    try:
        yield
    finally:
        for name, value in saved.items():
            _set(name, value)


def configuration(text: str, base: Search) -> tuple[str, Search, dict[str, float]]:
    label, _, fields = text.partition(":")
    search = base
    values: dict[str, float] = {}
    for item in filter(None, fields.split(",")):
        key, _, raw = item.partition("=")
        if key in CONSTANTS:
            values[key] = float(raw)
        elif key == "horizon":
            search = replace(search, horizon=None if raw == "none" else int(raw))
        elif key == "work":
            search = replace(search, work=int(raw))
        elif key == "worlds":
            search = replace(search, worlds=int(raw))
        elif key == "confidence":
            search = replace(search, confidence=float(raw))
        elif key == "confidence_many":
            search = replace(search, confidence_many=None if raw == "none" else float(raw))
        elif key == "prune":
            search = replace(search, prune=None if raw == "none" else float(raw))
        elif key == "infer":
            search = replace(search, infer=None if raw == "none" else float(raw))
        elif key == "infer_players":
            search = replace(search, infer_players=int(raw))
        else:
            raise SystemExit(f"unknown setting {key!r}")
    return label, search, values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="usa:2:1,usa:2:2,usa:2:3,india:2:1,india:2:2,india:2:3,usa:4:1,usa:4:2")
    parser.add_argument("--every", type=int, default=2, help="judge every k-th decision (default 2)")
    parser.add_argument("--oracle", type=int, default=48, help="worlds judging a move (default 48)")
    parser.add_argument("--work", type=int, default=1300, help="the searches' work (default 1300)")
    parser.add_argument("--config", action="append", default=[], help="label:settings (repeatable)")
    args = parser.parse_args()
    base = Search(seed="expert", worlds=24, work=args.work, time_limit=None, infer=None, confidence_many=None)
    configs = [configuration(text, base) for text in args.config or ["full"]]
    found = positions(args.games.split(","), args.every)
    print(f"{len(found)} decisions of strong self-play ({args.games}), {args.oracle} oracle worlds a move")
    kept: dict[tuple[str, int, str], float] = {}
    for label, search, values in configs:
        began = time.perf_counter()
        gains: list[float] = []
        with constants(values):
            for position in found:
                move = choose_expert(position[2], position[3], search)
                if move != position[4]:
                    gains.append(worth(position, move, args.oracle, kept))
        n = len(gains)
        mean = sum(gains) / n if n else 0.0
        se = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n) if n > 1 else 0.0
        per = sum(gains) / len(found)
        seconds = time.perf_counter() - began
        print(
            f"{label}: {n} of {len(found)} moves unlike strong's, worth {mean:+.2f} points each (SE {se:.2f}, "
            f"{sum(g > 0 for g in gains)} positive), {per:+.3f} a decision; {seconds:.0f} s with the oracle"
        )


if __name__ == "__main__":
    main()
