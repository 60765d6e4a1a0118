"""`/ttrmod`: moderators pause, extend, replace, hand seats to the autopilot, undo and end games, read the log.

Every room here has a moderator role opened to `/ttrmod` by the server's
admin and named in `/ttr config`, a moderator with it, and a moderators' log
channel (tests/discord_harness.py: moderate). Games have a 1-hour turn clock.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta

import pytest
from discord_harness import (
    Moderation,
    Room,
    all_private,
    allow_command,
    attachment,
    can_use,
    click,
    custom_ids,
    dm_texts,
    end_game,
    keep_buttons,
    make_room,
    message_text,
    moderate,
    panel,
    reply_text,
    slash,
    turn_messages,
)
from discord_play import Player
from simcord import Env, MemberActor

from bot.present.mod_answers import NOT_A_MODERATOR
from engine import Game, Phase

pytestmark = pytest.mark.parametrize("game_seed", [5])
MINUTE = 60
HOUR = 60 * MINUTE


async def moderated_game(env: Env, names: tuple[str, ...] = ("alice", "bob")) -> tuple[Room, Moderation, Player]:
    """A room set up for moderation and a USA game with a 1-hour clock past the ticket choice, in a server that posts
    a message per turn (a moderator's action posts the turn again as a new message)."""
    room = make_room(env, list(names))
    await turn_messages(room)
    mods = await moderate(room)
    host = room.members[0]
    await slash(host, room, "ttr new", map="usa", trains=10, turn_time="1h", reserve="none")
    for member in room.members[1 : len(names)]:
        await slash(member, room, "ttr join")
    await slash(host, room, "ttr start")
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None
    player = Player(room, info.id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    return room, mods, player


async def mover(player: Player) -> tuple[Game, str, MemberActor]:
    game = await player.game()
    current = game.to_move()
    assert current is not None
    return game, current.player, await player.member(current.player)


async def deadline(player: Player, name: str) -> str | None:
    status = await player.service.reading.clock_status(player.game_id)
    seat = next(s for s in status.seats if s.player == name)
    return None if seat.deadline is None else seat.deadline.isoformat()


# ----- who may moderate ----------------------------------------------------------------------


async def test_moderator_commands_refuse_non_moderators_and_accept_the_role(simcord_env: Env) -> None:
    room, mods, player = await moderated_game(simcord_env)
    alice = room.members[0]
    # Discord shows /ttrmod to server managers by default, and to the role the admin opened it to
    assert not can_use(alice, room, "ttrmod pause")
    assert can_use(mods.moderator, room, "ttrmod pause") and can_use(mods.manager, room, "ttrmod pause")
    # opened to a role that is not the server's moderator role: Discord lets them try, the bot refuses
    helpers = room.guild.create_role("Helpers")
    helper = room.add_member("helper", roles=[helpers])
    allow_command(room, "ttrmod", {mods.role: True, helpers: True})
    version = (await player.service.core.game(player.game_id)).version
    _, name, _ = await mover(player)
    for command, options in (
        ("ttrmod pause", {"reason": "x"}),
        ("ttrmod resume", {"reason": "x"}),
        ("ttrmod extend", {"duration": "1h", "reason": "x"}),
        ("ttrmod replace", {"player": name, "member": helper, "reason": "x"}),
        ("ttrmod autopilot", {"player": name, "state": "on", "reason": "x"}),
        ("ttrmod undo", {"count": 1, "reason": "x"}),
        ("ttrmod end", {"score": "no", "reason": "x"}),
        ("ttrmod log", {}),
        ("ttrmod export", {}),
    ):
        result = await slash(helper, room, command, **options)
        assert all_private(result) and NOT_A_MODERATOR in reply_text(result), (command, reply_text(result))
    assert (await player.service.core.game(player.game_id)).version == version
    assert mods.log_lines() == []

    # the moderator role set by /ttr config, and server managers, are moderators
    paused = await slash(mods.moderator, room, "ttrmod pause", reason="tea break")
    assert all_private(paused) and "is paused" in reply_text(paused), reply_text(paused)
    resumed = await slash(mods.manager, room, "ttrmod resume", reason="tea is over")
    assert all_private(resumed) and "goes on" in reply_text(resumed), reply_text(resumed)
    assert len(mods.log_lines()) == 2
    # elsewhere there is no game to moderate
    other = room.guild.create_text_channel("elsewhere")
    nothing = await mods.moderator.slash(other, "ttrmod pause", reason="x")
    assert "no game in progress in this channel" in reply_text(nothing)


# ----- the clock -----------------------------------------------------------------------------


async def test_pause_stops_the_clock_and_resume_moves_the_deadline_on(simcord_env: Env) -> None:
    room, mods, player = await moderated_game(simcord_env)
    game, name, member = await mover(player)
    start = simcord_env.now()
    assert await deadline(player, name) == (start + timedelta(hours=1)).isoformat()
    await simcord_env.advance_time(10 * MINUTE)
    turn = room.stage_message()

    await slash(mods.moderator, room, "ttrmod pause", reason="server maintenance", public="yes")
    note = message_text(room.public_messages()[-1])
    assert note.startswith("**Moderator:** A moderator pauses the game") and "Reason: server maintenance" in note
    assert "Paused" in message_text(room.stage_message()) and room.stage_message().id == turn.id
    (line,) = mods.log_lines()
    assert "paused the game" in line and f"<@{mods.moderator.id}>" in line and "server maintenance" in line
    refused = await slash(member, room, "ttr draw", card="deck")
    assert "paused" in reply_text(refused)

    await simcord_env.advance_time(3 * HOUR)  # far past the deadline: nothing happens while paused
    assert (await player.game()).moves == game.moves
    assert not any("time is up" in message_text(m) for m in room.public_messages())

    keep_buttons(simcord_env, turn)  # as if taking its buttons off failed: they stay, and must not act
    await slash(mods.moderator, room, "ttrmod resume", reason="maintenance done")
    # the deadline moved on by the 3 hours of the pause
    assert await deadline(player, name) == (start + timedelta(hours=4)).isoformat()
    fresh = room.stage_message()
    assert fresh.id != turn.id and "A moderator resumes the game after 3 h" in message_text(fresh)
    assert "\N{ALARM CLOCK} Deadline" in message_text(fresh) and f"<@{member.id}>" in message_text(fresh)
    version = (await player.service.core.game(player.game_id)).version
    assert all(c.split(":")[3] == str(version) for c in custom_ids(fresh))
    old = await click(member, turn, "ttr:draw:")
    assert "out of date" in reply_text(old)
    drew = await click(member, fresh, "ttr:draw:")
    assert "You drew" in reply_text(drew) or "takes the face-up" in reply_text(drew), reply_text(drew)
    assert len(mods.log_lines()) == 2


async def test_extend_gives_more_time(simcord_env: Env) -> None:
    room, mods, player = await moderated_game(simcord_env)
    game, name, _member = await mover(player)
    start = simcord_env.now()
    choices = await mods.moderator.autocomplete(room.channel, "ttrmod extend", "player", "")
    assert name in {c["value"] for c in choices}
    bad = await slash(mods.moderator, room, "ttrmod extend", duration="a while", reason="x")
    assert "I cannot read 'a while'" in reply_text(bad)
    nobody = await slash(mods.moderator, room, "ttrmod extend", duration="1h", reason="x", player="zed")
    assert "There is no player 'zed'" in reply_text(nobody)

    await slash(mods.moderator, room, "ttrmod extend", duration="2h", reason="travelling", player=name, public="yes")
    assert await deadline(player, name) == (start + timedelta(hours=3)).isoformat()
    assert f"A moderator gives {name} 2 h more. Reason: travelling" in message_text(room.public_messages()[-1])
    assert "2 h more" in mods.log_lines()[-1]
    await simcord_env.advance_time(2 * HOUR + 50 * MINUTE)
    assert (await player.game()).moves == game.moves
    await simcord_env.advance_time(20 * MINUTE)
    assert len((await player.game()).moves) > len(game.moves)  # then the autopilot played the turn


# ----- seats ---------------------------------------------------------------------------------


async def test_replace_moves_the_private_view_to_the_substitute(simcord_env: Env) -> None:
    room, mods, player = await moderated_game(simcord_env)
    game, name, old = await mover(player)
    carol = room.add_member("carol")
    turn = room.stage_message()
    done = await slash(
        mods.moderator, room, "ttrmod replace", player=name, member=carol, reason="moved away", public="yes"
    )
    assert all_private(done) and f"plays {name}'s seat" in reply_text(done), reply_text(done)

    fresh = room.stage_message()
    assert fresh.id != turn.id
    assert f"A moderator gives {name}'s seat to carol. Reason: moved away" in message_text(fresh)
    assert f"<@{carol.id}> ({name})" in message_text(fresh) and f"<@{old.id}>" not in message_text(fresh)
    assert "gave" in mods.log_lines()[-1] and f"<@{carol.id}>" in mods.log_lines()[-1]
    assert any("You now play" in text and "/ttr hand" in text for text in dm_texts(room, carol))
    assert any("has given your seat" in text for text in dm_texts(room, old))

    hand = await slash(carol, room, "ttr hand")
    assert all_private(hand) and "Your cards" in reply_text(hand)
    cards = sum(game.state.players[game.seat(name)].hand.values())
    assert f"**Your cards** ({cards})" in reply_text(hand)
    for refused in (
        await slash(old, room, "ttr hand"),
        await slash(old, room, "ttr draw", card="deck"),
        await click(old, fresh, "ttr:hand:"),
        await click(old, fresh, "ttr:draw:"),
    ):
        assert all_private(refused) and "You are not playing in game #1" in reply_text(refused)
    drew = await click(carol, fresh, "ttr:draw:")
    assert "You drew" in reply_text(drew) or "takes the face-up" in reply_text(drew), reply_text(drew)
    record = json.loads((await attachment(await slash(mods.moderator, room, "ttrmod export")))[1])
    (change,) = record["conductor"]["seat_changes"]
    assert change["action"] == "replace" and change["to_user_id"] == carol.id and change["from_user_id"] == old.id


async def test_autopilot_takes_a_seat_and_gives_it_back(simcord_env: Env) -> None:
    room, mods, player = await moderated_game(simcord_env)
    game, name, member = await mover(player)
    await slash(mods.moderator, room, "ttrmod autopilot", player=name, state="on", reason="on holiday", public="yes")
    after = await player.game()
    assert len(after.moves) > len(game.moves) and after.to_move().player != name  # type: ignore[union-attr]
    turn = message_text(room.stage_message())
    assert f"A moderator hands {name}'s seat to the autopilot. Reason: on holiday" in turn
    assert f"{name} (autopilot)" in turn
    refused = await click(member, room.stage_message(), "ttr:draw:")
    assert "not your turn" in reply_text(refused) or "autopilot plays your seat" in reply_text(refused)
    status = reply_text(await slash(member, room, "ttr status"))
    assert f"{name} (autopilot)" in status

    back = await slash(
        mods.moderator, room, "ttrmod autopilot", player=name, state="off", reason="back home", public="yes"
    )
    assert "its member plays it again" in reply_text(back)
    fresh = room.stage_message()
    assert f"A moderator gives {name}'s seat back to {member.name}. Reason: back home" in message_text(fresh)
    assert len(mods.log_lines()) == 2
    await simcord_env.advance_time(61 * MINUTE)  # the member plays again: the clock runs for them
    _, now_to_move, _ = await mover(player)
    assert now_to_move == name
    drew = await click(member, room.stage_message(), "ttr:draw:")
    assert "You drew" in reply_text(drew) or "takes the face-up" in reply_text(drew), reply_text(drew)


# ----- undo and end --------------------------------------------------------------------------


async def test_undo_restores_the_exact_earlier_state(simcord_env: Env) -> None:
    room, mods, player = await moderated_game(simcord_env)
    before = await player.game()
    public_before = await player.service.reading.public_view(player.game_id)
    turn_before = room.stage_message()
    for _ in range(4):
        await player.step(await player.game())
    later = await player.game()
    undone = len(later.moves) - len(before.moves)
    assert undone >= 3 and later.state.turn > before.state.turn

    preview = await slash(mods.moderator, room, "ttrmod undo", count=undone, reason="misclick", public="yes")
    result = await click(mods.moderator, panel(preview, "ttrmod:undo:yes"), "ttrmod:undo:yes")
    assert all_private(result) and f"Took back {undone} moves" in reply_text(result), reply_text(result)
    restored = await player.game()
    assert restored.moves == before.moves and restored.state == before.state
    public_after = await player.service.reading.public_view(player.game_id)
    assert replace(public_after, version=0) == replace(public_before, version=0)
    fresh = room.stage_message()
    assert fresh.id != turn_before.id and fresh.id > turn_before.id
    assert f"A moderator takes back the last {undone} moves" in message_text(
        fresh
    ) and "Reason: misclick" in message_text(fresh)
    assert f"turn {before.state.turn + 1}:" in message_text(fresh)
    assert f"took back {undone} move(s)" in mods.log_lines()[-1]
    # the restored turn plays on from its new message, to the end
    _, _name, member = await mover(player)
    drew = await click(member, fresh, "ttr:draw:")
    assert "You drew" in reply_text(drew) or "takes the face-up" in reply_text(drew), reply_text(drew)
    game = await player.play()
    assert game.finished
    log_file = (await attachment(await slash(mods.moderator, room, "ttrmod log")))[1].decode()
    assert "later taken back" in log_file and "took back" in log_file and "misclick" in log_file


async def test_end_with_scoring_and_abandon(simcord_env: Env) -> None:
    room, mods, player = await moderated_game(simcord_env)
    for _ in range(3):
        await player.step(await player.game())
    await end_game(mods, room, score="yes", reason="time is up for the evening", public="yes")
    final = next(m for m in room.public_messages() if "is over" in message_text(m))
    assert "ended by a moderator, scored as it stood" in message_text(final) and "wins" in message_text(final)
    assert "A moderator ends the game now" in message_text(
        final
    ) and "Reason: time is up for the evening" in message_text(final)
    assert final.attachments[0].filename == "final.png"
    assert "ended the game with scoring" in mods.log_lines()[-1]
    info = await player.service.core.game(player.game_id)
    assert info.status.value == "finished"

    # a new game in the same channel, abandoned without a result
    alice, bob = room.members[:2]
    await slash(alice, room, "ttr new", map="india")
    await slash(bob, room, "ttr join")
    await slash(alice, room, "ttr start")
    await end_game(mods, room, score="no", reason="duplicate table")
    note = message_text(room.public_messages()[-1])
    assert "abandons the game: it ends without a result" in note and "wins" not in note
    assert "abandoned the game without a result" in mods.log_lines()[-1]
    assert await player.service.reading.active_game(room.channel.id) is None
    late = await slash(alice, room, "ttr draw", card="deck")
    assert "There is no game in this channel" in reply_text(late)


# ----- reading ---------------------------------------------------------------------------------


async def test_log_and_export_are_files_for_moderators_at_any_time(simcord_env: Env) -> None:
    room, mods, player = await moderated_game(simcord_env)
    _, name, _ = await mover(player)
    await slash(mods.moderator, room, "ttrmod pause", reason="checking a report")
    await slash(mods.moderator, room, "ttrmod resume", reason="all fine")
    await player.step(await player.game())

    result = await slash(mods.moderator, room, "ttrmod log", reason="a player's complaint")
    assert all_private(result)
    filename, data = await attachment(result)
    text = data.decode("utf-8")
    assert filename == f"conductor-game-{player.game_id}-log.txt"
    assert "paused the game - checking a report" in text and "resumed the game - all fine" in text
    # a text file: members by name, never as mentions
    assert f"moderator {mods.moderator.name}" in text and "UTC |" in text and "<@" not in text
    assert f"| {name} |" in text and "keeps" in text
    assert "read the log" in mods.log_lines()[-1] and "a player's complaint" in mods.log_lines()[-1]

    result = await slash(mods.moderator, room, "ttrmod export")
    assert all_private(result)
    filename, data = await attachment(result)
    record = json.loads(data)
    assert filename == f"conductor-game-{player.game_id}.json"
    assert record["conductor"]["game_id"] == player.game_id and record["conductor"]["status"] == "playing"
    assert [m["action"] for m in record["conductor"]["moderation"]] == ["pause", "resume"]
    assert "exported the record" in mods.log_lines()[-1]
    # none of it reached the game's channel
    assert not any("conductor-game" in message_text(m) for m in room.public_messages())
