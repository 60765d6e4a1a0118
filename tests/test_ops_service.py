"""Running as a service: CONDUCTOR_METRICS_ADDRESS, Discord's requests counted by route template (never an id or a
token), a clean stop on SIGTERM, and metrics off costing nothing (bot/runtime/)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from multidict import CIMultiDict
from yarl import URL

from bot.runtime.app import create_bot
from bot.runtime.lifecycle import run_until_stopped
from bot.runtime.metrics import Metrics, route_template
from bot.runtime.settings import Settings, SettingsError
from bot.service.observer import QUIET
from bot.store.observer import observed

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("127.0.0.1:9464", ("127.0.0.1", 9464)),
        ("0.0.0.0:9100", ("0.0.0.0", 9100)),
        ("[::1]:9464", ("::1", 9464)),
        ("9464", ("127.0.0.1", 9464)),  # a port alone: the loopback address
        (":9464", ("127.0.0.1", 9464)),
        ("", None),
    ],
)
def test_the_metrics_address(text: str, address: tuple[str, int] | None) -> None:
    assert Settings.from_env({"CONDUCTOR_METRICS_ADDRESS": text}, env_file=None).metrics_address == address


@pytest.mark.parametrize("text", ["localhost", "host:", "1.2.3.4:70000", ":x", "a:b:c"])
def test_a_wrong_metrics_address_is_refused(text: str) -> None:
    with pytest.raises(SettingsError, match="CONDUCTOR_METRICS_ADDRESS"):
        Settings.from_env({"CONDUCTOR_METRICS_ADDRESS": text}, env_file=None)


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/api/v10/channels/1456074452369408003/messages", "/channels/{id}/messages"),
        ("/api/v10/channels/1/messages/2", "/channels/{id}/messages/{id}"),
        (
            "/api/v10/interactions/145607/aW50ZXJhY3Rpb246MTQ1NjA3OkxXbFVa/callback",
            "/interactions/{id}/{token}/callback",
        ),
        ("/api/v10/webhooks/99/tOkEn-abc_DEF/messages/@original", "/webhooks/{id}/{token}/messages/@original"),
        (
            "/api/v10/channels/5/messages/6/reactions/%F0%9F%91%8D/@me",
            "/channels/{id}/messages/{id}/reactions/{param}/@me",
        ),
        ("/api/v10/applications/1/guilds/2/commands", "/applications/{id}/guilds/{id}/commands"),
        ("/api/v10/users/@me/channels", "/users/@me/channels"),
        ("/api/v10/guilds/1/members/Alice", "/guilds/{id}/members/{param}"),
    ],
)
def test_a_route_is_its_template(path: str, template: str) -> None:
    assert route_template(path) == template


def _params(method: str, url: str, status: int | None = None) -> SimpleNamespace:
    response = None if status is None else SimpleNamespace(status=status)
    return SimpleNamespace(method=method, url=URL(url), headers=CIMultiDict(), response=response)


async def test_discord_answers_429s_and_retries_are_counted() -> None:
    metrics = Metrics()
    url = "https://discord.com/api/v10/channels/123456789/messages"
    ctx = SimpleNamespace()
    for status in (429, 200):  # rate limited, then sent again and answered
        await metrics._request_start(None, ctx, _params("POST", url))
        await metrics._request_end(None, ctx, _params("POST", url, status))
    await metrics._request_start(None, ctx, _params("GET", url))
    await metrics._request_end(None, ctx, _params("GET", url, 403))
    text = metrics.exposition().decode()
    route = 'route="/channels/{id}/messages"'
    assert f'conductor_discord_requests_total{{method="POST",{route},shards="all",status="429"}} 1.0' in text
    assert f'conductor_discord_requests_total{{method="POST",{route},shards="all",status="200"}} 1.0' in text
    assert f'conductor_discord_rate_limited_total{{method="POST",{route},shards="all"}} 1.0' in text
    assert f'conductor_discord_retries_total{{method="POST",{route},shards="all"}} 1.0' in text
    assert f'conductor_discord_retries_total{{method="GET",{route},shards="all"}}' not in text  # a 403 is not retried
    assert "123456789" not in text


def test_metrics_off_measure_nothing() -> None:
    bot = create_bot(Settings(database=":memory:"))
    assert bot.metrics is None and bot.observer is QUIET
    assert bot.http.http_trace is None  # discord.py's HTTP session is not traced


async def test_a_quiet_store_write_is_not_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.store.observer as store_observer

    def no_clock() -> float:
        raise AssertionError("timed although nobody listens")

    monkeypatch.setattr(store_observer.time, "perf_counter", no_clock)

    async def answer() -> int:
        return 3

    assert await observed(QUIET, answer()) == 3  # the service's quiet observer, which the bot gives the store
    assert await observed(store_observer.QUIET, answer()) == 3


class FakeBot:
    """A bot that runs until it is closed, and notes that its close ran to the end."""

    def __init__(self) -> None:
        self.closed = asyncio.Event()
        self.finished_closing = False

    async def start(self, token: str) -> None:
        await self.closed.wait()

    async def close(self) -> None:
        self.closed.set()
        await asyncio.sleep(0.05)  # the heartbeat written, the store closed ...
        self.finished_closing = True

    def is_closed(self) -> bool:
        return self.closed.is_set()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
async def test_sigterm_stops_the_bot_cleanly(signum: signal.Signals) -> None:
    bot = FakeBot()
    loop = asyncio.get_running_loop()
    loop.call_later(0.1, os.kill, os.getpid(), signum)
    await asyncio.wait_for(run_until_stopped(bot, "token"), 10)
    assert bot.finished_closing  # the close ran to its end before the run returned


def test_live_games_count_only_this_process_shards() -> None:
    from bot.store import OpenGame, Shards
    from bot.store.status import GameStatus

    metrics = Metrics(Shards(2, (1,)))
    ours, theirs = 1 << 22, 2 << 22  # servers of shard 1 and shard 0
    metrics.count_open_games(
        [
            OpenGame("usa", GameStatus.PLAYING, ours, 3),
            OpenGame("usa", GameStatus.LOBBY, ours, 1),
            OpenGame("india", GameStatus.PLAYING, theirs, 4),
            OpenGame("nowhere", GameStatus.PLAYING, ours, 2),  # a map no longer known: counted as `other`
        ]
    )
    text = metrics.exposition().decode()
    assert 'conductor_live_games{map="usa",shards="1",status="playing"} 1.0' in text
    assert 'conductor_live_games{map="usa",shards="1",status="lobby"} 1.0' in text
    assert 'conductor_live_games{map="india",shards="1",status="playing"} 0.0' in text
    assert 'conductor_live_seats{map="usa",shards="1"} 4.0' in text
    assert 'conductor_live_games{map="other",shards="1",status="playing"} 1.0' in text
    assert "nowhere" not in text


def test_the_try_out_refuses_a_wrong_metrics_address(tmp_path: Path) -> None:
    env = {**os.environ, "CONDUCTOR_METRICS_ADDRESS": "somewhere", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "try", "--data", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "CONDUCTOR_METRICS_ADDRESS must be HOST:PORT" in done.stderr and "Traceback" not in done.stderr
