"""Turn clocks in Discord, on SimCord's simulated time.

Games here have one hour per turn and no reserve, so the reminders fall at 30
and 54 minutes of a turn (half time and near the end) and the deadline at 60.
`env.advance_time` moves the clocks; the steps never stop right at a timer.
"""

from __future__ import annotations

from typing import Any

import pytest
from discord_harness import (
    Room,
    all_private,
    click,
    close_dms,
    dm_texts,
    make_room,
    message_text,
    moderate,
    posted_texts,
    reply_text,
    restart,
    slash,
    turn_dms,
    turn_messages,
)
from discord_play import Player
from simcord import Env, MemberActor

from bot.service import ClockSettings
from engine import Game, Phase

pytestmark = pytest.mark.parametrize("game_seed", [3])
MINUTE = 60


async def clocked_game(
    room: Room, players: int = 2, *, policy: str = "autopilot", **options: Any
) -> tuple[Player, Game, MemberActor, MemberActor]:
    """A USA game with a 1-hour turn clock, past the ticket choice: the player, the game, who moves, another player."""
    host = room.members[0]
    opened = await slash(
        host, room, "ttr new", map="usa", trains=8, turn_time="1h", reserve="none", timeout_policy=policy, **options
    )
    assert all_private(opened) and "You opened game" in reply_text(opened), reply_text(opened)
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None
    for member in room.members[1:players]:
        await slash(member, room, "ttr join")
    await slash(host, room, "ttr start")
    player = Player(room, info.id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    game = await player.game()
    current = game.to_move()
    assert current is not None
    mover = await player.member(current.player)
    other = next(m for m in room.members[:players] if m.id != mover.id)
    return player, game, mover, other


def reminders_to(room: Room, member: MemberActor) -> list[str]:
    return [text for text in dm_texts(room, member) if text.startswith("Reminder")]


def channel_reminders(room: Room) -> list[str]:
    return [message_text(m) for m in room.public_messages() if "Reminder:" in message_text(m)]


async def timeouts(room: Room, game_id: int) -> list[int]:
    audit = await room.bot.service.audit.audit(game_id)
    return [a.details["timeouts"] for a in audit if a.action == "timeout"]


async def draw_two(room: Room, member: MemberActor) -> None:
    for _ in range(2):
        result = await slash(member, room, "ttr draw", card="deck")
        assert "You drew" in reply_text(result), reply_text(result)


# ----- reminders -------------------------------------------------------------------------


async def test_reminders_arrive_at_half_time_and_near_the_end_once_each(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    assert room.bot.service.core.now() == simcord_env.now()  # the service runs on simulated time
    await turn_dms(room, *room.members)  # they chose DMs (at the table the others are reminded in the channel)
    player, _, mover, other = await clocked_game(room)
    close_dms(simcord_env, other)

    # a member who takes DMs: reminded by DM, with a link to the turn message
    await simcord_env.advance_time(29 * MINUTE)
    assert reminders_to(room, mover) == []
    await simcord_env.advance_time(2 * MINUTE)
    (first,) = reminders_to(room, mover)
    assert "game #1" in first and "Time left: 30 min" in first and "the autopilot plays for you" in first
    assert f"https://discord.com/channels/{room.guild.id}/{room.channel.id}/{room.stage_message().id}" in first
    await simcord_env.advance_time(20 * MINUTE)
    assert len(reminders_to(room, mover)) == 1
    await simcord_env.advance_time(4 * MINUTE)
    assert len(reminders_to(room, mover)) == 2 and "Time left: 6 min" in reminders_to(room, mover)[1]
    assert channel_reminders(room) == []  # nothing in the channel for them

    # the move ends the turn before its deadline; now a member who refuses DMs is to move
    await draw_two(room, mover)
    await simcord_env.advance_time(31 * MINUTE)
    (mention,) = channel_reminders(room)
    assert mention.startswith(f"<@{other.id}> Reminder:") and "Time left: 30 min" in mention
    assert "\n" not in mention  # one short line
    await simcord_env.advance_time(24 * MINUTE)
    (mention,) = channel_reminders(room)  # the second replaced the first: the channel is not flooded
    assert "Time left: 6 min" in mention
    assert len([t for t in posted_texts(simcord_env, room.channel) if "Reminder:" in t]) == 2

    # once the deadline has passed, no more reminders for that turn, and the new turn message clears the last one
    await simcord_env.advance_time(10 * MINUTE)
    assert await timeouts(room, player.game_id) == [1]
    assert channel_reminders(room) == []
    assert len([t for t in posted_texts(simcord_env, room.channel) if "Reminder:" in t]) == 2
    assert len(reminders_to(room, mover)) == 2
    assert reminders_to(room, other) == []


# ----- timeouts ----------------------------------------------------------------------------


async def test_a_timeout_lets_the_autopilot_play_the_turn_and_the_next_player_is_told(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    await turn_messages(room)  # a message per turn: the timeout's turn is a new one
    await turn_dms(room, *room.members)  # they chose "your turn" DMs
    player, game, _mover, other = await clocked_game(room)
    name = game.to_move().player  # type: ignore[union-attr]
    moves = len(game.moves)
    turn_message = room.stage_message()
    assert "\N{ALARM CLOCK} Deadline <t:" in message_text(turn_message)

    await simcord_env.advance_time(59 * MINUTE)
    assert len((await player.game()).moves) == moves and room.stage_message().id == turn_message.id
    await simcord_env.advance_time(2 * MINUTE)

    after = await player.game()
    assert len(after.moves) > moves and all(m.player == name for m in after.moves[moves:])
    assert after.to_move().player != name  # type: ignore[union-attr]
    assert await timeouts(room, player.game_id) == [1]
    turn = room.stage_message()
    assert turn.id != turn_message.id
    assert f"{name}'s time is up: the autopilot plays this turn for them." in message_text(turn)
    assert f"{name} (autopilot, time ran out)" in message_text(turn)
    assert f"<@{other.id}>" in message_text(turn) and f"turn {after.state.turn + 1}:" in message_text(turn)
    # the next player's "your turn" note came by DM, with what changed since their own last turn
    note = dm_texts(room, other)[-1]
    assert note.startswith("It is your turn in your USA game #1") and "Since your last turn:" in note
    assert "(autopilot)" in note and "Face-up now:" in note and "Deadline: <t:" in note
    # the digest is private: never in the channel
    assert not any(
        "Since your last turn" in message_text(m) or "Face-up now" in message_text(m) for m in room.public_messages()
    )
    # the new turn message's buttons work
    drew = await click(other, turn, "ttr:draw:")
    assert all_private(drew) and ("You drew" in reply_text(drew) or "takes the face-up" in reply_text(drew))


async def test_the_wait_policy_calls_a_moderator_once(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    mods = await moderate(room)
    player, game, _mover, _other = await clocked_game(room, policy="wait")
    name = game.to_move().player  # type: ignore[union-attr]
    await simcord_env.advance_time(61 * MINUTE)
    waits = [m for m in room.public_messages() if "time is up: the game waits for a moderator" in message_text(m)]
    assert len(waits) == 1
    (line,) = mods.log_lines()
    assert f"Game #{player.game_id}" in line and "ran out of time" in line and "waits for a moderator" in line
    assert "Time ran out: the game waits for a moderator" in message_text(room.stage_message())
    assert len((await player.game()).moves) == len(game.moves)  # nobody moved for them

    await simcord_env.advance_time(5 * 60 * MINUTE)
    assert len([m for m in room.public_messages() if "time is up" in message_text(m)]) == 1
    assert len(mods.log_lines()) == 1
    assert await timeouts(room, player.game_id) == [1]

    # the player may still move; or a moderator gives them time again
    extended = await slash(mods.moderator, room, "ttrmod extend", duration="2h", reason="on a train", player=name)
    assert all_private(extended) and "2 h more" in reply_text(extended), reply_text(extended)
    assert "\N{ALARM CLOCK} Deadline" in message_text(room.stage_message())
    assert len(mods.log_lines()) == 2 and "2 h more" in mods.log_lines()[1] and "on a train" in mods.log_lines()[1]
    await simcord_env.advance_time(119 * MINUTE)
    assert await timeouts(room, player.game_id) == [1]
    await simcord_env.advance_time(2 * MINUTE)
    assert await timeouts(room, player.game_id) == [1, 2]


# ----- restarts --------------------------------------------------------------------------


@pytest.mark.parametrize("down_for", [0, 2 * 60 * MINUTE], ids=["deadline-after-restart", "deadline-while-down"])
async def test_a_restart_between_scheduling_and_deadline_fires_it_once(simcord_env: Env, down_for: int) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    await turn_messages(room)  # a message per turn: the one that tells the timeout
    player, game, _mover, _other = await clocked_game(room)
    name = game.to_move().player  # type: ignore[union-attr]
    await simcord_env.advance_time(35 * MINUTE)
    await restart(simcord_env, down_for=down_for)
    # the time the bot was down does not count: the deadline is 25 minutes after the restart either way
    assert await timeouts(room, player.game_id) == []
    await simcord_env.advance_time(30 * MINUTE)
    assert await timeouts(room, player.game_id) == [1]
    after = await player.game()
    assert after.moves[len(game.moves)].player == name and after.to_move().player != name  # type: ignore[union-attr]
    ups = [m for m in room.public_messages() if "time is up" in message_text(m)]
    assert len(ups) == 1 and ups[0].id == room.stage_message().id

    # a second restart fires nothing again
    await restart(simcord_env)
    await simcord_env.advance_time(10 * MINUTE)
    assert await timeouts(room, player.game_id) == [1]
    assert len([m for m in room.public_messages() if "time is up" in message_text(m)]) == 1
    assert (await player.game()).moves == after.moves


# ----- options, status and autopilot players ---------------------------------------------


async def test_clock_options_server_defaults_and_status(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    mods = await moderate(room)
    alice = room.members[0]
    config = await slash(mods.manager, room, "ttr config", turn_time="12h", reserve="1d", timeout_policy="wait")
    assert "12 h per turn, 1 d reserve each; when time runs out, the game waits for a moderator" in reply_text(config)
    assert "reminders at 50%, 90% of the time" in reply_text(config)
    fewer = await slash(mods.manager, room, "ttr config", reminders="75%")
    assert "reminders at 75% of the time" in reply_text(fewer)
    wrong = await slash(mods.manager, room, "ttr config", reminders="often")
    assert "I cannot read 'often' as reminders" in reply_text(wrong)
    refused = await slash(alice, room, "ttr config", turn_time="1h")
    assert "manage this server" in reply_text(refused)

    await slash(alice, room, "ttr new", map="india")
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None and info.clock == ClockSettings(12 * 3600, 24 * 3600, "wait", (0.75,))
    assert "Clock: 12 h per turn, 1 d reserve each" in message_text(room.public_messages()[-1])
    await slash(alice, room, "ttr cancel")

    bad = await slash(alice, room, "ttr new", map="india", turn_time="soon")
    assert all_private(bad) and "I cannot read 'soon'" in reply_text(bad) and '"12h"' in reply_text(bad)
    assert await room.bot.service.reading.active_game(room.channel.id) is None
    choices = await alice.autocomplete(room.channel, "ttr new", "turn_time", "")
    assert {"12h", "1d", "none"} <= {c["value"] for c in choices}

    await slash(alice, room, "ttr new", map="india", turn_time="none")
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None and not info.clock.enabled
    await slash(alice, room, "ttr cancel")

    await slash(alice, room, "ttr new", map="india", turn_time="2d", reserve="6h", timeout_policy="autopilot")
    await slash(room.members[1], room, "ttr join")
    await slash(alice, room, "ttr start")
    status = reply_text(await slash(alice, room, "ttr status"))
    assert "2 d per turn, 6 h reserve each; when time runs out, the autopilot plays the turn" in status
    assert "deadline <t:" in status and "Reserve left: " in status and "6 h" in status
    await slash(mods.moderator, room, "ttrmod pause", reason="server maintenance")
    status = reply_text(await slash(alice, room, "ttr status"))
    assert "Paused" in status and "deadline <t:" not in status


async def test_a_game_with_autopilot_players_plays_through_with_one_member(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice"])
    alice = room.members[0]
    opened = await slash(alice, room, "ttr new", map="usa", trains=6, bots=2, max_players=4)
    assert "You opened game" in reply_text(opened), reply_text(opened)
    lobby = message_text(room.public_messages()[-1])
    assert "2 seats are taken by the autopilot" in lobby and "Autopilot 1" in lobby and "Autopilot 2" in lobby
    added = await slash(alice, room, "ttr addbot")
    assert "autopilot player takes a seat" in reply_text(added)
    removed = await slash(alice, room, "ttr removebot", name="Autopilot 3")
    assert "Autopilot 3 left" in reply_text(removed), reply_text(removed)
    late = await slash(alice, room, "ttr removebot", name="Autopilot 9")
    assert "no autopilot player 'Autopilot 9'" in reply_text(late)
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None and [s.display_name for s in info.seats] == ["alice", "Autopilot 1", "Autopilot 2"]

    await slash(alice, room, "ttr start")
    player = Player(room, info.id)
    game = await player.play()
    assert game.finished
    texts = [message_text(m) for m in room.public_messages()]
    # the autopilot's turns are told in the channel, chained after alice's own
    assert any("**Turn " in t and "Autopilot 1 " in t and "Autopilot 2 " in t for t in texts)
    assert any("is over" in t for t in texts)
    assert not any("<@-" in t for t in texts)  # autopilot players are never mentioned
    assert all("<@" not in t or f"<@{alice.id}>" in t for t in texts if "your turn" in t)
    # alice moved on every turn message; no DMs to anyone but her
    assert not any("Since your last turn" in t for t in texts)
    moves = await room.bot.service.store.history.moves(info.id)
    assert {m.actor for m in moves} == {"player", "autopilot"}
    assert {m.user_id for m in moves if m.actor == "player"} == {alice.id}
