"""Copying a whole database between the two stores, and checking the copy.

`copy_to_postgres` moves an SQLite database into an empty PostgreSQL one
(`python -m bot migrate-store`); `export_to_sqlite` writes a PostgreSQL
database into a new SQLite file as of one moment, read in one REPEATABLE
READ transaction (`python -m bot backup` on PostgreSQL; `migrate-store`
reads such a file back). Both stores keep the same tables and columns with
values in the same form, so rows are copied as they are. `verify` compares
the two: the rows of every table counted, and every started game replayed
from its moves on each side to the same state.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.service.loading import parse_moves, replay_moves
from bot.store.errors import StoreError
from bot.store.postgres import PostgresStore
from bot.store.postgres.connection import DB_ERRORS
from bot.store.sqlite import SqliteStore
from bot.store.status import GameStatus

# Every table but schema_migrations (each database records its own), parents before children.
TABLES = (
    "guild_settings",
    "games",
    "seats",
    "moves",
    "snapshots",
    "timers",
    "messages",
    "command_syncs",
    "dm_refusals",
    "game_clocks",
    "seat_clocks",
    "audit_log",
    "undone_moves",
    "heartbeat",
    "member_settings",
    "ratings",
    "rated_games",
    "rating_results",
    "tournaments",
    "tournament_players",
    "tournament_rounds",
    "tournament_tables",
    "tournament_results",
    "tournament_audit",
    "tournament_messages",
    "held_messages",
)
# the tables whose ids the database hands out, so its counter must go on after the copied ones
IDENTITY_TABLES = ("games", "timers", "audit_log", "tournaments", "tournament_audit", "held_messages")
# the order rows are copied in: moves in log order (the database checks it), the rest by their key
ORDER = {"moves": "game_id, idx", "undone_moves": "audit_id, idx"}


@dataclass(frozen=True)
class CopyReport:
    counts: dict[str, int]  # rows per table, the same on both sides
    games_replayed: int


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})")]


def _sqlite_rows(conn: sqlite3.Connection, table: str, columns: Sequence[str]) -> list[tuple[Any, ...]]:
    order = ORDER.get(table, "1")
    return [tuple(row) for row in conn.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")]


async def copy_to_postgres(source: Path, target_url: str) -> CopyReport:
    """Copy the SQLite database `source` into the empty PostgreSQL database at `target_url`, then verify it."""
    if not source.is_file():
        raise StoreError(f"there is no database at {source}")
    store = await SqliteStore.open(source)  # brings its schema up to date, as the bot would at start
    await store.close()
    target = await PostgresStore.open(target_url)
    try:
        conn = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        try:
            conn.execute("BEGIN")  # one consistent state of the source
            async with target.acquire() as pg, pg.transaction():
                for table in TABLES:
                    if await pg.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                        raise StoreError(
                            f"the target database is not empty (table {table} has rows); give an empty one"
                        )
                for table in TABLES:
                    columns = _columns(conn, table)
                    rows = _sqlite_rows(conn, table, columns)
                    if rows:
                        await pg.copy_records_to_table(table, records=rows, columns=columns)
                for table in IDENTITY_TABLES:
                    await pg.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                    )
            conn.execute("COMMIT")
        finally:
            conn.close()
    except DB_ERRORS as exc:
        raise StoreError(f"the copy failed and nothing was kept: {exc}") from exc
    finally:
        await target.close()
    return await verify(source, target_url)


async def export_to_sqlite(source_url: str, target: Path) -> dict[str, int]:
    """Write the PostgreSQL database at `source_url` into the new SQLite file `target`, as of one moment."""
    store = await PostgresStore.open(source_url)
    counts: dict[str, int] = {}
    try:
        made = await SqliteStore.open(target)  # an empty database with the current schema
        await made.close()
        conn = sqlite3.connect(target, isolation_level=None)
        try:
            conn.execute("BEGIN")
            async with store.acquire() as pg, pg.transaction(isolation="repeatable_read", readonly=True):
                for table in TABLES:
                    columns = _columns(conn, table)
                    order = ORDER.get(table, "1")
                    rows = await pg.fetch(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
                    marks = ", ".join("?" for _ in columns)
                    conn.executemany(
                        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", [tuple(r) for r in rows]
                    )
                    counts[table] = len(rows)
            conn.execute("COMMIT")
            conn.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        finally:
            conn.close()
    except DB_ERRORS as exc:
        raise StoreError(f"cannot read {store.name}: {exc}") from exc
    finally:
        await store.close()
    return counts


async def verify(source: Path, target_url: str) -> CopyReport:
    """StoreError unless the PostgreSQL copy has every table's rows and every game replays to the same state."""
    conn = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        counts = {t: int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in TABLES}
    finally:
        conn.close()
    sqlite_store = await SqliteStore.open(source)
    pg_store = await PostgresStore.open(target_url)
    try:
        async with pg_store.acquire() as pg:
            for table in TABLES:
                copied = int(await pg.fetchval(f"SELECT COUNT(*) FROM {table}"))
                if copied != counts[table]:
                    raise StoreError(f"table {table}: {counts[table]} rows in the source, {copied} in the copy")
        replayed = 0
        for row in await sqlite_store.games_with_status(set(GameStatus)):
            before, after = await sqlite_store.stored_game(row.id), await pg_store.stored_game(row.id)
            if before is None or after is None or before != after:
                raise StoreError(f"game #{row.id} differs between the source and the copy")
            if before.game.seed is None:
                continue  # a lobby: nothing to replay
            games = []
            for stored in (before, after):
                players = [s.player or "" for s in stored.seats]
                moves = parse_moves(stored.game, [m.move for m in stored.moves])
                games.append(replay_moves(stored.game, players, moves))
            if games[0].state != games[1].state or games[0].moves != games[1].moves:
                raise StoreError(f"game #{row.id} replays to another state from the copy")
            replayed += 1
    except DB_ERRORS as exc:
        raise StoreError(f"cannot verify the copy: {exc}") from exc
    finally:
        await sqlite_store.close()
        await pg_store.close()
    return CopyReport(counts, replayed)
