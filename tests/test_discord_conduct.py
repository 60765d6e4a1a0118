"""Who may do what, and what everyone is told when something is not possible.

Only seated players act, only on their turn, only in their game's channel;
every refusal is a private answer that says why and what would work; an old
button never acts; a restart keeps the buttons working; closed DMs never
stall a game; nothing unexpected reaches a user as anything but an apology.
"""

from __future__ import annotations

import logging

import pytest
from discord_harness import (
    Room,
    all_private,
    click,
    close_dms,
    custom_ids,
    dm_attempts,
    keep_buttons,
    make_room,
    message_text,
    posted_texts,
    reply_text,
    restart,
    slash,
    turn_dms,
    turn_messages,
)
from discord_play import Player, open_game
from simcord import Env, MemberActor

from bot.table.play import Play
from engine import Game, Phase

pytestmark = pytest.mark.parametrize("game_seed", [7])


async def playing(env: Env, map_name: str = "usa", players: int = 2, *, per_turn: bool = False) -> tuple[Room, Player]:
    """A game past the ticket choice, the first player to move (`per_turn`: the server posts a message per turn)."""
    room = make_room(env, ["alice", "bob", "carol"][:players])
    if per_turn:
        await turn_messages(room)
    game_id, _ = await open_game(room, map_name, players, trains=8)
    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    return room, player


async def to_move(player: Player) -> tuple[Game, MemberActor, MemberActor]:
    game = await player.game()
    current = game.to_move()
    assert current is not None
    mover = await player.member(current.player)
    other = next(m for m in player.room.members if m.id != mover.id)
    return game, mover, other


async def test_a_watcher_cannot_act_and_is_told_why(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    watcher = room.add_member("watcher")
    version = (await player.service.core.game(player.game_id)).version
    for result in (
        await slash(watcher, room, "ttr draw", card="deck"),
        await slash(watcher, room, "ttr tickets"),
        await slash(watcher, room, "ttr hand"),
        await click(watcher, room.stage_message(), "ttr:draw:"),
        await click(watcher, room.stage_message(), "ttr:claim:"),
        await click(watcher, room.stage_message(), "ttr:hand:"),
    ):
        assert all_private(result)
        assert "You are not playing in game #1" in reply_text(result)
    assert (await player.service.core.game(player.game_id)).version == version
    assert await watcher.autocomplete(room.channel, "ttr claim", "route", "") == []


async def test_a_player_out_of_turn_is_refused(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    game, _mover, other = await to_move(player)
    version = (await player.service.core.game(player.game_id)).version
    for result in (
        await slash(other, room, "ttr draw", card="deck"),
        await slash(other, room, "ttr tickets"),
        await slash(other, room, "ttr claim", route="0"),
        await click(other, room.stage_message(), "ttr:draw:"),
        await click(other, room.stage_message(), "ttr:tickets:"),
        await click(other, room.stage_message(), "ttr:claim:"),
    ):
        assert all_private(result)
        assert "not your turn" in reply_text(result), reply_text(result)
        assert game.to_move().player in reply_text(result)  # type: ignore[union-attr]
    assert (await player.service.core.game(player.game_id)).version == version
    assert await other.autocomplete(room.channel, "ttr claim", "route", "") == []
    # their own hand is theirs to see at any time
    hand = await click(other, room.stage_message(), "ttr:hand:")
    assert all_private(hand) and "Your cards" in reply_text(hand)


async def test_commands_work_only_in_the_games_channel(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    _, mover, _ = await to_move(player)
    elsewhere = room.guild.create_text_channel("elsewhere")
    result = await mover.slash(elsewhere, "ttr draw", card="deck")
    assert all_private(result)
    assert "There is no game in this channel" in reply_text(result)
    assert f"<#{room.channel.id}>" in reply_text(result)


async def test_autocomplete_offers_only_the_routes_claimable_now(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    game, mover, _ = await to_move(player)
    name = game.to_move().player  # type: ignore[union-attr]
    claimable = {o.route.id: o.route.label() for o in game.claim_options(name)}
    assert claimable, "the test needs a player who can claim something"
    choices = await mover.autocomplete(room.channel, "ttr claim", "route", "")
    assert choices and len(choices) <= 25
    assert all(claimable[int(c["value"])] == c["name"] for c in choices)
    label = next(iter(claimable.values()))
    typed = await mover.autocomplete(room.channel, "ttr claim", "route", label[:6].lower())
    assert typed and all(label[:6].lower() in c["name"].lower() for c in typed)
    # a route that cannot be claimed, typed by hand anyway, is refused with the reason
    taken = next(r for r in game.board.routes if r.id not in claimable and r.length <= 8)
    result = await slash(mover, room, "ttr claim", route=f"{taken.a} - {taken.b}")
    assert all_private(result)
    assert "cannot" in reply_text(result) and "/ttr claim" in reply_text(result), reply_text(result)


async def test_wrong_input_gets_a_private_answer_with_what_would_work(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    game, mover, _ = await to_move(player)
    name = game.to_move().player  # type: ignore[union-attr]
    option = game.claim_options(name)[0]
    checks = {
        ("ttr draw", ("card", "purple")): "is not a card you can draw",
        ("ttr claim", ("route", "Atlantis - Denver")): "cannot read",
        ("ttr claim", ("route", "999")): "no route number 999",
        ("ttr keep", ("numbers", "1")): "no tickets to choose from",
    }
    for (command, (option_name, value)), expected in checks.items():
        result = await slash(mover, room, command, **{option_name: value})
        assert all_private(result)
        assert expected in reply_text(result), (command, value, reply_text(result))
    result = await slash(mover, room, "ttr claim", route=str(option.route.id), pay="3 pnk")
    assert all_private(result)
    assert "'pnk' is not a card on this map" in reply_text(result)
    assert "locomotive" in reply_text(result)  # the cards that would work are listed
    result = await slash(mover, room, "ttr claim", route=str(option.route.id), pay="9 locomotive")
    assert all_private(result)
    assert "takes" in reply_text(result) or "hold only" in reply_text(result), reply_text(result)
    assert (await player.game()).state.turn == game.state.turn  # nothing happened


async def test_an_old_button_never_acts(simcord_env: Env) -> None:
    room, player = await playing(simcord_env, per_turn=True)
    game, mover, other = await to_move(player)
    old = room.stage_message()
    keep_buttons(simcord_env, old)  # as if taking its buttons off failed: they stay, and must not act
    # the first card of the turn: the turn message is still the newest, but its version is not
    first = await click(mover, old, "ttr:draw:")
    assert all_private(first)
    assert "You drew" in reply_text(first) or "takes the face-up" in reply_text(first), reply_text(first)
    if (await player.game()).state.pending is not None:
        # the second card from the same turn message, still the current one, works for the member to move
        # (issue 25: it used to be refused as "shown before the game moved on"); for anyone else it does nothing
        deck = next(c for c in custom_ids(old) if c.startswith("ttr:draw:") and ":deck:" in c)
        other_try = await other.click(old, custom_id=deck)
        assert all_private(other_try) and "You drew" not in reply_text(other_try), reply_text(other_try)
        assert (await player.game()).state.pending is not None
        again = await mover.click(old, custom_id=deck)
        assert all_private(again)
        assert "You drew" in reply_text(again), reply_text(again)
    assert (await player.game()).state.turn == game.state.turn + 1
    version = (await player.service.core.game(player.game_id)).version
    for member in (mover, other):
        result = await click(member, old, "ttr:draw:")
        assert all_private(result)
        assert "out of date" in reply_text(result) and "latest one" in reply_text(result)
        result = await click(member, old, "ttr:hand:")
        assert "out of date" in reply_text(result)
    assert (await player.service.core.game(player.game_id)).version == version


async def test_a_restart_in_the_middle_keeps_the_buttons_working(simcord_env: Env) -> None:
    room, player = await playing(simcord_env, "switzerland", 3, per_turn=True)
    for _ in range(4):
        await player.step(await player.game())
    while (await player.game()).state.pending is not None:  # stop at the start of a turn
        await player.step(await player.game())
    before = await player.game()
    message = room.stage_message()
    await restart(simcord_env)
    assert room.public_messages()[-1].id == message.id  # nothing was posted again
    # the buttons of the message posted before the restart work with the new bot
    game, mover, _ = await to_move(player)
    assert game.moves == before.moves
    hand = await click(mover, message, "ttr:hand:")
    assert all_private(hand) and "Your cards" in reply_text(hand)
    deck = next(c for c in custom_ids(message) if c.startswith("ttr:draw:") and ":deck:" in c)
    drew = await player.run(await mover.click(message, custom_id=deck), mover)
    assert all_private(drew) and "You drew" in reply_text(drew), reply_text(drew)
    assert len((await player.game()).moves) == len(before.moves) + 1
    await player.play()
    assert (await player.game()).finished


async def test_a_player_with_closed_dms_still_plays(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    bob = room.members[1]
    await turn_dms(room, *room.members)  # both chose "your turn" DMs
    close_dms(simcord_env, bob)
    game_id, _ = await open_game(room, "india", 2, trains=6)
    player = Player(room, game_id)
    await player.play()
    assert (await player.game()).finished
    assert dm_attempts(simcord_env, bob) == 1  # refused once (50007), then never tried again
    assert await room.bot.service.store.messages.dm_refused(bob.id)
    assert dm_attempts(simcord_env, room.members[0]) > 2  # alice got her "your turn" notes
    # bob is told in the channel instead, by one line that mentions him
    assert any(f"<@{bob.id}>" in t and "your turn" in t for t in posted_texts(simcord_env, room.channel))
    dms = [m.content for m in room.dms(room.members[0])]
    assert any("It is your turn" in text for text in dms)
    assert not any("Your cards" in text or "You drew" in text for text in dms)  # DMs carry no secrets


async def test_a_blind_draw_is_told_as_a_draw_from_the_deck(simcord_env: Env) -> None:
    room, player = await playing(simcord_env)
    _, mover, _ = await to_move(player)
    first = await slash(mover, room, "ttr draw", card="deck")
    assert "You drew" in reply_text(first)
    await slash(mover, room, "ttr draw", card="deck")
    turn = room.stage_message()
    assert f"{mover.name} draws a card from the deck. {mover.name} draws a second card from the deck." in message_text(
        turn
    )
    assert turn.attachments[0].description


async def test_every_interaction_is_deferred_first(simcord_env: Env) -> None:
    _room, player = await playing(simcord_env, "amsterdam", 2)
    for _ in range(6):
        await player.step(await player.game())
    callbacks = [r for r in simcord_env.http_requests if r.path.startswith("/interactions/")]
    assert callbacks
    # 5: deferred with a private "thinking" answer; 8: autocomplete choices;
    # 6: deferred update, only for a tap on a private panel (answered by editing that panel)
    assert {r.json["type"] for r in callbacks} <= {5, 6, 8}
    assert all(r.json["data"].get("flags") == 64 for r in callbacks if r.json["type"] == 5)
    for r in callbacks:
        if r.json["type"] == 6:
            record = simcord_env.backend.interactions[int(r.path.split("/")[2])]
            assert record.type == 3  # a component
            source = simcord_env.backend.get_message(record.channel_id, record.source_message_id)
            assert source.flags & 64, "a deferred update of a public message"


async def test_an_unexpected_failure_is_an_apology_and_a_log_line(
    simcord_env: Env, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, _player = await playing(simcord_env)

    async def broken(*args: object) -> None:
        raise RuntimeError("the board printer caught fire")

    monkeypatch.setattr(Play, "show_board", broken)
    with caplog.at_level(logging.ERROR):
        result = await slash(room.members[0], room, "ttr board")
    assert all_private(result)
    assert "Sorry, something went wrong" in reply_text(result)
    assert "fire" not in reply_text(result) and "Traceback" not in reply_text(result)
    assert any("game #1" in r.getMessage() and r.exc_info for r in caplog.records)


async def test_a_failed_turn_message_is_posted_again_later(simcord_env: Env) -> None:
    room, player = await playing(simcord_env, per_turn=True)
    _, mover, _ = await to_move(player)
    turn = (await player.game()).state.turn
    simcord_env.inject_error("POST", f"/channels/{room.channel.id}/messages", status=500, times=1)
    await slash(mover, room, "ttr draw", card="deck")
    result = await slash(mover, room, "ttr draw", card="deck")
    assert "Your move counts" in reply_text(result)
    assert (await player.game()).state.turn == turn + 1
    assert f"turn {turn + 2}:" not in message_text(room.stage_message())
    await simcord_env.advance_time(20)
    assert f"turn {turn + 2}:" in message_text(room.stage_message())
