"""The table after restarts (issue 59): the live table is one message recorded under every stage key it showed,
so a start knows the stage it shows is shown: no turn's notice is posted twice, the table is not edited again,
and exactly one message carries the game's live buttons.

Before the store kept a message under several keys (revision 0018), only the
table's first stage key was recorded: every start took the turn on show for
a new one, edited the table again and posted the turn's notice a second time.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from typing import Any

import pytest
from discord_harness import Room, make_room, restart
from discord_play import Player, open_game
from simcord import Env

from bot.table.live_table import is_table
from bot.table.notices import Notices
from bot.table.stage_kinds import is_stage

NAMES = ["alice", "bob", "carol"]
NOTICE = re.compile(r"^<@(\d+)>, your turn in game #(\d+)")


def requests(env: Env, room: Room, method: str, since: int) -> list[Any]:
    path = f"/channels/{room.channel.id}/messages"
    return [r for r in env.http_requests[since:] if r.method == method and r.path.startswith(path)]


def notices(env: Env, room: Room, since: int = 0) -> list[int]:
    """The members the notices posted in the channel (from request number `since` on) told, in order."""
    said = [str(r.json.get("content") or "") for r in requests(env, room, "POST", since) if isinstance(r.json, dict)]
    return [int(m.group(1)) for m in map(NOTICE.match, said) if m is not None]


async def table_rows(player: Player) -> tuple[int, list[str]]:
    """The live table's message id and the stage keys it is recorded under."""
    rows = [m for m in await player.service.front.posted_messages(player.game_id) if is_stage(m.kind)]
    assert rows and is_table(rows[-1].kind) and rows[-1].buttons, rows
    table = rows[-1].message_id
    return table, [m.kind for m in rows if m.message_id == table]


def with_buttons(room: Room) -> list[int]:
    return [m.id for m in room.public_messages() if m.components]


async def play_turns(player: Player, turns: int) -> None:
    game = await player.game()
    goal = game.state.turn + turns
    while not game.finished and game.state.turn < goal:
        await player.step(game)
        game = await player.game()


@pytest.mark.parametrize("game_seed", [5])
async def test_restarts_post_no_notice_twice_and_leave_one_table_with_buttons(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    player = Player(room, game_id)
    await play_turns(player, 4)
    table, keys = await table_rows(player)
    assert len(keys) >= 4 and len(set(keys)) == len(keys)  # every stage the table showed, each once
    assert with_buttons(room) == [table]
    for _ in range(2):  # a restart, and another one at once
        since = len(simcord_env.http_requests)
        await restart(simcord_env)
        assert notices(simcord_env, room, since) == []  # the turn's member was told already
        assert requests(simcord_env, room, "PATCH", since) == []  # the table shows the turn already
        assert await table_rows(player) == (table, keys)
        assert with_buttons(room) == [table]
    since = len(simcord_env.http_requests)
    await play_turns(player, 3)
    told = notices(simcord_env, room, since)
    assert len(told) == 3 and all(a != b for a, b in itertools.pairwise(told)), told  # one a turn
    await restart(simcord_env)
    assert notices(simcord_env, room, since) == told
    later, more = await table_rows(player)
    assert later == table and more[: len(keys)] == keys and len(more) == len(keys) + 3
    assert with_buttons(room) == [table]


@pytest.mark.parametrize("game_seed", [5])
async def test_a_kill_before_the_turn_is_told_is_told_once_after_the_restart(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = make_room(simcord_env, NAMES)
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    player = Player(room, game_id)
    await play_turns(player, 3)
    killed: list[int] = []

    async def turn(self: Notices, info: Any, user_id: int, *args: Any) -> None:
        killed.append(user_id)
        raise asyncio.CancelledError  # the table shows the new turn; the bot stops before the notice

    monkeypatch.setattr(Notices, "turn", turn)
    since = len(simcord_env.http_requests)
    await play_turns(player, 1)
    monkeypatch.undo()
    assert killed and notices(simcord_env, room, since) == []
    assert not any(NOTICE.match(m.content) for m in room.public_messages())  # the old one went with the turn
    since = len(simcord_env.http_requests)
    await restart(simcord_env)
    assert notices(simcord_env, room, since) == [killed[0]]  # told now, once
    await restart(simcord_env)
    assert notices(simcord_env, room, since) == [killed[0]]
    assert len([m for m in room.public_messages() if NOTICE.match(m.content)]) == 1
    table, _ = await table_rows(player)
    assert with_buttons(room) == [table]
