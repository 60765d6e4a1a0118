"""A game's history: the move log and its snapshot, the clock, changes that are not moves, undo, audit."""

from __future__ import annotations

from sqlalchemy import insert, select

from bot.store.columns import (
    AUDIT_COLUMNS,
    UNDONE_MOVE_COLUMNS,
    audit_row,
    move_row,
    now_text,
    parse_time,
    snapshot_row,
    time_text,
    to_json,
    undone_move_row,
)
from bot.store.errors import ClockChanged, StoreError
from bot.store.parts.base import Backend
from bot.store.parts.games import GAME_CLOCK, GAME_MOVES, GAME_SNAPSHOT, clock_of, game_clock
from bot.store.parts.versioned import (
    DELETE_PLAN,
    apply_writes,
    bump,
    check_version,
    game_key,
    put_snapshot,
    require_game,
    take_back,
)
from bot.store.query import ConstraintError, Q, Work, changed, param, upsert
from bot.store.rows import AuditRow, ClockRow, MoveRow, PlanRow, SnapshotRow, UndoneMoveRow
from bot.store.schema import audit_log, moves, plans, undone_moves
from bot.store.writes import GameChange, NewAudit, NewMove, NewPlan, Writes

INSERT_MOVE = Q(
    insert(moves).values({c: param(c) for c in ("game_id", "idx", "move", "user_id", "created_at", "actor")})
)
AUDIT_LOG = Q(
    select(*(audit_log.c[c.strip()] for c in AUDIT_COLUMNS.split(",")))
    .where(audit_log.c.game_id == param("game_id"))
    .order_by(audit_log.c.id)
)
UNDONE_MOVES = Q(
    select(*(undone_moves.c[c.strip()] for c in UNDONE_MOVE_COLUMNS.split(",")))
    .where(undone_moves.c.game_id == param("game_id"))
    .order_by(undone_moves.c.audit_id, undone_moves.c.idx)
)

PUT_PLAN = upsert(plans, ("game_id", "seat"), ("user_id", "items", "set_at"))
GAME_PLANS = Q(
    select(plans.c.seat, plans.c.user_id, plans.c["items"], plans.c.set_at)
    .where(plans.c.game_id == param("game_id"))
    .order_by(plans.c.seat)
)


PLANNED_GAMES = Q(select(plans.c.game_id).distinct().order_by(plans.c.game_id))


class History:
    """The move log, clock, undo and audit part of `GameStore`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def append_move(self, game_id: int, expected_version: int, move: NewMove) -> int:
        text = to_json(move.move)
        at = now_text() if move.at is None else time_text(move.at)

        def work() -> Work[int]:
            version = yield from bump(game_id, expected_version, move.status)
            if move.expected_clock is not None and (yield from game_clock(game_id)) != move.expected_clock:
                raise ClockChanged(game_id)
            try:
                yield changed(
                    INSERT_MOVE,
                    game_id=game_id,
                    idx=move.index,
                    move=text,
                    user_id=move.user_id,
                    created_at=at,
                    actor=move.actor,
                )
            except ConstraintError as exc:
                raise StoreError(f"move {move.index} of game #{game_id} cannot be logged: {exc}") from None
            yield from put_snapshot(game_id, move.index + 1, move.snapshot)
            if move.writes is not None:
                yield from apply_writes(game_id, move.writes, stored_clock=move.expected_clock)
            return version

        return await self.backend.do_write(work, key=game_key(game_id))

    async def moves(self, game_id: int) -> list[MoveRow]:
        return [move_row(game_id, r) for r in await self.backend.fetch_all(GAME_MOVES, game_id=game_id)]

    async def snapshot(self, game_id: int) -> SnapshotRow | None:
        row = await self.backend.fetch_one(GAME_SNAPSHOT, game_id=game_id)
        return None if row is None else snapshot_row(game_id, row)

    async def save_snapshot(self, game_id: int, expected_version: int, move_count: int, data: str) -> None:
        def work() -> Work[None]:
            yield from check_version(game_id, expected_version, lock=True)
            yield from put_snapshot(game_id, move_count, data)

        await self.backend.do_write(work, key=game_key(game_id))

    async def clock(self, game_id: int) -> ClockRow:
        return clock_of(game_id, await self.backend.fetch_all(GAME_CLOCK, game_id=game_id))  # one statement

    async def apply_change(self, game_id: int, expected_version: int, change: GameChange) -> int:
        if change.undo is not None and len(change.writes.audit) != 1:
            raise StoreError("an undo is kept under exactly one audit entry")

        def work() -> Work[int]:
            if change.bump:
                version = yield from bump(game_id, expected_version, change.status)
            else:
                # the row is locked all the same (on PostgreSQL): no other process changes the game before this commits
                yield from check_version(game_id, expected_version, lock=True)
                version = expected_version
                if change.status is not None:
                    raise StoreError("a change of status raises the version")
            audit_ids = yield from apply_writes(game_id, change.writes)
            if change.undo is not None:
                yield from take_back(game_id, change.undo.keep, audit_ids[0])
                yield from put_snapshot(game_id, change.undo.keep, change.undo.snapshot)
            return version

        return await self.backend.do_write(work, key=game_key(game_id))

    async def add_audit(self, game_id: int, entry: NewAudit) -> int:
        def work() -> Work[int]:
            yield from require_game(game_id)
            return (yield from apply_writes(game_id, Writes(audit=[entry])))[0]

        return await self.backend.do_write(work, key=game_key(game_id))

    async def audit_log(self, game_id: int) -> list[AuditRow]:
        return [audit_row(r) for r in await self.backend.fetch_all(AUDIT_LOG, game_id=game_id)]

    async def undone_moves(self, game_id: int) -> list[UndoneMoveRow]:
        return [undone_move_row(r) for r in await self.backend.fetch_all(UNDONE_MOVES, game_id=game_id)]

    # ----- the players' planned turns (bot/service/plans.py); cleared with moves and changes by `Writes`

    async def put_plan(self, game_id: int, expected_version: int, plan: NewPlan) -> None:
        """Keep a seat's planned turn (replacing its plan) if the game is still at `expected_version`; the version
        does not change (nobody else sees a plan)."""

        def work() -> Work[None]:
            yield from check_version(game_id, expected_version, lock=True)
            yield changed(
                PUT_PLAN,
                game_id=game_id,
                seat=plan.seat,
                user_id=plan.user_id,
                items=plan.items,
                set_at=time_text(plan.at),
            )

        await self.backend.do_write(work, key=game_key(game_id))

    async def plans(self, game_id: int) -> list[PlanRow]:
        found = await self.backend.fetch_all(GAME_PLANS, game_id=game_id)
        return [PlanRow(game_id, int(seat), int(user), items, parse_time(at)) for seat, user, items, at in found]

    async def planned_games(self) -> list[int]:
        """The games with a planned turn kept for some seat (a start plays the ones whose turn has come)."""
        return [int(game_id) for (game_id,) in await self.backend.fetch_all(PLANNED_GAMES)]

    async def clear_plan(self, game_id: int, seat: int) -> bool:
        """Remove a seat's planned turn; whether it had one."""

        def work() -> Work[bool]:
            return int((yield changed(DELETE_PLAN, game_id=game_id, seat=seat))) > 0

        return await self.backend.do_write(work, key=game_key(game_id))
