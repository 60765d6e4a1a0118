"""One command rate per member whichever process answers: the limit counted in the database (`member_rates`).

Two processes are two stores opened on the same database (an SQLite file, a PostgreSQL database: the `database`
fixture runs each test on both), each with its own `RateLimiter`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.views.ratelimit as ratelimit
from bot.runtime.settings import Settings, SettingsError
from bot.store import Database, RateStore, Shards, Store, StoreError, open_store
from bot.views.ratelimit import RateLimiter


class Clock:
    """The time the test sets, as epoch seconds (both limiters' in-memory and wall clocks)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def two_stores(database: Database) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one database, as two bot processes have."""
    first = await open_store(database)
    second = await open_store(database)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def limiters(stores: tuple[Store, Store], clock: Clock, limit: int, window: float) -> tuple[RateLimiter, RateLimiter]:
    return (
        RateLimiter(limit, window, clock=clock, rates=stores[0].rates, wall_clock=clock),
        RateLimiter(limit, window, clock=clock, rates=stores[1].rates, wall_clock=clock),
    )


async def test_two_processes_admit_the_limit_in_all(two_stores: tuple[Store, Store]) -> None:
    clock = Clock()
    start = clock.now
    a, b = limiters(two_stores, clock, 3, 10)
    assert await a.admit(7) is None
    clock.now = start + 1
    assert await b.admit(7) is None
    clock.now = start + 2
    assert await a.admit(7) is None
    clock.now = start + 5
    assert await b.admit(7) == 5  # each process admitted 2 at most: the database counts 3
    assert await a.admit(7) == 5
    assert await a.admit(8) is None  # another member is not slowed
    assert await b.admit(8) is None
    for _ in range(10):  # refusals do not count, in the database nor in memory
        assert await a.admit(7) == 5
        assert await b.admit(7) == 5
    clock.now = start + 10  # the first left the window: one more, then the second's turn
    assert await a.admit(7) is None
    assert await b.admit(7) == 1
    clock.now = start + 11
    assert await b.admit(7) is None
    assert await a.admit(7) == 1
    clock.now = start + 40  # all of them long gone
    assert [await x.admit(7) for x in (a, b, a)] == [None, None, None]
    assert await b.admit(7) == 10


async def test_the_in_memory_gate_refuses_without_asking_the_database(two_stores: tuple[Store, Store]) -> None:
    clock = Clock()
    a, _ = limiters(two_stores, clock, 2, 10)
    assert [await a.admit(7), await a.admit(7)] == [None, None]
    asked: list[int] = []

    class Counting:
        async def admit_request(self, user_id: int, now: float, limit: int, window: float) -> float | None:
            asked.append(user_id)
            return None

        async def forget_rates(self, before: float) -> int:
            return 0

    a.share(Counting())
    assert await a.admit(7) == 10  # refused in memory: the database is not asked
    assert asked == []
    assert await a.admit(8) is None
    assert asked == [8]


async def test_many_requests_at_once_through_two_stores_never_pass_the_limit(two_stores: tuple[Store, Store]) -> None:
    now = 1_800_000_000.0
    first, second = two_stores
    # the member's row does not exist yet: both stores race to make it
    answers = await asyncio.gather(
        *(store.rates.admit_request(42, now, 5, 10.0) for _ in range(20) for store in (first, second))
    )
    assert answers.count(None) == 5
    assert all(a == 10.0 for a in answers if a is not None)
    clock = Clock(now + 20)
    a, b = limiters(two_stores, clock, 5, 10)
    answers = await asyncio.gather(*(limiter.admit(43) for _ in range(20) for limiter in (a, b)))
    assert answers.count(None) == 5
    assert a.tracked() == b.tracked() == 1


async def test_old_rows_are_swept(two_stores: tuple[Store, Store]) -> None:
    first, second = two_stores
    assert await first.rates.admit_request(1, 100.0, 2, 10.0) is None
    assert await second.rates.admit_request(2, 105.0, 2, 10.0) is None
    assert await first.rates.forget_rates(100.0) == 1  # member 1's newest request is at 100
    assert await second.rates.forget_rates(100.0) == 0
    assert await second.rates.admit_request(2, 106.0, 2, 10.0) is None
    assert await first.rates.admit_request(2, 107.0, 2, 10.0) == 8.0  # member 2's row was kept: 105 and 106 count
    assert await first.rates.forget_rates(200.0) == 1


class Broken:
    """A store whose rate calls fail, or take too long."""

    def __init__(self, slow: bool = False) -> None:
        self.slow = slow
        self.swept: list[float] = []

    async def admit_request(self, user_id: int, now: float, limit: int, window: float) -> float | None:
        if self.slow:
            await asyncio.sleep(5)
        raise StoreError("database error in conductor.sqlite3: disk I/O error")

    async def forget_rates(self, before: float) -> int:
        self.swept.append(before)
        raise StoreError("database error in conductor.sqlite3: disk I/O error")


async def test_a_failing_store_lets_the_request_through_with_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    rates: RateStore = Broken()
    limiter = RateLimiter(2, 10, clock=clock, rates=rates, wall_clock=clock)
    with caplog.at_level(logging.WARNING, logger="bot.views.ratelimit"):
        assert await limiter.admit(7) is None
    [record] = caplog.records
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "disk I/O error" in record.getMessage() and "\n" not in record.getMessage()
    assert await limiter.admit(7) is None
    assert await limiter.admit(7) == 10  # the in-memory limit still holds


async def test_a_store_that_does_not_answer_in_time_lets_the_request_through(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    limiter = RateLimiter(2, 10, clock=clock, rates=Broken(slow=True), wall_clock=clock, timeout=0.05)
    with caplog.at_level(logging.WARNING, logger="bot.views.ratelimit"):
        assert await limiter.admit(7) is None
    assert [r.getMessage() for r in caplog.records] == [
        "the shared command rate could not be checked, the request goes through: no answer within 0.05 seconds"
    ]


async def test_the_limiter_sweeps_the_store_now_and_then(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratelimit, "_SWEEP_EVERY", 3)
    clock = Clock(1000.0)

    class Admitting(Broken):
        async def admit_request(self, user_id: int, now: float, limit: int, window: float) -> float | None:
            return None

    store = Admitting()
    limiter = RateLimiter(1, 10, clock=clock, rates=store, wall_clock=clock)
    for user in range(7):
        assert await limiter.admit(user) is None  # a sweep that fails changes nothing
    assert store.swept == [990.0, 990.0]


async def test_no_limit_asks_nothing() -> None:
    limiter = RateLimiter(0, 10, rates=Broken())
    assert [await limiter.admit(7) for _ in range(50)] == [None] * 50


def test_the_setting_says_when_the_limit_is_shared(tmp_path: Path) -> None:
    sqlite = tmp_path / "conductor.sqlite3"
    url = "postgresql://bot@localhost/conductor"
    assert not Settings(database=sqlite).rate_limit_shared  # one process on SQLite: in memory only
    assert Settings(database=url).rate_limit_shared
    assert Settings(database=sqlite, shards=Shards(2, (0,))).rate_limit_shared
    assert Settings(database=sqlite, shared_rate_limit="on").rate_limit_shared
    assert not Settings(database=url, shared_rate_limit="off").rate_limit_shared

    def read(value: str) -> Settings:
        return Settings.from_env({"CONDUCTOR_DATABASE": str(sqlite), "CONDUCTOR_SHARED_RATE_LIMIT": value}, None)

    assert read("").shared_rate_limit == "auto"
    assert read(" ON ").rate_limit_shared
    assert not read("off").rate_limit_shared
    with pytest.raises(SettingsError, match="CONDUCTOR_SHARED_RATE_LIMIT must be one of auto, on, off"):
        read("sometimes")
