"""Shards below Discord: the settings, which timers and heartbeats a shard's process sees (both stores), a
timer fired once by two processes at once, the open-game limits across processes, and who syncs the commands."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers.clock_support import HOUR, FakeTime, RecordingNotifier, new_game
from helpers.clock_support import open_service as open_timed
from simcord import Env

from bot import Settings
from bot.runtime.app import ConductorBot, ShardedConductorBot
from bot.runtime.scheduler import Scheduler
from bot.runtime.settings import SettingsError
from bot.service import GameService
from bot.service.clock import ClockSettings
from bot.service.errors import WrongState
from bot.service.settings import MEMBER_OPEN_GAMES, SERVER_OPEN_GAMES
from bot.store import Database, NewGame, Shards, open_store
from bot.store.shards import UNSHARDED_KEY

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def guild_on(shard: int, count: int = 2, n: int = 1) -> int:
    """A server id that Discord's formula puts on `shard`."""
    return ((n * count + shard) << 22) | 12345


# ----- settings


def test_shard_settings_are_read_and_checked() -> None:
    assert Settings.from_env({}, None).shards is None
    assert Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, None).shards == Shards(2, (1,))
    assert Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": " 0, 3 "}, None).shards == Shards(4, (0, 3))
    assert Settings.from_env({"SHARD_COUNT": "3"}, None).shards == Shards(3, (0, 1, 2))
    bad = {
        "SHARD_IDS=2 of 2": ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "shard 2 does not exist"),
        "a repeat": ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "twice"),
        "ids without a count": ({"SHARD_IDS": "0"}, "SHARD_COUNT is not"),
        "count 0": ({"SHARD_COUNT": "0"}, "positive whole number"),
        "a negative id": ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, "separated by commas"),
        "not a number": ({"SHARD_COUNT": "two"}, "positive whole number"),
    }
    for name, (values, words) in bad.items():
        with pytest.raises(SettingsError, match=words):
            Settings.from_env(values, None)
        assert name


def test_a_startup_with_bad_shards_exits_2_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.commands.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "0,5")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "SHARD_IDS: shard 5 does not exist with SHARD_COUNT=2" in err and "Traceback" not in err


def test_shards_know_their_servers() -> None:
    one = Shards(2, (1,))
    assert one.owns(guild_on(1)) and not one.owns(guild_on(0))
    assert not one.first and Shards(2, (0,)).first
    assert [s.heartbeat_key for s in Shards(2, (0, 1)).each()] == [2000, 2001]
    with pytest.raises(ValueError):
        Shards(2, (0, 0))
    with pytest.raises(ValueError):
        Shards(2, (2,))


# ----- the store (both backends): timers and heartbeats per shard


async def test_a_shard_sees_the_timers_of_its_own_servers_games(database: Database) -> None:
    store = await open_store(database)
    try:
        games = {}
        for shard in (0, 1):
            row = await store.games.create_game(NewGame(guild_on(shard), 900 + shard, 1, "host", "usa"))
            games[shard] = row.id
        t0 = await store.timers.add_timer(games[0], "reminder", T0)
        t1 = await store.timers.add_timer(games[1], "reminder", T0 - timedelta(minutes=1))
        orphan = await store.timers.add_timer(None, "reminder", T0 + timedelta(minutes=1))
        now = T0 + timedelta(hours=1)
        zero, one = Shards(2, (0,)), Shards(2, (1,))
        assert [t.id for t in await store.timers.due_timers(now, zero)] == [t0.id, orphan.id]  # shard 0: no game's too
        assert [t.id for t in await store.timers.due_timers(now, one)] == [t1.id]
        assert [t.id for t in await store.timers.due_timers(now)] == [t1.id, t0.id, orphan.id]  # unsharded: all
        assert [t.id for t in await store.timers.due_timers(now, Shards(2, (0, 1)))] == [t1.id, t0.id, orphan.id]
        assert (await store.timers.next_timer(zero)) == t0
        assert (await store.timers.next_timer(one)) == t1
        assert (await store.timers.next_timer()) == t1
        assert await store.timers.due_timers(T0 - timedelta(hours=1), zero) == []
    finally:
        await store.close()


async def test_each_shard_keeps_its_own_heartbeat(database: Database) -> None:
    store = await open_store(database)
    try:
        assert await store.settings.alive_at(2001) is None
        await store.settings.set_alive_at(T0)  # the unsharded bot, before the move to shards
        assert await store.settings.alive_at(2000) == T0  # a shard without a heartbeat of its own: the newest of any
        await store.settings.set_alive_at(T0 + timedelta(hours=1), 2000)
        await store.settings.set_alive_at(T0 + timedelta(hours=2), 2001)
        assert await store.settings.alive_at(2000) == T0 + timedelta(hours=1)
        assert await store.settings.alive_at(2001) == T0 + timedelta(hours=2)
        assert await store.settings.alive_at(UNSHARDED_KEY) == T0
    finally:
        await store.close()


async def test_a_shard_forgives_its_own_outage_only(database: Database) -> None:
    time = FakeTime(T0)
    service = await open_timed(database, time)
    try:
        game_id, _ = await new_game(service, ClockSettings(turn_seconds=HOUR, reserve_seconds=0))
        guild = (await service.core.game(game_id)).guild_id
        mine = Shards(2, ((guild >> 22) % 2,))
        other = Shards(2, (1 - mine.ids[0],))
        assert await service.timers.forgive_outage(T0 + timedelta(hours=3), T0, other) == []
        moved = await service.timers.forgive_outage(T0 + timedelta(hours=3), T0, mine)
        assert [r.game.id for r in moved] == [game_id]
    finally:
        await service.close()


# ----- PostgreSQL: two processes (two services, each its own connection pool) on one database


async def test_two_processes_fire_a_due_timer_once(pg_url: str) -> None:
    database = pg_url
    time = FakeTime(T0)
    first = await open_timed(database, time)
    second = await open_timed(database, time, seed=1)
    try:
        clock = ClockSettings(turn_seconds=HOUR, reserve_seconds=0, policy="wait", reminders=())
        game_id, _ = await new_game(first, clock)
        time.advance(2 * HOUR)
        notes = RecordingNotifier(), RecordingNotifier()
        runners = [Scheduler(s, n, sleep=time.sleep) for s, n in zip((first, second), notes, strict=True)]
        for _ in range(5):  # both at once, again and again: whatever is due is taken by one of them
            await asyncio.gather(*(r.run_due() for r in runners))
        timeouts = [e for e in await first.store.history.audit_log(game_id) if e.action == "timeout"]
        seats = len((await first.reading.engine_game(game_id)).waiting_for())
        assert len(timeouts) == seats == 2  # setup: both seats wait and time out, once each
        announced = [r for n in notes for r in n.announced]
        assert len(announced) == seats
    finally:
        await first.close()
        await second.close()


async def test_the_open_game_limits_hold_across_processes(pg_url: str) -> None:
    database = pg_url
    services = [await GameService.open(database, rng=random.Random(k)) for k in range(2)]
    try:
        guild = guild_on(0)
        await services[0].settings.set_guild_config(guild, SERVER_OPEN_GAMES, 3)
        await services[0].settings.set_guild_config(guild, MEMBER_OPEN_GAMES, 10)

        async def open_one(k: int) -> bool:
            try:
                await services[k % 2].lobby.create_game(guild, 7000 + k, 500 + k, f"host{k}", "usa")
            except WrongState:
                return False
            return True

        opened = await asyncio.gather(*(open_one(k) for k in range(10)))
        assert sum(opened) == 3
        await services[0].settings.set_guild_config(guild, MEMBER_OPEN_GAMES, 1)
        await services[0].settings.set_guild_config(guild, SERVER_OPEN_GAMES, 50)
        hosted = await asyncio.gather(
            *(services[k % 2].lobby.create_game(guild, 8000 + k, 999, "host", "usa") for k in range(6)),
            return_exceptions=True,
        )
        assert sum(1 for h in hosted if not isinstance(h, BaseException)) == 1
        assert all(isinstance(h, WrongState) for h in hosted if isinstance(h, BaseException))
    finally:
        for service in services:
            await service.close()


# ----- Discord: only the process running shard 0 syncs the commands


@pytest.mark.parametrize("shard", [0, 1])
async def test_only_shard_0_syncs_the_commands(tmp_path: Path, shard: int) -> None:
    from discord_harness import SIM_HEARTBEAT, sim_clock

    from bot import create_bot

    settings = Settings(database=tmp_path / "db.sqlite3", commands_per_window=0, shards=Shards(2, (shard,)))
    bot = create_bot(settings, clock=sim_clock, heartbeat=SIM_HEARTBEAT)
    assert isinstance(bot, ShardedConductorBot) and isinstance(bot, ConductorBot)
    env = Env(bot, strict_sync=False)
    await env.start()
    try:
        assert bot.shard_count == 2 and bot.shard_ids == [shard]
        syncs = [r for r in env.http_requests if r.method == "PUT" and "/commands" in r.path]
        assert len(syncs) == (1 if shard == 0 else 0)
    finally:
        await env.shutdown()
        await bot.close()
