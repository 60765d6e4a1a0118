"""Shared test settings and fixtures."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from helpers.clock_support import FakeTime
from helpers.service_support import open_service
from hypothesis import HealthCheck, settings

from bot.service import GameService

# Property tests play whole games; a per-example deadline would only make them flaky.
settings.register_profile("conductor", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("ci", parent=settings.get_profile("conductor"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "conductor")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database file of its own for each test."""
    return tmp_path / "conductor.sqlite3"


@pytest.fixture
async def service(db: Path) -> AsyncIterator[GameService]:
    """The game service on `db`, closed after the test (its database thread would keep the process alive)."""
    opened = await open_service(db)
    yield opened
    await opened.close()


@pytest.fixture
def time() -> FakeTime:
    """Simulated time: it moves only when the test moves it."""
    return FakeTime()


@pytest.fixture
async def timed_service(db: Path, time: FakeTime) -> AsyncIterator[GameService]:
    """The game service on `db` with the simulated clock `time`, closed after the test."""
    opened = await open_service(db, clock=time)
    yield opened
    await opened.close()
