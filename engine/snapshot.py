"""Snapshots: a game's whole state as JSON, so a long game loads without a replay.

A snapshot is only a cache of the move log. It names the number of moves it
stands for and a digest of them, and `restore` refuses it unless the moves it
is given match, or when it is damaged in any way; the caller then replays the
moves instead. No I/O here: the store decides where snapshots live.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.game import Game
from engine.snapshot_format import (
    EMPTY_DIGEST,
    FORMAT,
    SnapshotError,
    canonical_json,
    check_value,
    extend_digest,
    moves_digest,
)
from engine.snapshot_read import PILES_KEYS, PLAYER_KEYS, STATE_KEYS, TUNNEL_KEYS, restore
from engine.state import GameState, PlayerState

# ----- writing -----------------------------------------------------------------


def _pairs(counter: Counter[str]) -> list[list[Any]]:
    # pairs, not an object: the restored Counter iterates in the same order,
    # so listings built from a hand (legal payments) come out in the same order
    return [[card, n] for card, n in counter.items()]


def _player(p: PlayerState) -> dict[str, Any]:
    return {
        "name": p.name,
        "trains": p.trains,
        "hand": _pairs(p.hand),
        "tickets": list(p.tickets),
        "offered": None if p.offered is None else list(p.offered),
        "routes": list(p.routes),
        "route_points": p.route_points,
        "merchandise": p.merchandise,
        "souvenirs": list(p.souvenirs),
        "setup_done": p.setup_done,
    }


def _state(s: GameState) -> dict[str, Any]:
    t = s.tunnel
    return {
        "players": [_player(p) for p in s.players],
        "piles": {
            "seed": s.piles.seed,
            "deck": list(s.piles.deck),
            "discard": list(s.piles.discard),
            "face_up": list(s.piles.face_up),
            "reshuffles": s.piles.reshuffles,
            "resets": s.piles.resets,
        },
        "ticket_deck": list(s.ticket_deck),
        "phase": s.phase.value,
        "current": s.current,
        "pending": None if s.pending is None else s.pending.value,
        "tunnel": None
        if t is None
        else {
            "route": t.route,
            "laid": _pairs(t.laid),
            "revealed": list(t.revealed),
            "colour": t.colour,
            "surcharge": t.surcharge,
            "souvenir": t.souvenir,
        },
        "owner": [[route, seat] for route, seat in s.owner.items()],
        "final_turns": s.final_turns,
        "final_trigger": s.final_trigger,
        "merchandise_left": s.merchandise_left,
        "stacks": [[place, st.symbol, st.tokens] for place, st in s.stacks.items()],
        "placements": s.placements,
        "removed_tickets": list(s.removed_tickets),
        "turn": s.turn,
    }


def _body(game: Game, digest: str | None) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "map": game.board.name,
        "players": list(game.names),
        "seed": game.seed,
        "trains": game.trains_option,
        "decks": {"cards": list(game.initial_cards), "tickets": list(game.initial_tickets)},
        "moves": len(game.moves),
        "moves_digest": moves_digest(game.moves) if digest is None else digest,
        "pass_round_ends": game.pass_round_ends,
        "state": _state(game.state),
    }


def snapshot(game: Game, digest: str | None = None) -> dict[str, Any]:
    """The game as a JSON-able object; `digest` is `moves_digest(game.moves)` if the caller keeps it."""
    body = _body(game, digest)
    return {**body, "check": check_value(body)}


def snapshot_text(game: Game, digest: str | None = None) -> str:
    """`snapshot(game)` as JSON text, serialised once (it is written after every move).

    The very text `canonical_json` gives for the body, with the check added,
    built from parts: the parts that stay the same all game long (the decks
    as dealt, the players, the seed) are serialised once per game and reused,
    so a move costs the serialising of the state alone.
    """
    fixed = _fixed_parts(
        game.board.name,
        tuple(game.names),
        game.seed,
        game.trains_option,
        tuple(game.initial_cards),
        tuple(game.initial_tickets),
    )
    moves_hash = moves_digest(game.moves) if digest is None else digest
    # the keys in canonical_json's (sorted) order: check that `_body` still has exactly these
    body = (
        f'{{"decks":{fixed.decks},"format":{FORMAT},"map":{fixed.map},"moves":{len(game.moves)},'
        f'"moves_digest":{canonical_json(moves_hash)},"pass_round_ends":{canonical_json(game.pass_round_ends)},'
        f'"players":{fixed.players},"seed":{fixed.seed},'
        f'"state":{canonical_json(_state(game.state))},"trains":{fixed.trains}}}'
    )
    check = hashlib.sha256(body.encode()).hexdigest()
    return f'{body[:-1]},"check":"{check}"}}'


@dataclass(frozen=True)
class _Fixed:
    """The parts of a game's snapshot text that stay the same all game long, each as canonical JSON."""

    decks: str
    map: str
    players: str
    seed: str
    trains: str


@lru_cache(maxsize=4096)
def _fixed_parts(
    map_name: str,
    names: tuple[str, ...],
    seed: str | int,
    trains: int | None,
    cards: tuple[str, ...],
    tickets: tuple[int, ...],
) -> _Fixed:
    return _Fixed(
        canonical_json({"cards": list(cards), "tickets": list(tickets)}),
        canonical_json(map_name),
        canonical_json(list(names)),
        canonical_json(seed),
        canonical_json(trains),
    )


__all__ = [
    "EMPTY_DIGEST",
    "FORMAT",
    "PILES_KEYS",
    "PLAYER_KEYS",
    "STATE_KEYS",
    "TUNNEL_KEYS",
    "SnapshotError",
    "canonical_json",
    "extend_digest",
    "moves_digest",
    "restore",
    "snapshot",
    "snapshot_text",
]
