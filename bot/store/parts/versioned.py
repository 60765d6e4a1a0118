"""Inside a game's write transaction: the version check, the snapshot, and the writes that go with a change.

Each of these is a piece of a unit of work (`yield from` it). `bump` is the
compare-and-set that makes an action happen once: `UPDATE games ... WHERE id
AND version`, one statement, so the table's checks see the row as it ends. On
PostgreSQL it also locks the game's row until the commit, so a second process
doing the same waits, then finds the version moved on and is refused with
VersionConflict; on SQLite the transaction holds the database's write lock.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from sqlalchemy import delete, insert, select, update

from bot.store.columns import MOVE_COLUMNS, now_text, optional_time_text, time_text, to_json
from bot.store.errors import StoreError, TimerGone, UnknownGame, VersionConflict
from bot.store.query import Q, UniqueViolation, Work, changed, insert_rows, many, param, rows, scalar, upsert
from bot.store.rows import ClockRow, SeatClockRow
from bot.store.schema import (
    audit_log,
    game_clocks,
    games,
    moves,
    plans,
    seat_clocks,
    seats,
    snapshots,
    timers,
    undone_moves,
)
from bot.store.status import GameStatus
from bot.store.writes import ALL_PLANS, SeatUpdate, Writes

GAME_EXISTS = Q(select(games.c.id).where(games.c.id == param("game_id")))
GAME_VERSION = Q(select(games.c.version).where(games.c.id == param("game_id")))
GAME_VERSION_LOCKED = Q(select(games.c.version).where(games.c.id == param("game_id")).with_for_update())
PUT_SNAPSHOT = upsert(snapshots, ("game_id",), ("move_count", "data", "updated_at"))
CLAIM_TIMER = Q(delete(timers).where(timers.c.id == param("timer_id"), timers.c.game_id == param("game_id")))
DELETE_GAME_TIMERS = Q(delete(timers).where(timers.c.game_id == param("game_id")))
INSERT_TIMER = insert_rows(timers, ("game_id", "kind", "deadline", "data", "created_at"))
PUT_GAME_CLOCK = upsert(game_clocks, ("game_id",), ("paused_at", "paused_by"))
DELETE_SEAT_CLOCKS = Q(delete(seat_clocks).where(seat_clocks.c.game_id == param("game_id")))
SEAT_CLOCK_NAMES = ("seat", "wait", "since", "extra_seconds", "reminded", "timed_out", "reserve_used", "timeouts")
INSERT_SEAT_CLOCK = insert_rows(seat_clocks, ("game_id", *SEAT_CLOCK_NAMES))
AUDIT_NAMES = ("game_id", "moderator_user_id", "action", "details", "reason", "created_at")
INSERT_AUDIT = Q(insert(audit_log).values({c: param(c) for c in AUDIT_NAMES}).returning(audit_log.c.id))
MOVES_FROM = Q(
    select(*(moves.c[c.strip()] for c in MOVE_COLUMNS.split(",")))
    .where(moves.c.game_id == param("game_id"), moves.c.idx >= param("keep"))
    .order_by(moves.c.idx.desc())
)
UNDONE_NAMES = ("audit_id", "game_id", "idx", "move", "user_id", "actor", "created_at")
INSERT_UNDONE = Q(insert(undone_moves).values({c: param(c) for c in UNDONE_NAMES}))
DELETE_PLANS = Q(delete(plans).where(plans.c.game_id == param("game_id")))
DELETE_PLAN = Q(delete(plans).where(plans.c.game_id == param("game_id"), plans.c.seat == param("seat")))
DELETE_MOVE = Q(delete(moves).where(moves.c.game_id == param("game_id"), moves.c.idx == param("idx")))


@cache
def _bump(names: tuple[str, ...]) -> Q:
    """UPDATE games raising the version and setting `names` (parameters of the same names) if it is as expected."""
    values: dict[str, Any] = {"version": games.c.version + 1, **{n: param(n) for n in names}}
    values["updated_at"] = param("updated_at")
    return Q(update(games).where(games.c.id == param("game_id"), games.c.version == param("expected")).values(values))


@cache
def _seat_update(names: tuple[str, ...]) -> Q:
    return Q(
        update(seats)
        .where(seats.c.game_id == param("game_id"), seats.c.seat == param("seat"))
        .values({n: param(n) for n in names})
    )


def game_key(game_id: int) -> tuple[str, int]:
    """The key of a write that touches rows of this game only (its row, seats, moves, snapshot, clocks, timers, and
    new audit entries): see `Backend.do_write`."""
    return ("game", game_id)


def require_game(game_id: int) -> Work[None]:
    """UnknownGame unless a game has this id."""
    if (yield scalar(GAME_EXISTS, game_id=game_id)) is None:
        raise UnknownGame(game_id)


def check_version(game_id: int, expected: int, lock: bool = False) -> Work[None]:
    """UnknownGame or VersionConflict unless the game is at version `expected` (its row locked if `lock`)."""
    version = yield scalar(GAME_VERSION_LOCKED if lock else GAME_VERSION, game_id=game_id)
    if version is None:
        raise UnknownGame(game_id)
    if version != expected:
        raise VersionConflict(f"game #{game_id} is at version {version}, not {expected}")


def bump(game_id: int, expected: int, status: GameStatus | None = None, **columns: Any) -> Work[int]:
    """Raise the game's version if it is still `expected`, setting its status and other `columns` if given; the new
    version. All in one statement, so the table's checks see the row as it ends."""
    values = dict(columns) if status is None else {"status": status.value, **columns}
    q = _bump(tuple(values))
    if (yield changed(q, game_id=game_id, expected=expected, updated_at=now_text(), **values)) != 1:
        yield from check_version(game_id, expected)
        raise VersionConflict(f"game #{game_id} changed while it was written")  # not reached: the check raises
    return expected + 1


def put_snapshot(game_id: int, move_count: int, data: str) -> Work[None]:
    yield changed(PUT_SNAPSHOT, game_id=game_id, move_count=move_count, data=data, updated_at=now_text())


def apply_writes(game_id: int, writes: Writes, stored_clock: ClockRow | None = None) -> Work[list[int]]:
    """Write what goes with a move or a change, inside its transaction; the ids of the audit entries.

    `stored_clock`: the clock as this transaction found it stored, if it checked; its pause is not written again.
    """
    if writes.claim_timer is not None:
        if (yield changed(CLAIM_TIMER, timer_id=writes.claim_timer, game_id=game_id)) != 1:
            raise TimerGone(writes.claim_timer)
    if writes.timers is not None:
        yield changed(DELETE_GAME_TIMERS, game_id=game_id)
        stamp = now_text()
        new = [
            {
                "game_id": game_id,
                "kind": t.kind,
                "deadline": time_text(t.deadline),
                "data": to_json(t.data),
                "created_at": stamp,
            }
            for t in writes.timers
        ]
        if new:
            yield many(INSERT_TIMER, new)
    if writes.clock is not None:
        yield from _put_clock(game_id, writes.clock, stored_clock)
    for seat in writes.seats:
        yield from _update_seat(game_id, seat)
    if tuple(writes.plans_cleared) == ALL_PLANS:
        yield changed(DELETE_PLANS, game_id=game_id)
    else:
        for plan_seat in writes.plans_cleared:
            yield changed(DELETE_PLAN, game_id=game_id, seat=plan_seat)
    audit_ids = []
    for entry in writes.audit:
        audit_id = yield scalar(
            INSERT_AUDIT,
            game_id=game_id,
            moderator_user_id=entry.moderator_user_id,
            action=entry.action,
            details=to_json(entry.details),
            reason=entry.reason,
            created_at=time_text(entry.at),
        )
        audit_ids.append(int(audit_id))
    return audit_ids


def take_back(game_id: int, keep: int, audit_id: int) -> Work[None]:
    """Take the moves from index `keep` on off the log, last first, keeping each in undone_moves first."""
    found = yield rows(MOVES_FROM, game_id=game_id, keep=keep)
    if keep < 0 or not found:
        raise StoreError(f"game #{game_id} has no moves from index {keep} on to take back")
    for idx, move, user_id, created_at, actor in found:
        yield changed(
            INSERT_UNDONE,
            audit_id=audit_id,
            game_id=game_id,
            idx=idx,
            move=move,
            user_id=user_id,
            actor=actor,
            created_at=created_at,
        )
        yield changed(DELETE_MOVE, game_id=game_id, idx=idx)


def seat_clock_params(game_id: int, clocks: Iterable[SeatClockRow]) -> list[dict[str, Any]]:
    return [
        {
            "game_id": game_id,
            "seat": c.seat,
            "wait": c.wait,
            "since": optional_time_text(c.since),
            "extra_seconds": float(c.extra_seconds),  # DOUBLE PRECISION: asyncpg wants floats there, not ints
            "reminded": c.reminded,
            "timed_out": int(c.timed_out),
            "reserve_used": float(c.reserve_used),
            "timeouts": c.timeouts,
        }
        for c in clocks
    ]


def _put_clock(game_id: int, clock: ClockRow, stored: ClockRow | None = None) -> Work[None]:
    if stored is None or (stored.paused_at, stored.paused_by) != (clock.paused_at, clock.paused_by):
        yield changed(
            PUT_GAME_CLOCK, game_id=game_id, paused_at=optional_time_text(clock.paused_at), paused_by=clock.paused_by
        )
    yield changed(DELETE_SEAT_CLOCKS, game_id=game_id)
    if clock.seats:
        yield many(INSERT_SEAT_CLOCK, seat_clock_params(game_id, clock.seats))


def _update_seat(game_id: int, update: SeatUpdate) -> Work[None]:
    values: dict[str, Any] = {}
    for column, value in (
        ("user_id", update.user_id),
        ("display_name", update.display_name),
        ("autopilot", update.autopilot),
    ):
        if value is not None:
            values[column] = int(value) if isinstance(value, bool) else value
    if not values:
        return
    try:
        count = yield changed(_seat_update(tuple(values)), game_id=game_id, seat=update.seat, **values)
    except UniqueViolation:
        raise StoreError(f"user {update.user_id} already has a seat in game #{game_id}") from None
    if count != 1:
        raise StoreError(f"game #{game_id} has no seat {update.seat}")
