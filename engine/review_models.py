"""What a review is made of: how much it plays out (`ReviewSearch`), its plan, each turn's review and the whole
game's (see engine/review.py for how they are computed)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.moves import Move

# Playouts stop after this many moves (strong games end long before).
MAX_PLAYOUT_MOVES = 2000
# Points of final score that make a softened win about e (2.7) times likelier at the game's end (see the
# module's text); CHANCE_SPREAD more at its start, less as it goes on (one playout says little early on).
CHANCE_SCALE = 6.0
CHANCE_SPREAD = 24.0
# The chances after a turn are the mean of the turns this many either side of it (one playout per turn each).
SMOOTHING = 2
# How many turns `key_turns` names.
KEY_TURNS = 3

Progress = Callable[[int, int], None]  # (turn i, of n turns), called before turn i is played out


@dataclass(frozen=True)
class ReviewSearch:
    """How much the review plays out."""

    seed: str = "review"  # with the turn's number, decides the sampled worlds
    work: int = 40_000  # about this many simulated moves for the whole game (deterministic)
    min_worlds: int = 2  # worlds per turn where the moves differ, at least (unless the time limit cuts it short)
    max_worlds: int = 12  # and at most
    chance_worlds: int = 1  # playouts per turn for the chances of winning
    time_limit: float | None = 45.0  # seconds for the playouts; None: bounded by `work` alone
    playout: str = "steady"  # the autopilot level that plays the worlds out: steady (fast) or strong


DEFAULT_REVIEW = ReviewSearch()


@dataclass(frozen=True)
class TurnSpot:
    """A turn of the game: its number, who played it, where its moves are in the game's moves."""

    number: int  # 1 is the first turn after the starting tickets
    seat: int
    start: int  # the index of the turn's first move
    end: int  # the index after its last move
    played: Move  # the move that began it
    suggested: Move  # strong's move there


@dataclass(frozen=True)
class ReviewPlan:
    """The turns to review and how many worlds each gets."""

    players: tuple[str, ...]
    spots: tuple[TurnSpot, ...]
    total_moves: int
    worlds: int  # per turn, planned
    search: ReviewSearch

    def chance_cost(self, spot: TurnSpot) -> int:
        """About how many moves the chances after this turn play out (the game's length stands for a playout's)."""
        return self.search.chance_worlds * max(1, self.total_moves - spot.end)

    def compare_cost(self, spot: TurnSpot) -> int:
        """About how many moves one world of the comparison of this turn's moves plays out (0: they are the same)."""
        return 0 if spot.played == spot.suggested else 2 * max(1, self.total_moves - spot.start)

    def cost(self, spot: TurnSpot) -> int:
        """About how many moves this turn's review plays out."""
        return self.chance_cost(spot) + self.worlds * self.compare_cost(spot)

    def over(self, began: float) -> bool:
        """The whole time limit is spent (for a review that began at `began`): the turns left are not weighed."""
        limit = self.search.time_limit
        return limit is not None and time.monotonic() > began + limit

    def deadline(self, began: float, index: int) -> float | None:
        """When (`time.monotonic()`) turn `index` (0-based in `spots`) should be done by, if the review began at
        `began`: the time limit shared among the turns by their cost."""
        limit = self.search.time_limit
        if limit is None:
            return None
        costs = [self.cost(s) for s in self.spots]
        return began + limit * sum(costs[: index + 1]) / max(1, sum(costs))


@dataclass(frozen=True)
class TurnReview:
    """One turn: the move played, the suggestion, what each was worth, and the chances after it."""

    number: int
    seat: int
    player: str
    played: Move
    suggested: Move
    # the mover's mean final margin in points after the played move and after the suggestion; None when they are
    # the same move (not played out: nothing to compare)
    played_value: float | None
    suggested_value: float | None
    worlds: int  # worlds played out
    chances: tuple[float, ...]  # each seat's chance of winning after the turn, summing to 1
    # False: the time limit was over before the turn was reached, so nothing was played out (no values; the
    # chances are the turn before's, carried on by `assemble`)
    weighed: bool = True

    @property
    def same(self) -> bool:
        return self.played == self.suggested

    @property
    def loss(self) -> float:
        """Points the played move cost against the suggestion (negative: it did better)."""
        if self.played_value is None or self.suggested_value is None:
            return 0.0
        return self.suggested_value - self.played_value


@dataclass(frozen=True)
class GameReview:
    """The whole game's review."""

    players: tuple[str, ...]
    turns: tuple[TurnReview, ...]
    final: tuple[float, ...]  # each seat's share of the win at the end (the winners share it)
    scores: tuple[int, ...]  # the final scores
    worlds: int  # worlds per turn, planned
    cut_short: int  # turns played out in fewer worlds than planned, for the time limit
    unweighed: int = 0  # turns not played out at all: the whole time limit was spent before them

    def chances(self) -> list[tuple[float, ...]]:
        """Each seat's chance of winning: at the start (even), after every turn but the last (each the mean of the
        turns `SMOOTHING` either side of it), then the result."""
        n = len(self.players)
        raw = [t.chances for t in self.turns]
        points = [tuple(1.0 / n for _ in range(n))]
        for i in range(len(raw) - 1):
            near = raw[max(0, i - SMOOTHING) : i + SMOOTHING + 1]
            points.append(tuple(sum(c[seat] for c in near) / len(near) for seat in range(n)))
        points.append(self.final)
        return points

    def key_turns(self, seat: int | None = None, count: int = KEY_TURNS) -> tuple[int, ...]:
        """The numbers of the turns that mattered most (of `seat`'s turns, or of all), in turn order: the largest
        losses against the suggestion, then the largest swings in the mover's chance of winning."""
        curve = self.chances()
        ranked: list[tuple[float, float, int]] = []
        for i, turn in enumerate(self.turns):
            if seat is not None and turn.seat != seat:
                continue
            swing = abs(curve[i + 1][turn.seat] - curve[i][turn.seat])
            ranked.append((-max(turn.loss, 0.0), -swing, turn.number))
        ranked.sort()
        return tuple(sorted(number for _, _, number in ranked[:count]))
