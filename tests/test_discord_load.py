"""Load from one member through Discord: a member floods one game while another game is played.

The measure is counted, not timed: the render queue tells, for each render,
the games of the renders it waited behind; each stage image of the game being
played may wait behind at most one render of the flooded game.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from discord_harness import Room, all_private, click, make_room, moderate, replies, reply_text, slash
from discord_play import Player, open_game
from simcord import Env, InteractionResult, MemberActor

from bot import Settings
from bot.present.image_words import IMAGE_WORDS
from bot.service.render_queue import RenderStart

TOO_FAST = "You are sending commands too fast"


@pytest.fixture
def bot_settings(tmp_path: Path) -> Settings:
    """The bot with the command rate it has in production: 6 per member in any 10 seconds."""
    return Settings(database=tmp_path / "conductor.sqlite3", commands_per_window=6, command_window_seconds=10)


async def flood(member: MemberActor, room: Room, count: int) -> list[InteractionResult]:
    """`count` board commands and half as many hand clicks, from one member at one moment."""
    answers = [await slash(member, room, "ttr board") for _ in range(count)]
    answers += [await click(member, room.stage_message(), "ttr:hand:") for _ in range(count // 2)]
    return answers


def burst(room: Room, game_id: int, count: int) -> list[asyncio.Task[object]]:
    """`count` board and hand images of a game asked for at once (what a burst of clicks and commands asks)."""
    service = room.bot.service
    labels = {0: "a", 1: "b"}
    asks: list[asyncio.Task[object]] = []
    for i in range(count):
        member = room.members[i % len(room.members)]
        hand = service.images.hand_image(game_id, member.id, labels, words=IMAGE_WORDS)
        asks.append(asyncio.create_task(service.images.board_image(game_id, labels, words=IMAGE_WORDS)))
        asks.append(asyncio.create_task(hand))
    return asks


async def test_a_flood_in_one_game_does_not_hold_up_another(simcord_env: Env) -> None:
    flooded = make_room(simcord_env, ["xavier", "yvonne"])
    played = make_room(simcord_env, ["ann", "bob"])
    game_a, _ = await open_game(flooded, "usa", 2)
    await simcord_env.advance_time(10)
    game_b, _ = await open_game(played, "usa", 2)
    starts: list[RenderStart] = []
    flooded.bot.service.images.renders.observe(starts.append)
    version_a = (await flooded.bot.service.core.game(game_a)).version
    player = Player(played, game_b)
    turn_before = (await player.game()).state.turn

    answers: list[InteractionResult] = []
    for _ in range(6):
        await simcord_env.advance_time(10)  # each round in a fresh window: the players are never too fast
        answers.extend(await flood(flooded.members[0], flooded, 12))
        asks = burst(flooded, game_a, 50)
        while not flooded.bot.service.images.renders.running():
            await asyncio.sleep(0)  # game A's burst is being drawn when game B moves
        await player.step(await player.game())
        await player.check_channel()
        await asyncio.gather(*asks)

    texts = [reply_text(a) for a in answers]
    assert sum(TOO_FAST in t for t in texts) == 6 * (12 + 6 - 6), texts  # six a round went through
    assert all("went wrong" not in t for t in texts)
    shown = [a for a in answers if TOO_FAST not in reply_text(a)]
    assert len(shown) == 6 * 6 and all(replies(a)[-1].attachments for a in shown)

    stage_renders = [s for s in starts if s.game_id == game_b and s.urgent]
    assert len(stage_renders) >= 3, starts  # game B's turn images went through the queue
    assert all(s.behind.count(game_a) <= 1 for s in stage_renders), [s.behind for s in stage_renders]
    assert sum(s.game_id == game_a for s in starts) >= 6  # the flood reached the queue (shared: not 600)
    assert any(game_a in s.behind for s in stage_renders)  # and B did meet it there

    assert (await flooded.bot.service.core.game(game_a)).version == version_a  # looking changed nothing
    assert (await player.game()).state.turn > turn_before
    played.bot.limiter.limit = 0  # the test plays faster than any member could
    game = await player.play()  # and game B plays on to its end
    assert game.finished


async def test_new_games_beyond_the_limits_are_refused_privately(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["xavier", "yvonne"])
    xavier = room.members[0]
    channels = [room.channel, *(room.guild.create_text_channel(f"games-{i}") for i in range(4))]
    for channel in channels[:3]:
        opened = await xavier.slash(channel, "ttr new", map="usa")
        assert "You opened game" in reply_text(opened), reply_text(opened)
    await simcord_env.advance_time(10)
    refused = await xavier.slash(channels[3], "ttr new", map="usa")
    text = reply_text(refused)
    assert all_private(refused) and "You already host 3 open games" in text and "cancel" in text, text
    assert not [m for m in channels[3].history() if not m.flags.ephemeral]  # nothing was opened there

    mods = await moderate(room)
    config = await slash(mods.manager, room, "ttr config", member_games=4, server_games=4)
    assert "at most 4 hosted by one member, 4 in the server" in reply_text(config), reply_text(config)
    opened = await xavier.slash(channels[3], "ttr new", map="usa")
    assert "You opened game" in reply_text(opened), reply_text(opened)
    full = await room.members[1].slash(channels[4], "ttr new", map="usa")
    assert all_private(full) and "This server already has 4 open games" in reply_text(full), reply_text(full)


async def test_autocomplete_is_never_counted_or_refused(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["xavier"])
    xavier = room.members[0]
    for _ in range(20):
        choices = await xavier.autocomplete(room.channel, "ttr new", "turn_time", "1", map="usa")
        assert choices, "autocomplete answered"
    opened = await slash(xavier, room, "ttr new", map="usa")
    assert "You opened game" in reply_text(opened), reply_text(opened)
