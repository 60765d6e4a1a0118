"""On SQLite: the channel messages the bot posted for a game, and the members who refuse direct messages."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.store.columns import (
    GAME_COLUMNS,
    HELD_COLUMNS,
    MESSAGE_COLUMNS,
    game_row,
    held_row,
    message_row,
    now_text,
    time_text,
)
from bot.store.rows import GameRow, HeldRow, MessageRow
from bot.store.sqlite.core import SqliteCore
from bot.store.sqlite.versioned import require_game


class SqliteMessages(SqliteCore):
    """`MessageStore` on SQLite."""

    async def add_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, buttons: bool = False
    ) -> None:
        def work(conn: sqlite3.Connection) -> None:
            require_game(conn, game_id)
            conn.execute(
                f"INSERT INTO messages ({MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, kind, channel_id, message_id, now_text(), int(buttons)),
            )

        await self._write(work)

    async def messages(self, game_id: int, kind: str | None = None) -> list[MessageRow]:
        sql = f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE game_id = ?"
        params: Sequence[Any] = (game_id,)
        if kind is not None:
            sql += " AND kind = ?"
            params = (game_id, kind)
        return await self._all(message_row, sql + " ORDER BY created_at, message_id", params)

    async def delete_message(self, message_id: int) -> bool:
        return await self._change("DELETE FROM messages WHERE message_id = ?", (message_id,)) == 1

    async def games_with_buttons(self) -> list[GameRow]:
        sql = (
            f"SELECT {GAME_COLUMNS} FROM games WHERE id IN (SELECT game_id FROM messages WHERE buttons = 1) ORDER BY id"
        )
        return await self._all(game_row, sql)

    async def clear_buttons(self, message_id: int) -> bool:
        return (
            await self._change("UPDATE messages SET buttons = 0 WHERE message_id = ? AND buttons = 1", (message_id,))
            == 1
        )

    async def tournament_message(self, tournament_id: int) -> tuple[int, int] | None:
        row = await self._one(
            tuple, "SELECT channel_id, message_id FROM tournament_messages WHERE tournament_id = ?", (tournament_id,)
        )
        return None if row is None else (int(row[0]), int(row[1]))

    async def set_tournament_message(self, tournament_id: int, channel_id: int, message_id: int) -> None:
        await self._change(
            "INSERT INTO tournament_messages (tournament_id, channel_id, message_id) VALUES (?, ?, ?) "
            "ON CONFLICT (tournament_id) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id",
            (tournament_id, channel_id, message_id),
        )

    async def dm_refused(self, user_id: int) -> bool:
        return await self._one(tuple, "SELECT 1 FROM dm_refusals WHERE user_id = ?", (user_id,)) is not None

    async def set_dm_refused(self, user_id: int, refused: bool) -> None:
        if refused:
            await self._change(
                "INSERT INTO dm_refusals (user_id, refused_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (user_id, now_text()),
            )
        else:
            await self._change("DELETE FROM dm_refusals WHERE user_id = ?", (user_id,))

    async def hold_message(
        self, user_id: int, game_id: int | None, kind: str, wait: str | None, text: str, due_at: datetime
    ) -> int:
        def work(conn: sqlite3.Connection) -> int:
            cursor = conn.execute(
                "INSERT INTO held_messages (user_id, game_id, kind, wait, text, due_at, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (user_id, game_id, kind, wait, text, time_text(due_at), now_text()),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        return await self._write(work)

    async def due_held_messages(self, now: datetime, limit: int = 100) -> list[HeldRow]:
        return await self._all(
            held_row,
            f"SELECT {HELD_COLUMNS} FROM held_messages WHERE due_at <= ? ORDER BY due_at, id LIMIT ?",
            (time_text(now), limit),
        )

    async def held_messages(self, user_id: int) -> list[HeldRow]:
        return await self._all(
            held_row, f"SELECT {HELD_COLUMNS} FROM held_messages WHERE user_id = ? ORDER BY due_at, id", (user_id,)
        )

    async def take_held_message(self, held_id: int) -> bool:
        return await self._change("DELETE FROM held_messages WHERE id = ?", (held_id,)) == 1
