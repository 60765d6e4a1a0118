"""Moves whose answer Discord failed to carry, so that a member who asks again is not served twice.

A member whose answer failed after their move was made sees an error and
may send the same command again. For two minutes, the same request (same
command, same options) from the same member, while the game has not moved on
since (same version), is answered "your previous move counted" instead of
being made again; that answer is given once, so asking a third time makes the
move. Anything else runs as usual. Kept in memory: it only has to outlive
the member's next few seconds.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from dataclasses import dataclass

WINDOW = 120.0  # seconds during which a repeat is taken for a retry

# What the current interaction asks for (action, version, args, values), set by the table's controls.
asked: ContextVar[tuple[object, ...] | None] = ContextVar("asked", default=None)


@dataclass(frozen=True)
class Unanswered:
    request: tuple[object, ...]
    version: int  # the game's version after the move
    at: float  # the event loop's time when it was made


class UnansweredMoves:
    def __init__(self) -> None:
        self._moves: dict[tuple[int, int], Unanswered] = {}

    def remember(self, game_id: int, user_id: int, version: int) -> None:
        """The member's move in the game was made but not answered (the request is the interaction's `asked`)."""
        request, now = asked.get(), _now()
        self._moves = {k: m for k, m in self._moves.items() if now - m.at <= WINDOW}
        if request is not None:
            self._moves[(game_id, user_id)] = Unanswered(request, version, now)

    def pending(self, game_id: int, user_id: int, version: int) -> bool:
        """Did the member's last move in the game go unanswered, the game unchanged since (and not long ago)?"""
        move = self._moves.get((game_id, user_id))
        return move is not None and move.version == version and _now() - move.at <= WINDOW

    def repeated(self, game_id: int, user_id: int, request: tuple[object, ...], version: int) -> bool:
        """Is this request the retry of an unanswered move? True once: the move is forgotten then."""
        key = (game_id, user_id)
        move = self._moves.get(key)
        if move is None:
            return False
        if move.version != version or _now() - move.at > WINDOW:
            del self._moves[key]  # the game moved on, or it is too late for a retry
            return False
        if move.request != request:
            return False
        del self._moves[key]
        return True


def _now() -> float:
    return asyncio.get_running_loop().time()
