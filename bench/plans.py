"""Planned turns in slow games (issue 61): how many simulated days a game lasts with and without plans.

Run: .venv/bin/python -m bench.plans [--games N] [--players P] [--hours H] [--map MAP]

A slow game on a simulated clock (nothing waits for real): each member looks at Discord now and then, at
random moments (a Poisson process, one look every `hours` on average, so a turn that comes waits for the
member's next look). At a look, a member whose turn it is plays the whole turn (the steady autopilot chooses
for them); a member who plans and has no plan sets one at any look while it is not their turn (the autopilot's
suggestion,
`bot.service.plan_eval.suggestion`: its move as if the turn were now, then two cards from the deck). When a
turn comes to a member with a plan, the plan is worked out as the runner does (`plan_eval.evaluate`) and
played at that moment; where it leaves the turn to the member (tickets to keep, a tunnel, no step applied) the
turn waits for their next look. The starting tickets are kept at each member's first look.

It prints, per share of members who plan, the games' mean and median length in simulated days, how many turns
were played from a plan, and the turns that waited for a look all the same.
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass

from bot.service.plan_eval import Ending, PlanItem, evaluate, suggestion, turn_begins
from engine import Game, Phase
from engine.autopilot import Level, choose_move
from maps import load_board

HOUR = 3600.0
DAY = 24 * HOUR
MAX_MOVES = 3000


@dataclass
class Outcome:
    days: float
    turns: int
    planned: int  # turns played from a plan when they came
    waited: int  # turns that waited for the member's look (no plan, or the plan left it to them)


def _play_turn(game: Game, name: str) -> None:
    """The member plays everything the game waits for from them now (a whole turn, or the starting tickets)."""
    for _ in range(10):
        if name not in game.waiting_for():
            return
        game.apply(choose_move(game, name, Level.STEADY))


def play(seed: int, players: int, planners: int, hours: float, map_name: str) -> Outcome:
    """One slow game: `planners` of the `players` members plan their turns."""
    rng = random.Random(seed)
    game = Game(load_board(map_name), [f"p{i}" for i in range(players)], seed, pass_round_ends=True)
    plans: dict[str, tuple[PlanItem, ...]] = {}
    planning = set(game.names[:planners])
    looks = {name: rng.expovariate(1 / hours) * HOUR for name in game.names}  # each member's next look
    now, turns, planned, waited = 0.0, 0, 0, 0
    last_turn = None
    while game.state.phase is not Phase.OVER and len(game.moves) < MAX_MOVES:
        # a member whose turn just began and who planned it: played at once, as the runner does
        to_move = game.to_move()
        if to_move is not None and to_move.player in plans and turn_begins(game, to_move.player):
            outcome = evaluate(game, to_move.player, plans.pop(to_move.player))
            for move in outcome.moves:
                game.apply(move)
            if outcome.ending is Ending.PLAYED:
                turns, planned = turns + 1, planned + 1
                continue
        # else the next look of any member: the game waits for someone's
        name = min(game.names, key=lambda n: looks[n])
        now = looks[name]
        looks[name] = now + rng.expovariate(1 / hours) * HOUR
        if name in game.waiting_for():
            key = (game.state.turn, name)
            if game.state.phase is Phase.PLAY and key != last_turn:
                turns, waited, last_turn = turns + 1, waited + 1, key
            _play_turn(game, name)
        # a member who plans and has no plan sets one at any look, while it is not their turn
        if name in planning and name not in plans and game.state.phase is Phase.PLAY and name not in game.waiting_for():
            plans[name] = suggestion(game, name, Level.STEADY)
    return Outcome(now / DAY, turns, planned, waited)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=12, help="games per share of planners")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hours", type=float, default=4.0, help="mean hours between a member's looks at Discord")
    parser.add_argument("--map", default="usa")
    args = parser.parse_args()
    print(f"{args.games} {args.map} games of {args.players} members each, one look every {args.hours:g} h on average")
    print("members planning | days: mean | median | turns played from a plan | turns that waited for a look")
    base = None
    for planners in range(0, args.players + 1, 2) if args.players % 2 == 0 else range(args.players + 1):
        results = [play(seed, args.players, planners, args.hours, args.map) for seed in range(args.games)]
        days = [r.days for r in results]
        mean = statistics.mean(days)
        base = mean if base is None else base
        turns = sum(r.turns for r in results)
        share = sum(r.planned for r in results) / turns
        waits = sum(r.waited for r in results) / turns
        print(
            f"{planners} of {args.players} | {mean:.1f} ({mean / base:.0%}) | {statistics.median(days):.1f} | "
            f"{share:.0%} | {waits:.0%}"
        )


if __name__ == "__main__":
    main()
