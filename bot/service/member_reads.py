"""Members' settings read for many actions at once: the asks that come together share one statement.

Every move asks whether the members it now waits for are away (bot/service/runner.py). When many games act at
the same moment (a busy evening, the timers due after a restart), each ask would be a statement of its own and
wait for a connection behind all the others. Here the asks made while no read is under way go out as one read,
started once the asks of the moment are in; those made while it runs go out together as the next one. Each read
starts after every ask it answers was made, so no answer is older than its ask.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Any

from bot.store import SettingsStore

# members in one read at most; more wait for the next one
MOST_PER_READ = 500


class MemberReads:
    """`settings_of(user_ids)`: as `SettingsStore.settings_of_members`, the asks of one moment read together."""

    def __init__(self, settings_store: SettingsStore) -> None:
        self.settings_store = settings_store
        self._asked: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def settings_of(self, user_ids: Collection[int]) -> dict[int, dict[str, Any]]:
        loop = asyncio.get_running_loop()
        if self._reader is not None and self._reader.get_loop() is not loop:
            self._asked, self._reader = {}, None  # asks of an event loop that is gone: nobody waits for them now
        waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        for user_id in user_ids:
            future = self._asked.get(user_id)
            if future is None:
                future = self._asked[user_id] = loop.create_future()
            waiting[user_id] = future
        if self._reader is None or self._reader.done():
            self._reader = asyncio.ensure_future(self._read_all())
        # shielded: one caller's cancellation must not cancel the others' answer
        return {user_id: await asyncio.shield(future) for user_id, future in waiting.items()}

    async def _read_all(self) -> None:
        while self._asked:
            batch = dict(list(self._asked.items())[:MOST_PER_READ])
            for user_id in batch:
                del self._asked[user_id]
            try:
                found = await self.settings_store.settings_of_members(list(batch))
            except Exception as exc:  # each ask gets the store's error
                for future in batch.values():
                    if not future.done():
                        future.set_exception(exc)
                        future.exception()  # seen here too: an ask cancelled meanwhile leaves no warning
            except BaseException:  # the loop is closing: no ask is left waiting
                for future in (*batch.values(), *self._asked.values()):
                    if not future.get_loop().is_closed():
                        future.cancel()
                self._asked.clear()
                raise
            else:
                for user_id, future in batch.items():
                    if not future.done():
                        future.set_result(found.get(user_id, {}))
