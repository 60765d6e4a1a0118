"""Shared test settings and fixtures: the stores and services, and the Discord tests' bot (`simcord_bot`, which
SimCord's `simcord_env` asks for, with `bot_settings` and `game_seed`, which a module may override)."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from discord_harness import SIM_HEARTBEAT, sim_clock
from helpers.clock_support import FakeTime
from helpers.service_support import open_service
from hypothesis import HealthCheck, settings

import bot.service.core as service_core
from bot import Settings, create_bot
from bot.runtime.app import ConductorBot
from bot.service import GameService
from bot.store import Database, PostgresStore
from tools.pg_server import PgServer, new_database_name

# Property tests play whole games; a per-example deadline would only make them flaky.
settings.register_profile("conductor", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("ci", parent=settings.get_profile("conductor"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "conductor")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database file of its own for each test."""
    return tmp_path / "conductor.sqlite3"


@pytest.fixture
async def service(database: Database) -> AsyncIterator[GameService]:
    """The game service on `database` (either store), closed after the test (its database thread would keep the
    process alive)."""
    opened = await open_service(database)
    yield opened
    await opened.close()


@pytest.fixture
def time() -> FakeTime:
    """Simulated time: it moves only when the test moves it."""
    return FakeTime()


@pytest.fixture
async def timed_service(database: Database, time: FakeTime) -> AsyncIterator[GameService]:
    """The game service on `database` (either store) with the simulated clock `time`, closed after the test."""
    opened = await open_service(database, clock=time)
    yield opened
    await opened.close()


# ----- both stores: every store, service, clock and scheduler test runs on SQLite and on PostgreSQL

BACKENDS = ("sqlite", "postgres")
TEMPLATE = "conductor_template"  # a migrated database each test's own database is copied from


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One throwaway PostgreSQL server for the session (or CONDUCTOR_TEST_PG_URL), with a migrated template."""
    server = PgServer.start()
    try:
        asyncio.run(_make_template(server))
        yield server
    finally:
        server.stop()


async def _make_template(server: PgServer) -> None:
    conn = await asyncpg.connect(server.url("postgres"))
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
        await conn.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await conn.close()
    store = await PostgresStore.open(server.url(TEMPLATE), pool_size=1)
    await store.close()


async def _pg_database(server: PgServer, name: str, drop: bool = False) -> None:
    conn = await asyncpg.connect(server.url("postgres"))
    try:
        if drop:
            await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        else:
            await conn.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
    finally:
        await conn.close()


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """A fresh PostgreSQL database of its own for the test (already migrated), dropped after it."""
    name = new_database_name()
    asyncio.run(_pg_database(pg_server, name))
    yield pg_server.url(name)
    asyncio.run(_pg_database(pg_server, name, drop=True))


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Which store the test runs on; a module overrides this fixture to run on one only."""
    return str(request.param)


@pytest.fixture
def database(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """The test's own database on the `backend`: an SQLite file or a PostgreSQL URL."""
    if backend == "postgres":
        url: str = request.getfixturevalue("pg_url")
        return url
    return tmp_path / "conductor.sqlite3"


# ----- the Discord tests' bot (tests/discord_harness.py) ---------------------------------------------------


@pytest.fixture
def bot_settings(tmp_path: Path) -> Settings:
    # no command rate here: these tests act faster than any member could (tests/test_discord_load.py sets one)
    return Settings(database=tmp_path / "conductor.sqlite3", commands_per_window=0)


@pytest.fixture
def game_seed() -> int | None:
    """Parametrize a test with `game_seed` to make seat orders and deals reproducible."""
    return None


@pytest.fixture
async def simcord_bot(
    bot_settings: Settings, game_seed: int | None, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[ConductorBot]:
    """The bot SimCord runs (the plugin's `simcord_env` fixture asks for it); closed after the test."""
    if game_seed is not None:
        seed = game_seed
        monkeypatch.setattr(service_core.random, "SystemRandom", lambda: random.Random(seed))
    bot = create_bot(bot_settings, clock=sim_clock, heartbeat=SIM_HEARTBEAT)
    yield bot
    await bot.close()
