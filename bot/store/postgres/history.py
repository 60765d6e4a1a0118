"""A game's history on PostgreSQL: the move log and its snapshot, the clock, changes that are not moves, undo, audit."""

from __future__ import annotations

import asyncpg

from bot.store.columns import (
    AUDIT_COLUMNS,
    MOVE_COLUMNS,
    SEAT_CLOCK_COLUMNS,
    SNAPSHOT_COLUMNS,
    UNDONE_MOVE_COLUMNS,
    audit_row,
    move_row,
    now_text,
    parse_optional_time,
    seat_clock_row,
    snapshot_row,
    time_text,
    to_json,
    undone_move_row,
)
from bot.store.errors import ClockChanged, StoreError
from bot.store.postgres.connection import Conn
from bot.store.postgres.core import PostgresCore
from bot.store.postgres.versioned import apply_writes, bump, check_version, put_snapshot, require_game, take_back
from bot.store.rows import AuditRow, ClockRow, MoveRow, SnapshotRow, UndoneMoveRow
from bot.store.writes import GameChange, NewAudit, NewMove, Writes


class PostgresHistory(PostgresCore):
    """The move log, clock, undo and audit part of `GameStore` on PostgreSQL."""

    async def append_move(self, game_id: int, expected_version: int, move: NewMove) -> int:
        text = to_json(move.move)
        at = now_text() if move.at is None else time_text(move.at)

        async def work(conn: Conn) -> int:
            version = await bump(conn, game_id, expected_version, move.status)
            if move.expected_clock is not None and await _clock(conn, game_id) != move.expected_clock:
                raise ClockChanged(game_id)
            try:
                await conn.execute(
                    "INSERT INTO moves (game_id, idx, move, user_id, created_at, actor) "
                    "VALUES ($1, $2, $3, $4, $5, $6)",
                    game_id,
                    move.index,
                    text,
                    move.user_id,
                    at,
                    move.actor,
                )
            except (asyncpg.IntegrityConstraintViolationError, asyncpg.RaiseError) as exc:
                raise StoreError(f"move {move.index} of game #{game_id} cannot be logged: {exc}") from None
            await put_snapshot(conn, game_id, move.index + 1, move.snapshot)
            if move.writes is not None:
                await apply_writes(conn, game_id, move.writes)
            return version

        return await self._write(work)

    async def moves(self, game_id: int) -> list[MoveRow]:
        return await self._all(
            lambda row: move_row(game_id, row),
            f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY idx",
            (game_id,),
        )

    async def snapshot(self, game_id: int) -> SnapshotRow | None:
        return await self._one(
            lambda row: snapshot_row(game_id, row),
            f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE game_id = $1",
            (game_id,),
        )

    async def save_snapshot(self, game_id: int, expected_version: int, move_count: int, data: str) -> None:
        async def work(conn: Conn) -> None:
            await check_version(conn, game_id, expected_version, lock=True)
            await put_snapshot(conn, game_id, move_count, data)

        await self._write(work)

    async def clock(self, game_id: int) -> ClockRow:
        async def work(conn: Conn) -> ClockRow:
            return await _clock(conn, game_id)

        return await self._read(work)

    async def apply_change(self, game_id: int, expected_version: int, change: GameChange) -> int:
        if change.undo is not None and len(change.writes.audit) != 1:
            raise StoreError("an undo is kept under exactly one audit entry")

        async def work(conn: Conn) -> int:
            if change.bump:
                version = await bump(conn, game_id, expected_version, change.status)
            else:
                # the row is locked all the same: no other process changes the game before this commits
                await check_version(conn, game_id, expected_version, lock=True)
                version = expected_version
                if change.status is not None:
                    raise StoreError("a change of status raises the version")
            audit_ids = await apply_writes(conn, game_id, change.writes)
            if change.undo is not None:
                await take_back(conn, game_id, change.undo.keep, audit_ids[0])
                await put_snapshot(conn, game_id, change.undo.keep, change.undo.snapshot)
            return version

        return await self._write(work)

    async def add_audit(self, game_id: int, entry: NewAudit) -> int:
        async def work(conn: Conn) -> int:
            await require_game(conn, game_id)
            return (await apply_writes(conn, game_id, Writes(audit=[entry])))[0]

        return await self._write(work)

    async def audit_log(self, game_id: int) -> list[AuditRow]:
        return await self._all(
            audit_row, f"SELECT {AUDIT_COLUMNS} FROM audit_log WHERE game_id = $1 ORDER BY id", (game_id,)
        )

    async def undone_moves(self, game_id: int) -> list[UndoneMoveRow]:
        return await self._all(
            undone_move_row,
            f"SELECT {UNDONE_MOVE_COLUMNS} FROM undone_moves WHERE game_id = $1 ORDER BY audit_id, idx",
            (game_id,),
        )


async def _clock(conn: Conn, game_id: int) -> ClockRow:
    row = await conn.fetchrow("SELECT paused_at, paused_by FROM game_clocks WHERE game_id = $1", game_id)
    rows = await conn.fetch(f"SELECT {SEAT_CLOCK_COLUMNS} FROM seat_clocks WHERE game_id = $1 ORDER BY seat", game_id)
    seats = tuple(seat_clock_row(tuple(r)) for r in rows)
    if row is None:
        return ClockRow(game_id, seats=seats)
    return ClockRow(game_id, parse_optional_time(row[0]), row[1], seats)
