"""What the store keeps of ratings (bot/service/ratings.py rates; the store writes once per game)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

OVERALL = ""  # the `map` of the rating over all maps


@dataclass(frozen=True)
class Skill:
    """An OpenSkill rating: the estimated skill `mu` and its uncertainty `sigma`."""

    mu: float
    sigma: float


@dataclass(frozen=True)
class RatedSeat:
    """One member's result in a game to rate."""

    user_id: int
    display_name: str
    place: int  # 1 = first; tied members share a place
    score: int
    tickets_done: int
    tickets_total: int


@dataclass(frozen=True)
class RatedGame:
    """A finished game to take into the ratings: its members' results (no autopilot players)."""

    game_id: int
    guild_id: int
    map: str
    kind: str  # "casual" or "tournament"
    seats: tuple[RatedSeat, ...]  # empty: considered, and left out of the ratings


# (the members' results, their ratings before, in the same order) -> their ratings after
RatingUpdate = Callable[[Sequence[RatedSeat], Sequence[Skill]], Sequence[Skill]]


@dataclass(frozen=True)
class RatingRow:
    guild_id: int
    map: str  # OVERALL or a map's key
    user_id: int
    skill: Skill
    games: int
    wins: int
    display_name: str


@dataclass(frozen=True)
class ResultRow:
    """A member's result in one rated game."""

    game_id: int
    map: str
    place: int
    score: int
    tickets_done: int
    tickets_total: int
