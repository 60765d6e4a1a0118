"""Durable timers: deadlines kept in the database, soonest first.

A timer's effect is claimed inside the game's transaction by one conditional
DELETE (`Writes.claim_timer`, see `versioned.apply_writes`): of two processes
that fire the same timer, only one deletes the row; the other is refused
with TimerGone and its whole transaction is rolled back.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import delete, insert, select, text, update

from bot.store.columns import TIMER_COLUMNS, now_text, time_text, timer_row, to_json
from bot.store.parts.base import Backend
from bot.store.parts.versioned import require_game
from bot.store.query import Q, Work, one, param
from bot.store.rows import TimerRow
from bot.store.schema import games, timers
from bot.store.shards import Shards

TIMER = tuple(timers.c[c.strip()] for c in TIMER_COLUMNS.split(","))
SOONEST_FIRST = (timers.c.deadline, timers.c.id)
INSERT_TIMER = Q(
    insert(timers)
    .values({c: param(c) for c in ("game_id", "kind", "deadline", "data", "created_at")})
    .returning(*TIMER)
)
ALL_TIMERS = Q(select(*TIMER).order_by(*SOONEST_FIRST))
GAME_TIMERS = Q(select(*TIMER).where(timers.c.game_id == param("game_id")).order_by(*SOONEST_FIRST))
TIMER_BY_ID = Q(select(*TIMER).where(timers.c.id == param("timer_id")))
DELETE_TIMER = Q(delete(timers).where(timers.c.id == param("timer_id")))
DELETE_GAME_TIMERS = Q(delete(timers).where(timers.c.game_id == param("game_id")))
DELETE_GAME_TIMERS_OF_KIND = Q(
    delete(timers).where(timers.c.game_id == param("game_id"), timers.c.kind == param("kind"))
)
POSTPONE_TIMER = Q(update(timers).where(timers.c.id == param("timer_id")).values(deadline=param("deadline")))


def _of_shards(shards: Shards) -> Any:
    """The timers these shards fire: of their servers' games, and, on shard 0, those of no game."""
    mine = timers.c.game_id.in_(select(games.c.id).where(text(shards.guild_filter())))
    return mine | timers.c.game_id.is_(None) if shards.first else mine


@cache
def _due(shards: Shards | None) -> Q:
    query = select(*TIMER).where(timers.c.deadline <= param("now"))
    return Q((query if shards is None else query.where(_of_shards(shards))).order_by(*SOONEST_FIRST))


@cache
def _next(shards: Shards | None) -> Q:
    query = select(*TIMER)
    return Q((query if shards is None else query.where(_of_shards(shards))).order_by(*SOONEST_FIRST).limit(1))


class Timers:
    """`TimerStore`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def add_timer(
        self, game_id: int | None, kind: str, deadline: datetime, data: dict[str, Any] | None = None
    ) -> TimerRow:
        values = {
            "game_id": game_id,
            "kind": kind,
            "deadline": time_text(deadline),
            "data": to_json(data or {}),
            "created_at": now_text(),
        }

        def work() -> Work[TimerRow]:
            if game_id is not None:
                yield from require_game(game_id)
            return timer_row((yield one(INSERT_TIMER, **values)))

        return await self.backend.do_write(work)

    async def timers(self, game_id: int | None = None) -> list[TimerRow]:
        if game_id is None:
            return [timer_row(r) for r in await self.backend.fetch_all(ALL_TIMERS)]
        return [timer_row(r) for r in await self.backend.fetch_all(GAME_TIMERS, game_id=game_id)]

    async def due_timers(self, now: datetime, shards: Shards | None = None) -> list[TimerRow]:
        return [timer_row(r) for r in await self.backend.fetch_all(_due(shards), now=time_text(now))]

    async def next_timer(self, shards: Shards | None = None) -> TimerRow | None:
        row = await self.backend.fetch_one(_next(shards))
        return None if row is None else timer_row(row)

    async def timer(self, timer_id: int) -> TimerRow | None:
        row = await self.backend.fetch_one(TIMER_BY_ID, timer_id=timer_id)
        return None if row is None else timer_row(row)

    async def delete_timer(self, timer_id: int) -> bool:
        return await self.backend.execute(DELETE_TIMER, timer_id=timer_id) == 1

    async def delete_timers(self, game_id: int, kind: str | None = None) -> int:
        if kind is None:
            return await self.backend.execute(DELETE_GAME_TIMERS, game_id=game_id)
        return await self.backend.execute(DELETE_GAME_TIMERS_OF_KIND, game_id=game_id, kind=kind)

    async def postpone_timer(self, timer_id: int, deadline: datetime) -> bool:
        return await self.backend.execute(POSTPONE_TIMER, timer_id=timer_id, deadline=time_text(deadline)) == 1
