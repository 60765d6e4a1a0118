"""What `/ttr review` answers (bot/service/review.py): the reviewed turns, the chances over the game, the progress
while it runs, and why a review is refused. Typed data only: bot/present/review.py words it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


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
    PASS = "pass"
    OTHER = "other"


@dataclass(frozen=True)
class ReviewedMove:
    """A move as the review shows it."""

    kind: MoveKind
    card: str | None = None
    route: int | None = None


@dataclass(frozen=True)
class ReviewedTurn:
    number: int
    seat: int
    played: ReviewedMove
    suggested: ReviewedMove
    same: bool  # the played move is the suggestion
    loss: float  # points the played move cost against the suggestion (negative: it did better; 0 when the same)
    worlds: int
    chances: tuple[float, ...]  # each seat's chance of winning after the turn
    weighed: bool = True  # False: the time limit was spent before this turn; no worth (loss 0)


@dataclass(frozen=True)
class GameReviewed:
    """A game's review as one reader gets it."""

    game_id: int
    map: str
    names: tuple[str, ...]  # the seats' members' display names (the player names of the record for autopilots)
    reader_seat: int | None  # the seat the reader held (None: a moderator who did not play)
    turns: tuple[ReviewedTurn, ...]  # every turn of the game
    key_turns: tuple[int, ...]  # the numbers of the turns that mattered most (the reader's, if they played)
    chances: tuple[tuple[float, ...], ...]  # each seat's chance: at the start, after each turn, at the end
    scores: tuple[int, ...]
    worlds: int  # worlds per turn, planned
    cut_short: int  # turns played out in fewer worlds, for the time limit
    unweighed: int  # turns not played out at all, the time limit spent
    seconds: float  # how long the computation took

    def mine(self) -> tuple[ReviewedTurn, ...]:
        """The reader's turns (every turn for a reader who did not play)."""
        if self.reader_seat is None:
            return self.turns
        return tuple(t for t in self.turns if t.seat == self.reader_seat)


@dataclass(frozen=True)
class ReviewProgress:
    game_id: int
    turn: int  # the turn being reviewed now (1-based)
    turns: int


__all__ = ["GameReviewed", "MoveKind", "ReviewProgress", "ReviewRefused", "ReviewWhy", "ReviewedMove", "ReviewedTurn"]
