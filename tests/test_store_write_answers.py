"""A write whose caller stopped waiting (a timeout, a cancelled interaction) still runs to its end; when it then
fails, nothing is logged as an exception nobody retrieved: the failure was the caller's to handle."""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

from sqlalchemy import func, select

from bot.store import Database, SqliteStore, open_store
from bot.store.query import Q, Work, one

SLEEP = Q(select(func.pg_sleep(0.3)), only="postgresql")


async def test_a_write_that_fails_after_its_caller_gave_up_logs_nothing(database: Database) -> None:
    store: Any = await open_store(database)
    reported: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    ran: list[str] = []
    try:

        def refused() -> Work[None]:
            yield one(SLEEP)  # PostgreSQL: the server takes its time
            if isinstance(store, SqliteStore):
                time.sleep(0.3)  # SQLite: the database thread does
            ran.append("to its end")
            raise ValueError("refused")

        try:
            await asyncio.wait_for(store.core.do_write(refused), 0.05)
        except TimeoutError:
            pass
        else:
            raise AssertionError("the write answered before its caller gave up")
        for _ in range(100):
            await asyncio.sleep(0.02)
            if ran:
                break
        await asyncio.sleep(0.05)
        gc.collect()
        await asyncio.sleep(0)
        assert ran == ["to its end"]
        assert [c.get("message") for c in reported] == []

        def also_refused() -> Work[None]:
            yield one(SLEEP)
            raise ValueError("refused")

        try:  # a caller that waits still gets the failure
            await store.core.do_write(also_refused)
        except ValueError as exc:
            assert str(exc) == "refused"
        else:
            raise AssertionError("the failure was lost")
    finally:
        loop.set_exception_handler(None)
        await store.close()
