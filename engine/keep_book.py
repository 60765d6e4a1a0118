"""The expert's opening book: which pair of its first tickets to keep, where the book has measured it.

In four-player USA the first tickets decide much of a game, and the strong
autopilot's keep rule (points times the plan's chance) picks a pair that wins
about five points less than the offer's best. The book (engine/books/, made by
bench/keep_book.py) holds, for every pair of the map's tickets, how often the
expert's own seat won keeping it against three strong seats. At its first keep
the expert's own seat keeps the offered pair that won most. It reads only the
seat's own offer.
"""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations
from pathlib import Path

from engine.game import Game
from engine.moves import Keep
from engine.state import Phase
from maps import Board

BOOK_PATH = Path(__file__).with_name("books") / "usa-4-keep.json"


def pair_key(board: Board, a: int, b: int) -> str:
    """The book's name for a pair of tickets: both named origin - destination, in order, joined by ' + '."""
    names = sorted(_ticket_name(board, t) for t in (a, b))
    return " + ".join(names)


def _ticket_name(board: Board, ticket_id: int) -> str:
    ticket = board.tickets[ticket_id]
    return f"{ticket.origin} - {'/'.join(t.name for t in ticket.targets)}"


@cache
def _book(path: Path = BOOK_PATH) -> tuple[str, int, dict[str, float]] | None:
    """(map, players, each pair's wins) of the book, None when there is none."""
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return str(data["map"]), int(data["players"]), {str(k): float(v) for k, v in data["wins"].items()}


def book_keep(game: Game, name: str, path: Path = BOOK_PATH) -> Keep | None:
    """The book's keep for `name`'s first tickets: the offered pair that won most (the earlier pair of the offer
    on a tie); None when this is not a first keep of a pair from three, or the book is not this game's (its
    map, its number of players, the board's own trains)."""
    book = _book(path)
    s = game.state
    if book is None or s.phase is not Phase.SETUP_KEEP:
        return None
    map_name, players, wins = book
    if game.board.name != map_name or len(game.names) != players:
        return None
    if game.trains_option not in (None, game.rules.trains):
        return None
    offered = list(s.players[game.seat(name)].offered or [])
    if len(offered) != 3 or game.keep_minimum(name) != 2:
        return None
    best: tuple[float, tuple[int, int]] | None = None
    for pair in combinations(offered, 2):
        won = wins.get(pair_key(game.board, *pair))
        if won is None:
            return None
        if best is None or won > best[0]:
            best = (won, pair)
    assert best is not None
    return Keep(name, tuple(game.ticket_ref(t) for t in best[1]))


__all__ = ["BOOK_PATH", "book_keep", "pair_key"]
