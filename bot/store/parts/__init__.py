"""The store's parts, each written once for both backends on the queries of `bot.store.query`.

`base.Backend` is what a part needs of a backend (run a query, or a unit of
work as a write or a consistent read); `bot.store.sqlite.SqliteCore` and
`bot.store.postgres.core.PostgresCore` each provide it. `games`, `history`,
`timers`, `messages`, `settings`, `ratings` and `tournaments` each serve one
part of the `Store` interface (`versioned` holds what a game's write
transaction does besides its own statement), and `Parts` joins them: each
store is its backend's core and `Parts`.
"""

from __future__ import annotations

from bot.store.parts.games import Games
from bot.store.parts.history import History
from bot.store.parts.messages import Messages
from bot.store.parts.ratings import Ratings
from bot.store.parts.settings import Settings
from bot.store.parts.timers import Timers
from bot.store.parts.tournaments import Tournaments


class Parts(Games, History, Timers, Messages, Settings, Ratings, Tournaments):
    """Every part of the `Store` interface, on whichever backend comes before it."""


__all__ = ["Parts"]
