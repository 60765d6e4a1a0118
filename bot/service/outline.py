"""Moves as everyone may know them, and what an undo would take back.

An outline names the player and what kind of move it was, with its public
part (a face-up card's colour, a claimed route's ends), never a hidden card
or ticket: the moderators' log tells moves taken back this way. Taking a move
back does not make anyone forget what it showed: the undo's preview counts
the hidden cards and tickets each move showed, and to whom.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.kinds import MoveKind
from engine import Game
from engine.moves import Claim, DrawCard, DrawTickets, Keep, Move, PlaceStack, TunnelPay

DECK = "deck"


@dataclass(frozen=True)
class MoveOutline:
    """A move without its secrets."""

    player: str
    kind: MoveKind
    card: str | None = None  # DRAW_FACE_UP: the card's colour
    places: tuple[str, ...] = ()  # CLAIM: the route's two ends; PLACE: where
    kept: int = 0  # KEEP: how many tickets
    gave_up: bool = False  # TUNNEL: the tunnel was given up


@dataclass(frozen=True)
class UndoneOutline:
    """One move an undo takes back, and the hidden cards or tickets it showed."""

    move: MoveOutline
    cards_seen: int = 0  # deck cards its player saw (a blind draw)
    tickets_seen: int = 0  # tickets its player saw (a ticket draw)
    shown_to_all: int = 0  # deck cards everyone saw (a face-up refill, a tunnel's cards)


@dataclass(frozen=True)
class UndoPreview:
    """What `/ttrmod undo` would take back, oldest move first, before the moderator confirms."""

    game_id: int
    version: int  # the game's version it was made at
    count: int  # moves taken back
    moves_before: int  # moves made so far
    moves: tuple[UndoneOutline, ...]


def outline(move: Move) -> MoveOutline:
    """What everyone may know of `move`."""
    match move:
        case Keep():
            return MoveOutline(move.player, MoveKind.KEEP, kept=len(move.tickets))
        case DrawCard() if move.source == DECK:
            return MoveOutline(move.player, MoveKind.DRAW_BLIND)
        case DrawCard():
            return MoveOutline(move.player, MoveKind.DRAW_FACE_UP, card=move.source)
        case DrawTickets():
            return MoveOutline(move.player, MoveKind.DRAW_TICKETS)
        case Claim():
            return MoveOutline(move.player, MoveKind.CLAIM, places=(move.a, move.b))
        case TunnelPay():
            return MoveOutline(move.player, MoveKind.TUNNEL, gave_up=move.pay is None)
        case PlaceStack():
            return MoveOutline(move.player, MoveKind.PLACE, places=(move.at,))
    return MoveOutline(move.player, MoveKind.PASS)


def undo_outlines(game: Game, moves: int) -> tuple[UndoneOutline, ...]:
    """The last `moves` moves of `game`, each with what it showed that the undo cannot hide again."""
    keep = len(game.moves) - moves
    replayed = game.replay_until(keep)
    told: list[UndoneOutline] = []
    for move in game.moves[keep:]:
        before = replayed.state.copy()
        replayed.apply(move)
        after = replayed.state
        blind = 1 if isinstance(move, DrawCard) and move.source == DECK else 0
        drawer = after.players[replayed.names.index(move.player)]
        tickets = len(drawer.offered or ()) if isinstance(move, DrawTickets) else 0
        if before.piles.reshuffles == after.piles.reshuffles:
            from_deck = len(before.piles.deck) - len(after.piles.deck)
        else:  # the discard pile became the deck: count the face-up cards that changed
            from_deck = blind + sum(1 for a, b in zip(before.piles.face_up, after.piles.face_up, strict=True) if a != b)
        told.append(UndoneOutline(outline(move), blind, tickets, max(0, from_deck - blind)))
    return tuple(told)
