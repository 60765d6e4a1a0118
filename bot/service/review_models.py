"""What `/ttr review` answers (bot/service/review.py): the reviewed turns, the chances over the game, the progress
while it runs, and why a review is refused. Typed data only: bot/present/review.py words it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.review_models import Chance, NotCounted


class ReviewWhy(StrEnum):
    """Why a review is refused; its facts are named in each comment."""

    NO_GAME = "no_game"  # (no finished game of the member's in this channel)
    NO_SUCH_GAME = "no_such_game"  # game_id
    NOT_FINISHED = "not_finished"  # game_id
    NOT_FINAL = "not_final"  # game_id, hours (a moderator's end that can still be undone)
    NOT_A_PLAYER = "not_a_player"  # game_id
    RUNNING = "running"  # game_id (the member's review being computed)
    TOO_MANY = "too_many"  # limit, retry_at (datetime, UTC)


class ReviewRefused(Exception):
    """A review the service turns down: why, and the facts."""

    def __init__(self, why: ReviewWhy, facts: dict[str, Any] | None = None) -> None:
        super().__init__(why.value, facts or {})
        self.why = why
        self.facts: dict[str, Any] = facts or {}


class MoveKind(StrEnum):
    DECK = "deck"  # a card from the deck
    FACE_UP = "face_up"  # a face-up card (`card`)
    TICKETS = "tickets"
    CLAIM = "claim"  # `route`: the route's id on the board
    KEEP = "keep"  # `tickets`: the tickets kept, their ids on the board
    PASS = "pass"
    OTHER = "other"


@dataclass(frozen=True)
class ReviewedMove:
    """A move as the review shows it."""

    kind: MoveKind
    card: str | None = None
    route: int | None = None
    tickets: tuple[int, ...] = ()  # sorted


@dataclass(frozen=True)
class ReviewedSpot:
    """A move the review weighed (engine/review.py's spot): a decision against the expert's move, and/or a move
    that drew what its player could not see. Chances are the mover's, from 0 to 1."""

    number: int  # the turn (0: the opening keep)
    seat: int
    played: ReviewedMove
    expert: ReviewedMove  # the expert's move (the move played, for a spot that is only a chance)
    same: bool  # the move played is the expert's (shown alike)
    decision: bool
    chance: Chance | None
    win_expert: float | None  # the mover's chance after the expert's move (None: not a decision, or not weighed)
    win_played: float | None  # ... after the move played, its draw at random
    luck: float | None  # with what the move really drew, less with a random draw
    not_counted: NotCounted | None  # someone else decided it (the autopilot, a plan): not the player's figures
    worlds: int
    weighed: bool = True  # False: the time limit was spent before it
    index: int = 0  # the move's index in the game record's moves

    @property
    def loss(self) -> float:
        """The chance the move played lost against the expert's (0 when the same or better)."""
        if self.same or self.win_expert is None or self.win_played is None:
            return 0.0
        return max(0.0, self.win_expert - self.win_played)


@dataclass(frozen=True)
class PlayerReview:
    """One player's figures (engine/review_figures.py), chances in points (0 to 100)."""

    seat: int
    decisions: int
    accuracy: float | None  # None: no decision of their own was weighed
    inaccuracies: int
    mistakes: int
    blunders: int
    choices: float  # the sum of their decisions' gains over the expert's (negative: lost)
    luck: tuple[tuple[Chance, float], ...]  # by kind, in `Chance` order, only the kinds they met
    costliest: tuple[int, ...]  # indices in `GameReviewed.spots` of the decisions that lost most, worst first
    not_counted: int  # their turns in which someone else decided a move

    @property
    def luck_total(self) -> float:
        return sum(value for _, value in self.luck)


@dataclass(frozen=True)
class GameReviewed:
    """A game's review as one reader gets it."""

    game_id: int
    map: str
    names: tuple[str, ...]  # the seats' members' display names (the player names of the record for autopilots)
    reader_seat: int | None  # the seat the reader held (None: a moderator who did not play)
    spots: tuple[ReviewedSpot, ...]  # every spot of the game, in order
    players: tuple[PlayerReview, ...]  # per seat
    chances: tuple[tuple[float, ...], ...]  # each seat's chance: at the start, after each turn, at the end
    scores: tuple[int, ...]
    worlds: int  # worlds per spot, planned
    cut_short: int  # spots played out in fewer worlds, for the time limit
    unweighed: int  # spots not played out at all, the time limit spent
    seconds: float  # how long the computation took

    @property
    def turns(self) -> int:
        return max((s.number for s in self.spots), default=0)

    @property
    def key_spots(self) -> tuple[int, ...]:
        """The decisions that mattered most, worst first (indices in `spots`): the reader's costliest, or for a
        reader who did not play, the game's."""
        if self.reader_seat is not None:
            return self.players[self.reader_seat].costliest
        ranked = sorted(
            (i for i, s in enumerate(self.spots) if s.loss > 0 and s.not_counted is None and s.weighed),
            key=lambda i: (-self.spots[i].loss, i),
        )
        return tuple(ranked[:3])

    @property
    def key_turns(self) -> tuple[int, ...]:
        """The turns of `key_spots`, in turn order (the chart marks them)."""
        return tuple(sorted({self.spots[i].number for i in self.key_spots}))

    def mine(self) -> tuple[ReviewedSpot, ...]:
        """The reader's spots (every spot for a reader who did not play)."""
        if self.reader_seat is None:
            return self.spots
        return tuple(s for s in self.spots if s.seat == self.reader_seat)


@dataclass(frozen=True)
class ReviewProgress:
    game_id: int
    turn: int  # the turn being reviewed now (1-based; 0: the opening keeps)
    turns: int


__all__ = [
    "Chance",
    "GameReviewed",
    "MoveKind",
    "NotCounted",
    "PlayerReview",
    "ReviewProgress",
    "ReviewRefused",
    "ReviewWhy",
    "ReviewedMove",
    "ReviewedSpot",
]
