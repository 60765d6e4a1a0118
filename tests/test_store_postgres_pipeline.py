"""PostgreSQL's group commit and pipelining: writes of different games that arrive together share one transaction,
their statements sent in batches (bot/store/postgres/pipeline.py), each write still all or nothing."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

import asyncpg
import pytest
from helpers.service_support import a_move_each, lobbies, open_service, replay_rows, same_game, started_game, stored
from sqlalchemy import insert, select, update

import bot.store.postgres.core as pg_core
import bot.store.postgres.pipeline as pipeline
from bot.store import GameStatus, PostgresStore, StoreError, VersionConflict
from bot.store.query import Q, Work, changed, insert_rows, many, one, param, rows, scalar
from bot.store.schema import guild_settings, seat_clocks


@pytest.fixture
def lockstep(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many writes each pipelined run took together."""
    sizes: list[int] = []
    real = pipeline.run_lockstep

    async def counting(conn: Any, works: Sequence[Work[Any]]) -> list[tuple[bool, Any]]:
        sizes.append(len(works))
        return await real(conn, works)

    monkeypatch.setattr(pg_core, "run_lockstep", counting)
    return sizes


async def statuses(url: str) -> dict[int, str]:
    conn = await asyncpg.connect(url)
    try:
        return {row[0]: row[1] for row in await conn.fetch("SELECT id, status FROM games")}
    finally:
        await conn.close()


async def test_moves_of_many_games_at_once_go_together_and_all_are_stored(pg_url: str, lockstep: list[int]) -> None:
    service = await open_service(pg_url)
    try:
        games = [(await started_game(service))[0] for _ in range(12)]
        rng = random.Random(5)
        for _ in range(3):
            calls = await a_move_each(service, games, rng)
            lockstep.clear()
            await asyncio.gather(*calls)
            assert max(lockstep) > 1  # they did go together
        for game_id in games:
            found = await stored(pg_url, game_id)
            assert len(found.moves) >= 3
            assert same_game(await service.reading.engine_game(game_id), replay_rows(found))
    finally:
        await service.close()


async def test_a_refused_write_among_pipelined_ones_leaves_out_only_itself(pg_url: str, lockstep: list[int]) -> None:
    service = await open_service(pg_url)
    try:
        games = await lobbies(service, 5)
        store = service.store
        lockstep.clear()
        outcomes = await asyncio.gather(
            *(
                store.games.set_status(game_id, version + (7 if i == 2 else 0), GameStatus.CANCELLED)
                for i, (game_id, version) in enumerate(games)
            ),
            store.games.add_seat(games[0][0], games[0][1] + 5, 101, "late"),  # a stale version too
            return_exceptions=True,
        )
        assert max(lockstep) > 1  # pipelined
        assert [type(o).__name__ for o in outcomes] == [
            "int",
            "int",
            "VersionConflict",
            "int",
            "int",
            "VersionConflict",
        ]
        found = await statuses(pg_url)
        for i, (game_id, _) in enumerate(games):
            assert found[game_id] == ("lobby" if i == 2 else "cancelled")
        assert [s.display_name for s in await store.games.seats(games[0][0])] == ["host0"]
    finally:
        await service.close()


async def test_a_statement_the_server_refuses_in_a_batch_is_a_store_error_of_its_write_alone(
    pg_url: str, lockstep: list[int]
) -> None:
    store = await PostgresStore.open(pg_url)
    service = await open_service(pg_url)
    try:
        (first, v1), (second, v2), (third, v3) = await lobbies(service, 3)
        outcomes = await asyncio.gather(
            store.games.add_seat(first, v1, 300, "ann"),
            store.games.add_seat(second, v2, 301, "bob"),
            store.games.add_seat(third, v3, 100, "host0 again"),  # not seated there, but unique per game: fine
            return_exceptions=True,
        )
        assert outcomes == [v1 + 1, v2 + 1, v3 + 1]
        lockstep.clear()
        outcomes = await asyncio.gather(
            store.games.add_seat(first, v1 + 1, 300, "ann again"),  # seated already: the table says no
            store.games.add_seat(second, v2 + 1, 302, "cid"),
            store.games.add_seat(third, v3 + 1, 303, "dee"),
            return_exceptions=True,
        )
        assert max(lockstep) > 1
        assert outcomes[1:] == [v2 + 2, v3 + 2]
        assert isinstance(outcomes[0], StoreError) and not isinstance(outcomes[0], VersionConflict)
        assert [s.user_id for s in await store.games.seats(first)] == [100, 300]
        assert [s.user_id for s in await store.games.seats(second)] == [101, 301, 302]
    finally:
        await service.close()
        await store.close()


async def test_a_group_whose_transaction_fails_runs_each_write_alone(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await open_service(pg_url)
    try:
        games = await lobbies(service, 4)
        real = pg_core.run_group
        failed: list[int] = []

        async def breaking(conn: Any, group: Any, pipelined: bool) -> Any:
            if not failed:
                failed.append(len(group))
                raise asyncpg.DeadlockDetectedError("as if another process's group held a row this one needs")
            return await real(conn, group, pipelined)

        monkeypatch.setattr(pg_core, "run_group", breaking)
        outcomes = await asyncio.gather(
            *(service.store.games.set_status(g, v, GameStatus.CANCELLED) for g, v in games), return_exceptions=True
        )
        assert failed and failed[0] > 1
        assert outcomes == [v + 1 for _, v in games]
        assert set((await statuses(pg_url)).values()) == {"cancelled"}
    finally:
        await service.close()


SETTING = Q(
    select(guild_settings.c.key, guild_settings.c.value)
    .where(guild_settings.c.guild_id == param("guild"))
    .order_by(guild_settings.c.key)
)
PUT = Q(
    insert(guild_settings).values(
        guild_id=param("guild"), key=param("key"), value=param("value"), updated_at="2026-11-27T00:00:00+00:00"
    )
)
CHANGE = Q(update(guild_settings).where(guild_settings.c.guild_id == param("guild")).values(value=param("value")))


async def test_a_batch_answers_each_work_with_its_own_rows(pg_url: str) -> None:
    """One statement for several works in one round trip: each gets its rows, its count, its value, or None."""
    store = await PostgresStore.open(pg_url)
    try:
        async with store.acquire() as conn, conn.transaction():
            await pipeline.run_batch(
                conn,
                [
                    many(PUT, [{"guild": 1, "key": "a", "value": '"x"'}, {"guild": 1, "key": "b", "value": '"y"'}]),
                    many(PUT, [{"guild": 2, "key": "a", "value": '"z"'}]),
                    many(PUT, []),
                ],
            )
            found = await pipeline.run_batch(conn, [rows(SETTING, guild=g) for g in (2, 3, 1)])
            assert found == [[("a", '"z"')], [], [("a", '"x"'), ("b", '"y"')]]
            assert await pipeline.run_batch(conn, [one(SETTING, guild=g) for g in (3, 2)]) == [None, ("a", '"z"')]
            assert await pipeline.run_batch(conn, [scalar(SETTING, guild=g) for g in (2, 3)]) == ["a", None]
            counts = await pipeline.run_batch(conn, [changed(CHANGE, guild=g, value='"w"') for g in (1, 3, 2)])
            assert counts == [2, 0, 1]

            def both(guild: int) -> Work[tuple[int, list[Any]]]:
                n = yield changed(CHANGE, guild=guild, value=f'"{guild}"')
                return n, (yield rows(SETTING, guild=guild))

            outcomes = await pipeline.run_lockstep(conn, [both(1), both(2), both(4)])
            assert [ok for ok, _ in outcomes] == [True, True, True]
            assert [value[0] for _, value in outcomes] == [2, 1, 0]
            assert outcomes[1][1][1] == [("a", '"2"')] and outcomes[2][1][1] == []
    finally:
        await store.close()


class Counting:
    """A connection that counts the statements sent through it."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.sent: list[str] = []

    async def execute(self, sql: str, *args: Any) -> str:
        self.sent.append(sql)
        return str(await self.conn.execute(sql, *args))

    async def executemany(self, sql: str, args: Any) -> None:
        self.sent.extend(sql for _ in args)
        await self.conn.executemany(sql, args)


SEAT_NAMES = ("game_id", "seat", "wait", "since", "extra_seconds", "reminded", "timed_out", "reserve_used", "timeouts")


async def test_the_rows_of_a_plain_insert_go_as_one_statement_nulls_and_numbers_intact(pg_url: str) -> None:
    """`insert_rows`: many rows, of several works in a batch, inserted by one statement (`Q.unnested`), each value
    as it was given; one row alone is an ordinary INSERT."""
    service = await open_service(pg_url)
    try:
        game_id, _ = await started_game(service)
    finally:
        await service.close()
    insert_seat = insert_rows(seat_clocks, SEAT_NAMES)
    assert insert_seat.unnested() is not None and Q(select(seat_clocks.c.seat)).unnested() is None
    given = [
        (game_id, 7, None, None, 0.25, 0, 0, 1.5, 3),
        (game_id, 8, "w1", "2026-11-27T12:00:00+00:00", 0.0, 2, 1, 0.0, 0),
        (game_id, 9, "w2", None, 12.5, 1, 0, 0.0, 1),
    ]
    sets = [dict(zip(SEAT_NAMES, row, strict=True)) for row in given]
    store = await PostgresStore.open(pg_url)
    try:
        async with store.acquire() as conn:
            async with conn.transaction():
                counting = Counting(conn)
                await pipeline.run_batch(counting, [many(insert_seat, sets[:2]), many(insert_seat, sets[2:])])
                assert len(counting.sent) == 1 and "unnest" in counting.sent[0]
                counting.sent.clear()
                await pipeline.run_batch(counting, [many(insert_seat, [{**sets[0], "seat": 10}])])
                assert len(counting.sent) == 1 and "unnest" not in counting.sent[0]
            found = await conn.fetch(
                f"SELECT {', '.join(SEAT_NAMES)} FROM seat_clocks WHERE game_id = $1 AND seat >= 7 ORDER BY seat",
                game_id,
            )
        assert [tuple(r) for r in found] == [*given, (game_id, 10, *given[0][2:])]
    finally:
        await store.close()
