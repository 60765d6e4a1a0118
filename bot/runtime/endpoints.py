"""What an operator's tools ask the running bot over HTTP, on `CONDUCTOR_METRICS_ADDRESS` (off by default).

- `/metrics`: the bot's metrics in Prometheus' text format (bot/runtime/metrics.py);
- `/healthz`: 200 while the process (its event loop) answers: a service manager restarts it otherwise;
- `/readyz`: 200 when the bot can serve (connected to Discord, or to the try-out's simulated Discord; the
  store answers; the timers' scheduler runs), else 503; the body names each check.

Served by aiohttp (discord.py's own HTTP library) on the bot's event loop: a loop too busy to answer is what
`/healthz` must show. Each read of the store here is bounded in time, so a store that hangs makes the bot
not ready rather than the answer late.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.runtime.metrics import Metrics

log = logging.getLogger(__name__)

CHECK_SECONDS = 2.0  # the most one readiness check (a read of the store) may take
LAG_EVERY_SECONDS = 1.0  # how often the event loop's lag is measured


@dataclass(frozen=True)
class Check:
    """One part of the readiness answer: `name` (discord, store, timers), whether it is fine, and why not."""

    name: str
    ok: bool
    detail: str = ""


Checks = Callable[[], Awaitable[list[Check]]]


async def bounded_check(name: str, probe: Callable[[], Awaitable[object]]) -> Check:
    """`probe()` as a check: fine if it returns within CHECK_SECONDS, else not (with the error's kind)."""
    try:
        await asyncio.wait_for(probe(), CHECK_SECONDS)
    except TimeoutError:
        return Check(name, False, f"no answer within {CHECK_SECONDS:g} s")
    except Exception as exc:  # the store gone, closed, refusing: the bot is not ready (the kind of error says why)
        return Check(name, False, type(exc).__name__)
    return Check(name, True)


class Endpoints:
    """The HTTP server of `/metrics`, `/healthz` and `/readyz` on `host:port` (port 0: any free one)."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        metrics: Metrics,
        checks: Checks,
        refresh: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.host, self.port = host, port
        self.metrics = metrics
        self.checks = checks
        self.refresh = refresh  # brings the gauges read from the store up to date before a scrape
        self._runner: web.AppRunner | None = None
        self._lag: LagWatch | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]  # the port taken, when 0 asked for any
        self._lag = LagWatch(asyncio.get_running_loop(), self.metrics)
        log.info("metrics and health on http://%s:%d (/metrics, /healthz, /readyz)", self.host, self.port)

    async def stop(self) -> None:
        if self._lag is not None:
            self._lag.stop()
            self._lag = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def ready(self) -> tuple[bool, list[Check]]:
        checks = await self.checks()
        ready = all(c.ok for c in checks)
        self.metrics.ready.set(1 if ready else 0)
        return ready, checks

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _readyz(self, request: web.Request) -> web.Response:
        ready, checks = await self.ready()
        lines = [f"{c.name}: {'ok' if c.ok else 'failing'}{f' ({c.detail})' if c.detail else ''}" for c in checks]
        body = "\n".join(["ready" if ready else "not ready", *lines]) + "\n"
        return web.Response(text=body, status=200 if ready else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        await self.ready()
        if self.refresh is not None:
            try:
                await asyncio.wait_for(self.refresh(), CHECK_SECONDS)
            except Exception:  # the store is slow or gone: the gauges keep their last values (and /readyz says why)
                log.debug("could not count the open games for the metrics", exc_info=True)
        body = self.metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


class LagWatch:
    """The event loop's lag: a thread asks the loop to run a callback every LAG_EVERY_SECONDS, and the time until
    it ran (what other work held the loop meanwhile) is observed. A thread and the wall clock, not a timer of
    the loop: the loop's own clock may be simulated (the try-out, the tests)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, metrics: Metrics) -> None:
        self.loop, self.metrics = loop, metrics
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="conductor-loop-lag", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stopped.wait(LAG_EVERY_SECONDS):
            try:
                self.loop.call_soon_threadsafe(self._ran, time.perf_counter())
            except RuntimeError:  # the loop is closed
                return

    def _ran(self, asked: float) -> None:
        self.metrics.loop_lag.observe(time.perf_counter() - asked)

    def stop(self) -> None:
        self._stopped.set()


__all__ = ["Check", "Endpoints", "bounded_check"]
