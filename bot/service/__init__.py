"""The game service: the one way in for the Discord layer, the CLI and the tests."""

from bot.service.errors import (
    ChannelBusy,
    GameDamaged,
    GameFull,
    InvalidInput,
    NotAllowed,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    RuleViolation,
    ServiceError,
    StaleVersion,
    WrongState,
)
from bot.service.game_service import GameService
from bot.service.models import ActionResult, GameInfo, PrivateEvent, PublicEvent, SeatInfo, Waiting

__all__ = [
    "ActionResult",
    "ChannelBusy",
    "GameDamaged",
    "GameFull",
    "GameInfo",
    "GameService",
    "InvalidInput",
    "NotAPlayer",
    "NotAllowed",
    "NotFound",
    "NotYourTurn",
    "PrivateEvent",
    "PublicEvent",
    "RuleViolation",
    "SeatInfo",
    "ServiceError",
    "StaleVersion",
    "Waiting",
    "WrongState",
]
