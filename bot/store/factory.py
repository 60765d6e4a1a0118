"""Which store a database setting names: a `postgresql://` (or `postgres://`) URL is PostgreSQL, anything else
a path to an SQLite file. `open_store` is what the bot, the service and the command line open it with."""

from __future__ import annotations

from pathlib import Path

from bot.store.postgres import PostgresStore, is_postgres_url, redact
from bot.store.protocols import Store
from bot.store.sqlite import SqliteStore

Database = Path | str  # an SQLite file, or a PostgreSQL URL


async def open_store(database: Database) -> Store:
    """Open the store the setting names, creating and migrating its schema as needed."""
    if is_postgres_url(database):
        return await PostgresStore.open(str(database).strip())
    return await SqliteStore.open(Path(database))


def describe(database: Database) -> str:
    """The database as messages may name it: the path, or the URL without its password."""
    return redact(str(database).strip()) if is_postgres_url(database) else str(database)


def parse_database(text: str) -> Database:
    """The setting's text as a path or (a PostgreSQL URL) kept as text, which a Path would mangle."""
    text = text.strip()
    return text if is_postgres_url(text) else Path(text)
