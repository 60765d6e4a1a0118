"""Loading a game reads its clock in the same read (one statement fewer for the first move after a load); a paused
clock, which refuses moves by itself, is read again each time, as before."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers.service_support import a_move_each, open_service, started_game

from bot.store import ClockRow, Database


async def test_a_game_is_read_with_its_clock_and_its_first_move_reads_no_clock(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await open_service(database)
    try:
        game_id, users = await started_game(service)
        store = service.store
        stored = await store.games.stored_game(game_id)
        assert stored is not None and stored.clock == await store.history.clock(game_id)
        assert stored.clock is not None and stored.clock.seats  # the seats' waits, not an empty clock

        clock_reads: list[int] = []
        real = store.history.clock

        async def counting(game: int) -> ClockRow:
            clock_reads.append(game)
            return await real(game)

        monkeypatch.setattr(store.history, "clock", counting)
        service.core.forget(game_id)  # as in a process that has not loaded the game yet
        for call in await a_move_each(service, [game_id], random.Random(2)):
            await call
        assert clock_reads == []

        await service.moderation.pause(game_id, users[0], "a break")
        service.core.forget(game_id)
        clock_reads.clear()
        live = await service.core.live(game_id)
        assert (await service.core.stored_clock(game_id)).paused_at is not None
        assert (await service.core.stored_clock(game_id)).paused_at is not None
        assert clock_reads == [game_id, game_id]  # a paused clock is never kept
        assert live.info.id == game_id
    finally:
        await service.close()


async def test_a_game_with_no_clock_rows_reads_as_an_empty_clock(database: Database) -> None:
    service = await open_service(database)
    try:
        created = await service.lobby.create_game(1, 2, 100, "p0", "usa")
        stored: Any = await service.store.games.stored_game(created.game.id)
        assert stored.clock == ClockRow(created.game.id) == await service.store.history.clock(created.game.id)
    finally:
        await service.close()
