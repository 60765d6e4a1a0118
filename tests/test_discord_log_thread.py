"""The log thread (`/ttr config log_thread:on`, off by default): a thread under each game's table with a line per
turn, which pings nobody; started once, each turn logged once (a restart included); a channel where the bot may
not start threads is logged once and the game goes on."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
import pytest
from discord_harness import Room, make_room, moderate, reply_text, restart, slash
from discord_play import Player, open_game
from simcord import Env
from test_discord_tournament import play_members, running_table

from bot.table.log_thread import LINE, THREAD

NAMES = ["alice", "bob", "carol"]
LOGGED = re.compile(r"^\*\*(Tickets at the start|Turn \d+):\*\* ")


def thread_starts(env: Env, since: int = 0) -> list[Any]:
    return [r for r in env.http_requests[since:] if r.method == "POST" and r.path.endswith("/threads")]


async def the_thread(room: Room, game_id: int) -> int | None:
    kept = await room.bot.service.front.posted_messages(game_id, THREAD)
    return kept[-1].message_id if kept else None


def lines_in(env: Env, thread_id: int) -> list[str]:
    return [m.content for m in sorted(env.backend.messages.get(thread_id, {}).values(), key=lambda m: m.id)]


async def play_turns(player: Player, turns: int) -> None:
    game = await player.game()
    goal = game.state.turn + turns
    while not game.finished and game.state.turn < goal:
        await player.step(game)
        game = await player.game()


@pytest.mark.parametrize("game_seed", [5])
async def test_a_log_thread_keeps_a_line_per_turn_once_and_pings_nobody(simcord_env: Env) -> None:
    room = Room(simcord_env, *_room_parts(simcord_env))
    mods = await moderate(room)
    said = reply_text(await slash(mods.manager, room, "ttr config", log_thread="on"))
    assert "Log thread: each table keeps a thread with a line per turn (`log_thread` on" in said, said
    assert "not at tournament tables" in said
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    player = Player(room, game_id)
    await play_turns(player, 4)
    thread = await the_thread(room, game_id)
    assert thread is not None and len(thread_starts(simcord_env)) == 1
    lines = lines_in(simcord_env, thread)
    assert lines[0].startswith("**Tickets at the start:**")
    turns = [line for line in lines if line.startswith("**Turn ")]
    game = await player.game()
    assert [int(t.split()[1].rstrip(":*")) for t in turns] == list(range(1, game.state.turn + 1))  # once each
    assert all(LOGGED.match(line) for line in lines)
    sent = [r for r in simcord_env.http_requests if r.method == "POST" and r.path == f"/channels/{thread}/messages"]
    assert len(sent) == len(lines) and all(r.json["allowed_mentions"]["parse"] == [] for r in sent)
    assert all(not r.json["allowed_mentions"].get("users") for r in sent)
    table = await room.bot.service.front.posted_messages(game_id)
    assert {m.kind for m in table if m.kind.startswith(LINE)} >= {f"{LINE}turn:{n}" for n in range(game.state.turn)}

    since = len(simcord_env.http_requests)
    await restart(simcord_env)
    assert lines_in(simcord_env, thread) == lines  # nothing logged again
    await play_turns(player, 2)
    assert thread_starts(simcord_env, since) == [] and await the_thread(room, game_id) == thread
    more = lines_in(simcord_env, thread)
    assert more[: len(lines)] == lines and len(more) == len(lines) + 2 and len(set(more)) == len(more)

    said = reply_text(await slash(mods.manager, room, "ttr config", log_thread="off"))
    assert "Log thread: none (`log_thread` off)" in said, said
    await play_turns(player, 1)
    assert lines_in(simcord_env, thread) == more


@pytest.mark.parametrize("game_seed", [5])
async def test_no_log_thread_by_default(simcord_env: Env) -> None:
    room = Room(simcord_env, *_room_parts(simcord_env))
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    await play_turns(Player(room, game_id), 3)
    assert thread_starts(simcord_env) == [] and await the_thread(room, game_id) is None


@pytest.mark.parametrize("game_seed", [5])
async def test_without_thread_permissions_it_is_logged_once_and_the_game_goes_on(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    no_threads = {"create_public_threads": False}
    room = Room(simcord_env, *_room_parts(simcord_env, no_threads))
    mods = await moderate(room)
    await slash(mods.manager, room, "ttr config", log_thread="on")
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    player = Player(room, game_id)
    with caplog.at_level(logging.WARNING):
        await play_turns(player, 4)
    warned = [r for r in caplog.records if "log thread" in r.getMessage()]
    assert len(warned) == 1 and "goes on without it" in warned[0].getMessage()
    assert not any(r.exc_info for r in warned)
    assert await the_thread(room, game_id) is None
    assert (await player.game()).state.turn >= 4  # the game went on


def _room_parts(env: Env, denied: dict[str, bool] | None = None) -> tuple[Any, Any, list[Any]]:
    guild = env.create_guild()
    overwrites = {} if denied is None else {guild.default_role: discord.PermissionOverwrite(**denied)}
    channel = guild.create_text_channel("games", overwrites=overwrites)
    members = [guild.add_member(env.create_user(name)) for name in NAMES]
    return guild, channel, members


@pytest.mark.parametrize("game_seed", [7])
async def test_a_tournament_table_in_its_thread_keeps_no_log_thread(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Tournament tables are threads, which hold no threads: the setting leaves them alone, without a warning."""
    room = make_room(simcord_env, ["ann", "bob", "cid", "dan"])
    mods = await moderate(room)
    await slash(mods.manager, room, "ttr config", log_thread="on")
    with caplog.at_level(logging.WARNING):
        info = await running_table(room, mods, humans=4)
        since = len(simcord_env.http_requests)
        assert await play_members(room, info, 8) == 8
    [table] = info.rounds[0].tables
    assert table.game_id is not None and table.channel_id is not None
    assert thread_starts(simcord_env, since) == [] and await the_thread(room, table.game_id) is None
    assert not [r for r in caplog.records if "log thread" in r.getMessage()]
