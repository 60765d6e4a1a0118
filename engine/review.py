"""A finished game reviewed turn by turn: what the autopilot would have played, what it was worth, who was winning.

For each numbered turn (turn N is the history's "Turn N") the review takes
the move that began the turn (a card draw, a ticket draw, a claim, a pass)
and the move the `strong` autopilot would have made there instead: the
`expert` spends about a second a decision (engine/expert.py), two minutes
for a 120-turn game before any playout, so the review's suggestion is
strong's. When the two differ, both are played out in the same worlds,
sampled from what the turn's player could know then (engine/expert.py's
`sample_world`: the other hands, the tickets and the deck's order dealt anew
from what that seat could not see), each world to the game's end with a fast
autopilot (`ReviewSearch.playout`, steady by default) in every seat. A move's
value is the mover's mean final margin over those worlds (its final score
less the best other player's, in points); a turn's loss is the suggestion's
value less the played move's (negative: the played move did better).

Each player's chance of winning after a turn is read once the game is over
for good, as a chess site's evaluation: the game after the turn as it really
stood (every hand and ticket), with only the future unknown (both decks in a
new order), played out (`chance_worlds` times, once by default); a
playout's final scores count as a softened win (a softmax of
`CHANCE_SCALE` points, plus `CHANCE_SPREAD` more at the start of the game,
as one playout says less the longer it runs), and the chance after a turn
is the mean over it and the `SMOOTHING` turns either side of it.

Nothing of a seat's hidden information other than its own reaches its turn's
suggestion and values: the suggestion is strong's (which reads only the seat's view), the
worlds are dealt from the multisets of unseen cards and tickets, and their
randomness comes from the review's seed and the turn's number. With
`ReviewSearch.time_limit` None the review is the same on every machine; with
a time limit, a turn that falls behind the schedule (the limit shared among
the turns by their cost) is played out in fewer worlds (at least one), and
once the whole limit is spent the turns left are not played out at all
(`TurnReview.weighed` False: the suggestion without its worth), so that a
review ends soon after its limit however busy the machine is.

The work is split so that a caller can run it in another process, a batch
of turns at a time: `plan_review` (one replay and strong's move at each
turn), `review_turns` (the playouts of some of the turns) and `assemble`.
`review_game` does all three at once.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.errors import GameError
from engine.expert import sample_world
from engine.game import Game
from engine.moves import Move
from engine.record import parse_record, replay
from engine.review_models import (
    CHANCE_SCALE,
    CHANCE_SPREAD,
    DEFAULT_REVIEW,
    MAX_PLAYOUT_MOVES,
    GameReview,
    Progress,
    ReviewPlan,
    ReviewSearch,
    TurnReview,
    TurnSpot,
)
from engine.state import Phase
from engine.steady import choose_steady
from engine.strong import choose_strong

# ----- the plan --------------------------------------------------------------


def plan_review(game: Game, search: ReviewSearch = DEFAULT_REVIEW) -> ReviewPlan:
    """The turns of a game (finished or not) with strong's move at each, and the worlds each turn gets."""
    replay = game.initial()
    spots: list[TurnSpot] = []
    moves = game.moves
    begun: tuple[int, int, int, Move, Move] | None = None  # number, seat, start, played, suggested
    for index, move in enumerate(moves):
        s = replay.state
        if s.phase is Phase.PLAY and s.pending is None:
            if begun is not None:
                spots.append(TurnSpot(begun[0], begun[1], begun[2], index, begun[3], begun[4]))
            name = replay.names[s.current]
            begun = (s.turn + 1, s.current, index, move, choose_strong(replay, name))
        replay.apply(move)
    if begun is not None:
        spots.append(TurnSpot(begun[0], begun[1], begun[2], len(moves), begun[3], begun[4]))
    plan = ReviewPlan(tuple(game.names), tuple(spots), len(moves), 1, search)
    left = search.work - sum(plan.chance_cost(spot) for spot in spots)
    compare = sum(plan.compare_cost(spot) for spot in spots)
    worlds = min(search.max_worlds, max(search.min_worlds, left // max(1, compare)))
    return ReviewPlan(plan.players, plan.spots, plan.total_moves, worlds, search)


# ----- the playouts ----------------------------------------------------------


def _playout(world: Game, level: str) -> tuple[list[int], list[str]]:
    """Play the world out with the autopilot at `level` in every seat: the final totals and the winners."""
    choose = choose_strong if level == "strong" else choose_steady
    played = 0
    while not world.finished and played < MAX_PLAYOUT_MOVES:
        who = world.waiting_for()[0]
        world.apply(choose(world, who))
        played += 1
    totals = [sc.total for sc in world.score()]
    return totals, (world.winners() if world.finished else [])


def _margin(totals: Sequence[int], seat: int) -> float:
    return float(totals[seat] - max(t for i, t in enumerate(totals) if i != seat))


def soft_win(totals: Sequence[int], scale: float = CHANCE_SCALE) -> tuple[float, ...]:
    """Each seat's softened share of a win with these final totals (sums to 1): a softmax of `scale` points."""
    top = max(totals)
    weights = [math.exp((t - top) / scale) for t in totals]
    whole = sum(weights)
    return tuple(w / whole for w in weights)


def true_world(game: Game, rng: random.Random, label: str) -> Game:
    """The game as it really stands (every hand and ticket as they are), with only its future unknown: the card
    deck and the ticket deck in a new order (from their sorted contents) and the discard pile's future
    reshuffles by `label`. For the chances of winning, read once the game is over for good."""
    world = game.copy()
    s = world.state
    cards = sorted(s.piles.deck)
    rng.shuffle(cards)
    s.piles.deck = cards
    s.piles.seed = label
    world.seed = label
    tickets = sorted(s.ticket_deck)
    rng.shuffle(tickets)
    s.ticket_deck = tickets
    world.moves = []
    return world


def review_turn(
    start: Game,
    after: Game,
    spot: TurnSpot,
    plan: ReviewPlan,
    deadline: float | None = None,
) -> TurnReview:
    """Play out one turn: the played move and the suggestion (when they differ) in `plan.worlds` worlds sampled
    from what the turn's player could know, and the game after the turn in `chance_worlds` worlds where only the
    future is unknown (for the chances).

    `start` is the game just before the turn's first move, `after` just after its last (neither is changed).
    Past `deadline` (`time.monotonic()`) no further world of the comparison is begun once one is done.
    """
    search = plan.search
    name = start.names[spot.seat]
    seed, level = search.seed, search.playout
    future = random.Random(f"{seed}:{spot.number}:after")  # the chances' worlds
    left = max(0, plan.total_moves - spot.end) / max(1, plan.total_moves)
    scale = CHANCE_SCALE + CHANCE_SPREAD * left
    shares = [0.0] * len(start.names)
    for k in range(max(1, search.chance_worlds)):
        totals, _ = _playout(true_world(after, future, f"{seed}:{spot.number}:after:{k}"), level)
        for seat, share in enumerate(soft_win(totals, scale)):
            shares[seat] += share
    chances = tuple(c / max(1, search.chance_worlds) for c in shares)
    if spot.played == spot.suggested:
        return TurnReview(spot.number, spot.seat, name, spot.played, spot.suggested, None, None, 0, chances)
    seen = random.Random(f"{seed}:{spot.number}:{name}")  # the mover's worlds
    values = [0.0, 0.0]
    done = 0
    for k in range(plan.worlds):
        if done and deadline is not None and time.monotonic() > deadline:
            break
        world = sample_world(start, name, seen, f"{seed}:{spot.number}:{k}")
        margins: list[float] = []
        for move in (spot.played, spot.suggested):
            trial = world.copy()
            try:
                trial.apply(move)
            except GameError:  # not legal in this world (it should always be): the world does not count
                break
            margins.append(_margin(_playout(trial, level)[0], spot.seat))
        if len(margins) < 2:
            continue
        values[0] += margins[0]
        values[1] += margins[1]
        done += 1
    if not done:
        return TurnReview(spot.number, spot.seat, name, spot.played, spot.suggested, None, None, 0, chances)
    return TurnReview(
        spot.number, spot.seat, name, spot.played, spot.suggested, values[0] / done, values[1] / done, done, chances
    )


def review_turns(
    game: Game,
    plan: ReviewPlan,
    first: int,
    stop: int,
    began: float | None = None,
    progress: Progress | None = None,
) -> list[TurnReview]:
    """Reviews of the plan's turns `first` to `stop` (0-based indices into `plan.spots`, `stop` excluded).

    `game` has at least the moves of those turns; `began`: when the whole review began (`time.monotonic()`),
    for the time limit's schedule (None: now).
    """
    if began is None:
        began = time.monotonic()
    spots = plan.spots[first:stop]
    if not spots:
        return []
    start = game.replay_until(spots[0].start)
    out: list[TurnReview] = []
    for offset, spot in enumerate(spots):
        index = first + offset
        if progress is not None:
            progress(index + 1, len(plan.spots))
        while len(start.moves) < spot.start:
            start.apply(game.moves[len(start.moves)])
        after = start.copy()
        for move in game.moves[spot.start : spot.end]:
            after.apply(move)
        if plan.over(began):
            name = game.names[spot.seat]
            even = tuple(1.0 / len(game.names) for _ in game.names)
            out.append(
                TurnReview(spot.number, spot.seat, name, spot.played, spot.suggested, None, None, 0, even, False)
            )
        else:
            out.append(review_turn(start, after, spot, plan, plan.deadline(began, index)))
        start = after
    return out


def assemble(game: Game, plan: ReviewPlan, turns: Sequence[TurnReview]) -> GameReview:
    """The review from its turns; the result is the game's (its final scores and winners, shared)."""
    n = len(game.names)
    totals = [sc.total for sc in game.score()]
    winners = set(game.winners()) if game.finished else set()
    if not winners:
        top = max(totals)
        winners = {game.names[i] for i, t in enumerate(totals) if t == top}
    final = tuple((1.0 / len(winners)) if game.names[i] in winners else 0.0 for i in range(n))
    cut = sum(1 for t in turns if not t.same and t.worlds < plan.worlds)
    carried: list[TurnReview] = []
    for turn in turns:  # a turn not weighed keeps the chances of the turn before
        if not turn.weighed:
            before = carried[-1].chances if carried else tuple(1.0 / n for _ in range(n))
            turn = replace(turn, chances=before)
        carried.append(turn)
    turns = carried
    unweighed = sum(1 for t in turns if not t.weighed)
    return GameReview(tuple(game.names), tuple(turns), final, tuple(totals), plan.worlds, cut, unweighed)


# ----- from a game record, for another process --------------------------------


def _replayed(doc: dict[str, Any]) -> Game:
    return replay(parse_record(doc))


def plan_record(doc: dict[str, Any], search: ReviewSearch = DEFAULT_REVIEW) -> ReviewPlan:
    """`plan_review` of a game record (its moves replayed)."""
    return plan_review(_replayed(doc), search)


def review_record_turns(doc: dict[str, Any], plan: ReviewPlan, first: int, stop: int, began: float) -> list[TurnReview]:
    """`review_turns` of a game record: what a worker process runs, a batch of turns at a time."""
    return review_turns(_replayed(doc), plan, first, stop, began)


def assemble_record(doc: dict[str, Any], plan: ReviewPlan, turns: Sequence[TurnReview]) -> GameReview:
    """`assemble` of a game record."""
    return assemble(_replayed(doc), plan, turns)


def review_game(game: Game, search: ReviewSearch = DEFAULT_REVIEW, progress: Progress | None = None) -> GameReview:
    """The whole review of `game` (finished, or as far as it went), in this thread."""
    began = time.monotonic()
    plan = plan_review(game, search)
    turns = review_turns(game, plan, 0, len(plan.spots), began, progress)
    return assemble(game, plan, turns)


__all__ = [
    "DEFAULT_REVIEW",
    "GameReview",
    "Progress",
    "ReviewPlan",
    "ReviewSearch",
    "TurnReview",
    "TurnSpot",
    "assemble",
    "assemble_record",
    "plan_record",
    "plan_review",
    "review_game",
    "review_record_turns",
    "review_turn",
    "review_turns",
    "soft_win",
    "true_world",
]
