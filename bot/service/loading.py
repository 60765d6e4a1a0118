"""Loading a stored game: its snapshot, checked against the move log, or else a replay of the log.

The move log is the truth; the snapshot only saves replaying it. A snapshot
that is missing, damaged, or made from other moves is ignored and the moves
are replayed (in a worker thread: a long game takes milliseconds of CPU).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.service.errors import GameDamaged, Why
from bot.service.kinds import Actor
from bot.service.models import GameInfo
from bot.service.record import chain_changes
from bot.store import GameRow, GameStatus, StoredGame
from engine import Game, GameError, Move, Phase
from engine.moves import move_from_json
from engine.seat_changes import SeatChange
from engine.snapshot import EMPTY_DIGEST, SnapshotError, moves_digest, restore, snapshot_text
from maps import load_board

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LiveGame:
    """A game as the service holds it between actions; `game` is None before the deal."""

    info: GameInfo
    game: Game | None
    digest: str  # of the move log, extended move by move
    actors: tuple[Actor, ...] = ()  # who made each move


@dataclass(frozen=True)
class Loaded:
    live: LiveGame
    snapshot_problem: str | None  # why the stored snapshot was not used; None when it was
    fresh_snapshot: str | None  # a snapshot to store in place of the unusable one


def status_of(game: Game) -> GameStatus:
    phase = game.state.phase
    if phase is Phase.OVER:
        return GameStatus.FINISHED
    if phase is Phase.PLAY:
        return GameStatus.PLAYING
    return GameStatus.SETUP


def new_game(row: GameRow, players: Sequence[str]) -> Game:
    """The game as dealt, from the decks the game row recorded (a bot game: a whole round of passes ends it)."""
    if row.seed is None or row.cards is None or row.tickets is None:
        raise GameDamaged(Why.DECKS_MISSING, {"game_id": row.id})
    trains = row.options.get("trains")
    try:
        return Game(
            load_board(row.map),
            list(players),
            row.seed,
            trains,
            list(row.cards),
            list(row.tickets),
            pass_round_ends=True,
        )
    except GameError as exc:
        raise GameDamaged(Why.CANNOT_DEAL, {"game_id": row.id, "error": exc}) from None


def parse_moves(row: GameRow, raw: Sequence[dict[str, Any]]) -> list[Move]:
    moves = []
    for index, data in enumerate(raw):
        try:
            moves.append(move_from_json(data))
        except GameError as exc:
            raise GameDamaged(Why.MOVE_UNREADABLE, {"game_id": row.id, "index": index, "error": exc}) from None
    return moves


def replay_moves(row: GameRow, players: Sequence[str], moves: Sequence[Move]) -> Game:
    game = new_game(row, players)
    for index, move in enumerate(moves):
        try:
            game.apply(move)
        except GameError as exc:
            raise GameDamaged(Why.MOVE_UNPLAYABLE, {"game_id": row.id, "index": index, "error": exc}) from None
    return game


def _matches(game: Game, row: GameRow, players: Sequence[str]) -> bool:
    """Is this the game the row describes (a snapshot could belong to another)?"""
    return (
        game.board.name == row.map
        and game.names == list(players)
        and str(game.seed) == row.seed
        and game.trains_option == row.options.get("trains")
        and tuple(game.initial_cards) == row.cards
        and tuple(game.initial_tickets) == row.tickets
        and game.pass_round_ends  # the bot's games have the rule
    )


def _from_snapshot(stored: StoredGame, players: Sequence[str], moves: Sequence[Move], digest: str) -> Game:
    snap = stored.snapshot
    if snap is None:
        raise SnapshotError("there is no snapshot")
    try:
        data = json.loads(snap.data)
    except (ValueError, RecursionError) as exc:
        raise SnapshotError(f"the snapshot is not JSON: {exc}") from None
    game = restore(data, moves, digest)
    if not _matches(game, stored.game, players):
        raise SnapshotError("the snapshot belongs to another game")
    return game


def _seat_changes(stored: StoredGame) -> tuple[SeatChange, ...]:
    """The seat changes of the game's hash chain; none (and a warning) if the store holds one that cannot be."""
    try:
        return chain_changes(stored)
    except ValueError as exc:
        log.warning("game #%d: its seat changes cannot be chained (%s); its head leaves them out", stored.game.id, exc)
        return ()


async def load(stored: StoredGame) -> Loaded:
    row = stored.game
    info = GameInfo.of(row, stored.seats, _seat_changes(stored) if row.seed is not None else ())
    if not info.started:
        return Loaded(LiveGame(info, None, EMPTY_DIGEST), None, None)
    players = [s.player for s in info.seats if s.player is not None]
    if len(players) != len(info.seats) or [s.seat for s in info.seats] != list(range(len(players))):
        raise GameDamaged(Why.SEATS_DAMAGED, {"game_id": row.id})
    moves = parse_moves(row, [m.move for m in stored.moves])
    digest = moves_digest(moves)
    actors = tuple(Actor(m.actor) for m in stored.moves)
    try:
        game = _from_snapshot(stored, players, moves, digest)
    except SnapshotError as exc:
        game = await asyncio.to_thread(replay_moves, row, players, moves)
        return Loaded(LiveGame(info, game, digest, actors), str(exc), snapshot_text(game, digest))
    return Loaded(LiveGame(info, game, digest, actors), None, None)
