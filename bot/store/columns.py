"""How values sit in SQLite's columns, and the rows read back from them.

Times are ISO text in UTC with microseconds, JSON is compact text, booleans
are 0 and 1. Each `*_COLUMNS` list matches the converter below it.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

from bot.store.rows import (
    AuditRow,
    GameRow,
    HeldRow,
    MessageRow,
    MoveRow,
    SeatClockRow,
    SeatRow,
    SnapshotRow,
    TimerRow,
    UndoneMoveRow,
)
from bot.store.status import GameStatus

Row = tuple[Any, ...]

GAME_COLUMNS = (
    "id, guild_id, channel_id, host_user_id, map, options, seed, cards, tickets, status, version, "
    "created_at, updated_at"
)
SEAT_COLUMNS = "game_id, user_id, display_name, joined, seat, player, joined_at, autopilot"
MOVE_COLUMNS = "idx, move, user_id, created_at, actor"
SNAPSHOT_COLUMNS = "move_count, data, updated_at"
TIMER_COLUMNS = "id, game_id, kind, deadline, data, created_at"
MESSAGE_COLUMNS = "game_id, kind, channel_id, message_id, created_at, buttons"
HELD_COLUMNS = "id, user_id, game_id, kind, wait, text, due_at, created_at"
SEAT_CLOCK_COLUMNS = "seat, wait, since, extra_seconds, reminded, timed_out, reserve_used, timeouts"
AUDIT_COLUMNS = "id, game_id, moderator_user_id, action, details, reason, created_at"
UNDONE_MOVE_COLUMNS = "audit_id, game_id, idx, move, user_id, actor, created_at"


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def time_text(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("times must be timezone-aware (UTC), not naive")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def optional_time_text(moment: datetime | None) -> str | None:
    return None if moment is None else time_text(moment)


def parse_optional_time(text: str | None) -> datetime | None:
    return None if text is None else parse_time(text)


def to_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def status_marks(statuses: Collection[GameStatus]) -> tuple[str, list[str]]:
    """The `?` marks of an `IN (...)` for these statuses, and their values."""
    values = [GameStatus(s).value for s in statuses]
    return ", ".join("?" for _ in values) or "NULL", values


def game_row(row: Row) -> GameRow:
    cards = None if row[7] is None else tuple(json.loads(row[7]))
    tickets = None if row[8] is None else tuple(json.loads(row[8]))
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_user_id=row[3],
        map=row[4],
        options=json.loads(row[5]),
        seed=row[6],
        cards=cards,
        tickets=tickets,
        status=GameStatus(row[9]),
        version=row[10],
        created_at=parse_time(row[11]),
        updated_at=parse_time(row[12]),
    )


def seat_row(row: Row) -> SeatRow:
    return SeatRow(row[0], row[1], row[2], row[3], row[4], row[5], parse_time(row[6]), bool(row[7]))


def move_row(game_id: int, row: Row) -> MoveRow:
    return MoveRow(game_id, row[0], json.loads(row[1]), row[2], parse_time(row[3]), row[4])


def snapshot_row(game_id: int, row: Row) -> SnapshotRow:
    return SnapshotRow(game_id, row[0], row[1], parse_time(row[2]))


def timer_row(row: Row) -> TimerRow:
    return TimerRow(row[0], row[1], row[2], parse_time(row[3]), json.loads(row[4]), parse_time(row[5]))


def message_row(row: Row) -> MessageRow:
    return MessageRow(row[0], row[1], row[2], row[3], parse_time(row[4]), bool(row[5]))


def held_row(row: Row) -> HeldRow:
    return HeldRow(row[0], row[1], row[2], row[3], row[4], row[5], parse_time(row[6]), parse_time(row[7]))


def seat_clock_row(row: Row) -> SeatClockRow:
    return SeatClockRow(
        seat=row[0],
        wait=row[1],
        since=parse_optional_time(row[2]),
        extra_seconds=row[3],
        reminded=row[4],
        timed_out=bool(row[5]),
        reserve_used=row[6],
        timeouts=row[7],
    )


def seat_clock_values(game_id: int, clock: SeatClockRow) -> Row:
    """The values of `game_id, ` and SEAT_CLOCK_COLUMNS for one seat's clock."""
    return (
        game_id,
        clock.seat,
        clock.wait,
        optional_time_text(clock.since),
        clock.extra_seconds,
        clock.reminded,
        int(clock.timed_out),
        clock.reserve_used,
        clock.timeouts,
    )


def audit_row(row: Row) -> AuditRow:
    return AuditRow(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], parse_time(row[6]))


def undone_move_row(row: Row) -> UndoneMoveRow:
    return UndoneMoveRow(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5], parse_time(row[6]))
