"""Running the bot until it is told to stop: SIGTERM (a service manager's stop) or SIGINT (Ctrl-C).

Either signal closes the bot as a deploy expects: its scheduler stops and writes the last heartbeat (so the time
until the next start counts against no one), the endpoints and worker processes stop, the Discord connection
closes, the store commits what was asked of it and closes; then the process exits with status 0.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Protocol

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Startable(Protocol):
    """What `run_until_stopped` needs of the bot (a discord.py client)."""

    async def start(self, token: str) -> None: ...

    async def close(self) -> None: ...

    def is_closed(self) -> bool: ...


async def run_until_stopped(bot: Startable, token: str) -> None:
    """Start the bot and run it until SIGTERM or SIGINT, then close it cleanly (awaited to its end)."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop(signum: signal.Signals) -> None:
        if not closing:
            log.info("%s: stopping", signum.name)
            closing.append(loop.create_task(bot.close(), name="conductor-stop"))

    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop, signum)
    try:
        await bot.start(token)
    finally:
        if closing:
            await closing[0]
        elif not bot.is_closed():
            await bot.close()
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)
