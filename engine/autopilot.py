"""The autopilot: a legal, sensible move for any seat at any moment, at a level.

Levels: `steady` (engine/steady.py) and `strong` (engine/strong.py), chosen by
`choose_move(game, name, level)`. Both find their paths with engine/paths.py.
"""

from __future__ import annotations

from enum import StrEnum

from engine.game import Game
from engine.moves import Move
from engine.steady import choose_steady
from engine.strong import choose_strong


class Level(StrEnum):
    """How well the autopilot plays."""

    STEADY = "steady"  # shortest paths for its cheapest tickets
    STRONG = "strong"  # plans its tickets together and looks ahead to the game's end


LEVELS = tuple(level.value for level in Level)


def choose_move(game: Game, name: str, level: Level | str = Level.STEADY) -> Move:
    """The autopilot's move for `name`, who must be able to act now, at `level`."""
    if Level(level) is Level.STRONG:
        return choose_strong(game, name)
    return choose_steady(game, name)
