"""The bot's metrics in Prometheus' format (`prometheus_client`), for an operator's dashboards and alerts.

Off unless `CONDUCTOR_METRICS_ADDRESS` is set: then the bot makes one `Metrics`, gives it to the game service
and the store as their observer (bot/service/observer.py) and serves it with the health answers
(bot/runtime/endpoints.py). Every series carries the process's shards (`shards="0,1"`; `all` for an unsharded
bot). Label values come from short fixed sets (an action's name, a map, a level, a Discord route template):
never a member, channel or server id. docs/operations.md says what each family means.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Iterator
from types import SimpleNamespace
from typing import Any

import aiohttp
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Metric,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.exposition import generate_latest

from bot.service.kinds import TimerKind
from bot.service.observer import FAILED, Observer, click_started
from bot.store import ACTIVE, OpenGame, Shards
from engine.autopilot import Level
from maps import MAP_NAMES

PREFIX = "conductor"
# seconds: a click's answer and the table shown (an image is drawn on the way) run from milliseconds to seconds
ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
SHORT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
DRAW_BUCKETS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.5, 3.0, 6.0)
DECISION_BUCKETS = (0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
LATE_BUCKETS = (0.5, 1.0, 5.0, 15.0, 30.0, 60.0, 300.0, 900.0, 3600.0)
GROUP_BUCKETS = (1, 2, 4, 8, 16, 32, 64)
TIMER_KINDS = frozenset(k.value for k in TimerKind)
LEVELS = frozenset(level.value for level in Level)
IMAGE_KINDS = frozenset({"board", "hand", "stage", "replay"})  # the first part of each render's key (bot/service/)
# the statuses discord.py sends a request again after (besides 429)
RETRIED_STATUSES = frozenset({500, 502, 504, 524})
SENT_AGAIN_KEPT = 256  # requests remembered as possibly sent again (the oldest forgotten first)
WORD = re.compile(r"[a-z][a-z_-]*")  # a route's fixed part (channels, messages, callback, ...)


def bounded(value: str, allowed: Iterable[str], other: str = "other") -> str:
    """`value` if it is one of `allowed`, else `other`: a label never takes a value from outside a fixed set."""
    return value if value in allowed else other


def shard_label(shards: Shards | None) -> str:
    return "all" if shards is None else ",".join(str(s) for s in shards.ids)


class WithShards:
    """The registry's families, each sample labelled with this process's shards (what `/metrics` serves)."""

    def __init__(self, registry: CollectorRegistry, shards: str) -> None:
        self.registry = registry
        self.shards = shards

    def collect(self) -> Iterator[Metric]:
        for family in self.registry.collect():
            labelled = Metric(family.name, family.documentation, family.type, family.unit)
            labelled.samples = [s._replace(labels={"shards": self.shards, **s.labels}) for s in family.samples]
            yield labelled


class Metrics(Observer):
    """Every family of the bot's metrics, in a registry of its own; the service's and store's observer."""

    listening = True

    def __init__(self, shards: Shards | None = None) -> None:
        # no `_created` series beside each counter and histogram (half the lines, of no use to the alerts)
        disable_created_metrics()  # type: ignore[no-untyped-call]
        self.registry = registry = CollectorRegistry(auto_describe=True)
        self.exposed = WithShards(registry, shard_label(shards))
        self.shards = shards

        def counter(name: str, text: str, labels: tuple[str, ...] = ()) -> Counter:
            return Counter(f"{PREFIX}_{name}", text, labels, registry=registry)

        def histogram(name: str, text: str, buckets: Iterable[float], labels: tuple[str, ...] = ()) -> Histogram:
            return Histogram(f"{PREFIX}_{name}", text, labels, registry=registry, buckets=tuple(buckets))

        def gauge(name: str, text: str, labels: tuple[str, ...] = ()) -> Gauge:
            return Gauge(f"{PREFIX}_{name}", text, labels, registry=registry)

        self.live_games = gauge("live_games", "Games not over yet, by map and status", ("map", "status"))
        self.live_seats = gauge("live_seats", "Seats in games not over yet, by map", ("map",))
        self.actions = counter("actions_total", "Members' commands and clicks answered", ("kind", "outcome"))
        self.answer_seconds = histogram(
            "answer_seconds", "From a command or click reaching the bot to its answer", ANSWER_BUCKETS, ("outcome",)
        )
        # the name is older than the live table (edited in place): kept, for the operators' dashboards and alerts
        self.table_seconds = histogram(
            "table_posted_seconds",
            "From a click reaching the bot to the game's table shown anew (posted or edited)",
            ANSWER_BUCKETS,
        )
        self.draw_seconds = histogram("image_draw_seconds", "Images drawn and their time", DRAW_BUCKETS, ("kind",))
        self.write_seconds = histogram("store_write_seconds", "Store writes and their time", SHORT_BUCKETS)
        self.write_failures = counter("store_write_failures_total", "Store writes that failed")
        self.group_size = histogram("store_group_commit_writes", "Writes per group commit", GROUP_BUCKETS)
        self.due = counter("timers_due_total", "Timers found due by the scheduler")
        self.timers_fired = counter("timers_fired_total", "Timers handled", ("kind", "outcome"))
        self.timer_late = histogram(
            "timer_lateness_seconds", "How long after its deadline a timer was handled", LATE_BUCKETS, ("kind",)
        )
        self.decisions = histogram(
            "autopilot_decision_seconds", "Autopilot decisions and their time, by level", DECISION_BUCKETS, ("level",)
        )
        self.discord_requests = counter(
            "discord_requests_total",
            "Discord API responses, by route template and status",
            ("method", "route", "status"),
        )
        self.discord_429 = counter(
            "discord_rate_limited_total", "Discord API answers 429 (rate limited)", ("method", "route")
        )
        self.discord_retries = counter(
            "discord_retries_total",
            "Discord API requests sent again (after a 429, a 5xx or a lost connection)",
            ("method", "route"),
        )
        self.dms_refused = counter("dms_refused_total", "Members found to refuse the bot's direct messages")
        self.loop_lag = histogram(
            "event_loop_lag_seconds",
            "How long the event loop took to run a callback asked of it (its lag)",
            SHORT_BUCKETS,
        )
        # requests answered so that discord.py may send them again: a start of the same one is a retry
        self._sent_again: dict[tuple[str, str], None] = {}
        self._other_seen = False  # a game of a map the bot no longer knows was counted
        self.ready = gauge("ready", "1 when the bot is ready (Discord connected, the store answers, timers run)")
        ProcessCollector(registry=registry)  # process_resident_memory_bytes, process_cpu_seconds_total, ...

    # ----- what /metrics serves

    def exposition(self) -> bytes:
        return generate_latest(self.exposed)

    def count_open_games(self, found: Iterable[OpenGame]) -> None:
        """Set the live games and seats from the store's open games (of this process's shards only)."""
        games: dict[tuple[str, str], int] = {}
        seats: dict[str, int] = {}
        for game in found:
            if self.shards is not None and not self.shards.owns(game.guild_id):
                continue
            map_name = bounded(game.map, MAP_NAMES)
            games[map_name, game.status.value] = games.get((map_name, game.status.value), 0) + 1
            seats[map_name] = seats.get(map_name, 0) + game.seats
        for map_name in (*MAP_NAMES, *(("other",) if "other" in seats or self._other_seen else ())):
            self._other_seen |= map_name == "other"  # once shown, kept (at 0) rather than gone from the scrape
            for status in sorted(s.value for s in ACTIVE):
                self.live_games.labels(map_name, status).set(games.get((map_name, status), 0))
            self.live_seats.labels(map_name).set(seats.get(map_name, 0))

    # ----- the observer's calls (bot/service/observer.py, bot/store/observer.py)

    def acted(self, kind: str, outcome: str, seconds: float) -> None:
        self.actions.labels(kind, outcome).inc()
        self.answer_seconds.labels(outcome).observe(seconds)

    def table_shown(self) -> None:
        started = click_started.get()
        if started is not None:
            self.table_seconds.observe(time.perf_counter() - started)

    def drawn(self, kind: str, seconds: float) -> None:
        self.draw_seconds.labels(bounded(kind, IMAGE_KINDS)).observe(seconds)

    def decided(self, level: str, seconds: float) -> None:
        self.decisions.labels(bounded(level, LEVELS)).observe(seconds)

    def dm_refused(self) -> None:
        self.dms_refused.inc()

    def timers_due(self, count: int) -> None:
        self.due.inc(count)

    def timer_fired(self, kind: str, late_seconds: float, *, failed: bool) -> None:
        kind = bounded(kind, TIMER_KINDS)
        self.timers_fired.labels(kind, FAILED if failed else "done").inc()
        if not failed:
            self.timer_late.labels(kind).observe(max(0.0, late_seconds))

    def store_write(self, seconds: float, *, failed: bool) -> None:
        self.write_seconds.observe(seconds)
        if failed:
            self.write_failures.inc()

    def store_group(self, size: int) -> None:
        self.group_size.observe(size)

    # ----- Discord's API, seen by aiohttp (every request of discord.py, interaction answers too)

    def trace(self) -> aiohttp.TraceConfig:
        """The trace of the bot's HTTP session (`http_trace`): each Discord API answer, by route template."""
        config = aiohttp.TraceConfig()
        config.on_request_start.append(self._request_start)
        config.on_request_end.append(self._request_end)
        config.on_request_exception.append(self._request_failed)
        return config

    async def _request_start(self, session: Any, context: SimpleNamespace, params: Any) -> None:
        method, route = params.method, route_template(params.url.path)
        if self._sent_again.pop((method, str(params.url)), False) is None:
            self.discord_retries.labels(method, route).inc()

    async def _request_end(self, session: Any, context: SimpleNamespace, params: Any) -> None:
        method, route, status = params.method, route_template(params.url.path), params.response.status
        self.discord_requests.labels(method, route, str(status)).inc()
        if status == 429:
            self.discord_429.labels(method, route).inc()
        if status == 429 or status in RETRIED_STATUSES:  # discord.py may send it again: the next start says so
            self._may_send_again(method, str(params.url))

    def _may_send_again(self, method: str, url: str) -> None:
        self._sent_again[method, url] = None
        while len(self._sent_again) > SENT_AGAIN_KEPT:
            del self._sent_again[next(iter(self._sent_again))]

    async def _request_failed(self, session: Any, context: SimpleNamespace, params: Any) -> None:
        method, route = params.method, route_template(params.url.path)
        self.discord_requests.labels(method, route, "error").inc()
        self._may_send_again(method, str(params.url))


def route_template(path: str) -> str:
    """A Discord API path as its route template: ids, tokens and names become placeholders.

    `/api/v10/channels/123/messages/456` -> `/channels/{id}/messages/{id}`;
    `/api/v10/interactions/123/aW50ZXJ.../callback` -> `/interactions/{id}/{token}/callback`. Only lowercase
    words (and `@me`, `@original`) are kept as they are, so the label never holds an id, a token or a name.
    """
    parts = path.strip("/").split("/")
    if len(parts) >= 2 and parts[0] == "api" and parts[1].startswith("v"):
        parts = parts[2:]
    out: list[str] = []
    for part in parts:
        if part.isdigit():
            out.append("{id}")
        elif len(out) >= 2 and out[-1] == "{id}" and out[-2] in ("interactions", "webhooks"):
            out.append("{token}")
        elif part in ("@me", "@original") or (len(part) <= 32 and WORD.fullmatch(part)):
            out.append(part)
        else:
            out.append("{param}")
    return "/" + "/".join(out)


__all__ = ["Metrics", "bounded", "route_template", "shard_label"]
