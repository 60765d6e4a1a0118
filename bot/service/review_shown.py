"""A review's engine data as the service gives it (bot/service/review.py): moves as a reader sees them, each
player's figures as typed data. A move shown as the expert's is the expert's (`as_shown`)."""

from __future__ import annotations

from dataclasses import replace

from bot.service.review_models import MoveKind, PlayerReview, ReviewedMove, ReviewedSpot
from engine.moves import Claim, DrawCard, DrawTickets, Keep, Move, Pass
from engine.review import Chance, NotCounted, SpotReview
from engine.review_figures import PlayerFigures
from engine.tickets import ticket_key
from maps import Board


def shown_move(board: Board, move: Move) -> ReviewedMove:
    if isinstance(move, DrawCard):
        return ReviewedMove(MoveKind.DECK) if move.source == "deck" else ReviewedMove(MoveKind.FACE_UP, move.source)
    if isinstance(move, DrawTickets):
        return ReviewedMove(MoveKind.TICKETS)
    if isinstance(move, Pass):
        return ReviewedMove(MoveKind.PASS)
    if isinstance(move, Keep):
        keys = [ticket_key(board, ref) for ref in move.tickets]
        ids = [next((t.id for t in board.tickets if t.key == key), -1) for key in keys]
        return ReviewedMove(MoveKind.KEEP, tickets=tuple(sorted(ids)))
    if isinstance(move, Claim):
        ends = {move.a, move.b}
        routes = [r for r in board.routes if {r.a, r.b} == ends]
        chosen = [r for r in routes if move.route is None or r.color == move.route] or routes
        return ReviewedMove(MoveKind.CLAIM, route=chosen[0].id if chosen else None)
    return ReviewedMove(MoveKind.OTHER)


def as_shown(board: Board, spot: SpotReview) -> SpotReview:
    """A move shown as the expert's is the expert's (a claim paid otherwise, say): the same, no loss."""
    if not spot.same and shown_move(board, spot.played) == shown_move(board, spot.expert):
        return replace(spot, expert=spot.played)
    return spot


def reviewed_spot(board: Board, spot: SpotReview, not_counted: NotCounted | None) -> ReviewedSpot:
    played, expert = shown_move(board, spot.played), shown_move(board, spot.expert)
    return ReviewedSpot(
        spot.number,
        spot.seat,
        played,
        expert,
        spot.same,
        spot.decision,
        spot.chance,
        spot.win_expert,
        spot.win_played,
        spot.luck,
        not_counted,
        spot.worlds,
        spot.weighed,
        spot.index,
    )


def player_review(figures: PlayerFigures) -> PlayerReview:
    luck = tuple((kind, figures.luck[kind]) for kind in Chance if kind in figures.luck)
    return PlayerReview(
        figures.seat,
        figures.decisions,
        figures.accuracy,
        figures.inaccuracies,
        figures.mistakes,
        figures.blunders,
        figures.choices,
        luck,
        figures.costliest,
        figures.not_counted,
    )


__all__ = ["as_shown", "player_review", "reviewed_spot", "shown_move"]
