"""The final scores, and tickets as the board labels them: shown to everyone once the game is over."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.service.models import GameInfo
from engine import Game, TieBreak
from engine.verify import game_head
from maps import Board


@dataclass(frozen=True)
class TicketLabel:
    id: int
    label: str  # the board's name for it, like "Denver - El Paso (4)"


@dataclass(frozen=True)
class TicketResult:
    id: int
    label: str
    done: bool
    points: int  # won if done, lost if not


@dataclass(frozen=True)
class PlayerScore:
    player: str
    user_id: int | None
    total: int
    routes: int  # points for routes
    completed: int  # tickets done
    failed: int
    ticket_points: int
    ticket_results: tuple[TicketResult, ...]
    longest: int  # the length of the player's longest path
    bonus: Mapping[str, int]  # the map's bonuses by name


@dataclass(frozen=True)
class FinalScores:
    scores: tuple[PlayerScore, ...]  # in seat order
    winners: tuple[str, ...]
    tie: TieBreak | None = None  # how a tie on points was broken, if there was one
    head: str | None = None  # the hash chain's last link (engine/verify.py): what the record must end with
    seed: str | None = None  # revealed when the game's end is final (by the rules, or scored by a moderator)

    def ranking(self) -> list[PlayerScore]:
        """Highest total first (seat order among equal totals)."""
        return sorted(self.scores, key=lambda r: -r.total)


def ticket_labels(board: Board, ids: Iterable[int]) -> tuple[TicketLabel, ...]:
    return tuple(TicketLabel(t, board.tickets[t].label()) for t in ids)


def final_scores(info: GameInfo, game: Game, *, reveal_seed: bool = False) -> FinalScores:
    """The scores as the game stands (at its end, or when a moderator ends it): tickets are revealed then.

    With them the chain's head, and (`reveal_seed`: the end is final, so the game never runs again) the seed,
    so anyone can check the record against the commitment posted at the start.
    """
    board = game.board
    rows = tuple(
        PlayerScore(
            player=sc.name,
            user_id=info.user_of(sc.name),
            total=sc.total,
            routes=sc.routes,
            completed=sc.completed,
            failed=sc.failed,
            ticket_points=sc.ticket_points,
            ticket_results=tuple(
                TicketResult(t, board.tickets[t].label(), done, points) for t, done, points in sc.ticket_results
            ),
            longest=sc.longest,
            bonus=dict(sc.bonus),
        )
        for sc in game.score()
    )
    seed = str(game.seed) if reveal_seed else None
    return FinalScores(
        rows, tuple(game.winners()), game.tie_break(), head=game_head(game, info.seat_changes), seed=seed
    )
