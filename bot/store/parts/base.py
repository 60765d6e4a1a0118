"""What the store's parts need of a backend: run one query, or a unit of work (`query.Work`) as a transaction."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from bot.store.observer import QUIET, StoreObserver
from bot.store.query import Q, Row, Work

T = TypeVar("T")


class Backend:
    """The ways to run queries, provided by `SqliteCore` and `PostgresCore`."""

    # who hears how the writes go (bot/store/observer.py); nobody by default
    observer: StoreObserver = QUIET

    async def fetch_one(self, q: Q, **params: Any) -> Row | None:
        """The first row of one read; None if there is none."""
        raise NotImplementedError

    async def fetch_all(self, q: Q, **params: Any) -> list[Row]:
        """Every row of one read."""
        raise NotImplementedError

    async def write_one(self, q: Q, **params: Any) -> Row | None:
        """Run one statement as a write of its own; the first row it returns (RETURNING), if any."""
        raise NotImplementedError

    async def execute(self, q: Q, **params: Any) -> int:
        """Run one statement as a write of its own; how many rows it changed."""
        raise NotImplementedError

    async def do_write(self, make: Callable[[], Work[T]], key: Hashable | None = None) -> T:
        """Run the unit of work `make()` as one write transaction, all or nothing; it returns once committed.

        `make` may be called more than once (a backend runs a write again if its group's transaction failed).
        `key` names the rows the work touches, if all of them belong to one thing (a game): works of different
        keys may be run interleaved with each other (PostgreSQL's pipelined groups), never two of one key.
        """
        raise NotImplementedError

    async def do_read(self, make: Callable[[], Work[T]]) -> T:
        """Run the reads of `make()` against one consistent state of the database."""
        raise NotImplementedError
