"""The store on SQLite: one database file in write-ahead-log mode, migrated at start-up.

`core` opens the file and runs each call as one unit of work on the database
thread, with group commit; the queries themselves are those of
`bot.store.parts`, written once for both backends, and `SqliteStore` is them
on that core.
"""

from __future__ import annotations

from pathlib import Path
from typing import Self

from bot.store.parts import Parts
from bot.store.sqlite.core import SqliteCore


class SqliteStore(Parts):
    """The `Store` on one SQLite file. Open it with `await SqliteStore.open(path)`."""

    def __init__(self, core: SqliteCore) -> None:
        super().__init__(core)
        self.core = core
        self.path = core.path

    @classmethod
    async def open(cls, path: Path | str) -> Self:
        """Open (creating the file and its folder if needed) and bring the schema up to date."""
        return cls(await SqliteCore.open(path))

    async def close(self) -> None:
        await self.core.close()


__all__ = ["SqliteStore"]
