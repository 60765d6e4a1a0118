"""A game's status: where it is in its life, and which statuses count as active."""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    LOBBY = "lobby"  # players join; nothing dealt yet
    SETUP = "setup"  # dealt; players choose tickets (San Francisco: place stacks)
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def active(self) -> bool:
        return self in ACTIVE


ACTIVE = frozenset({GameStatus.LOBBY, GameStatus.SETUP, GameStatus.PLAYING})
