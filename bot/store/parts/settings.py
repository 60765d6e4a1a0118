"""Server and member settings, the fingerprint of the slash commands last synced, and the heartbeat."""

from __future__ import annotations

import json
from collections.abc import Collection
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Table, bindparam, delete, func, select

from bot.store.columns import now_text, parse_time, time_text, to_json
from bot.store.parts.base import Backend
from bot.store.query import Q, upsert
from bot.store.schema import command_syncs, guild_settings, heartbeat, member_settings
from bot.store.shards import UNSHARDED_KEY


def _settings_of(table: Table, owner: str) -> tuple[Q, Q, Q]:
    read = Q(select(table.c.key, table.c.value).where(table.c[owner] == bindparam("owner")))
    remove = Q(delete(table).where(table.c[owner] == bindparam("owner"), table.c.key == bindparam("key")))
    return read, remove, upsert(table, (owner, "key"), ("value", "updated_at"))


GUILD_SETTINGS, DELETE_GUILD_SETTING, PUT_GUILD_SETTING = _settings_of(guild_settings, "guild_id")
MEMBER_SETTINGS, DELETE_MEMBER_SETTING, PUT_MEMBER_SETTING = _settings_of(member_settings, "user_id")


@cache
def _settings_of_members(count: int) -> Q:
    """The settings of `count` members (parameters member0, member1, ...): their user ids, keys and values."""
    return Q(
        select(member_settings.c.user_id, member_settings.c.key, member_settings.c.value).where(
            member_settings.c.user_id.in_([bindparam(f"member{i}") for i in range(count)])
        )
    )


COMMAND_DIGEST = Q(select(command_syncs.c.digest).where(command_syncs.c.target == bindparam("target")))
PUT_COMMAND_DIGEST = upsert(command_syncs, ("target",), ("digest", "synced_at"))
ALIVE_AT = Q(
    select(
        func.coalesce(
            select(heartbeat.c.alive_at).where(heartbeat.c.id == bindparam("id")).scalar_subquery(),
            select(func.max(heartbeat.c.alive_at)).scalar_subquery(),
        )
    )
)
PUT_ALIVE_AT = upsert(heartbeat, ("id",), ("alive_at",))


class Settings:
    """`SettingsStore`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        return {key: json.loads(value) for key, value in await self.backend.fetch_all(GUILD_SETTINGS, owner=guild_id)}

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        if value is None:
            await self.backend.execute(DELETE_GUILD_SETTING, owner=guild_id, key=key)
        else:
            await self.backend.execute(
                PUT_GUILD_SETTING, guild_id=guild_id, key=key, value=to_json(value), updated_at=now_text()
            )

    async def member_settings(self, user_id: int) -> dict[str, Any]:
        return {key: json.loads(value) for key, value in await self.backend.fetch_all(MEMBER_SETTINGS, owner=user_id)}

    async def settings_of_members(self, user_ids: Collection[int]) -> dict[int, dict[str, Any]]:
        wanted = sorted(set(user_ids))
        found: dict[int, dict[str, Any]] = {user_id: {} for user_id in wanted}
        if not wanted:
            return found
        names = {f"member{i}": user_id for i, user_id in enumerate(wanted)}
        for user_id, key, value in await self.backend.fetch_all(_settings_of_members(len(wanted)), **names):
            found[int(user_id)][key] = json.loads(value)
        return found

    async def set_member_setting(self, user_id: int, key: str, value: Any) -> None:
        if value is None:
            await self.backend.execute(DELETE_MEMBER_SETTING, owner=user_id, key=key)
        else:
            await self.backend.execute(
                PUT_MEMBER_SETTING, user_id=user_id, key=key, value=to_json(value), updated_at=now_text()
            )

    async def command_digest(self, target: str) -> str | None:
        row = await self.backend.fetch_one(COMMAND_DIGEST, target=target)
        return None if row is None else str(row[0])

    async def set_command_digest(self, target: str, digest: str) -> None:
        await self.backend.execute(PUT_COMMAND_DIGEST, target=target, digest=digest, synced_at=now_text())

    async def alive_at(self, key: int = UNSHARDED_KEY) -> datetime | None:
        row = await self.backend.fetch_one(ALIVE_AT, id=key)
        return None if row is None or row[0] is None else parse_time(str(row[0]))

    async def set_alive_at(self, moment: datetime, key: int = UNSHARDED_KEY) -> None:
        await self.backend.execute(PUT_ALIVE_AT, id=key, alive_at=time_text(moment))
