"""PostgreSQL databases made for a test: empty, or holding an old database of tests/fixtures (made by
tests/fixtures/make_old_databases.py)."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import asyncpg

from tools.pg_server import PgServer, find_binary, new_database_name

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def blank_postgres(server: PgServer, name: str | None = None) -> str:
    """A new, empty database `name` (a fresh name by default) on `server`; its URL."""
    name = name or new_database_name()

    async def create() -> None:
        conn = await asyncpg.connect(server.url("postgres"))
        try:
            await conn.execute(f"CREATE DATABASE {name}")
        finally:
            await conn.close()

    asyncio.run(create())
    return server.url(name)


def restored_postgres(server: PgServer, dump: str, name: str | None = None) -> str:
    """A new database `name` (a fresh name by default) on `server` holding the plain-SQL dump `dump` of
    tests/fixtures, restored with psql; its URL."""
    url = blank_postgres(server, name)
    subprocess.run(
        [find_binary("psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", str(FIXTURES / dump)],
        check=True,
        capture_output=True,
    )
    return url
