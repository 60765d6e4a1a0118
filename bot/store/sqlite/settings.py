"""On SQLite: server and member settings, the fingerprint of the slash commands last synced, the heartbeat."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bot.store.shards import UNSHARDED_KEY
from bot.store.sqlite.columns import now_text, parse_time, time_text, to_json
from bot.store.sqlite.core import SqliteCore


class SqliteSettings(SqliteCore):
    """`SettingsStore` on SQLite."""

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        rows = await self._all(tuple, "SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return {key: json.loads(value) for key, value in rows}

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        if value is None:
            await self._change("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
        else:
            await self._change(
                "INSERT INTO guild_settings (guild_id, key, value, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (guild_id, key, to_json(value), now_text()),
            )

    async def member_settings(self, user_id: int) -> dict[str, Any]:
        rows = await self._all(tuple, "SELECT key, value FROM member_settings WHERE user_id = ?", (user_id,))
        return {key: json.loads(value) for key, value in rows}

    async def set_member_setting(self, user_id: int, key: str, value: Any) -> None:
        if value is None:
            await self._change("DELETE FROM member_settings WHERE user_id = ? AND key = ?", (user_id, key))
        else:
            await self._change(
                "INSERT INTO member_settings (user_id, key, value, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (user_id, key, to_json(value), now_text()),
            )

    async def command_digest(self, target: str) -> str | None:
        return await self._one(lambda row: str(row[0]), "SELECT digest FROM command_syncs WHERE target = ?", (target,))

    async def set_command_digest(self, target: str, digest: str) -> None:
        await self._change(
            "INSERT INTO command_syncs (target, digest, synced_at) VALUES (?, ?, ?) "
            "ON CONFLICT (target) DO UPDATE SET digest = excluded.digest, synced_at = excluded.synced_at",
            (target, digest, now_text()),
        )

    async def alive_at(self, key: int = UNSHARDED_KEY) -> datetime | None:
        sql = "SELECT COALESCE((SELECT alive_at FROM heartbeat WHERE id = ?), (SELECT MAX(alive_at) FROM heartbeat))"
        moment = await self._one(lambda row: None if row[0] is None else parse_time(str(row[0])), sql, (key,))
        return moment

    async def set_alive_at(self, moment: datetime, key: int = UNSHARDED_KEY) -> None:
        await self._change(
            "INSERT INTO heartbeat (id, alive_at) VALUES (?, ?) "
            "ON CONFLICT (id) DO UPDATE SET alive_at = excluded.alive_at",
            (key, time_text(moment)),
        )
