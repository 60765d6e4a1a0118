"""Inside a game's write transaction: the version check, the snapshot, and the writes that go with a change.

These run on the store's database thread within `write_transaction`, so what
one of them writes stays only if the whole transaction commits.
"""

from __future__ import annotations

import sqlite3
from typing import Any

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
from bot.store.rows import ClockRow
from bot.store.status import GameStatus
from bot.store.writes import SeatUpdate, Writes


def require_game(conn: sqlite3.Connection, game_id: int) -> None:
    """UnknownGame unless a game has this id."""
    if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
        raise UnknownGame(game_id)


def check_version(conn: sqlite3.Connection, game_id: int, expected: int) -> None:
    """UnknownGame or VersionConflict unless the game is at version `expected`."""
    row = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise UnknownGame(game_id)
    if row[0] != expected:
        raise VersionConflict(f"game #{game_id} is at version {row[0]}, not {expected}")


def bump(
    conn: sqlite3.Connection, game_id: int, expected: int, status: GameStatus | None = None, **columns: Any
) -> int:
    """Raise the game's version if it is still `expected`, setting its status and other `columns` if given.

    All in one statement, so the table's checks see the row as it ends. The new version.
    """
    values = dict(columns) if status is None else {"status": status.value, **columns}
    sets = "".join(f"{column} = ?, " for column in values)
    cur = conn.execute(
        f"UPDATE games SET version = version + 1, {sets}updated_at = ? WHERE id = ? AND version = ?",
        (*values.values(), now_text(), game_id, expected),
    )
    if cur.rowcount != 1:
        check_version(conn, game_id, expected)
    return expected + 1


def put_snapshot(conn: sqlite3.Connection, game_id: int, move_count: int, data: str) -> None:
    conn.execute(
        "INSERT INTO snapshots (game_id, move_count, data, updated_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET move_count = excluded.move_count, data = excluded.data, "
        "updated_at = excluded.updated_at",
        (game_id, move_count, data, now_text()),
    )


def apply_writes(conn: sqlite3.Connection, game_id: int, writes: Writes) -> list[int]:
    """Write what goes with a move or a change, inside its transaction; the ids of the audit entries."""
    if writes.claim_timer is not None:
        claimed = conn.execute(
            "DELETE FROM timers WHERE id = ? AND game_id = ?", (writes.claim_timer, game_id)
        ).rowcount
        if claimed != 1:
            raise TimerGone(writes.claim_timer)
    if writes.timers is not None:
        conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
        stamp = now_text()
        conn.executemany(
            "INSERT INTO timers (game_id, kind, deadline, data, created_at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, t.kind, time_text(t.deadline), to_json(t.data), stamp) for t in writes.timers],
        )
    if writes.clock is not None:
        _put_clock(conn, game_id, writes.clock)
    for seat in writes.seats:
        _update_seat(conn, game_id, seat)
    audit_ids = []
    for entry in writes.audit:
        cur = conn.execute(
            "INSERT INTO audit_log (game_id, moderator_user_id, action, details, reason, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, entry.moderator_user_id, entry.action, to_json(entry.details), entry.reason, time_text(entry.at)),
        )
        assert cur.lastrowid is not None
        audit_ids.append(cur.lastrowid)
    return audit_ids


def take_back(conn: sqlite3.Connection, game_id: int, keep: int, audit_id: int) -> None:
    """Take the moves from index `keep` on off the log, last first, keeping each in undone_moves first."""
    rows = conn.execute(
        f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? AND idx >= ? ORDER BY idx DESC", (game_id, keep)
    ).fetchall()
    if keep < 0 or not rows:
        raise StoreError(f"game #{game_id} has no moves from index {keep} on to take back")
    for idx, move, user_id, created_at, actor in rows:
        conn.execute(
            "INSERT INTO undone_moves (audit_id, game_id, idx, move, user_id, actor, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (audit_id, game_id, idx, move, user_id, actor, created_at),
        )
        conn.execute("DELETE FROM moves WHERE game_id = ? AND idx = ?", (game_id, idx))


def _put_clock(conn: sqlite3.Connection, game_id: int, clock: ClockRow) -> None:
    conn.execute(
        "INSERT INTO game_clocks (game_id, paused_at, paused_by) VALUES (?, ?, ?) ON CONFLICT (game_id) "
        "DO UPDATE SET paused_at = excluded.paused_at, paused_by = excluded.paused_by",
        (game_id, optional_time_text(clock.paused_at), clock.paused_by),
    )
    conn.execute("DELETE FROM seat_clocks WHERE game_id = ?", (game_id,))
    conn.executemany(
        f"INSERT INTO seat_clocks (game_id, {SEAT_CLOCK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [seat_clock_values(game_id, c) for c in clock.seats],
    )


def _update_seat(conn: sqlite3.Connection, game_id: int, update: SeatUpdate) -> None:
    sets: list[str] = []
    values: list[Any] = []
    for column, value in (
        ("user_id", update.user_id),
        ("display_name", update.display_name),
        ("autopilot", update.autopilot),
    ):
        if value is not None:
            sets.append(f"{column} = ?")
            values.append(int(value) if isinstance(value, bool) else value)
    if not sets:
        return
    try:
        cur = conn.execute(
            f"UPDATE seats SET {', '.join(sets)} WHERE game_id = ? AND seat = ?", (*values, game_id, update.seat)
        )
    except sqlite3.IntegrityError:
        raise StoreError(f"user {update.user_id} already has a seat in game #{game_id}") from None
    if cur.rowcount != 1:
        raise StoreError(f"game #{game_id} has no seat {update.seat}")
