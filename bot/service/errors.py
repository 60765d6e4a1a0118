"""Why the game service refused something; `str(error)` is the message for the person who asked."""

from __future__ import annotations

from engine import GameError, NotYourTurnError


class ServiceError(Exception):
    """A refused request. Nothing was changed."""


class NotFound(ServiceError):
    """No such game (or no game in this channel)."""


class NotAPlayer(ServiceError):
    """The user has no seat in this game."""


class NotAllowed(ServiceError):
    """The user may not do this here: not the host, not a moderator, not their own move."""


class WrongState(ServiceError):
    """Not possible at this stage of the game (lobby, setup, playing, finished, cancelled)."""


class InvalidInput(ServiceError):
    """A request that makes no sense: an unknown map, options out of range, a malformed move."""


class ChannelBusy(ServiceError):
    """The channel already has an active game."""

    def __init__(self, message: str, game_id: int | None) -> None:
        super().__init__(message)
        self.game_id = game_id


class GameFull(ServiceError):
    """Every seat of the lobby is taken."""


class StaleVersion(ServiceError):
    """The caller acted on what it saw at an older version (a stale button, a double click)."""

    def __init__(self, game_id: int, expected: int | None, actual: int | None) -> None:
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__("The game has moved on since this was shown. Look at the latest state and try again.")


class RuleViolation(ServiceError):
    """The rules do not allow this move; the message is the engine's, written for the player."""

    def __init__(self, reason: GameError) -> None:
        super().__init__(str(reason))
        self.reason = reason

    @staticmethod
    def of(reason: GameError) -> RuleViolation:
        return NotYourTurn(reason) if isinstance(reason, NotYourTurnError) else RuleViolation(reason)


class NotYourTurn(RuleViolation):
    """Someone else must act now."""


class GameDamaged(ServiceError):
    """The stored move log of a game cannot be replayed; a moderator must look at it."""
