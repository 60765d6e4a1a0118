"""What the service announces: public events for everyone, private ones for one member, each with its facts.

An event says what happened as data; `bot.present.events` words it. The
facts of a move's events are the engine's public part (`MoveFacts`), so a
secret (a card drawn blind, a ticket kept) cannot reach the channel; every
other kind has a frozen dataclass of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.service.kinds import Actor, EventKind, TimeoutPolicy
from bot.service.scores import FinalScores, TicketLabel
from bot.service.views import PrivateView

# The public part of one of the engine's move events, as the engine gives it ({"route": 12, "points": 4, ...}).
MoveFacts = Mapping[str, Any]


@dataclass(frozen=True)
class Created:
    host_name: str
    map: str
    max_players: int
    bots: int  # seats taken by autopilot players at once
    level: str = "steady"  # how well those autopilot players play (engine.autopilot's Level value)


@dataclass(frozen=True)
class Joined:
    name: str
    seated: int  # seats taken now
    max_players: int
    autopilot: bool = False  # an autopilot player


@dataclass(frozen=True)
class Left:
    name: str
    autopilot: bool = False


@dataclass(frozen=True)
class HostChanged:
    name: str  # the new host


@dataclass(frozen=True)
class Cancelled:
    moderator: bool = False  # by a moderator (else by the host)
    nobody_left: bool = False  # the last member left the lobby


@dataclass(frozen=True)
class Started:
    players: tuple[str, ...]  # in seat order
    face_up: tuple[str | None, ...]
    commitment: str = ""  # SHA-256 of the seed and both decks (engine/verify.py), published before the first move


@dataclass(frozen=True)
class Timeout:
    seat: int
    player: str
    display_name: str
    user_id: int
    timeouts: int  # of this seat in this game, this one included
    policy: TimeoutPolicy


@dataclass(frozen=True)
class Paused:
    reason: str


@dataclass(frozen=True)
class Resumed:
    reason: str
    paused_seconds: float


@dataclass(frozen=True)
class Outage:
    seconds: float  # how long the bot was down: every running clock moved on by it


@dataclass(frozen=True)
class Extended:
    seconds: int
    players: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Replaced:
    seat: int
    player: str
    from_user_id: int  # negative: an autopilot player
    from_name: str
    to_user_id: int
    to_name: str
    reason: str


@dataclass(frozen=True)
class AutopilotSet:
    seat: int
    player: str
    user_id: int  # the seat's member
    display_name: str
    on: bool  # handed to the autopilot (else given back)
    reason: str


@dataclass(frozen=True)
class Undone:
    moves: int  # taken back
    from_count: int  # moves before
    to_count: int  # moves after
    to_move: str | None  # who must move now
    reason: str


@dataclass(frozen=True)
class Ended:
    score: bool  # scored as it stands (else abandoned without a result)
    reason: str


@dataclass(frozen=True)
class Reopened:
    """A game a moderator ended runs again as it was; the time it was over counts against no one."""

    ended_seconds: float  # how long it was over
    reason: str


EventData = (
    MoveFacts
    | Created
    | Joined
    | Left
    | HostChanged
    | Cancelled
    | Started
    | FinalScores
    | Timeout
    | Paused
    | Resumed
    | Outage
    | Extended
    | Replaced
    | AutopilotSet
    | Undone
    | Ended
    | Reopened
)


@dataclass(frozen=True)
class PublicEvent:
    """Something everyone may be told."""

    kind: EventKind
    data: EventData
    player: str | None = None  # the seat it is about
    user_id: int | None = None  # the member it is about
    actor: Actor | None = None  # for the events of a move: who made it

    @property
    def by_autopilot(self) -> bool:
        """One of the events of a move the autopilot made (for an autopilot seat, or after a timeout)."""
        return self.actor is Actor.AUTOPILOT or self.actor is Actor.TIMEOUT


@dataclass(frozen=True)
class Dealt:
    hand: Mapping[str, int]
    offered: tuple[int, ...]
    tickets: tuple[TicketLabel, ...]  # the offered tickets
    keep_minimum: int


@dataclass(frozen=True)
class CardDrawn:
    card: str


@dataclass(frozen=True)
class TicketsOffered:
    offered: tuple[int, ...]
    tickets: tuple[TicketLabel, ...]
    keep_minimum: int


@dataclass(frozen=True)
class TicketsKept:
    kept: tuple[int, ...]
    tickets: tuple[TicketLabel, ...]


@dataclass(frozen=True)
class SeatGiven:
    seat: int
    player: str
    view: PrivateView  # what the new member sees of the seat now


@dataclass(frozen=True)
class SeatTaken:
    seat: int
    player: str
    to_name: str  # who plays it now


PrivateData = Dealt | CardDrawn | TicketsOffered | TicketsKept | SeatGiven | SeatTaken


@dataclass(frozen=True)
class PrivateEvent:
    """Something only `user_id` may be told (a card drawn blind, tickets offered, a seat given or taken)."""

    user_id: int
    kind: EventKind
    data: PrivateData
