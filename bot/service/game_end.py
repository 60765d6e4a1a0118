"""What happens when a game ends: the listeners the service is assembled with, told in their order.

A game ends by the rules (the runner, after the action that ended it) or by
a moderator (scored: finished; abandoned: cancelled). Each listener is told
under the game's lock, in the order bot/service/game_service.py registers them
(tournaments, then ratings), and may take the end for itself, so that the
later ones are not told: a tournament's table is rated as a tournament game,
never also as a casual one. A listener that fails is logged and the next is
told; what it missed is made good at the next start or read (ratings.py's
`rate_pending`, the tournaments' catch-up).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.service.models import GameInfo
from engine import Game

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameEnd:
    """A game that has just ended: as committed, with its game (None if it never started)."""

    info: GameInfo
    game: Game | None
    by_moderator: bool


class GameEndListener(Protocol):
    async def game_ended(self, end: GameEnd) -> bool:
        """Handle the end; True takes it (the listeners after this one are not told)."""
        ...


async def tell(listeners: Sequence[GameEndListener], end: GameEnd) -> None:
    """Tell each listener in order until one takes the end."""
    for listener in listeners:
        try:
            if await listener.game_ended(end):
                return
        except Exception:
            log.exception("game #%d: %s failed on its end", end.info.id, type(listener).__name__)
