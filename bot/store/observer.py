"""Who hears how the store's writes go: their time and failures, and how many writes shared a commit.

The store tells `Backend.observer` (bot/store/parts/base.py); by default nobody listens (these methods do
nothing). The running bot's metrics (bot/runtime/metrics.py) listen when the operator turned them on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


class StoreObserver:
    """Does nothing; a listener overrides what it wants to hear of (and sets `listening`). Called on the event loop."""

    listening = False  # False: nothing is measured for it (a quiet observer costs a write no clock reading)

    def store_write(self, seconds: float, *, failed: bool) -> None:
        """A write was answered `seconds` after it was asked for (committed, or `failed`)."""

    def store_group(self, size: int) -> None:
        """A group commit took `size` writes in one transaction."""


QUIET = StoreObserver()


async def observed(observer: StoreObserver, answer: Awaitable[T]) -> T:
    """`await answer` (a write's), its time and failure told to `observer`; nothing measured when nobody listens."""
    if not observer.listening:
        return await answer
    started = time.perf_counter()
    try:
        value = await answer
    except asyncio.CancelledError:  # the caller went away: the write itself goes on, and is not a failure
        raise
    except BaseException:
        observer.store_write(time.perf_counter() - started, failed=True)
        raise
    observer.store_write(time.perf_counter() - started, failed=False)
    return value
