"""The errors as they were then: typed, their facts only in the English message."""

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
