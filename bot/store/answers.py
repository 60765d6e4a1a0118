"""The answer to a write whose caller may stop waiting for it.

A write runs to its end even when the task that asked for it is cancelled (a
timeout, an interaction Discord gave up on): the caller awaits its answer
through `asyncio.shield`. If nobody awaits it any more and the write fails,
asyncio would log "Future exception was never retrieved" with a traceback
when the answer is thrown away; the failure was the caller's to handle, and
the caller that does await the answer still gets it.
"""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

T = TypeVar("T")


def write_answer() -> asyncio.Future[T]:
    """A future for a write's answer, its failure marked as seen whether or not it is awaited."""
    done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
    done.add_done_callback(_seen)
    return done


def _seen(done: asyncio.Future[Any]) -> None:
    if not done.cancelled():
        done.exception()
