"""Looking at games after their end: the last game of a channel stays viewable, older ones by number."""

from __future__ import annotations

import pytest
from discord_harness import (  # noqa: F401
    Room,
    all_private,
    attachment,
    bot_settings,
    game_seed,
    make_room,
    moderate,
    reply_text,
    simcord_bot,
    slash,
)
from discord_play import Player, open_game
from simcord import Env

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
    await slash(mods.moderator, room, "ttrmod end", score="no", reason="duplicate table")
    alice = room.members[0]
    status = reply_text(await slash(alice, room, "ttr status"))
    assert f"#{game_id}" in status and "The game is over." in status and "To move" not in status
    view = await room.bot.service.public_view(game_id)
    assert view.table is not None and view.table.to_move is None and view.table.waiting_for == ()
    hand = await slash(alice, room, "ttr hand")
    assert all_private(hand) and "ended without a result" in reply_text(hand)
    board = await slash(alice, room, "ttr board")
    assert (await attachment(board))[0] == "board.png"
