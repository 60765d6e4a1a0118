"""What an action or a timer did: the game after it, what to announce to whom, what to tell the moderators."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import ClassVar

from bot.service.digest import Digest
from bot.service.events import (
    AutopilotSet,
    Cancelled,
    Ended,
    Extended,
    PrivateEvent,
    PublicEvent,
    Reopened,
    Replaced,
    Timeout,
    Undone,
)
from bot.service.kinds import AuditAction, EventKind, Must, ReminderPhase, TimeoutPolicy
from bot.service.models import GameInfo, Waiting
from bot.service.plan_eval import PlanItem, PlanOutcome

ModFacts = Cancelled | Timeout | Extended | Replaced | AutopilotSet | Undone | Ended | Reopened


@dataclass(frozen=True)
class ModLogEntry:
    """A line for the server's moderators' log channel: a moderator's action, or a repeated timeout."""

    game: GameInfo
    action: AuditAction
    by: int | None  # the moderator; None: the clock
    reason: str
    facts: ModFacts | None = None  # the details, where the action has any


@dataclass(frozen=True)
class TurnNotice:
    """A member's turn has come: what changed since their last turn, and until when they have.

    The catch-up digest is worked out when it is first read (by whoever sends
    the "your turn" DM), not inside the action: it costs more than the rest
    of the action's work, and nobody reads it for a member who gets no DM.
    `build` works from the game as it was when the notice was made (games
    are never changed once committed), so the digest is the same whenever it
    is read.
    """

    kind: ClassVar[EventKind] = EventKind.TURN

    user_id: int
    deadline: datetime | None  # with the reserve; None without a clock
    must: Must | None
    at: datetime  # when it was written
    build: Callable[[], Digest] = field(repr=False, compare=False)

    @cached_property
    def digest(self) -> Digest:
        """What changed since the member's last turn (worked out once, on first reading)."""
        return self.build()


@dataclass(frozen=True)
class PlayedFor:
    """One move the autopilot made for a member (their time ran out, or their seat is handed to it).

    For that member alone: `private` holds what only they may know (the card
    drawn blind, the tickets kept); `public` is the move as everyone saw it.
    """

    user_id: int
    player: str
    timeout: bool  # their time ran out (else: the autopilot plays their seat)
    public: tuple[PublicEvent, ...]
    private: tuple[PrivateEvent, ...]
    index: int = -1  # the move's place in the game's moves (-1: not known)


@dataclass(frozen=True)
class PlannedTurn:
    """A member's planned turn, played (or tried) when their turn came: what it did and why the items before the
    one played did not apply. For that member alone (`private`: what only they may know, the cards drawn blind)."""

    user_id: int
    player: str
    items: tuple[PlanItem, ...]
    outcome: PlanOutcome
    private: tuple[PrivateEvent, ...] = ()


@dataclass(frozen=True)
class ActionResult:
    """What an action did: the game after it, and what to announce to whom."""

    game: GameInfo
    public: tuple[PublicEvent, ...] = ()
    private: tuple[PrivateEvent, ...] = ()
    waiting: Waiting | None = None
    # one per member whose turn has come, with what changed since their last turn
    notices: tuple[TurnNotice, ...] = ()
    # for the server's moderators' log channel (moderator actions, repeated timeouts)
    mod_log: tuple[ModLogEntry, ...] = ()
    # moves the autopilot made for members, each to be told to its member alone
    played_for: tuple[PlayedFor, ...] = ()
    # planned turns played (or tried) for members, each to be told to its member alone
    planned: tuple[PlannedTurn, ...] = ()

    @property
    def version(self) -> int:
        return self.game.version

    def private_for(self, user_id: int) -> tuple[PrivateEvent, ...]:
        return tuple(e for e in self.private if e.user_id == user_id)


@dataclass(frozen=True)
class Reminder:
    """A reminder for a member whose time runs out; by DM, or a mention where DMs are closed."""

    game: GameInfo
    user_id: int
    deadline: datetime | None  # with the reserve
    at: datetime  # when the reminder fell due
    turn_over: bool  # the turn time is over: the member is using their reserve
    policy: TimeoutPolicy  # what happens when the time runs out
    phase: ReminderPhase = ReminderPhase.TURN  # the turn time runs out, the reserve starts, or it runs out
