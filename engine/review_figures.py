"""Each player's figures from a review: accuracy, inaccuracies, mistakes and blunders, luck, the costliest decisions.

Chances are in points of the player's own chance of winning (0 to 100). A
decision's loss is the expert's move's chance less the move played's (none if
the move played did as well). Its **accuracy** is Lichess's formula for a move
(lichess.org/page/accuracy), from the loss in points:

    103.1668 * exp(-0.04354 * loss) - 3.1669, clamped to 0..100

and a player's accuracy is the plain mean over their decisions (Lichess
weighs and mixes in a harmonic mean; a plain mean is simpler to check). A
loss of at least `INACCURACY`, `MISTAKE` or `BLUNDER` points is an
inaccuracy, a mistake or a blunder. A player's **choices** figure is the sum
of their decisions' signed differences from the expert's (a move that did
better than the expert's counts in their favour), and their **luck** the sum
of their spots' luck, by kind (engine/review_worlds.py). Only the spots that
are the player's own count: a move the autopilot made for them (away, or out
of time) or a plan played is left out (`GameReview.not_counted`), and so is a
spot the review had no time to weigh.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.review_models import Chance, GameReview, SpotReview

INACCURACY = 5.0  # points of the player's chance of winning a decision lost
MISTAKE = 10.0
BLUNDER = 20.0
COSTLIEST = 3  # decisions named per player


def move_accuracy(loss_points: float) -> float:
    """Lichess's accuracy of a move that lost `loss_points` points of the mover's chance of winning."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, loss_points)) - 3.1669
    return min(100.0, max(0.0, value))


def grade(loss_points: float) -> str | None:
    """ "blunder", "mistake", "inaccuracy", or None for a loss under `INACCURACY` points."""
    if loss_points >= BLUNDER:
        return "blunder"
    if loss_points >= MISTAKE:
        return "mistake"
    if loss_points >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass(frozen=True)
class PlayerFigures:
    """One player's figures (chances in points, 0 to 100)."""

    seat: int
    decisions: int  # their own decisions weighed
    accuracy: float | None  # None: no decision of their own was weighed
    inaccuracies: int
    mistakes: int
    blunders: int
    choices: float  # the sum of their decisions' gains over the expert's moves (negative: lost)
    luck: dict[Chance, float]  # by kind, only the kinds they met
    costliest: tuple[int, ...]  # the indices (in `GameReview.spots`) of the decisions that lost most, worst first
    not_counted: int  # their turns in which someone else decided a move

    @property
    def luck_total(self) -> float:
        return sum(self.luck.values())


def _points(value: float) -> float:
    return 100.0 * value


def player_figures(review: GameReview, seat: int) -> PlayerFigures:
    """The figures of the player in `seat`."""
    decisions: list[tuple[int, SpotReview]] = []
    luck: dict[Chance, float] = {}
    for i, spot in enumerate(review.spots):
        if spot.seat != seat or not review.counted(spot):
            continue
        if spot.decision and spot.win_played is not None and spot.win_expert is not None:
            decisions.append((i, spot))
        if spot.chance is not None and spot.luck is not None:
            luck[spot.chance] = luck.get(spot.chance, 0.0) + _points(spot.luck)
    losses = [_points(s.loss) for _, s in decisions]
    grades = [grade(loss) for loss in losses]
    accuracy = sum(move_accuracy(loss) for loss in losses) / len(losses) if losses else None
    ranked = sorted((i for i, s in decisions if s.loss > 0), key=lambda i: (-review.spots[i].loss, i))
    left_out = len({s.number for s in review.spots if s.seat == seat and s.index in review.not_counted})
    return PlayerFigures(
        seat,
        len(decisions),
        accuracy,
        grades.count("inaccuracy"),
        grades.count("mistake"),
        grades.count("blunder"),
        sum(_points(s.gain) for _, s in decisions),
        luck,
        tuple(ranked[:COSTLIEST]),
        left_out,
    )


def all_figures(review: GameReview) -> tuple[PlayerFigures, ...]:
    return tuple(player_figures(review, seat) for seat in range(len(review.players)))


__all__ = [
    "BLUNDER",
    "COSTLIEST",
    "INACCURACY",
    "MISTAKE",
    "PlayerFigures",
    "all_figures",
    "grade",
    "move_accuracy",
    "player_figures",
]
