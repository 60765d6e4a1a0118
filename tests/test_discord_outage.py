"""The bot down for hours in Discord: nobody is timed out for it, the channel is told, the missed reminder comes.

Games have one hour per turn and no reserve (reminders at 30 and 54 minutes,
the deadline at 60), on SimCord's simulated time; `restart(down_for=...)`
stops the bot cleanly, lets the time pass and starts a new one.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from discord_harness import make_room, message_text, restart, turn_dms
from simcord import Env
from test_discord_clock import clocked_game, reminders_to, timeouts

from bot.present.clock import timestamp

pytestmark = pytest.mark.parametrize("game_seed", [3])
MINUTE = 60
NOTE = "The bot was offline for 5 h; the clocks were moved on by that much."


async def test_a_long_outage_counts_against_no_one(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    await turn_dms(room, *room.members)  # reminded by DM, as they chose
    player, _game, mover, _other = await clocked_game(room)
    await simcord_env.advance_time(20 * MINUTE)
    assert reminders_to(room, mover) == []

    await restart(simcord_env, down_for=5 * 60 * MINUTE)
    assert await timeouts(room, player.game_id) == []
    deadline = simcord_env.now() + timedelta(minutes=40)
    stage = message_text(room.stage_message())
    assert stage.startswith(f"\N{ALARM CLOCK} {NOTE}") and timestamp(deadline) in stage
    assert [message_text(m) for m in room.public_messages()].count(f"\N{ALARM CLOCK} {NOTE}") == 0  # not on its own
    (reminder,) = reminders_to(room, mover)
    assert "Time left: 40 min" in reminder
    audit = await room.bot.service.audit.audit(player.game_id)
    assert [a.details["seconds"] for a in audit if a.action == "outage"] == [5 * 60 * MINUTE]

    await simcord_env.advance_time(39 * MINUTE)
    assert await timeouts(room, player.game_id) == [] and len(reminders_to(room, mover)) == 1
    await simcord_env.advance_time(2 * MINUTE)
    assert await timeouts(room, player.game_id) == [1]


async def test_a_short_restart_changes_nothing(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    await turn_dms(room, *room.members)  # reminded by DM, as they chose
    player, _game, mover, _other = await clocked_game(room)
    await simcord_env.advance_time(20 * MINUTE)
    stage = room.stage_message()
    before = [(t.kind, t.deadline) for t in await room.bot.service.store.timers.timers(player.game_id)]

    await restart(simcord_env, down_for=30)
    assert room.stage_message().id == stage.id
    assert not any("offline" in message_text(m) for m in room.public_messages())
    assert [(t.kind, t.deadline) for t in await room.bot.service.store.timers.timers(player.game_id)] == before
    await simcord_env.advance_time(11 * MINUTE)
    assert len(reminders_to(room, mover)) == 1  # at minute 30 of the turn, as if there had been no restart
    await simcord_env.advance_time(30 * MINUTE)
    assert await timeouts(room, player.game_id) == [1]
