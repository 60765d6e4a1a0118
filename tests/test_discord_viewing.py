"""Looking at games after their end: the last game of a channel stays viewable, older ones by number."""

from __future__ import annotations

import re
from typing import Any

import pytest
import simcord.actors as simcord_actors
from discord_harness import (
    Room,
    all_private,
    attachment,
    custom_ids,
    end_game,
    make_room,
    moderate,
    panel,
    replies,
    reply_text,
    slash,
)
from discord_play import Player, open_game
from simcord import Env, MemberActor
from simcord.results import ResponseMessage

from engine import Game

pytestmark = pytest.mark.parametrize("game_seed", [1])


async def finished_game(env: Env, room: Room | None = None) -> tuple[Room, int, Game]:
    """A short two-player game played to its end through Discord."""
    room = room or make_room(env, ["alice", "bob"])
    game_id, _ = await open_game(room, "usa", 2, trains=7)
    game = await Player(room, game_id).play()
    assert game.finished
    return room, game_id, game


async def test_a_finished_game_stays_viewable_by_everyone(simcord_env: Env) -> None:
    room, game_id, game = await finished_game(simcord_env)
    watcher = room.add_member("watcher")
    board = await slash(watcher, room, "ttr board")
    assert all_private(board) and f"#{game_id}" in reply_text(board)
    name, data = await attachment(board)
    assert name == "board.png" and data.startswith(b"\x89PNG")

    status = reply_text(await slash(watcher, room, "ttr status"))
    assert "The game is over." in status and "Score breakdown" in status
    for score in game.score():
        assert f"{score.total} = routes {score.routes}" in status

    history = await slash(watcher, room, "ttr history")
    assert all_private(history) and "Turn 1" in reply_text(history)

    # every player's tickets, done and failed, for anyone once the game is over
    hand = await slash(watcher, room, "ttr hand")
    text = reply_text(hand)
    assert all_private(hand) and "Every player's tickets" in text
    for index, player in enumerate(game.state.players):
        assert f"**{player.name}**" in text
        for ticket in player.tickets:
            assert game.board.tickets[ticket].label() in text, (index, ticket)
        # the cards left in hands stay secret
    assert "Your cards" not in text


async def test_older_games_by_number_and_not_another_servers(simcord_env: Env) -> None:
    room, first, _ = await finished_game(simcord_env)
    alice = room.members[0]
    # a new game opens: the channel's game is now the lobby; the finished one is reached by number
    await slash(alice, room, "ttr new", map="india")
    lobby = reply_text(await slash(alice, room, "ttr status"))
    assert "India" in lobby and f"#{first}" not in lobby
    old = reply_text(await slash(alice, room, "ttr status", game=first))
    assert f"#{first}" in old and "Score breakdown" in old
    choices = await alice.autocomplete(room.channel, "ttr status", "game", "")
    assert [c["value"] for c in choices] == [first]  # the lobby has not started: nothing to look at yet
    assert choices[0]["name"].startswith(f"#{first} · USA · finished")

    elsewhere = make_room(simcord_env, ["zoe"])
    refused = await slash(elsewhere.members[0], elsewhere, "ttr board", game=first)
    assert all_private(refused) and f"There is no game #{first} on this server" in reply_text(refused)
    assert await elsewhere.members[0].autocomplete(elsewhere.channel, "ttr board", "game", "") == []


async def test_a_game_cancelled_before_its_start_is_no_game(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice"])
    alice = room.members[0]
    await slash(alice, room, "ttr new", map="usa")
    await slash(alice, room, "ttr cancel")
    for command in ("ttr board", "ttr status", "ttr history", "ttr hand"):
        result = await slash(alice, room, command)
        assert all_private(result) and "There is no game in this channel" in reply_text(result), command


async def test_an_abandoned_game_shows_its_board_but_no_result(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    mods = await moderate(room)
    game_id, _ = await open_game(room, "usa", 2, trains=7)
    await end_game(mods, room, score="no", reason="duplicate table")
    alice = room.members[0]
    status = reply_text(await slash(alice, room, "ttr status"))
    assert f"#{game_id}" in status and "The game is over." in status and "To move" not in status
    view = await room.bot.service.reading.public_view(game_id)
    assert view.table is not None and view.table.to_move is None and view.table.waiting_for == ()
    hand = await slash(alice, room, "ttr hand")
    assert all_private(hand) and "ended without a result" in reply_text(hand)
    board = await slash(alice, room, "ttr board")
    assert (await attachment(board))[0] == "board.png"


# ----- paged history -----------------------------------------------------------------------------


def fresh(member: MemberActor, message: Any) -> Any:
    """A private answer as it is now (after its buttons edited it)."""
    return simcord_actors._visible_message(member, message)


def page_of(text: str) -> tuple[int, int]:
    """The "page N of M" of a paged answer."""
    match = re.search(r"page (\d+) of (\d+)\s*$", text)
    assert match, text
    return int(match.group(1)), int(match.group(2))


async def test_history_pages_through_the_whole_game(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob", "carol"])
    game_id, _ = await open_game(room, "usa", 3, trains=12)
    game = await Player(room, game_id).play()
    alice, bob = room.members[:2]
    result = await slash(alice, room, "ttr history")
    message = panel(result, "")
    assert all_private(result)
    page, count = page_of(message.content)
    assert count > 1 and page == count and len(message.content) <= 2000
    seen = [message.content]
    for expected in range(count - 1, 0, -1):
        turned = await alice.click(message, label="Older")
        assert [m.id for m in replies(turned)] == [message.id]  # the page is edited in place
        text = fresh(alice, message).content
        seen.append(text)
        assert page_of(text) == (expected, count) and len(text) <= 2000
    assert "Tickets at the start" in seen[-1]
    told = "\n".join(seen)
    for turn in range(1, game.state.turn + 1):
        assert f"**Turn {turn}:**" in told, turn
    await alice.click(message, label="Newer")
    assert page_of(fresh(alice, message).content) == (2, count)
    # somebody else cannot turn alice's pages, even with a forged click
    stored = fresh(alice, message)
    newer = custom_ids(message)[-1]
    forged = await simcord_actors._component_interaction(bob, stored, {"custom_id": newer, "component_type": 2})
    assert all_private(forged) and "belong to the member who asked" in reply_text(forged)
    assert page_of(fresh(alice, message).content) == (2, count)


# ----- replay ------------------------------------------------------------------------------------


async def image_of(member: MemberActor, message: Any) -> bytes:
    """The image of a private answer as it is now."""
    data: bytes = await ResponseMessage(member._env, fresh(member, message)).attachments[0].read()
    return data


async def test_replay_walks_through_a_finished_game(simcord_env: Env) -> None:
    room, game_id, game = await finished_game(simcord_env)
    alice, bob = room.members[:2]
    result = await slash(alice, room, "ttr replay", turn=1)
    message = panel(result, "")
    assert all_private(result) and f"**Game #{game_id}:** the board after turn 1." in message.content
    assert f"turn 1 of {game.state.turn}" in message.content
    first = await message.attachments[0].read()
    assert message.attachments[0].description  # alt text
    await alice.click(message, label="Next")
    assert "the board after turn 2." in fresh(alice, message).content
    second = await image_of(alice, message)
    assert second != first  # the board changed between the turns
    await alice.click(message, label="Previous")
    assert await image_of(alice, message) == first
    # the last turn is the final board; turn 0 the board before the first turn
    last = panel(await slash(alice, room, "ttr replay"), "")
    assert f"after turn {game.state.turn}." in last.content
    _, final = await attachment(await slash(alice, room, "ttr board"))
    assert await last.attachments[0].read() == final
    start = panel(await slash(alice, room, "ttr replay", turn=0), "")
    assert "before the first turn" in start.content
    # a turn the game never had is refused with the range
    refused = await slash(bob, room, "ttr replay", turn=game.state.turn + 1)
    assert all_private(refused) and f"turns 0 (before the first turn) to {game.state.turn}" in reply_text(refused)


async def test_replay_of_a_running_game_shows_completed_turns_only(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    game_id, _ = await open_game(room, "usa", 2, trains=7)
    player = Player(room, game_id)
    while (await player.game()).state.turn < 2:
        await player.step(await player.game())
    watcher = room.add_member("watcher")
    result = await slash(watcher, room, "ttr replay")
    assert (
        all_private(result) and "the board after turn 2." in reply_text(result) and "turn 2 of 2" in reply_text(result)
    )
    _, image = await attachment(result)
    _, board = await attachment(await slash(watcher, room, "ttr board"))
    assert image == board  # the public board, as it is at the start of turn 3
    # the longest-path race, while it runs (the USA map scores it)
    game = await player.game()
    status = reply_text(await slash(watcher, room, "ttr status"))
    for seat, p in enumerate(game.state.players):
        assert f"longest path {game.longest(seat)[0]}" in status, p.name
