"""The table (issue 59): one live message per game in its channel, edited in place after every move; one short
notice a turn; one set of live buttons.

A whole game by three members with the default settings of every member and
of the server, played by buttons, menus and commands (tests/discord_play.py),
with a burst of chat in the middle that pushes the table up: counted are the
public messages with an image (the table at the start, the table moved down
below the chat, the final board), all public messages, the DMs of each
member and the notices. After every turn no message but the live table
carries the game's buttons (the private panels superseded lose theirs), and
so after a restart and after kills at the worst moments of moving the table.
docs/players.md's "How much a game says" quotes the figures of the first test.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from typing import Any

import discord
import pytest
from discord_harness import (
    Room,
    body_text,
    custom_ids,
    gallery_of,
    layout_of,
    make_room,
    message_text,
    moderate,
    reply_text,
    restart,
    slash,
)
from discord_play import Player, open_game
from simcord import Env, InteractionResult, MemberActor

from bot.service.front_records import FrontRecords
from bot.table.live_table import LiveTable, is_table
from bot.table.stage_kinds import is_stage
from engine import Phase
from maps import WILD
from render.palette import player_style

NAMES = ["alice", "bob", "carol"]


def accent_of(seat: int) -> int:
    red, green, blue = player_style(seat).rgb
    return (red << 16) | (green << 8) | blue


NOTICE = re.compile(r"^<@(\d+)>, your turn in game #\d+")


def posts(env: Env, room: Room, since: int = 0) -> list[Any]:
    """The bot's requests that posted a message in the room's channel, from request number `since` on."""
    path = f"/channels/{room.channel.id}/messages"
    return [r for r in env.http_requests[since:] if r.method == "POST" and r.path == path]


def has_image(request: Any) -> bool:
    body = request.json if isinstance(request.json, dict) else {}
    return bool(body.get("attachments"))


def content(request: Any) -> str:
    """The words of a posted message: its content, or its layout's texts (the table)."""
    return body_text(request.json)


def live_buttons(room: Room) -> list[Any]:
    """Every message of the channel, private answers included (SimCord keeps them all), that carries a game's
    buttons or menus."""
    messages = room.env.backend.messages.get(room.channel.id, {}).values()
    return [m for m in messages if any(c.startswith(("ttr:", "ttrs:")) for c in custom_ids(m))]


async def the_table(room: Room, player: Player) -> int:
    """The live table's message id, as the store knows it."""
    rows = [m for m in await player.service.front.posted_messages(player.game_id) if is_stage(m.kind)]
    assert rows and is_table(rows[-1].kind) and rows[-1].buttons, rows
    return rows[-1].message_id


async def assert_one_set_of_buttons(room: Room, player: Player) -> None:
    """No message other than the live table carries live game buttons (at the end of a turn)."""
    table = await the_table(room, player)
    stray = [(m.id, m.is_ephemeral, m.content[:60]) for m in live_buttons(room) if m.id != table]
    assert stray == [], stray
    assert [m.id for m in room.public_messages() if custom_ids(m)] == [table]


async def play_turns(player: Player, turns: int) -> None:
    """Play on until `turns` more turns have ended (or the game)."""
    game = await player.game()
    goal = game.state.turn + turns
    while not game.finished and game.state.turn < goal:
        await player.step(game)
        game = await player.game()


async def chat(room: Room, member: MemberActor, count: int) -> None:
    for index in range(count):
        await member.send(room.channel, f"chat {index}")


@pytest.mark.parametrize("game_seed", [1])
async def test_a_whole_game_at_the_table_says_little_and_keeps_one_set_of_live_buttons(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    start = [0]

    def heard(member: MemberActor, result: InteractionResult) -> None:
        start[0] = len(simcord_env.http_requests)  # before the start: the lobby's messages are not counted

    game_id, _ = await open_game(room, "usa", 3, trains=12, heard=heard)
    player = Player(room, game_id)
    chatted = False
    tables: set[int] = set()
    game = await player.game()
    while not game.finished:
        turn = game.state.turn
        await player.step(game)
        game = await player.game()
        if game.finished:
            break
        if game.state.turn != turn and game.state.phase is Phase.PLAY:  # a turn ended
            await assert_one_set_of_buttons(room, player)
            tables.add(await the_table(room, player))
        if not chatted and game.state.turn >= 12:  # the table is pushed up by chat: the next turn moves it down
            await chat(room, room.members[0], 16)
            chatted = True
    turns = game.state.turn

    posted = posts(simcord_env, room, start[0])
    images = [r for r in posted if has_image(r)]
    notices = [NOTICE.match(content(r)) for r in posted]
    mentioned = [int(m.group(1)) for m in notices if m is not None]
    dms = {m.name: len(room.dms(m)) for m in room.members}
    print(f"turns {turns}, public messages {len(posted)}, images {len(images)}, notices {len(mentioned)}, DMs {dms}")
    assert chatted and len(tables) == 2  # the table moved down once, below the chat
    assert len(images) == 3  # the table at the start, the table moved down, the final board
    assert "your turn" in content(images[0]) and "your turn" in content(images[1]) and "is over" in content(images[2])
    assert len(posted) <= turns + 5
    assert all(n <= 3 for n in dms.values()), dms
    # every turn notifies the member to move once, by one line in the channel (nobody chose DMs): in the order
    # of the seats; the first turn's member may be the last to keep their tickets, told by their own answer
    assert turns - 1 <= len(mentioned) <= turns
    assert all(a != b for a, b in itertools.pairwise(mentioned)), mentioned
    assert sum(1 for m in room.public_messages() if NOTICE.match(m.content)) <= 1  # older notices deleted
    # the final message keeps the final board and the scores; no game buttons are left anywhere
    final = [m for m in room.public_messages() if m.attachments]
    assert len(final) == 1 and "is over" in message_text(final[0]) and final[0].attachments[0].description
    container = layout_of(final[0])  # a layout too, in the winner's colour, its board's alt text in it
    assert container is not None and container["accent_color"] in [accent_of(seat) for seat in range(3)]
    assert gallery_of(final[0])[0]["description"] == final[0].attachments[0].description
    assert live_buttons(room) == []


@pytest.mark.parametrize("game_seed", [3])
async def test_the_table_is_edited_in_place_and_its_second_card_works(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    await play_turns(player, 1)
    table = room.stage_message()
    game = await player.game()
    mover = await player.member(game.to_move().player)
    board = table.attachments[0]
    assert board.description  # the alt text of the board

    def face_up_button(message: discord.Message) -> str:
        ids = [c for c in custom_ids(message) if c.startswith("ttr:draw:")]
        found = [c for c in ids if c.split(":")[4] not in ("deck", "none", WILD)]
        return found[0] if found else next(c for c in ids if c.split(":")[4] == "deck")

    first = face_up_button(table)
    answer = await mover.click(table, custom_id=first)
    assert "You drew" in reply_text(answer) or "takes the face-up" in reply_text(answer), reply_text(answer)
    after = room.stage_message()
    assert after.id == table.id  # the same message, edited
    game = await player.game()
    shown = [c.split(":")[4] for c in custom_ids(after) if c.startswith("ttr:draw:") and c.split(":")[5].isdigit()]
    assert shown == [c or "none" for c in game.state.piles.face_up], (shown, game.state.piles.face_up)
    version = (await player.service.core.game(game_id)).version
    assert {int(c.split(":")[3]) for c in custom_ids(after)} == {version}  # the buttons of the game as it is now
    turn = game.state.turn
    second = face_up_button(after)
    await mover.click(after, custom_id=second)
    game = await player.game()
    assert game.state.turn == turn + 1, "the second card from the table was not taken"
    assert room.stage_message().id == table.id
    assert room.stage_message().attachments[0].id != board.id  # the board image replaced, its alt text kept
    assert room.stage_message().attachments[0].description
    await assert_one_set_of_buttons(room, player)


@pytest.mark.parametrize("game_seed", [5])
async def test_after_a_restart_there_is_one_table_with_buttons(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    player = Player(room, game_id)
    await play_turns(player, 4)
    await assert_one_set_of_buttons(room, player)
    table = await the_table(room, player)
    await restart(simcord_env)
    await assert_one_set_of_buttons(room, player)
    assert await the_table(room, player) == table  # not posted again
    await play_turns(player, 3)
    await assert_one_set_of_buttons(room, player)
    assert await the_table(room, player) == table


@pytest.mark.parametrize("game_seed", [5])
async def test_a_kill_while_the_table_moves_down_leaves_one_table_with_buttons(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = make_room(simcord_env, NAMES)
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    player = Player(room, game_id)
    await play_turns(player, 4)
    old = await the_table(room, player)
    killed: list[int] = []

    async def retire(self: LiveTable, *args: Any, **kwargs: Any) -> None:
        killed.append(1)
        raise asyncio.CancelledError  # the new table is posted and recorded; the old one is still there

    monkeypatch.setattr(LiveTable, "retire", retire)
    await chat(room, room.members[1], 16)
    await play_turns(player, 1)
    assert killed
    assert len([m for m in room.public_messages() if custom_ids(m)]) == 2  # both look live
    monkeypatch.undo()
    await restart(simcord_env)
    await assert_one_set_of_buttons(room, player)
    assert await the_table(room, player) != old
    await play_turns(player, 2)
    await assert_one_set_of_buttons(room, player)


@pytest.mark.parametrize("game_seed", [5])
async def test_a_kill_before_a_moved_table_is_recorded_leaves_one_table_with_buttons(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = make_room(simcord_env, NAMES)
    game_id, _ = await open_game(room, "usa", 3, trains=20)
    player = Player(room, game_id)
    await play_turns(player, 4)
    real = FrontRecords.remember_message
    unrecorded: list[int] = []

    async def remember_message(
        self: FrontRecords, game_id: int, kind: str, channel_id: int, message_id: int, *, buttons: bool = False
    ) -> None:
        if not unrecorded and is_stage(kind):
            unrecorded.append(message_id)
            raise asyncio.CancelledError  # Discord has the new table; the database never hears of it
        await real(self, game_id, kind, channel_id, message_id, buttons=buttons)

    monkeypatch.setattr(FrontRecords, "remember_message", remember_message)
    await chat(room, room.members[1], 16)
    await play_turns(player, 1)
    assert unrecorded
    monkeypatch.undo()
    await restart(simcord_env)
    await assert_one_set_of_buttons(room, player)
    await play_turns(player, 2)
    await assert_one_set_of_buttons(room, player)


@pytest.mark.parametrize("game_seed", [1])
async def test_a_member_who_chose_dms_gets_a_dm_a_turn_and_no_mention(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    bob = room.members[1]
    await slash(bob, room, "ttr settings", turn_dms="every")
    game_id, _ = await open_game(room, "usa", 3, trains=7)
    player = Player(room, game_id)
    game = await player.play()
    turns_dm = [t for t in (m.content for m in room.dms(bob)) if t.startswith("It is your turn")]
    notices = [r for r in posts(simcord_env, room) if NOTICE.match(content(r))]
    mentioned = {int(NOTICE.match(content(r)).group(1)) for r in notices}  # type: ignore[union-attr]
    assert bob.id not in mentioned and mentioned  # the others are told in the channel
    assert len(turns_dm) >= game.state.turn // 3 - 1  # bob: a DM on (nearly) every one of his turns


@pytest.mark.parametrize("game_seed", [1])
async def test_a_server_may_keep_a_message_per_turn(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    mods = await moderate(room)
    said = reply_text(await slash(mods.manager, room, "ttr config", turn_messages="on"))
    assert "a new message every turn (`turn_messages` on)" in said, said
    assert (await room.bot.service.settings.guild_config(room.guild.id)).turn_messages
    game_id, _ = await open_game(room, "usa", 3, trains=7)
    player = Player(room, game_id)
    await play_turns(player, 4)
    turns = [m for m in room.public_messages() if "your turn:" in m.content]
    assert len(turns) >= 3 and all(m.attachments for m in turns)  # a message per turn, each with its board
    assert [m.id for m in room.public_messages() if custom_ids(m)] == [turns[-1].id]
    assert not any(NOTICE.match(m.content) for m in room.public_messages())  # the turn message mentions them
    said = reply_text(await slash(mods.manager, room, "ttr config", turn_messages="off"))
    assert "one table message, edited after every move (`turn_messages` off)" in said, said
