"""The rules of Ticket to Ride on five maps: pure, deterministic, no I/O."""

from engine.claims import ClaimOption
from engine.errors import (
    AmbiguousMoveError,
    GameError,
    IllegalMoveError,
    InvalidMoveError,
    MapNames,
    MoveError,
    NotYourTurnError,
    RecordError,
    Refusal,
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
    "MapNames",
    "Move",
    "MoveError",
    "NotYourTurnError",
    "Pass",
    "Pending",
    "Phase",
    "PlaceStack",
    "RecordError",
    "Refusal",
    "TicketRef",
    "TieBreak",
    "TieRule",
    "ToMove",
    "TunnelPay",
]
