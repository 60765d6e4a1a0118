"""The operator's endpoints (bot/runtime/endpoints.py): `/metrics` scraped while a game is played through SimCord,
on both stores, moves as the game did; `/healthz` answers; `/readyz` turns to 503 when the store goes away."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import aiohttp
import pytest
from discord_harness import close_dms, make_room, slash, turn_dms
from discord_play import Player, open_game
from prometheus_client.parser import text_string_to_metric_families
from simcord import Env

from bot.runtime.app import ConductorBot
from bot.runtime.settings import Settings
from bot.store import Database

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
def bot_settings(database: Database) -> Settings:
    """The tests' bot on either store, its endpoints on a free loopback port."""
    return Settings(database=database, commands_per_window=0, metrics_address=("127.0.0.1", 0))


async def get(bot: ConductorBot, path: str) -> tuple[int, str, str]:
    """Status, content type and body of GET `path` on the bot's endpoints."""
    assert bot.endpoints is not None
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{bot.endpoints.port}{path}", timeout=aiohttp.ClientTimeout(10)) as answer,
    ):
        return answer.status, answer.headers.get("Content-Type", ""), await answer.text()


async def scrape(bot: ConductorBot) -> Samples:
    status, kind, text = await get(bot, "/metrics")
    assert status == 200 and kind.startswith("text/plain"), (status, kind)
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of the samples named `name` whose labels include `labels`."""
    wanted = set(labels.items())
    return sum(v for (n, found), v in samples.items() if n == name and wanted <= found)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return total(after, name, **labels) - total(before, name, **labels)


def label_values(samples: Samples, label: str) -> set[str]:
    return {dict(found)[label] for (_, found) in samples if label in dict(found)}


async def test_metrics_move_as_a_game_is_played(simcord_env: Env, database: Database) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    bot = room.bot
    before = await scrape(bot)
    assert total(before, "conductor_live_games") == 0
    assert label_values(before, "shards") == {"all"}  # every series names the process's shards

    await turn_dms(room, room.members[1])  # bob chose a DM on every turn (the table's notice is the default)
    close_dms(simcord_env, room.members[1])  # bob's direct messages are closed: the bot finds out when it writes
    game_id, _ = await open_game(room, "usa", 2, trains=7)
    during = await scrape(bot)
    assert total(during, "conductor_live_games", map="usa") == 1
    assert total(during, "conductor_live_seats", map="usa") == 2
    assert total(during, "conductor_live_games", map="india") == 0
    refused = await slash(room.members[1], room, "ttr start")  # the game has started already: refused
    assert refused.response is not None
    game = await Player(room, game_id).play()
    assert game.finished

    after = await scrape(bot)
    moves = len(game.moves)
    # every command and click was answered and counted by its kind and outcome
    assert moved(before, after, "conductor_actions_total", outcome="done") >= moves
    assert moved(before, after, "conductor_actions_total", kind="ttr new", outcome="done") == 1
    assert moved(before, after, "conductor_actions_total", kind="ttr start", outcome="refused") == 1
    assert moved(before, after, "conductor_answer_seconds_count") == moved(before, after, "conductor_actions_total")
    # a table posted for each turn, most of them after a click; the board drawn for them
    assert moved(before, after, "conductor_table_posted_seconds_count") >= game.state.turn - 1
    assert moved(before, after, "conductor_image_draw_seconds_count") >= game.state.turn
    # the store wrote every move, in group commits of at least one write each
    assert moved(before, after, "conductor_store_write_seconds_count") >= moves
    assert moved(before, after, "conductor_store_group_commit_writes_count") >= 1
    assert moved(before, after, "conductor_store_write_failures_total") == 0
    assert moved(before, after, "conductor_dms_refused_total") == 1
    assert total(after, "conductor_live_games") == 0  # the game is over
    assert total(after, "conductor_ready") == 1
    assert total(after, "process_resident_memory_bytes") > 0
    # label values are names from fixed sets, never an id
    ids = {str(room.guild.id), str(room.channel.id), *(str(m.id) for m in room.members)}
    values = {v for (_, found) in after for _, v in found}
    assert not any(i in v for i in ids for v in values) and str(game_id) not in values, values


async def test_timers_and_the_autopilot_are_measured(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    bot = room.bot
    await open_game(room, "usa", 2, trains=7, turn_time="1h", reserve="none", timeout_policy="autopilot")
    before = await scrape(bot)
    for _ in range(4):  # deadlines pass: the autopilot plays for whoever is late
        await simcord_env.advance_time(31 * 60)
    after = await scrape(bot)
    assert moved(before, after, "conductor_timers_due_total") >= 1
    assert moved(before, after, "conductor_timers_fired_total", outcome="done") >= 1
    assert moved(before, after, "conductor_timer_lateness_seconds_count") >= 1
    assert moved(before, after, "conductor_autopilot_decision_seconds_count") >= 1


async def test_health_and_readiness_flip_when_the_store_goes_away(simcord_env: Env) -> None:
    bot = make_room(simcord_env, ["alice"]).bot
    assert (await get(bot, "/healthz"))[0] == 200
    status, _, body = await get(bot, "/readyz")
    assert status == 200, body
    assert body.splitlines() == ["ready", "discord: ok", "store: ok", "timers: ok"]

    gateway = bot.ws
    bot.ws = SimpleNamespace(open=False)  # Discord's connection lost (discord.py reconnects meanwhile)
    status, _, body = await get(bot, "/readyz")
    bot.ws = gateway
    assert status == 503 and "discord: failing (not connected)" in body, body
    assert (await get(bot, "/readyz"))[0] == 200

    await bot.service.store.close()  # the database is gone (closed under the bot)
    status, _, body = await get(bot, "/readyz")
    assert status == 503
    assert body.splitlines()[0] == "not ready" and "store: failing" in body, body
    assert "discord: ok" in body and "timers: ok" in body
    assert (await get(bot, "/healthz"))[0] == 200  # alive all the same: a restart would not bring the store back
    samples = await scrape(bot)
    assert total(samples, "conductor_ready") == 0


def test_metrics_are_off_by_default(tmp_path: object) -> None:
    settings = Settings.from_env({}, env_file=None)
    assert settings.metrics_address is None and settings.log_format == "text"


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_taken_port_leaves_the_bot_running_without_endpoints(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    bot = make_room(simcord_env, ["alice"]).bot
    assert bot.endpoints is not None
    taken = Settings(database=bot.settings.database, metrics_address=("127.0.0.1", bot.endpoints.port))
    second = ConductorBot(taken)
    second._service = bot.service  # the same service: only the endpoints are started
    with caplog.at_level(logging.ERROR, logger="bot.runtime.app"):
        await second._serve_endpoints()
    assert second.endpoints is None
    assert "cannot serve the metrics on 127.0.0.1 port" in caplog.text
