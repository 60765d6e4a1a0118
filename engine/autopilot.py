"""The autopilot: a legal, sensible move for any seat at any moment, at a level.

Levels: `steady` (engine/steady.py), `strong` (engine/strong.py) and `expert`
(engine/expert.py, a search that plays strong in sampled worlds), chosen by
`choose_move(game, name, level)`. All find their paths with engine/paths.py.
`choose_in_snapshot` is the same for a game sent as a snapshot with its moves
(engine/snapshot.py), as a worker process gets it: this module imports only
the engine, so such a process starts light.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from enum import StrEnum

from engine.expert import DEFAULT_SEARCH, Search, choose_expert
from engine.game import Game
from engine.moves import Move
from engine.snapshot import restore
from engine.steady import choose_steady
from engine.strong import choose_strong


class Level(StrEnum):
    """How well the autopilot plays."""

    STEADY = "steady"  # shortest paths for its cheapest tickets
    STRONG = "strong"  # plans its tickets together and looks ahead to the game's end
    EXPERT = "expert"  # tries strong's candidate moves in sampled worlds, playing each out


LEVELS = tuple(level.value for level in Level)


def choose_move(game: Game, name: str, level: Level | str = Level.STEADY, search: Search = DEFAULT_SEARCH) -> Move:
    """The autopilot's move for `name`, who must be able to act now, at `level` (`search`: the expert's)."""
    chosen = Level(level)
    if chosen is Level.EXPERT:
        return choose_expert(game, name, search)
    if chosen is Level.STRONG:
        return choose_strong(game, name)
    return choose_steady(game, name)


def choose_in_snapshot(
    snapshot: str, moves: Sequence[Move], name: str, level: Level | str, search: Search = DEFAULT_SEARCH
) -> Move:
    """`choose_move` in the game a snapshot's text (`engine.snapshot.snapshot_text`) and its moves hold."""
    return choose_move(restore(json.loads(snapshot), moves), name, level, search)
