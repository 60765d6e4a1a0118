"""The table's speed (issue 59): the talk after the table counted from the gateway's events (the channel's history
read once after a start, not at every edit), the board image drawn once a version and ahead of the edit, and the
pending edits of one table coalesced (only the newest stage is sent), so that many games in one channel stay
within Discord's edit rate limits.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from discord_harness import Room, make_room, restart
from discord_play import Player, open_game
from simcord import Env
from test_discord_table_restart import NAMES, play_turns, requests, table_rows, with_buttons

import bot.service.stages as stages_module
from bot.table.ahead import DrawAhead
from bot.table.live_table import LiveTable
from engine.autopilot import choose_move


def history_reads(env: Env, room: Room, since: int = 0) -> int:
    """The bot's reads of the room channel's history (GET of its messages), from request number `since` on."""
    path = f"/channels/{room.channel.id}/messages"
    return len([r for r in env.http_requests[since:] if r.method == "GET" and r.path == path])


@pytest.mark.parametrize("game_seed", [5])
async def test_the_talk_after_the_table_is_counted_from_events_and_read_once_after_a_restart(
    simcord_env: Env,
) -> None:
    room = make_room(simcord_env, NAMES)
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    player = Player(room, game_id)
    since = len(simcord_env.http_requests)
    await play_turns(player, 3)
    table, _ = await table_rows(player)
    assert history_reads(simcord_env, room, since) == 0  # every edit counted the talk from the gateway's events
    await restart(simcord_env)
    since = len(simcord_env.http_requests)
    await play_turns(player, 3)
    assert history_reads(simcord_env, room, since) == 1  # unknown after the start: read once
    assert (await table_rows(player))[0] == table
    member = room.members[0]
    for index in range(12):
        await member.send(room.channel, f"chat {index}")
    await play_turns(player, 1)
    assert (await table_rows(player))[0] == table  # 12 messages: not yet pushed far up
    for index in range(4):
        await member.send(room.channel, f"more {index}")
    await play_turns(player, 1)
    moved, _ = await table_rows(player)
    assert moved != table and table not in simcord_env.backend.messages.get(room.channel.id, {})  # moved down
    assert history_reads(simcord_env, room, since) == 1
    assert with_buttons(room) == [moved]


@pytest.mark.parametrize("game_seed", [5])
async def test_the_table_image_is_drawn_once_a_move_and_ahead_of_the_edit(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = make_room(simcord_env, NAMES)
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    player = Player(room, game_id)
    await play_turns(player, 1)
    drawn: list[int] = []
    taken: list[bool] = []
    real_view, real_take = stages_module._view, DrawAhead.take

    def view(dealt: Any, history: bool, image: Any, commitment: str) -> Any:
        if image is not None:
            drawn.append(dealt.info.version)
        return real_view(dealt, history, image, commitment)

    async def take(self: DrawAhead, *args: Any) -> Any:
        taken.append((got := await real_take(self, *args)) is not None)
        return got

    monkeypatch.setattr(stages_module, "_view", view)
    monkeypatch.setattr(DrawAhead, "take", take)
    since = len(simcord_env.http_requests)
    await play_turns(player, 4)
    edits = [r for r in requests(simcord_env, room, "PATCH", since) if r.json and r.json.get("attachments")]
    assert len(edits) >= 4 and taken and all(taken)  # every edit took the image drawn ahead
    assert len(drawn) == len(set(drawn)) == len(edits) == len(taken)  # one image a version: drawn once


@pytest.mark.parametrize("game_seed", [5])
async def test_pending_edits_of_one_table_are_coalesced(simcord_env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the table's edit waits (Discord's rate limit), the moves made meanwhile make one more edit, of the
    newest stage: not one each."""
    room = make_room(simcord_env, NAMES)
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    player = Player(room, game_id)
    await play_turns(player, 2)
    table, _ = await table_rows(player)
    service, delivery = room.bot.service, room.bot.components.play.delivery
    gate, entered = asyncio.Event(), asyncio.Event()
    shown: list[int] = []
    real_edit = LiveTable.edit

    async def edit(self: LiveTable, stage: Any, live: Any, key: str, **kwargs: Any) -> Any:
        shown.append(stage.info.version)
        if len(shown) == 1:
            entered.set()
            await gate.wait()  # held up, as by a rate limit
        return await real_edit(self, stage, live, key, **kwargs)

    async def move() -> asyncio.Task[None]:
        game = await player.game()
        to_move = game.to_move()
        assert to_move is not None
        info = await service.reading.game(game_id)
        user = next(s.user_id for s in info.seats if s.player == to_move.player)
        result = await service.play.act(game_id, user, choose_move(game, to_move.player))
        return asyncio.create_task(delivery.deliver(result))

    monkeypatch.setattr(LiveTable, "edit", edit)
    first = await move()
    await entered.wait()
    later = [await move() for _ in range(3)]
    for _ in range(20):
        await asyncio.sleep(0)  # each delivery waits for the table now
    assert len(shown) == 1
    gate.set()
    await asyncio.gather(first, *later)
    newest = (await service.reading.game(game_id)).version
    assert len(shown) == 2 and shown[-1] == newest  # one more edit, of the newest version
    assert (await table_rows(player))[0] == table and with_buttons(room) == [table]
