"""Durable timers on SQLite: deadlines kept in the database, soonest first."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from bot.store.columns import TIMER_COLUMNS, now_text, time_text, timer_row, to_json
from bot.store.rows import TimerRow
from bot.store.shards import Shards, timer_filter
from bot.store.sqlite.core import SqliteCore
from bot.store.sqlite.versioned import require_game

SELECT_TIMERS = f"SELECT {TIMER_COLUMNS} FROM timers"
SOONEST_FIRST = "ORDER BY deadline, id"


class SqliteTimers(SqliteCore):
    """`TimerStore` on SQLite."""

    async def add_timer(
        self, game_id: int | None, kind: str, deadline: datetime, data: dict[str, Any] | None = None
    ) -> TimerRow:
        when = time_text(deadline)
        payload = to_json(data or {})

        def work(conn: sqlite3.Connection) -> TimerRow:
            if game_id is not None:
                require_game(conn, game_id)
            cur = conn.execute(
                "INSERT INTO timers (game_id, kind, deadline, data, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, kind, when, payload, now_text()),
            )
            return timer_row(conn.execute(f"{SELECT_TIMERS} WHERE id = ?", (cur.lastrowid,)).fetchone())

        return await self._write(work)

    async def timers(self, game_id: int | None = None) -> list[TimerRow]:
        if game_id is None:
            return await self._all(timer_row, f"{SELECT_TIMERS} {SOONEST_FIRST}")
        return await self._all(timer_row, f"{SELECT_TIMERS} WHERE game_id = ? {SOONEST_FIRST}", (game_id,))

    async def due_timers(self, now: datetime, shards: Shards | None = None) -> list[TimerRow]:
        return await self._all(
            timer_row, f"{SELECT_TIMERS} WHERE deadline <= ?{timer_filter(shards)} {SOONEST_FIRST}", (time_text(now),)
        )

    async def next_timer(self, shards: Shards | None = None) -> TimerRow | None:
        where = "" if shards is None else f" WHERE TRUE{timer_filter(shards)}"
        return await self._one(timer_row, f"{SELECT_TIMERS}{where} {SOONEST_FIRST} LIMIT 1")

    async def timer(self, timer_id: int) -> TimerRow | None:
        return await self._one(timer_row, f"{SELECT_TIMERS} WHERE id = ?", (timer_id,))

    async def delete_timer(self, timer_id: int) -> bool:
        return await self._change("DELETE FROM timers WHERE id = ?", (timer_id,)) == 1

    async def delete_timers(self, game_id: int, kind: str | None = None) -> int:
        if kind is None:
            return await self._change("DELETE FROM timers WHERE game_id = ?", (game_id,))
        return await self._change("DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind))

    async def postpone_timer(self, timer_id: int, deadline: datetime) -> bool:
        return await self._change("UPDATE timers SET deadline = ? WHERE id = ?", (time_text(deadline), timer_id)) == 1
