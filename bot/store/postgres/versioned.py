"""Inside a game's write transaction on PostgreSQL: the version check, the snapshot, the writes that go with a change.

`bump` is the compare-and-set that locks the game's row first, so the rest
of the transaction runs while no other process can change that game.
"""

from __future__ import annotations

from typing import Any

import asyncpg

from bot.store.columns import (
    MOVE_COLUMNS,
    SEAT_CLOCK_COLUMNS,
    now_text,
    optional_time_text,
    seat_clock_values,
    time_text,
    to_json,
)
from bot.store.errors import StoreError, TimerGone, UnknownGame, VersionConflict
from bot.store.postgres.connection import Conn
from bot.store.postgres.core import changed
from bot.store.rows import ClockRow
from bot.store.status import GameStatus
from bot.store.writes import SeatUpdate, Writes


async def require_game(conn: Conn, game_id: int) -> None:
    """UnknownGame unless a game has this id."""
    if await conn.fetchval("SELECT 1 FROM games WHERE id = $1", game_id) is None:
        raise UnknownGame(game_id)


async def check_version(conn: Conn, game_id: int, expected: int, lock: bool = False) -> None:
    """UnknownGame or VersionConflict unless the game is at version `expected` (its row locked if `lock`)."""
    sql = "SELECT version FROM games WHERE id = $1" + (" FOR UPDATE" if lock else "")
    version = await conn.fetchval(sql, game_id)
    if version is None:
        raise UnknownGame(game_id)
    if version != expected:
        raise VersionConflict(f"game #{game_id} is at version {version}, not {expected}")


async def bump(conn: Conn, game_id: int, expected: int, status: GameStatus | None = None, **columns: Any) -> int:
    """Raise the game's version if it is still `expected` (compare-and-set, locking the row); the new version."""
    values = dict(columns) if status is None else {"status": status.value, **columns}
    sets = "".join(f"{column} = ${i}, " for i, column in enumerate(values, start=4))
    status_line = await conn.execute(
        f"UPDATE games SET version = version + 1, {sets}updated_at = $1 WHERE id = $2 AND version = $3",
        now_text(),
        game_id,
        expected,
        *values.values(),
    )
    if changed(status_line) != 1:
        await check_version(conn, game_id, expected)
        raise VersionConflict(f"game #{game_id} changed while it was written")  # not reached: the check raises
    return expected + 1


async def put_snapshot(conn: Conn, game_id: int, move_count: int, data: str) -> None:
    await conn.execute(
        "INSERT INTO snapshots (game_id, move_count, data, updated_at) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (game_id) DO UPDATE SET move_count = excluded.move_count, data = excluded.data, "
        "updated_at = excluded.updated_at",
        game_id,
        move_count,
        data,
        now_text(),
    )


async def apply_writes(conn: Conn, game_id: int, writes: Writes) -> list[int]:
    """Write what goes with a move or a change, inside its transaction; the ids of the audit entries."""
    if writes.claim_timer is not None:
        claimed = changed(
            await conn.execute("DELETE FROM timers WHERE id = $1 AND game_id = $2", writes.claim_timer, game_id)
        )
        if claimed != 1:
            raise TimerGone(writes.claim_timer)
    if writes.timers is not None:
        await conn.execute("DELETE FROM timers WHERE game_id = $1", game_id)
        stamp = now_text()
        if writes.timers:
            await conn.executemany(
                "INSERT INTO timers (game_id, kind, deadline, data, created_at) VALUES ($1, $2, $3, $4, $5)",
                [(game_id, t.kind, time_text(t.deadline), to_json(t.data), stamp) for t in writes.timers],
            )
    if writes.clock is not None:
        await _put_clock(conn, game_id, writes.clock)
    for seat in writes.seats:
        await _update_seat(conn, game_id, seat)
    audit_ids = []
    for entry in writes.audit:
        audit_id = await conn.fetchval(
            "INSERT INTO audit_log (game_id, moderator_user_id, action, details, reason, created_at) "
            "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            game_id,
            entry.moderator_user_id,
            entry.action,
            to_json(entry.details),
            entry.reason,
            time_text(entry.at),
        )
        audit_ids.append(int(audit_id))
    return audit_ids


async def take_back(conn: Conn, game_id: int, keep: int, audit_id: int) -> None:
    """Take the moves from index `keep` on off the log, last first, keeping each in undone_moves first."""
    rows = await conn.fetch(
        f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = $1 AND idx >= $2 ORDER BY idx DESC", game_id, keep
    )
    if keep < 0 or not rows:
        raise StoreError(f"game #{game_id} has no moves from index {keep} on to take back")
    for idx, move, user_id, created_at, actor in rows:
        await conn.execute(
            "INSERT INTO undone_moves (audit_id, game_id, idx, move, user_id, actor, created_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7)",
            audit_id,
            game_id,
            idx,
            move,
            user_id,
            actor,
            created_at,
        )
        await conn.execute("DELETE FROM moves WHERE game_id = $1 AND idx = $2", game_id, idx)


async def _put_clock(conn: Conn, game_id: int, clock: ClockRow) -> None:
    await conn.execute(
        "INSERT INTO game_clocks (game_id, paused_at, paused_by) VALUES ($1, $2, $3) ON CONFLICT (game_id) "
        "DO UPDATE SET paused_at = excluded.paused_at, paused_by = excluded.paused_by",
        game_id,
        optional_time_text(clock.paused_at),
        clock.paused_by,
    )
    await conn.execute("DELETE FROM seat_clocks WHERE game_id = $1", game_id)
    if clock.seats:
        await conn.executemany(
            f"INSERT INTO seat_clocks (game_id, {SEAT_CLOCK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            [_seat_clock_params(game_id, c) for c in clock.seats],
        )


def _seat_clock_params(game_id: int, clock: Any) -> tuple[Any, ...]:
    values = seat_clock_values(game_id, clock)
    # extra_seconds and reserve_used are DOUBLE PRECISION: asyncpg wants floats there, not ints
    return (*values[:4], float(values[4]), *values[5:7], float(values[7]), values[8])


async def _update_seat(conn: Conn, game_id: int, update: SeatUpdate) -> None:
    sets: list[str] = []
    values: list[Any] = []
    for column, value in (
        ("user_id", update.user_id),
        ("display_name", update.display_name),
        ("autopilot", update.autopilot),
    ):
        if value is not None:
            values.append(int(value) if isinstance(value, bool) else value)
            sets.append(f"{column} = ${len(values) + 2}")
    if not sets:
        return
    try:
        status = await conn.execute(
            f"UPDATE seats SET {', '.join(sets)} WHERE game_id = $1 AND seat = $2", game_id, update.seat, *values
        )
    except asyncpg.UniqueViolationError:
        raise StoreError(f"user {update.user_id} already has a seat in game #{game_id}") from None
    if changed(status) != 1:
        raise StoreError(f"game #{game_id} has no seat {update.seat}")
