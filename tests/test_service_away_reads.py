"""The away check before every move: a member read as not away is not read again for a while (one read fewer a
move), this process's own change of their settings is seen at once, another process's once that while is over."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from helpers.service_support import member_reads, open_service, started_game

from bot.service.core import NOT_AWAY_TRUSTED
from bot.store import Database


async def test_a_member_read_as_not_away_is_trusted_for_a_while(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [datetime(2026, 11, 27, 12, tzinfo=UTC)]
    service = await open_service(database, clock=lambda: now[0])
    other = await open_service(database, clock=lambda: now[0])  # another process on the same database
    try:
        game_id, _ = await started_game(service)
        reads = member_reads(service, monkeypatch)

        async def away() -> frozenset[int]:
            live = await service.core.live(game_id)
            return await service.runner.away_seats(live.info, live.game)

        live = await service.core.live(game_id)
        assert live.game is not None
        seats = [live.game.seat(name) for name in live.game.waiting_for()]
        everyone = sorted(live.info.seats[s].user_id for s in seats)
        seat = seats[0]
        user = live.info.seats[seat].user_id

        assert await away() == frozenset() and reads == []  # read as the game started
        service.core.present_until.clear()  # as in a process that has not read them yet
        assert await away() == frozenset() and reads == [everyone]  # all of them in one read
        assert await away() == frozenset() and reads == [everyone]  # not read again

        await other.members.set_away(user, 3600)  # another process: not seen yet
        assert await away() == frozenset() and len(reads) == 1
        now[0] += NOT_AWAY_TRUSTED + timedelta(seconds=1)  # the while is over: read again, and away
        assert await away() == {seat} and reads[1:] == [everyone]
        assert await away() == {seat} and reads[2:] == [[user]]  # an away member is read every time

        await service.members.set_away(user, None)  # this process's own change: seen at once
        assert await away() == frozenset() and len(reads) == 4
        await service.members.set_away(user, 3600)
        assert await away() == {seat} and len(reads) == 5
    finally:
        await other.close()
        await service.close()
