"""Members' settings asked for by many actions at once: the asks of one moment share one read
(bot/service/member_reads.py), and no answer is older than its ask."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Collection
from typing import Any, cast

import pytest
from helpers.service_support import a_move_each, member_reads, open_service, started_game

from bot.service.member_reads import MOST_PER_READ, MemberReads
from bot.store import Database, Store, StoreError


class SlowStore:
    """A store whose member reads wait until the test lets them answer, each with the settings as they were when
    the read began."""

    def __init__(self) -> None:
        self.settings: dict[int, dict[str, Any]] = {}
        self.reads: list[list[int]] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.fail: Exception | None = None

    async def settings_of_members(self, user_ids: Collection[int]) -> dict[int, dict[str, Any]]:
        self.reads.append(sorted(user_ids))
        found = {u: dict(self.settings.get(u, {})) for u in user_ids}  # as they are when the read begins
        await self.gate.wait()
        if self.fail is not None:
            raise self.fail
        return found


def reads_of(store: SlowStore) -> MemberReads:
    return MemberReads(cast(Store, store))


async def test_the_asks_of_one_moment_are_one_read() -> None:
    store = SlowStore()
    store.settings = {1: {"away": 5}}
    reads = reads_of(store)
    answers = await asyncio.gather(*(reads.settings_of([1, 2 + i % 3]) for i in range(50)))
    assert store.reads == [[1, 2, 3, 4]]
    assert answers[0] == {1: {"away": 5}, 2: {}} and answers[1] == {1: {"away": 5}, 3: {}}


async def test_an_ask_made_while_a_read_runs_waits_for_the_next_read() -> None:
    store = SlowStore()
    reads = reads_of(store)
    store.gate.clear()
    first = asyncio.ensure_future(reads.settings_of([7]))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert store.reads == [[7]]  # under way
    store.settings[7] = {"away": 1}  # changed after the read began: the next ask must see it
    second = asyncio.ensure_future(reads.settings_of([7, 8]))
    await asyncio.sleep(0)
    store.gate.set()
    assert await first == {7: {}}
    assert await second == {7: {"away": 1}, 8: {}}
    assert store.reads == [[7], [7, 8]]


async def test_a_store_error_reaches_every_ask_of_its_read_and_the_next_read_works() -> None:
    store = SlowStore()
    reads = reads_of(store)
    store.fail = StoreError("database error")
    outcomes = await asyncio.gather(reads.settings_of([1]), reads.settings_of([2]), return_exceptions=True)
    assert all(isinstance(o, StoreError) for o in outcomes)
    store.fail = None
    assert await reads.settings_of([1]) == {1: {}}


async def test_one_cancelled_ask_leaves_the_others_their_answer() -> None:
    store = SlowStore()
    reads = reads_of(store)
    store.gate.clear()
    gone = asyncio.ensure_future(reads.settings_of([1]))
    kept = asyncio.ensure_future(reads.settings_of([1, 2]))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.sleep(0)
    store.gate.set()
    assert await kept == {1: {}, 2: {}}
    with pytest.raises(asyncio.CancelledError):
        await gone


async def test_more_members_than_one_read_takes_go_in_several() -> None:
    store = SlowStore()
    reads = reads_of(store)
    many = list(range(MOST_PER_READ + 10))
    answer = await reads.settings_of(many)
    assert sorted(answer) == many
    assert [len(r) for r in store.reads] == [MOST_PER_READ, 10]


async def test_moves_of_many_games_at_once_read_their_members_together(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await open_service(database)
    try:
        games = [(await started_game(service))[0] for _ in range(6)]
        reads = member_reads(service, monkeypatch)
        service.core.present_until.clear()  # as in a process that has not read them yet
        await asyncio.gather(*await a_move_each(service, games, random.Random(3)))
        assert len(reads) == 1  # six games' members (the same three users) in one read
    finally:
        await service.close()


def test_a_new_event_loop_is_not_left_waiting_for_a_read_of_one_that_is_gone() -> None:
    store = SlowStore()
    reads = reads_of(store)
    pending: list[asyncio.Future[dict[int, dict[str, Any]]]] = []

    async def stranded() -> None:
        store.gate.clear()
        pending.append(asyncio.ensure_future(reads.settings_of([1])))
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # the read is under way when this loop ends

    old = asyncio.new_event_loop()
    old.run_until_complete(stranded())  # and closed with the read still waiting, its task never cancelled
    for task in asyncio.all_tasks(old):
        task._log_destroy_pending = False  # type: ignore[attr-defined]  # (left pending on purpose)
    old.close()
    store.gate = asyncio.Event()
    store.gate.set()

    async def again() -> dict[int, dict[str, Any]]:
        return await asyncio.wait_for(reads.settings_of([1, 2]), 2)

    assert asyncio.run(again()) == {1: {}, 2: {}}
