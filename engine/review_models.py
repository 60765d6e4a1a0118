"""What a review is made of: how much it plays out (`ReviewSearch`), its plan (`Spot`s), each spot's review and the
whole game's (see engine/review.py for how they are computed, engine/review_figures.py for each player's figures)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from engine.expert_search import DEFAULT_SEARCH, Search
from engine.moves import Move

# Playouts stop after this many moves (strong games end long before).
MAX_PLAYOUT_MOVES = 2000
# Points of final score that make a softened win about e (2.7) times likelier at the game's end (see
# engine/review.py); CHANCE_SPREAD more at its start, less as it goes on (one playout says little early on).
CHANCE_SCALE = 6.0
CHANCE_SPREAD = 24.0
# The chart's chances after a turn are the mean of the turns this many either side of it (one playout each).
SMOOTHING = 2

Progress = Callable[[int, int], None]  # (turn i, of n turns), called before turn i's first spot is played out


class Chance(StrEnum):
    """What luck a spot's move met: what it drew that its player could not see."""

    DEAL = "deal"  # the opening hand and tickets (weighed at the first keep)
    DECK = "deck"  # cards from the deck: a blind draw, or the cards a tunnel turns over
    FACE_UP = "face_up"  # the card that refills the face-up row after the player took one
    TICKETS = "tickets"  # the tickets dealt to choose from


class NotCounted(StrEnum):
    """Why a move is left out of its player's figures: someone else decided it."""

    AUTOPILOT = "autopilot"  # the autopilot, for a seat handed to it (an away member)
    TIMEOUT = "timeout"  # the autopilot, as the player's time ran out
    PLAN = "plan"  # a move the player planned ahead, played for them when its turn came


@dataclass(frozen=True)
class ReviewSearch:
    """How much the review plays out."""

    seed: str = "review"  # with the move's index, decides the sampled worlds
    work: int = 560_000  # about this many simulated moves for the whole game (deterministic)
    min_worlds: int = 4  # worlds per spot at least (unless the time limit cuts it short); the expert needs 4
    max_worlds: int = 24  # and at most
    chance_worlds: int = 1  # playouts per turn for the chart's chances of winning
    time_limit: float | None = 100.0  # seconds for the playouts; None: bounded by `work` alone
    playout: str = "steady"  # the autopilot level that plays out the chart's chances: steady (fast) or strong
    expert: Search = DEFAULT_SEARCH  # how the expert reads the table (its worlds' inference, its candidates)


DEFAULT_REVIEW = ReviewSearch()


@dataclass(frozen=True)
class Spot:
    """A move the review weighs: a decision the expert would search (the first move of a turn, a keep of
    tickets) and/or a move that drew what its player could not see (a chance)."""

    number: int  # the turn (the history's "Turn N"; 0: the opening keep)
    seat: int
    index: int  # the move's index in the game's moves
    played: Move
    candidates: tuple[Move, ...]  # a decision's: the expert's moves to weigh, its fallback (strong's) first
    searched: bool  # the expert searches here (else its move is the first candidate, unsearched)
    chance: Chance | None
    cards: tuple[str, ...] = ()  # the cards the move took from the top of the deck, in order
    tickets: tuple[int, ...] = ()  # the tickets it took from the top of the ticket deck
    turn_end: int | None = None  # for the first move of a turn: the index after the turn's last move

    @property
    def decision(self) -> bool:
        return bool(self.candidates)


@dataclass(frozen=True)
class ReviewPlan:
    """The spots to review and how many worlds each gets."""

    players: tuple[str, ...]
    spots: tuple[Spot, ...]
    total_moves: int
    worlds: int  # per spot, planned
    search: ReviewSearch

    @property
    def turns(self) -> int:
        return max((s.number for s in self.spots), default=0)

    def left(self, index: int) -> int:
        """About how many moves a playout from move `index` plays (the game's length stands for a playout's)."""
        return max(1, self.total_moves - index)

    def chance_cost(self, spot: Spot) -> int:
        """About how many moves the chart's chances after this spot's turn play out (0: not a turn's start)."""
        return 0 if spot.turn_end is None else self.search.chance_worlds * self.left(spot.turn_end)

    def world_cost(self, spot: Spot) -> int:
        """About how many moves one world of this spot plays out: each move weighed, and its luck's variant."""
        moves = len(set(spot.candidates) | {spot.played})
        return (moves + (1 if spot.chance is not None else 0)) * self.left(spot.index)

    def cost(self, spot: Spot) -> int:
        return self.chance_cost(spot) + self.worlds * self.world_cost(spot)

    def over(self, began: float) -> bool:
        """The whole time limit is spent (for a review that began at `began`): the spots left are not weighed."""
        limit = self.search.time_limit
        return limit is not None and time.monotonic() > began + limit

    def deadline(self, began: float, index: int) -> float | None:
        """When (`time.monotonic()`) spot `index` (0-based in `spots`) should be done by, if the review began at
        `began`: the time limit shared among the spots by their cost."""
        limit = self.search.time_limit
        if limit is None:
            return None
        costs = [self.cost(s) for s in self.spots]
        return began + limit * sum(costs[: index + 1]) / max(1, sum(costs))


@dataclass(frozen=True)
class SpotReview:
    """One spot weighed: the move played, the expert's, the mover's chance of winning after each, the luck.

    Chances are the mover's, from 0 to 1, as the mover could reckon them then (worlds dealt from what their seat
    could see), each world played out to the end by the strong autopilot."""

    number: int
    seat: int
    index: int
    player: str
    played: Move
    expert: Move  # the expert's move (the move played, for a spot that is only a chance)
    decision: bool
    chance: Chance | None
    worlds: int  # worlds played out
    win_expert: float | None  # the mover's chance after the expert's move (None: not a decision, or not weighed)
    win_played: float | None  # ... after the move played, with whatever it drew dealt at random
    luck: float | None  # the mover's chance with what the move really drew, less with a random draw (None: no chance)
    chances: tuple[float, ...] | None = None  # a turn's first spot: each seat's chance after the turn (the chart's)
    weighed: bool = True  # False: the time limit was spent before it; nothing played out

    @property
    def same(self) -> bool:
        """The move played is the expert's."""
        return self.played == self.expert

    @property
    def loss(self) -> float:
        """The mover's chance the move played lost against the expert's (0 when it did as well or better)."""
        if self.same or self.win_expert is None or self.win_played is None:
            return 0.0
        return max(0.0, self.win_expert - self.win_played)

    @property
    def gain(self) -> float:
        """The chance the move played gained over the expert's, signed (negative: it lost)."""
        if self.same or self.win_expert is None or self.win_played is None:
            return 0.0
        return self.win_played - self.win_expert


@dataclass(frozen=True)
class GameReview:
    """The whole game's review."""

    players: tuple[str, ...]
    spots: tuple[SpotReview, ...]
    final: tuple[float, ...]  # each seat's share of the win at the end (the winners share it)
    scores: tuple[int, ...]  # the final scores
    worlds: int  # worlds per spot, planned
    cut_short: int  # spots played out in fewer worlds than planned, for the time limit
    unweighed: int = 0  # spots not played out at all: the whole time limit was spent before them
    not_counted: Mapping[int, NotCounted] = field(default_factory=dict)  # move index: why it is not its player's

    def turn_spots(self) -> list[SpotReview]:
        """The first spot of each turn (turn 1 on), in order: each holds the chances after its turn."""
        return [s for s in self.spots if s.chances is not None]

    def chances(self) -> list[tuple[float, ...]]:
        """Each seat's chance of winning: at the start (even), after every turn but the last (each the mean of the
        turns `SMOOTHING` either side of it), then the result."""
        n = len(self.players)
        raw = [t.chances for t in self.turn_spots() if t.chances is not None]
        points = [tuple(1.0 / n for _ in range(n))]
        for i in range(len(raw) - 1):
            near = raw[max(0, i - SMOOTHING) : i + SMOOTHING + 1]
            points.append(tuple(sum(c[seat] for c in near) / len(near) for seat in range(n)))
        points.append(self.final)
        return points

    def counted(self, spot: SpotReview) -> bool:
        """Is the spot its player's own (not the autopilot's or a plan's) and weighed?"""
        return spot.weighed and spot.index not in self.not_counted
