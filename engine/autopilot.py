"""The autopilot: a legal, sensible move for any seat at any moment, at a level.

Levels: `steady` (engine/steady.py), `strong` (engine/strong.py) and `expert`
(engine/expert.py, a search that plays strong in sampled worlds), chosen by
`choose_move(game, name, level)`. All find their paths with engine/paths.py.
`choose_in_snapshot` is the same for a game sent as a snapshot with its moves
(engine/snapshot.py), as a worker process gets it: this module imports only
the engine, so such a process starts light.

The expert's search may be split between processes: the
caller plays one part (`engine.expert.search_share`) and sends the others to
worker processes as snapshots (`share_in_snapshot`), all with the same
deadline, then decides from all of them (`engine.expert.choose_shared`).
`split_search` makes the parts (`SplitSearch`, the split's one home);
`choose_split` runs them with an `Executor` of workers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from enum import StrEnum

from engine.expert import DEFAULT_SEARCH, Search, Share, choose_expert, choose_shared, search_share, searching
from engine.game import Game
from engine.moves import Move
from engine.snapshot import restore, snapshot_text
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


def share_in_snapshot(
    snapshot: str, moves: Sequence[Move], name: str, search: Search, share: int, of: int, started: float
) -> Share:
    """Part `share` of `of` of the expert's search (`engine.expert.search_share`) in the game a snapshot and its
    moves hold, its time limit counted from `started` (a `time.monotonic()` reading, the same in every process
    of the machine)."""
    began = time.perf_counter() - max(time.monotonic() - started, 0.0)
    return search_share(restore(json.loads(snapshot), moves), name, search, share, of, began)


@dataclass(frozen=True)
class SplitSearch:
    """One expert decision's search split into `parts`, each a job any process can run (`job`), all under the
    same time limit, counted from `started` (a `time.monotonic()` reading); `decide` makes the move from every
    part's `Share`. The one home of the split: `choose_split` runs it with an `Executor`, the bot's thinking
    (bot/service/thinking.py) with its event loop."""

    snapshot: str
    moves: tuple[Move, ...]
    name: str
    search: Search
    parts: int
    players: int
    started: float

    def job(self, share: int) -> tuple[Callable[..., Share], tuple[object, ...]]:
        """Part `share`'s function and arguments (picklable, for a worker process)."""
        return share_in_snapshot, (
            self.snapshot,
            list(self.moves),
            self.name,
            self.search,
            share,
            self.parts,
            self.started,
        )

    def decide(self, shares: Sequence[Share]) -> Move:
        """The move the parts decide together (`engine.expert.choose_shared`); the first part's candidates lead."""
        return choose_shared(shares, self.players, self.search)


def split_search(game: Game, name: str, search: Search, parts: int) -> SplitSearch | None:
    """The decision's search split into `parts`; None when there is nothing to split (one part, or a decision the
    expert does not search: then `choose_move` decides it at once)."""
    if parts <= 1 or not searching(game, name):
        return None
    return SplitSearch(snapshot_text(game), tuple(game.moves), name, search, parts, len(game.names), time.monotonic())


def choose_split(game: Game, name: str, search: Search, workers: Executor, parts: int) -> Move:
    """The expert's move with its search split into `parts`: one played here, the others by `workers` side by
    side (for the split to pay, they hold at least `parts` - 1 processes). Decides as `choose_expert` does,
    from the worlds of every part."""
    began = time.perf_counter()
    split = split_search(game, name, search, parts)
    if split is None:
        return choose_expert(game, name, search)
    sent = [workers.submit(function, *args) for function, args in map(split.job, range(1, parts))]
    shares = [search_share(game, name, search, 0, parts, began)]
    shares += [future.result() for future in sent]
    return split.decide(shares)
