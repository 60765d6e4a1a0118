"""The game service: the one way in for the Discord layer, the CLI and the tests.

The store's `GameStatus` and `TimerRow` are part of its vocabulary: a game's status, a due timer.
"""

from bot.service.audit import LogEntry, LogRead, RecordRead
from bot.service.clock import NO_CLOCK, ClockSettings
from bot.service.digest import Digest, LostRoute
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
    Why,
    WrongState,
)
from bot.service.events import PrivateEvent, PublicEvent
from bot.service.game_service import GameService
from bot.service.history import Stage, ToldMove
from bot.service.kinds import Actor, AuditAction, EventKind, LogKind, MoveKind, Must, TimeoutPolicy, TimerKind
from bot.service.models import GameInfo, SeatInfo, Waiting
from bot.service.outline import MoveOutline, UndoneOutline, UndoPreview
from bot.service.reading import ClockStatus, SeatClock
from bot.service.results import ActionResult, ModLogEntry, PlayedFor, Reminder, TurnNotice
from bot.service.scores import FinalScores, PlayerScore
from bot.service.settings import GuildConfig, may_moderate
from bot.service.timer_outcome import TimerOutcome
from bot.service.views import PrivateView, PublicView
from bot.store import GameStatus, TimerRow

__all__ = [
    "NO_CLOCK",
    "ActionResult",
    "Actor",
    "AuditAction",
    "ChannelBusy",
    "ClockSettings",
    "ClockStatus",
    "Digest",
    "EventKind",
    "FinalScores",
    "GameDamaged",
    "GameFull",
    "GameInfo",
    "GameService",
    "GameStatus",
    "GuildConfig",
    "InvalidInput",
    "LogEntry",
    "LogKind",
    "LogRead",
    "LostRoute",
    "ModLogEntry",
    "MoveKind",
    "MoveOutline",
    "Must",
    "NotAPlayer",
    "NotAllowed",
    "NotFound",
    "NotYourTurn",
    "PlayedFor",
    "PlayerScore",
    "PrivateEvent",
    "PrivateView",
    "PublicEvent",
    "PublicView",
    "RecordRead",
    "Reminder",
    "RuleViolation",
    "SeatClock",
    "SeatInfo",
    "ServiceError",
    "Stage",
    "StaleVersion",
    "TimeoutPolicy",
    "TimerKind",
    "TimerOutcome",
    "TimerRow",
    "ToldMove",
    "TurnNotice",
    "UndoPreview",
    "UndoneOutline",
    "Waiting",
    "Why",
    "WrongState",
    "may_moderate",
]
