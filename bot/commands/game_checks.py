"""Whether a stored game is the one its own rules make: `migrate-store` copies no database with a game that is not.

A started game is dealt again from its seed alone (the bot shuffles both decks from the seed when a game
starts), and its move log is replayed by the rules from that deal. The game row's decks must be the ones the
seed deals; every move must be one the rules allow at its place in the log; the snapshot, if the game has one,
must be exactly the one the replayed game makes (the state, the decks, the seed, the players, the move count and
digest); and a game stored as in setup or playing must still be there after its moves (a finished game may
have been ended early by a moderator, a cancelled one at any point). A lobby has no deal and no moves.

The problems are said for the operator, in English, without the seed, the decks or a hand.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.service.loading import status_of
from bot.store.rows import MoveRow, StoredGame
from bot.store.status import GameStatus
from engine import Game, GameError
from engine.moves import move_from_json
from engine.snapshot import moves_digest, snapshot
from maps import MAP_NAMES, load_board


def game_problem(stored: StoredGame) -> str | None:
    """What makes the stored game one its rules reject (to follow "game #N "), or None if nothing does."""
    row = stored.game
    if row.seed is None:
        return f"has {len(stored.moves)} moves but was never dealt (no seed)" if stored.moves else None
    if row.cards is None or row.tickets is None:
        return "has a seed but no decks"
    if row.map not in MAP_NAMES:
        return f"is of the unknown map {row.map!r}"
    seats = sorted(stored.seats, key=lambda s: -1 if s.seat is None else s.seat)
    players = [s.player for s in seats]
    if [s.seat for s in seats] != list(range(len(seats))) or any(p is None for p in players):
        return "has seats without a seat number or a player name"
    try:
        game = Game(
            load_board(row.map),
            [p for p in players if p is not None],
            row.seed,
            row.options.get("trains"),
            pass_round_ends=True,  # the bot's games have the rule (bot/service/loading.py)
        )
    except GameError as exc:
        return f"cannot be dealt from its seed: {exc}"
    if tuple(game.initial_cards) != row.cards:
        return "has a card deck that is not the one its seed deals (the seed or the deck's order was changed)"
    if tuple(game.initial_tickets) != row.tickets:
        return "has a ticket deck that is not the one its seed deals (the seed or the deck's order was changed)"
    problem = _replay(game, stored.moves)
    if problem is not None:
        return problem
    if row.status in (GameStatus.SETUP, GameStatus.PLAYING) and status_of(game) is not row.status:
        return f"is stored as {row.status.value}, but its {len(stored.moves)} moves leave it {status_of(game).value}"
    return _snapshot_problem(stored, game)


def _replay(game: Game, moves: Sequence[MoveRow]) -> str | None:
    """Each move of the log in turn on `game` by the rules; what the first one refused is, if one is."""
    for place, row in enumerate(moves):
        if row.index != place:
            return f"skips from move {place - 1} to move {row.index} in its log"
        try:
            move = move_from_json(row.move)
        except GameError as exc:
            return f"cannot be replayed: its move {row.index} cannot be read ({exc})"
        try:
            game.apply(move)
        except GameError as exc:
            return f"breaks the rules at move {row.index} ({_named(row.move)}): {exc}"
    return None


def _named(data: dict[str, Any]) -> str:
    """A move as the operator may read it: who, and what kind (not which cards or tickets)."""
    player = str(data.get("player"))[:40]
    if "draw" in data:
        source = data["draw"]
        return f"{player} draws {'tickets' if source == 'tickets' else 'a card'}"
    if "claim" in data:
        return f"{player} claims {'–'.join(str(place)[:40] for place in data['claim'])}"
    action = next((key for key in data if key != "player"), "?")
    return f"{player}: {action}"


def _snapshot_problem(stored: StoredGame, game: Game) -> str | None:
    """How the stored snapshot differs from the one the replayed game makes, if it does."""
    if stored.snapshot is None:
        return None
    if stored.snapshot.move_count != len(game.moves):
        return f"has a snapshot of move {stored.snapshot.move_count}, but {len(game.moves)} moves in its log"
    try:
        kept = json.loads(stored.snapshot.data)
    except (ValueError, RecursionError):
        return "has a snapshot that is not JSON"
    made = snapshot(game, moves_digest(game.moves))
    if kept == made:
        return None
    if not isinstance(kept, dict):
        return "has a snapshot that is not a JSON object"
    parts = sorted(key for key in made.keys() | kept.keys() if key != "check" and kept.get(key) != made.get(key))
    if parts == ["state"] and isinstance(kept["state"], dict):
        state = made["state"]
        inner = sorted(k for k in state.keys() | kept["state"].keys() if kept["state"].get(k) != state.get(k))
        parts = [f"state ({', '.join(inner)})"]
    differs = ", ".join(parts) or "check"
    return f"has a snapshot that is not the game its moves make (it differs in {differs})"
