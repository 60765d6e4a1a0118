"""The game service: the one way in for the Discord layer, the CLI and the tests."""

from bot.service.clock import NO_CLOCK, ClockSettings
from bot.service.digest import Digest
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
from bot.service.models import (
    ActionResult,
    GameInfo,
    PrivateEvent,
    PublicEvent,
    Reminder,
    SeatInfo,
    TimerOutcome,
    Waiting,
)
from bot.service.moderation import GuildConfig, LogEntry, log_text, may_moderate

__all__ = [
    "NO_CLOCK",
    "ActionResult",
    "ChannelBusy",
    "ClockSettings",
    "Digest",
    "GameDamaged",
    "GameFull",
    "GameInfo",
    "GameService",
    "GuildConfig",
    "InvalidInput",
    "LogEntry",
    "NotAPlayer",
    "NotAllowed",
    "NotFound",
    "NotYourTurn",
    "PrivateEvent",
    "PublicEvent",
    "Reminder",
    "RuleViolation",
    "SeatInfo",
    "ServiceError",
    "StaleVersion",
    "TimerOutcome",
    "Waiting",
    "WrongState",
    "log_text",
    "may_moderate",
]
