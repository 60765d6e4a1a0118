"""The store's parts, each written once for both backends on the queries of `bot.store.query`.

`base.Backend` is what a part needs of a backend (run a query, or a unit of
work as a write or a consistent read); `bot.store.sqlite.core.SqliteCore` and
`bot.store.postgres.core.PostgresCore` each provide it. `games`, `history`,
`timers`, `messages`, `settings`, `ratings`, `tournaments` and `rates` each hold a
class serving one part of the `Store` interface, given the backend
(`versioned` holds what a game's write transaction does besides its own
statement); `Parts` makes them, one of each, and is the `Store`: a caller
holds the part it uses (`store.timers`, typed as the narrow `TimerStore`) and
calls it directly, so each method is written once, in its part, besides its
Protocol. Each store is `Parts` on its backend's core.
"""

from __future__ import annotations

from bot.store.parts.base import Backend
from bot.store.parts.games import Games
from bot.store.parts.history import History
from bot.store.parts.messages import Messages
from bot.store.parts.rates import Rates
from bot.store.parts.ratings import Ratings
from bot.store.parts.settings import Settings
from bot.store.parts.timers import Timers
from bot.store.parts.tournaments import Tournaments


class Parts:
    """Every part of the `Store` interface on one backend, each the object that serves its Protocol."""

    def __init__(self, backend: Backend) -> None:
        self.games = Games(backend)
        self.history = History(backend)
        self.timers = Timers(backend)
        self.messages = Messages(backend)
        self.settings = Settings(backend)
        self.ratings = Ratings(backend)
        self.tournaments = Tournaments(backend)
        self.rates = Rates(backend)
        self.backend = backend  # its `observer` hears how the writes go (bot/store/observer.py)

    async def close(self) -> None:
        raise NotImplementedError


__all__ = ["Parts"]
