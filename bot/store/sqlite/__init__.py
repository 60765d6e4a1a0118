"""The store on SQLite: one database file in write-ahead-log mode, migrated at start-up.

`core` opens the file and runs each call as one unit of work on the database
thread, with group commit; the queries themselves are those of
`bot.store.parts`, written once for both backends, and `SqliteStore` joins
the two.
"""

from __future__ import annotations

from bot.store.parts import Parts
from bot.store.sqlite.core import SqliteCore


class SqliteStore(SqliteCore, Parts):
    """The `Store` on one SQLite file. Open it with `await SqliteStore.open(path)`."""


__all__ = ["SqliteStore"]
