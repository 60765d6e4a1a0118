"""The type of a pooled connection, shared by the PostgreSQL store's modules."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

import asyncpg
import asyncpg.pool

if TYPE_CHECKING:  # generic only in the stubs (asyncpg-stubs)
    from asyncpg.pool import PoolConnectionProxy

    Conn: TypeAlias = PoolConnectionProxy[asyncpg.Record]
else:
    Conn = asyncpg.pool.PoolConnectionProxy

DB_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)
