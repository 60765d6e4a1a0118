"""Steady and strong play exactly as they did before the expert level: whole seeded games, move for move.

The digests were recorded with main's engine and autopilots; a change to either level's decisions (or to
the engine's move order) changes a digest here.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from engine import Game
from engine.autopilot import Level, choose_move
from engine.moves import move_to_json
from maps import load_board

STRONG, STEADY = Level.STRONG, Level.STEADY
PINNED = [
    ("usa", (STRONG, STEADY), 136, "77a4e73a079a0e98"),
    ("usa", (STEADY, STRONG, STRONG), 199, "e3501d04eb4d2c7d"),
    ("india", (STRONG, STEADY), 134, "73edb5eab2760f71"),
    ("india", (STEADY, STRONG, STRONG), 216, "5c23135916a83082"),
    ("switzerland", (STRONG, STEADY), 156, "6bffe4da579bca18"),
    ("switzerland", (STEADY, STRONG, STRONG), 249, "2f37f1f33181c940"),
    ("amsterdam", (STRONG, STEADY), 50, "885855bacfcf755c"),
    ("amsterdam", (STEADY, STRONG, STRONG), 67, "14d7ab8e73486ffe"),
    ("san_francisco", (STRONG, STEADY), 60, "92b20e8eadf2ac76"),
    ("san_francisco", (STEADY, STRONG, STRONG), 86, "942391c50cb73cf5"),
]


@pytest.mark.parametrize(("map_name", "levels", "moves", "digest"), PINNED)
def test_steady_and_strong_play_the_pinned_games(
    map_name: str, levels: tuple[Level, ...], moves: int, digest: str
) -> None:
    game = Game(load_board(map_name), [f"p{i}" for i in range(len(levels))], f"pin-{map_name}")
    while not game.finished:
        name = game.waiting_for()[0]
        game.apply(choose_move(game, name, levels[game.seat(name)]))
    text = json.dumps([move_to_json(m) for m in game.moves], sort_keys=True)
    assert (len(game.moves), hashlib.sha256(text.encode()).hexdigest()[:16]) == (moves, digest)
