"""A finished game reviewed decision by decision against the expert, its luck apart from its choices.

The reference is the `expert` autopilot, the best player the bot has
(engine/expert.py). The review weighs every **spot** of the game: each
decision the expert would search (the first move of a turn, a keep of
tickets, the opening keep) and each move that drew what its player could not
see (a blind draw, a face-up card's refill, tickets, a tunnel's cards). At a
decision the expert's candidates and the move played are played out in the
same worlds, dealt from what the mover could see then (engine/review_worlds.py);
the expert's move is the one its own rule picks from those worlds (the
candidate whose gain over strong's move is surest, when it is sure enough),
so it is the expert's decision with the review's worlds, not a second
opinion. Each move's result is the mover's **chance of winning** after it
(the mean softened win over the worlds); the decision's loss is the expert's
move's chance less the played move's. The **luck** of a move that drew is
the mover's chance with what the game really dealt less with a random draw
in the same worlds. engine/review_figures.py turns these into each player's
accuracy (Lichess's formula), mistakes and luck.

The chart's chances (every player's, after every turn) are read once the
game is over for good, as a chess site's evaluation: the game after the turn
as it really stood, with only the future unknown (both decks in a new order),
played out by `ReviewSearch.playout` (`chance_worlds` times, once by
default), a softened win of its final scores, each turn's the mean of the
`SMOOTHING` turns either side.

Nothing of a seat's hidden information other than its own reaches its
decisions' values (the worlds come from the multisets of unseen cards and
tickets; their randomness from the review's seed and the move's index), but
the luck knows what the game really dealt. With `ReviewSearch.time_limit`
None the review is the same on every machine; with a time limit, a spot that
falls behind the schedule (the limit shared among the spots by their cost)
is played out in fewer worlds (at least one), and once the whole limit is
spent the spots left are not played out at all (`SpotReview.weighed` False).

The work is split so that a caller can run it in another process, a batch of
spots at a time: `plan_review` (one replay, the expert's candidates at each
decision, the worlds each spot gets), `review_spots` (some of the spots) and
`assemble`. `review_game` does all three at once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.expert import own_tuning, searching
from engine.expert_candidates import add_searched_claims, keeps, turn_candidates
from engine.expert_search import Search
from engine.expert_worlds import ticket_leanings
from engine.game import Game
from engine.keep_book import book_keep
from engine.moves import Claim, DrawCard, DrawTickets, Move
from engine.record import parse_record, replay
from engine.review_models import (
    CHANCE_SCALE,
    CHANCE_SPREAD,
    DEFAULT_REVIEW,
    MAX_PLAYOUT_MOVES,
    Chance,
    GameReview,
    NotCounted,
    Progress,
    ReviewPlan,
    ReviewSearch,
    Spot,
    SpotReview,
)
from engine.review_worlds import alike, soft_win, weigh_spot
from engine.state import Pending, Phase
from engine.steady import choose_steady
from engine.strong import choose_strong

# ----- the plan --------------------------------------------------------------


def expert_candidates(game: Game, name: str, search: Search) -> tuple[tuple[Move, ...], bool]:
    """The moves the expert weighs for `name` now, its fallback first, and whether it searches them (as
    `engine.expert.search_share` lists them)."""
    book = book_keep(game, name)
    if book is not None:
        return (book,), False
    tuning = own_tuning(game)
    fallback = choose_strong(game, name, tuning)
    if not searching(game, name):
        return (fallback,), False
    s = game.state
    keeping = s.phase is Phase.SETUP_KEEP or s.pending is Pending.KEEP
    candidates = keeps(game, name, fallback) if keeping else turn_candidates(game, name, fallback, tuning)
    if not keeping:
        blocking = search.block is not None and search.infer is not None
        add_searched_claims(game, name, candidates, search, ticket_leanings(game, name) if blocking else None)
    return tuple(candidates), len(candidates) > 1


def _chance(move: Move, keep_at_setup: bool, cards: int, tickets: int) -> Chance | None:
    if keep_at_setup:
        return Chance.DEAL
    if isinstance(move, DrawTickets) and tickets:
        return Chance.TICKETS
    if isinstance(move, DrawCard) and cards:
        return Chance.DECK if move.source == "deck" else Chance.FACE_UP
    if isinstance(move, Claim) and cards:  # a tunnel's cards
        return Chance.DECK
    return None


def plan_review(game: Game, search: ReviewSearch = DEFAULT_REVIEW) -> ReviewPlan:
    """The spots of a game (finished or not) with the expert's candidates at each decision, and the worlds each
    spot gets."""
    replayed = game.initial()
    spots: list[Spot] = []
    starts: list[int] = []  # the spots that begin a turn
    for index, move in enumerate(game.moves):
        s = replayed.state
        name = move.player
        seat = replayed.seat(name)
        begins = s.phase is Phase.PLAY and s.pending is None
        setup = s.phase is Phase.SETUP_KEEP
        decision = begins or setup or s.pending is Pending.KEEP
        candidates, searched = expert_candidates(replayed, name, search.expert) if decision else ((), False)
        number = s.turn + 1 if s.phase is Phase.PLAY else 0
        deck, shuffles, ticket_deck = list(s.piles.deck), s.piles.reshuffles, list(s.ticket_deck)
        replayed.apply(move)
        after = replayed.state
        cards = len(deck) - len(after.piles.deck) if after.piles.reshuffles == shuffles else 0
        dealt = max(0, len(ticket_deck) - len(after.ticket_deck))
        chance = _chance(move, setup, max(0, cards), dealt)
        if not decision and chance is None:
            continue
        if begins:
            starts.append(len(spots))
        spots.append(
            Spot(
                number,
                seat,
                index,
                move,
                candidates,
                searched,
                chance,
                tuple(deck[: max(0, cards)]) if chance is not Chance.DEAL else (),
                tuple(ticket_deck[:dealt]) if chance is Chance.TICKETS else (),
            )
        )
    for k, at in enumerate(starts):  # a turn ends where the next begins
        end = spots[starts[k + 1]].index if k + 1 < len(starts) else len(game.moves)
        spots[at] = replace(spots[at], turn_end=end)
    plan = ReviewPlan(tuple(game.names), tuple(spots), len(game.moves), 1, search)
    left = search.work - sum(plan.chance_cost(spot) for spot in spots)
    per_world = sum(plan.world_cost(spot) for spot in spots)
    worlds = min(search.max_worlds, max(search.min_worlds, left // max(1, per_world)))
    return replace(plan, worlds=worlds)


# ----- the chart's chances ---------------------------------------------------


def _playout(world: Game, level: str) -> list[int]:
    """Play the world out with the autopilot at `level` in every seat: the final totals."""
    choose = choose_strong if level == "strong" else choose_steady
    played = 0
    while not world.finished and played < MAX_PLAYOUT_MOVES:
        who = world.waiting_for()[0]
        world.apply(choose(world, who))
        played += 1
    return [sc.total for sc in world.score()]


def true_world(game: Game, rng: random.Random, label: str) -> Game:
    """The game as it really stands (every hand and ticket as they are), with only its future unknown: the card
    deck and the ticket deck in a new order (from their sorted contents) and the discard pile's future
    reshuffles by `label`. For the chart's chances, read once the game is over for good."""
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


def turn_chances(after: Game, spot: Spot, plan: ReviewPlan) -> tuple[float, ...]:
    """Each seat's chance of winning after the spot's turn (`after`: the game then), for the chart."""
    search = plan.search
    future = random.Random(f"{search.seed}:{spot.number}:after")
    end = spot.turn_end if spot.turn_end is not None else plan.total_moves
    scale = CHANCE_SCALE + CHANCE_SPREAD * max(0, plan.total_moves - end) / max(1, plan.total_moves)
    shares = [0.0] * len(after.names)
    for k in range(max(1, search.chance_worlds)):
        totals = _playout(true_world(after, future, f"{search.seed}:{spot.number}:after:{k}"), search.playout)
        for seat, share in enumerate(soft_win(totals, scale)):
            shares[seat] += share
    return tuple(c / max(1, search.chance_worlds) for c in shares)


# ----- the spots -------------------------------------------------------------


def unweighed(game: Game, spot: Spot) -> SpotReview:
    """A spot the time limit left out: the expert's fallback, nothing played out."""
    expert = spot.candidates[0] if spot.decision else spot.played
    expert = spot.played if alike(expert, spot.played) else expert
    name = game.names[spot.seat]
    return SpotReview(
        spot.number, spot.seat, spot.index, name, spot.played, expert, spot.decision, spot.chance, 0, None, None, None,
        tuple(1.0 / len(game.names) for _ in game.names) if spot.turn_end is not None else None, False,
    )  # fmt: skip


def review_spots(
    game: Game,
    plan: ReviewPlan,
    first: int,
    stop: int,
    began: float | None = None,
    progress: Progress | None = None,
) -> list[SpotReview]:
    """Reviews of the plan's spots `first` to `stop` (0-based indices into `plan.spots`, `stop` excluded).

    `game` has at least the moves of those spots' turns; `began`: when the whole review began
    (`time.monotonic()`), for the time limit's schedule (None: now).
    """
    if began is None:
        began = time.monotonic()
    spots = plan.spots[first:stop]
    if not spots:
        return []
    start = game.replay_until(spots[0].index)
    out: list[SpotReview] = []
    for offset, spot in enumerate(spots):
        if progress is not None and spot.turn_end is not None:
            progress(spot.number, plan.turns)
        while len(start.moves) < spot.index:
            start.apply(game.moves[len(start.moves)])
        if plan.over(began):
            out.append(unweighed(game, spot))
            continue
        reviewed = weigh_spot(start, spot, plan, plan.deadline(began, first + offset))
        if spot.turn_end is not None:
            after = start.copy()
            for move in game.moves[spot.index : spot.turn_end]:
                after.apply(move)
            reviewed = replace(reviewed, chances=turn_chances(after, spot, plan))
        out.append(reviewed)
    return out


def assemble(
    game: Game, plan: ReviewPlan, spots: Sequence[SpotReview], not_counted: Mapping[int, NotCounted] | None = None
) -> GameReview:
    """The review from its spots; the result is the game's (its final scores and winners, shared).
    `not_counted`: the moves (by index) someone else decided for their player (the autopilot, a plan)."""
    n = len(game.names)
    totals = [sc.total for sc in game.score()]
    winners = set(game.winners()) if game.finished else set()
    if not winners:
        top = max(totals)
        winners = {game.names[i] for i, t in enumerate(totals) if t == top}
    final = tuple((1.0 / len(winners)) if game.names[i] in winners else 0.0 for i in range(n))
    cut = sum(1 for s in spots if s.weighed and s.worlds < plan.worlds)
    carried: list[SpotReview] = []
    last = tuple(1.0 / n for _ in range(n))
    for spot in spots:  # a turn not weighed keeps the chances of the turn before
        if spot.chances is not None:
            if not spot.weighed:
                spot = replace(spot, chances=last)
            last = spot.chances or last
        carried.append(spot)
    left_out = sum(1 for s in carried if not s.weighed)
    return GameReview(
        tuple(game.names), tuple(carried), final, tuple(totals), plan.worlds, cut, left_out, dict(not_counted or {})
    )


# ----- from a game record, for another process --------------------------------


def _replayed(doc: dict[str, Any]) -> Game:
    return replay(parse_record(doc))


def plan_record(doc: dict[str, Any], search: ReviewSearch = DEFAULT_REVIEW) -> ReviewPlan:
    """`plan_review` of a game record (its moves replayed)."""
    return plan_review(_replayed(doc), search)


def review_record_spots(doc: dict[str, Any], plan: ReviewPlan, first: int, stop: int, began: float) -> list[SpotReview]:
    """`review_spots` of a game record: what a worker process runs, a batch of spots at a time."""
    return review_spots(_replayed(doc), plan, first, stop, began)


def assemble_record(
    doc: dict[str, Any], plan: ReviewPlan, spots: Sequence[SpotReview], not_counted: Mapping[int, NotCounted]
) -> GameReview:
    """`assemble` of a game record."""
    return assemble(_replayed(doc), plan, spots, not_counted)


def review_game(
    game: Game,
    search: ReviewSearch = DEFAULT_REVIEW,
    progress: Progress | None = None,
    not_counted: Mapping[int, NotCounted] | None = None,
) -> GameReview:
    """The whole review of `game` (finished, or as far as it went), in this thread."""
    began = time.monotonic()
    plan = plan_review(game, search)
    spots = review_spots(game, plan, 0, len(plan.spots), began, progress)
    return assemble(game, plan, spots, not_counted)


__all__ = [
    "DEFAULT_REVIEW",
    "Chance",
    "GameReview",
    "NotCounted",
    "Progress",
    "ReviewPlan",
    "ReviewSearch",
    "Spot",
    "SpotReview",
    "assemble",
    "assemble_record",
    "expert_candidates",
    "plan_record",
    "plan_review",
    "review_game",
    "review_record_spots",
    "review_spots",
    "soft_win",
    "true_world",
    "turn_chances",
    "weigh_spot",
]
