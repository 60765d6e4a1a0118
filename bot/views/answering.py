"""How many interactions the bot is answering now, so that work which can wait (the boards' warm-up at start)
waits for them: a member's click comes first.

`guarded` (replies.py) counts every command and component it runs on the client's `answering`. `quiet` is set
while none runs (a threading.Event: the warm-up's thread waits on it); `idle()` is the same wait on the event loop.
"""

from __future__ import annotations

import asyncio
import threading
from types import TracebackType


class Answering:
    """The interactions being answered now (a count), and waits for none."""

    def __init__(self) -> None:
        self.count = 0
        self.quiet = threading.Event()  # set while no interaction is being answered
        self.quiet.set()
        self._waiters: list[asyncio.Future[None]] = []

    def __enter__(self) -> Answering:
        self.count += 1
        self.quiet.clear()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.count -= 1
        if self.count == 0:
            self.quiet.set()
            waiters, self._waiters = self._waiters, []
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)

    async def idle(self) -> None:
        """Return once no interaction is being answered (at once if none is)."""
        while self.count > 0:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            await waiter
