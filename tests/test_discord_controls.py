"""Stale controls, played as people do: old turn messages lose their buttons, private panels change in place,
a turn message posted again says what is pending, and the lobby is joined, left and started by buttons."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord_harness import (
    Message,
    Room,
    all_private,
    button_labels,
    choose,
    click,
    custom_ids,
    find_id,
    layout_of,
    make_room,
    message_text,
    moderate,
    panel,
    replies,
    reply_text,
    restart,
    select_options,
    slash,
    turn_messages,
)
from discord_play import Player, open_game
from simcord import Env, MemberActor

from bot.service import GameStatus
from bot.views.ids import Action
from bot.views.lobby import LobbyAction
from engine import Phase
from engine.state import Pending

pytestmark = pytest.mark.parametrize("game_seed", [7])


async def playing(env: Env, names: tuple[str, ...] = ("alice", "bob")) -> tuple[Room, Player]:
    """A USA game past the ticket choice."""
    room = make_room(env, list(names))
    game_id, _ = await open_game(room, "usa", len(names), trains=12)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    return room, player


async def mover(player: Player) -> tuple[str, MemberActor]:
    current = (await player.game()).to_move()
    assert current is not None
    return current.player, await player.member(current.player)


def deck_id(message: Message) -> str:
    """The custom id of a message's *Draw from deck* button ("ttr:draw:GAME:VERSION:deck:...")."""
    return next(c for c in custom_ids(message) if c.startswith("ttr:draw:") and c.split(":")[4] == "deck")


def stored(room: Room, message_id: int) -> discord.Message:
    """A message of the channel as it is now."""
    return next(m for m in room.channel.history() if m.id == message_id)


def private_count(room: Room, member: MemberActor) -> int:
    """How many private answers the member has been given in the channel (edits of one count once)."""
    messages = room.env.backend.messages.get(room.channel.id, {}).values()
    return sum(1 for m in messages if m.is_ephemeral and _answered_to(m.interaction_metadata) == member.id)


def _answered_to(meta: dict[str, Any] | None) -> int | None:
    user = (meta or {}).get("user") or {}
    return int(user["id"]) if "id" in user else None


# ----- old turn messages ---------------------------------------------------------------------


async def test_a_new_turn_message_takes_the_buttons_off_the_old_one(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    await turn_messages(room)  # a message per turn (at the table: tests/test_discord_table.py)
    old = room.stage_message()
    before = (message_text(old), [a.filename for a in old.attachments])
    turn = (await player.game()).state.turn
    while (await player.game()).state.turn == turn:
        await player.step(await player.game())
    new = room.stage_message()
    assert new.id != old.id and custom_ids(new)
    now = stored(room, old.id)
    assert custom_ids(now) == []  # no buttons: no components, or (the table was a layout) a layout without them
    assert now.components == [] or (layout_of(now) is not None and not button_labels(now))
    assert (message_text(now), [a.filename for a in now.attachments]) == before  # words and image unchanged
    # only the newest stage message has buttons
    assert [m.id for m in room.public_messages() if custom_ids(m)] == [new.id]


# ----- private panels in place ---------------------------------------------------------------


async def test_taps_on_a_private_panel_change_it_in_place(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    _name, member = await mover(player)
    count = private_count(room, member)
    turn_message = room.stage_message()
    first = await member.click(turn_message, custom_id=deck_id(turn_message))  # a tap on the public turn message
    assert all_private(first) and private_count(room, member) == count + 1  # a new private answer
    assert (await player.game()).state.pending is not None, "the seeded game's first card must leave a second to draw"
    second_panel = panel(first, "ttr:draw:")
    turn = (await player.game()).state.turn
    second = await member.click(second_panel, custom_id=deck_id(second_panel))
    assert (await player.game()).state.turn == turn + 1
    (answer,) = replies(second)
    assert answer.id == second_panel.id  # the panel itself answers: no new private message
    assert private_count(room, member) == count + 1
    assert "You drew" in answer.content and custom_ids(answer) == []  # the turn is over: no controls left


async def test_a_claim_menu_stays_one_panel(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    for _ in range(40):  # play on until the member to move can claim a route at the start of a turn
        game = await player.game()
        current = game.to_move()
        assert current is not None
        if current.must == "turn" and game.claim_options(current.player):
            break
        await player.step(game)
    _name, member = await mover(player)
    turn = (await player.game()).state.turn
    count = private_count(room, member)
    menu = panel(await click(member, room.stage_message(), "ttr:claim:"), "ttrs:route:")
    assert private_count(room, member) == count + 1
    route_menu = find_id(menu, "ttrs:route:")
    route = select_options(menu, route_menu)[0]["value"]
    chosen = await member.select(menu, [route], custom_id=route_menu)
    assert [m.id for m in replies(chosen)] == [menu.id]  # the payment menu or the claim, in the same panel
    shown = replies(chosen)[0]
    if any(c.startswith("ttrs:pay:") for c in custom_ids(shown)):
        paid = await choose(member, shown, "ttrs:pay:", [select_options(shown, "ttrs:pay:")[0]["value"]])
        assert [m.id for m in replies(paid)] == [menu.id]
        shown = replies(paid)[0]
    # confirmations are on by default: the claim waits for Confirm, asked in the same panel
    assert any(c.startswith("ttr:claimok:") for c in custom_ids(shown)), custom_ids(shown)
    confirmed = await click(member, shown, "ttr:claimok:")
    assert [m.id for m in replies(confirmed)] == [menu.id]
    assert private_count(room, member) == count + 1
    assert (await player.game()).state.turn == turn + 1  # claimed: the turn is over
    assert custom_ids(replies(confirmed)[0]) == []  # and the panel says so, without controls


# ----- a turn message posted again -----------------------------------------------------------


async def first_blind_card(player: Player) -> tuple[str, MemberActor]:
    """The member to move draws a first card from the deck (by command); their turn goes on."""
    name, member = await mover(player)
    drawn = await slash(member, player.room, "ttr draw", card="deck")
    assert "You drew" in reply_text(drawn), reply_text(drawn)
    game = await player.game()
    assert game.state.pending is not None and game.to_move() is not None
    return name, member


async def test_a_turn_message_posted_again_says_what_is_pending(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    await turn_messages(room)  # a message per turn: posted again as a new message
    mods = await moderate(room)
    game_id, _ = await open_game(room, "usa", 2, trains=12)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    start = room.stage_message()
    assert "your turn: draw cards, claim a route" in message_text(start)

    _name, member = await first_blind_card(player)
    await slash(mods.moderator, room, "ttrmod pause", reason="a break")
    await slash(mods.moderator, room, "ttrmod resume", reason="back")
    again = room.stage_message()
    assert again.id != start.id
    assert "your turn goes on: draw your second card." in message_text(again), message_text(again)
    assert "draw cards, claim a route" not in message_text(again)
    assert stored(room, start.id).components == []

    await slash(member, room, "ttr draw", card="deck")  # the second card: the turn is over
    assert (await player.game()).state.pending is None
    preview = await slash(mods.moderator, room, "ttrmod undo", count=1, reason="misclick")
    done = await click(mods.moderator, panel(preview, "ttrmod:undo:yes"), "ttrmod:undo:yes")
    assert "went wrong" not in reply_text(done)
    undone = room.stage_message()
    assert "your turn goes on: draw your second card." in message_text(undone), message_text(undone)
    assert f"<@{member.id}>" in message_text(undone)
    # its buttons take the second card
    turn = (await player.game()).state.turn
    second = await member.click(undone, custom_id=deck_id(undone))
    assert all_private(second) and (await player.game()).state.turn == turn + 1, reply_text(second)


# ----- the lobby by buttons ------------------------------------------------------------------


def lobby_message(room: Room) -> discord.Message:
    return next(m for m in room.public_messages() if any(c.startswith("ttr:join:") for c in custom_ids(m)))


async def press(member: MemberActor, room: Room, message: Message, action: str) -> str:
    """A click on a button of the lobby message as it is now (its buttons carry the game's current version)."""
    result = await click(member, stored(room, message.id), f"ttr:{action}:")
    assert all_private(result), reply_text(result)
    return reply_text(result)


async def test_the_lobby_is_joined_left_and_started_by_buttons(simcord_env: Env) -> None:
    # the names are in custom ids Discord keeps, apart from the game's actions: they never change
    assert [a.value for a in LobbyAction] == ["join", "leave", "start"]
    assert not {a.value for a in LobbyAction} & {a.value for a in Action}
    room = make_room(simcord_env, ["alice", "bob", "carol", "dave", "erin"])
    alice, bob, carol, dave, erin = room.members
    await slash(alice, room, "ttr new", map="usa", max_players=4)
    lobby = lobby_message(room)
    assert "1/4 seated" in message_text(lobby) and "**Join**" in message_text(lobby)

    assert "You joined" in await press(bob, room, lobby, "join")
    assert "You joined" in await press(carol, room, lobby, "join")
    assert "already joined" in await press(carol, room, lobby, "join")
    now = stored(room, lobby.id)
    assert "3/4 seated" in message_text(now) and "bob" in message_text(now) and "carol" in message_text(now)
    assert custom_ids(now)  # the same message, its list up to date, its buttons on

    await restart(simcord_env)  # the buttons survive a restart
    assert "You joined" in await press(dave, room, lobby, "join")
    assert "4/4 seated" in stored(room, lobby.id).content
    assert "seats of this game are taken" in await press(erin, room, lobby, "join")
    assert "left game" in await press(dave, room, lobby, "leave")
    now = stored(room, lobby.id)
    assert "3/4 seated" in message_text(now) and "dave" not in message_text(now).split("\n")[-1]
    assert "not joined" in await press(erin, room, lobby, "leave")

    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None
    assert "Only the host can start" in await press(bob, room, lobby, "start")
    assert (await room.bot.service.core.game(info.id)).status is GameStatus.LOBBY

    assert "has started" in await press(alice, room, lobby, "start")
    assert (await room.bot.service.core.game(info.id)).status is not GameStatus.LOBBY
    assert stored(room, lobby.id).components == []  # the lobby's buttons are gone
    assert any(c.startswith("ttr:setup:") for c in custom_ids(room.stage_message()))


async def test_a_cancelled_lobby_loses_its_buttons(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    alice, bob = room.members
    await slash(alice, room, "ttr new", map="usa")
    lobby = lobby_message(room)
    await press(bob, room, lobby, "join")
    await slash(alice, room, "ttr cancel")
    assert stored(room, lobby.id).components == []


async def test_a_turn_message_posted_again_during_a_tunnel_leads_to_its_payment(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    mods = await moderate(room)
    game_id, _ = await open_game(room, "switzerland", 2)
    player = Player(room, game_id)
    for _ in range(300):  # the player claims tunnels whenever they can: play on until one waits for its payment
        game = await player.game()
        if game.state.pending is Pending.TUNNEL or game.finished:
            break
        await player.step(game)
    game = await player.game()
    assert game.state.pending is Pending.TUNNEL, "the seeded game must reach a tunnel asking for more cards"
    assert game.state.tunnel is not None
    surcharge = game.state.tunnel.surcharge
    _name, member = await mover(player)
    await slash(mods.moderator, room, "ttrmod pause", reason="a break")
    await slash(mods.moderator, room, "ttrmod resume", reason="back")
    again = room.stage_message()
    more = "1 more card" if surcharge == 1 else f"{surcharge} more cards"
    assert f"your turn goes on: pay {more} for the tunnel or give it up." in message_text(again), message_text(again)
    shown = await click(member, again, "ttr:setup:")  # "Go on with my turn"
    tunnel = panel(shown, "ttr:tunnel:")
    turn = (await player.game()).state.turn
    await member.click(tunnel, custom_id=find_id(tunnel, "ttr:tunnel:"))
    assert (await player.game()).state.turn == turn + 1
