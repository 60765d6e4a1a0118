"""A flaky Discord: an answer that fails after the move was made, channel posts that fail for long, a reconnection.

The move counts and everyone else is told as usual; the member is told it
counted (by a followup, else by DM); the same command sent again is not made
twice, nor is the same button pressed again; what the channel did not take
is posted once Discord takes it again; a reconnection brings the turn
messages up to date.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import discord
import pytest
from discord_harness import (
    Room,
    custom_ids,
    dm_texts,
    fail_answers,
    fail_channel,
    make_room,
    message_text,
    posted_texts,
    reconnect,
    reply_text,
    slash,
    turn_dms,
    turn_messages,
)
from discord_play import Player, open_game
from simcord import Env, MemberActor

from bot.table.outbox import MAX_DELAY, Outbox
from engine import Game, Phase

seeded = pytest.mark.parametrize("game_seed", [7])  # reproducible seat orders and deals

MINUTE = 60.0


async def playing(env: Env) -> tuple[Room, Player]:
    """A two-player game past the ticket choice, in a server that posts a message per turn (what fails and is
    posted again: the turn message), both members taking "your turn" DMs."""
    room = make_room(env, ["alice", "bob"])
    await turn_messages(room)
    await turn_dms(room, *room.members)
    game_id, _ = await open_game(room, "usa", 2, trains=8)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    return room, player


async def to_move(player: Player) -> tuple[Game, str, MemberActor, MemberActor]:
    game = await player.game()
    current = game.to_move()
    assert current is not None
    mover = await player.member(current.player)
    other = next(m for m in player.room.members if m.id != mover.id)
    return game, current.player, mover, other


async def cards(player: Player, name: str) -> int:
    game = await player.game()
    return sum(next(p for p in game.state.players if p.name == name).hand.values())


def turn_of(game: Game) -> int:
    return game.state.turn


@seeded
async def test_a_failed_answer_to_a_turn_ending_move_still_posts_the_turn_and_the_note(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    game, _name, mover, other = await to_move(player)
    turn = turn_of(game)
    await slash(mover, room, "ttr draw", card="deck")
    notes_before = len(dm_texts(room, other))
    fail_answers(simcord_env)
    result = await slash(mover, room, "ttr draw", card="deck")
    assert turn_of(await player.game()) == turn + 1
    assert f"turn {turn + 2}:" in message_text(room.stage_message())
    assert any("It is your turn" in t for t in dm_texts(room, other)[notes_before:])
    text = reply_text(result)
    assert "counted" in text and "try again" not in text and "Sorry" not in text, text


@seeded
async def test_a_command_sent_again_after_a_failed_answer_is_not_made_twice(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    game, name, mover, _ = await to_move(player)
    turn, hand = turn_of(game), await cards(player, name)
    fail_answers(simcord_env)
    first = await slash(mover, room, "ttr draw", card="deck")
    assert "counted" in reply_text(first) and "try again" not in reply_text(first), reply_text(first)
    assert await cards(player, name) == hand + 1
    again = await slash(mover, room, "ttr draw", card="deck")
    assert "Your previous draw counted" in reply_text(again), reply_text(again)
    assert await cards(player, name) == hand + 1
    assert turn_of(await player.game()) == turn
    # asked once more, it is a new move: the second card
    second = await slash(mover, room, "ttr draw", card="deck")
    assert "previous" not in reply_text(second)
    assert await cards(player, name) == hand + 2
    assert turn_of(await player.game()) == turn + 1


@seeded
async def test_a_different_command_after_a_failed_answer_runs_as_usual(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    _game, name, mover, _ = await to_move(player)
    hand = await cards(player, name)
    fail_answers(simcord_env)
    await slash(mover, room, "ttr draw", card="deck")
    await slash(mover, room, "ttr hand")  # looking is not a move: the memory of the draw stays
    again = await slash(mover, room, "ttr draw", card="deck")
    assert "Your previous draw counted" in reply_text(again)
    assert await cards(player, name) == hand + 1


@seeded
async def test_when_no_answer_gets_through_the_member_is_told_by_dm(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    _game, name, mover, _ = await to_move(player)
    hand = await cards(player, name)
    fail_answers(simcord_env, times=2)
    await slash(mover, room, "ttr draw", card="deck")
    assert await cards(player, name) == hand + 1
    assert any("counted" in t for t in dm_texts(room, mover)), dm_texts(room, mover)


@seeded
async def test_the_same_button_pressed_again_after_a_failed_answer_is_stale(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    _game, name, mover, _ = await to_move(player)
    hand = await cards(player, name)
    message = room.stage_message()
    deck = next(c for c in custom_ids(message) if c.startswith("ttr:draw:") and c.split(":")[4] == "deck")
    fail_answers(simcord_env)
    await mover.click(message, custom_id=deck)
    assert await cards(player, name) == hand + 1
    again = await mover.click(message, custom_id=deck)
    assert "nothing was done" in reply_text(again), reply_text(again)
    assert await cards(player, name) == hand + 1


@seeded
async def test_a_turn_message_is_posted_when_the_channel_works_again_after_hours(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    game, _name, mover, other = await to_move(player)
    turn = turn_of(game)
    recover = fail_channel(simcord_env, room.channel)
    await slash(mover, room, "ttr draw", card="deck")
    result = await slash(mover, room, "ttr draw", card="deck")
    assert "Your move counts" in reply_text(result)
    # the next player moves too while the channel is down: the newer turn supersedes the older one
    await slash(other, room, "ttr draw", card="deck")
    await slash(other, room, "ttr draw", card="deck")
    assert turn_of(await player.game()) == turn + 2
    attempts = len(posted_texts(simcord_env, room.channel))
    await simcord_env.advance_time(40 * MINUTE)
    tries = len(posted_texts(simcord_env, room.channel)) - attempts
    assert 40 * MINUTE / MAX_DELAY <= tries <= 40 * MINUTE / MAX_DELAY + 6  # backoff, capped, never ending
    assert f"turn {turn + 3}:" not in message_text(room.stage_message())
    recover()
    await simcord_env.advance_time(MAX_DELAY + 1)
    assert f"turn {turn + 3}:" in message_text(room.stage_message())
    contents = [message_text(m) for m in room.public_messages()]
    assert not any(f"turn {turn + 2}:" in c for c in contents)  # the superseded turn was never posted
    assert sum(f"turn {turn + 3}:" in c for c in contents) == 1
    await simcord_env.advance_time(60 * MINUTE)
    assert len(room.public_messages()) == len(contents)  # nothing more is retried once delivered


@seeded
@pytest.mark.parametrize("event", ["resumed", "ready"])
async def test_a_reconnection_brings_the_turn_message_up_to_date(simcord_env: Env, event: str) -> None:
    room, player = await playing(simcord_env)
    game, _name, mover, _other = await to_move(player)
    turn = turn_of(game)
    fail_channel(simcord_env, room.channel, times=1)
    await slash(mover, room, "ttr draw", card="deck")
    await slash(mover, room, "ttr draw", card="deck")
    assert f"turn {turn + 2}:" not in message_text(room.stage_message())
    await reconnect(simcord_env, event)  # long before the retry is due
    assert f"turn {turn + 2}:" in message_text(room.stage_message())


class FakeChannel:
    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.sent: list[str] = []

    async def send(self, content: str, **kwargs: object) -> None:
        mentions = kwargs["allowed_mentions"]
        assert isinstance(mentions, discord.AllowedMentions)
        assert mentions.to_dict() == discord.AllowedMentions.none().to_dict()  # no __eq__ on AllowedMentions
        if self.failures:
            self.failures -= 1
            raise discord.DiscordServerError(_Response(), "down")  # type: ignore[arg-type]
        self.sent.append(content)


class _Response:
    status = 503
    reason = "Service Unavailable"


class FakeClient:
    def __init__(self, channel: FakeChannel) -> None:
        self.channel = channel

    def get_partial_messageable(self, channel_id: int, *, guild_id: int | None = None) -> FakeChannel:
        return self.channel


def fake_sleep(waits: list[float]) -> Callable[[float], Awaitable[None]]:
    """A sleep that does not wait: it notes how long it was asked to."""

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) > 50:  # a retry loop gone wrong fails the test instead of spinning for ever
            raise RuntimeError("retried more than 50 times")
        await asyncio.sleep(0)  # other tasks run, as under a real sleep

    return sleep


async def test_lines_that_fail_wait_in_order_and_are_retried_with_capped_backoff() -> None:
    channel = FakeChannel(failures=7)
    waits: list[float] = []
    outbox = Outbox(FakeClient(channel), sleep=fake_sleep(waits))  # type: ignore[arg-type]
    assert not await outbox.send(5, 1, ["one", "two"], game_id=1)
    assert not await outbox.send(5, 1, ["three"], game_id=1)  # waits behind the older lines
    assert outbox.waiting(5) == 3
    for _ in range(20):
        if not outbox.waiting(5):
            break
        await asyncio.sleep(0)
    assert channel.sent == ["one", "two", "three"]
    assert waits == [15.0, 30.0, 60.0, 120.0, 240.0, 300.0, 300.0]
    assert outbox.waiting(5) == 0
