"""Typed errors whose messages are fit to show a player or a moderator."""

from __future__ import annotations


class GameError(ValueError):
    """A move that cannot be made; the message says why and what would work."""


class NotYourTurnError(GameError):
    """Someone other than the player to move tried to act."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules do not allow now."""


class AmbiguousMoveError(IllegalMoveError):
    """A move that could mean more than one thing (which track of a double route?)."""


class InvalidMoveError(GameError):
    """A move that is malformed: unknown keys, wrong types, unknown names."""


class RecordError(ValueError):
    """A game record that cannot be played at all (unknown map, bad deck, players)."""


class MoveError(ValueError):
    """Replaying a record stopped at move `index` (0-based) for `reason`."""

    def __init__(self, index: int, reason: GameError) -> None:
        self.index = index
        self.reason = reason
        super().__init__(f"move {index}: {reason}")
