"""The rules of Ticket to Ride on five maps: pure, deterministic, no I/O."""

from engine.claims import ClaimOption
from engine.errors import (
    AmbiguousMoveError,
    GameError,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    NotYourTurnError,
    RecordError,
)
from engine.events import Event
from engine.game import Game
from engine.moves import Claim, DrawCard, DrawTickets, Keep, Move, Pass, PlaceStack, TicketRef, TunnelPay
from engine.scoring import TieBreak, TieRule
from engine.state import Pending, Phase
from engine.turns import ToMove

__all__ = [
    "AmbiguousMoveError",
    "Claim",
    "ClaimOption",
    "DrawCard",
    "DrawTickets",
    "Event",
    "Game",
    "GameError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Keep",
    "Move",
    "MoveError",
    "NotYourTurnError",
    "Pass",
    "Pending",
    "Phase",
    "PlaceStack",
    "RecordError",
    "TicketRef",
    "TieBreak",
    "TieRule",
    "ToMove",
    "TunnelPay",
]
