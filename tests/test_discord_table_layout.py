"""The live table's layout (issue 59): a components-v2 message, a container in the colour of the player to move,
the board in a media gallery with its alt text, whose turn it is and their deadline, the last move, the players'
rows and the game's buttons in action rows inside it, kept a layout on every edit, when it moves down and when an
old table loses its buttons.

SimCord checks every message the bot sends as Discord would (a layout carries
no content, a components-v2 flag is never taken off, ...); the tests check
again the bodies the bot sent with SimCord's own validation.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord_harness import (
    Room,
    body_text,
    custom_ids,
    fail_requests,
    gallery_of,
    layout_of,
    make_room,
    message_text,
    moderate,
    slash,
)
from discord_play import Player, open_game
from simcord import Env
from simcord.components import COMPONENTS_V2_FLAG, validate_message_state

from engine import Game, Phase
from render.palette import player_style

NAMES = ["alice", "bob", "carol"]


def colour_of(game: Game) -> int:
    """The colour of the player to move, as their trains are drawn: the table's accent."""
    to_move = game.to_move()
    assert to_move is not None
    seat = next(i for i, p in enumerate(game.state.players) if p.name == to_move.player)
    red, green, blue = player_style(seat).rgb
    return (red << 16) | (green << 8) | blue


def texts_of(message: discord.Message) -> list[str]:
    """The layout's text displays, in order."""
    container = layout_of(message)
    assert container is not None
    return [str(c["content"]) for c in container["components"] if c.get("type") == 10]


def sent_layouts(env: Env, room: Room) -> list[dict[str, Any]]:
    """The bodies of the bot's posts and edits in the channel that are layouts."""
    prefix = f"/channels/{room.channel.id}/messages"
    bodies = [r.json for r in env.http_requests if r.path.startswith(prefix) and r.method in ("POST", "PATCH")]
    return [b for b in bodies if isinstance(b, dict) and int(b.get("flags") or 0) & COMPONENTS_V2_FLAG]


async def past_the_tickets(room: Room, **options: Any) -> Player:
    game_id, _ = await open_game(room, "usa", 3, trains=20, **options)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    return player


async def play_turn(player: Player) -> None:
    game = await player.game()
    turn = game.state.turn
    while not game.finished and game.state.turn == turn:
        await player.step(game)
        game = await player.game()


def assert_a_table(table: discord.Message, game: Game, room: Room) -> None:
    """The table shows the game as it is: a layout in the mover's colour, the board, the words, the buttons."""
    assert table.flags.components_v2 and table.content == "" and table.embeds == []
    container = layout_of(table)
    assert container is not None and container["accent_color"] == colour_of(game)
    parts = container["components"]
    kinds = [c["type"] for c in parts]
    board_at = kinds.index(12)  # the last move, whose turn it is, the board, the players' rows ...
    assert kinds[:board_at] in ([10], [10, 10]) and kinds[board_at + 1] == 10, kinds
    rows = kinds[kinds.index(14) + 1 :]  # ... and under a separator the buttons, in their rows
    assert len(rows) >= 2 and set(rows) == {1}, kinds
    (board,) = parts[board_at]["items"]
    (attached,) = table.attachments
    assert board["media"]["url"] == attached.url  # the attached board, shown in the gallery
    assert board["description"] and board["description"] == attached.description  # the alt text on both
    to_move = game.to_move()
    assert to_move is not None
    mover = next(m for m in room.members if m.name == to_move.player)
    turn = parts[board_at - 1]["content"]
    assert f"turn {game.state.turn + 1}:" in turn and f"<@{mover.id}>" in turn and "your turn" in turn, turn
    players = parts[board_at + 1]["content"].split("\n")
    assert len(players) == 3 and all("route point" in row for row in players), players
    assert [row.split(":")[0].lstrip("\N{BLACK RIGHT-POINTING TRIANGLE} ") for row in players] == [
        p.name for p in game.state.players
    ]
    assert sum(row.startswith("\N{BLACK RIGHT-POINTING TRIANGLE}") for row in players) == 1
    ids = custom_ids(table)
    face_up = [c.split(":")[4] for c in ids if c.startswith("ttr:draw:") and c.split(":")[5].isdigit()]
    assert face_up == [c or "none" for c in game.state.piles.face_up]  # the face-up cards as they are now
    assert any(c.startswith("ttr:claim:") for c in ids) and any(c.startswith("ttr:hand:") for c in ids)


@pytest.mark.parametrize("game_seed", [3])
async def test_the_table_is_a_layout_in_the_colour_of_the_player_to_move(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    player = await past_the_tickets(room)
    await play_turn(player)
    table = room.stage_message()
    game = await player.game()
    assert_a_table(table, game, room)
    before = colour_of(game)
    last_mover = game.state.players[(game.state.turn - 1) % 3].name
    assert last_mover in texts_of(table)[0] and "your turn" not in texts_of(table)[0]  # the last move, at the top
    board = table.attachments[0]

    await play_turn(player)
    after = room.stage_message()
    game = await player.game()
    assert after.id == table.id  # edited in place
    assert_a_table(after, game, room)
    assert colour_of(game) != before  # the next player's colour
    assert after.attachments[0].id != board.id  # a new board image, its alt text kept (in the gallery too)

    # every layout the bot sent passes SimCord's check of a components-v2 message
    bodies = sent_layouts(simcord_env, room)
    assert len(bodies) >= 2
    for body in bodies:
        validate_message_state(
            body["components"], flags=int(body["flags"]), content=body.get("content"), embeds=body.get("embeds") or []
        )
        assert "your turn" in body_text(body)


@pytest.mark.parametrize("game_seed", [3])
async def test_the_clock_and_a_pause_are_told_in_the_layout(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    player = await past_the_tickets(room, turn_time="1h", reserve="none")
    await play_turn(player)
    table = room.stage_message()
    turn = texts_of(table)[1]
    assert "your turn" in turn and "\N{ALARM CLOCK} Deadline <t:" in turn, turn  # whose turn it is and their deadline
    mods = await moderate(room)
    game = await player.game()
    # a pause changes the clock's line only: the layout keeps its colour, its board, its other words, its buttons
    await slash(mods.moderator, room, "ttrmod pause", reason="maintenance")
    paused = room.stage_message()
    assert paused.id == table.id and "Paused" in texts_of(paused)[1] and "Deadline" not in texts_of(paused)[1]
    # the clock's line was brought up to date in the layout itself: the last edit kept the board uploaded before
    path = f"/channels/{room.channel.id}/messages/{table.id}"
    last_edit = [r.json for r in simcord_env.http_requests if r.method == "PATCH" and r.path == path][-1]
    assert "Paused" in body_text(last_edit) and "attachments" not in last_edit
    assert layout_of(paused)["accent_color"] == colour_of(game)  # type: ignore[index]
    assert gallery_of(paused)[0]["description"] == table.attachments[0].description
    assert custom_ids(paused) == custom_ids(table)
    assert texts_of(table)[0] in texts_of(paused)[0]  # the last move, under the moderator's note
    assert texts_of(paused)[2:] == texts_of(table)[2:]  # the players' rows


@pytest.mark.parametrize("game_seed", [5])
async def test_an_old_table_that_cannot_be_deleted_loses_its_buttons_and_stays_a_layout(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    player = await past_the_tickets(room)
    await play_turn(player)
    old = room.stage_message()
    words = message_text(old)
    fail_requests(simcord_env, "DELETE", f"/channels/{room.channel.id}/messages/{old.id}", status=403, code=50013)
    for index in range(16):  # the chat pushes the table up: the next turn posts it anew below
        await room.members[0].send(room.channel, f"chat {index}")
    await play_turn(player)
    table = room.stage_message()
    assert table.id != old.id
    assert_a_table(table, await player.game(), room)
    stripped = next(m for m in room.public_messages() if m.id == old.id)
    assert custom_ids(stripped) == []  # no buttons left on the old table
    assert stripped.flags.components_v2 and layout_of(stripped) is not None  # still a layout: its words and board
    assert message_text(stripped) == words
    assert gallery_of(stripped)[0]["description"] == old.attachments[0].description
    assert [m.id for m in room.public_messages() if custom_ids(m)] == [table.id]
