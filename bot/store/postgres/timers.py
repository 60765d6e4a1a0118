"""Durable timers on PostgreSQL: deadlines kept in the database, soonest first.

A timer's effect is claimed inside the game's transaction by one conditional
DELETE (`Writes.claim_timer`, see versioned.apply_writes): of two processes
that fire the same timer, only one deletes the row; the other is refused
with TimerGone and its whole transaction is rolled back.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.store.columns import TIMER_COLUMNS, now_text, time_text, timer_row, to_json
from bot.store.postgres.connection import Conn
from bot.store.postgres.core import PostgresCore
from bot.store.postgres.versioned import require_game
from bot.store.rows import TimerRow
from bot.store.shards import Shards, timer_filter

SELECT_TIMERS = f"SELECT {TIMER_COLUMNS} FROM timers"
SOONEST_FIRST = "ORDER BY deadline, id"


class PostgresTimers(PostgresCore):
    """`TimerStore` on PostgreSQL."""

    async def add_timer(
        self, game_id: int | None, kind: str, deadline: datetime, data: dict[str, Any] | None = None
    ) -> TimerRow:
        when = time_text(deadline)
        payload = to_json(data or {})

        async def work(conn: Conn) -> TimerRow:
            if game_id is not None:
                await require_game(conn, game_id)
            row = await conn.fetchrow(
                "INSERT INTO timers (game_id, kind, deadline, data, created_at) VALUES ($1, $2, $3, $4, $5) "
                f"RETURNING {TIMER_COLUMNS}",
                game_id,
                kind,
                when,
                payload,
                now_text(),
            )
            assert row is not None
            return timer_row(tuple(row))

        return await self._write(work)

    async def timers(self, game_id: int | None = None) -> list[TimerRow]:
        if game_id is None:
            return await self._all(timer_row, f"{SELECT_TIMERS} {SOONEST_FIRST}")
        return await self._all(timer_row, f"{SELECT_TIMERS} WHERE game_id = $1 {SOONEST_FIRST}", (game_id,))

    async def due_timers(self, now: datetime, shards: Shards | None = None) -> list[TimerRow]:
        return await self._all(
            timer_row, f"{SELECT_TIMERS} WHERE deadline <= $1{timer_filter(shards)} {SOONEST_FIRST}", (time_text(now),)
        )

    async def next_timer(self, shards: Shards | None = None) -> TimerRow | None:
        where = "" if shards is None else f" WHERE TRUE{timer_filter(shards)}"
        return await self._one(timer_row, f"{SELECT_TIMERS}{where} {SOONEST_FIRST} LIMIT 1")

    async def timer(self, timer_id: int) -> TimerRow | None:
        return await self._one(timer_row, f"{SELECT_TIMERS} WHERE id = $1", (timer_id,))

    async def delete_timer(self, timer_id: int) -> bool:
        return await self._change("DELETE FROM timers WHERE id = $1", (timer_id,)) == 1

    async def delete_timers(self, game_id: int, kind: str | None = None) -> int:
        if kind is None:
            return await self._change("DELETE FROM timers WHERE game_id = $1", (game_id,))
        return await self._change("DELETE FROM timers WHERE game_id = $1 AND kind = $2", (game_id, kind))

    async def postpone_timer(self, timer_id: int, deadline: datetime) -> bool:
        sql = "UPDATE timers SET deadline = $1 WHERE id = $2"
        return await self._change(sql, (time_text(deadline), timer_id)) == 1
