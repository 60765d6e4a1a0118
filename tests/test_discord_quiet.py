"""What a member chooses to hear, on SimCord's simulated time: turn DMs, reminders (the reserve's too), quiet hours.

`/ttr settings turn_dms reminders quiet_hours timezone` are each member's own;
the turn message's mention in the channel never changes. The scheduler sends
held DMs on its heartbeat (every 10 simulated minutes here), so the steps
below stop 11 minutes after a held message falls due.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import discord
import pytest
from discord_harness import Room, all_private, close_dms, dm_texts, make_room, message_text, reply_text, slash, turn_dms
from discord_play import Player
from simcord import Env, MemberActor

from engine import Phase

pytestmark = pytest.mark.parametrize("game_seed", [3])
MINUTE = 60
HOUR = 3600
HELSINKI = ZoneInfo("Europe/Helsinki")


async def clocked(room: Room, **options: Any) -> tuple[Player, MemberActor, MemberActor]:
    """A two-player USA game with the clock of `options`, past the ticket choice: the player, who moves, the other."""
    host = room.members[0]
    opened = await slash(host, room, "ttr new", map="usa", trains=8, timeout_policy="autopilot", **options)
    assert all_private(opened) and "You opened game" in reply_text(opened), reply_text(opened)
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None
    await slash(room.members[1], room, "ttr join")
    await slash(host, room, "ttr start")
    player = Player(room, info.id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    current = (await player.game()).to_move()
    assert current is not None
    mover = await player.member(current.player)
    other = next(m for m in room.members[:2] if m.id != mover.id)
    return player, mover, other


async def draw_two(room: Room, member: MemberActor) -> None:
    for _ in range(2):
        result = await slash(member, room, "ttr draw", card="deck")
        assert "You drew" in reply_text(result), reply_text(result)


def turn_notes(room: Room, member: MemberActor) -> list[str]:
    return [t for t in dm_texts(room, member) if t.startswith("It is your turn")]


def reminders(room: Room, member: MemberActor) -> list[str]:
    return [t for t in dm_texts(room, member) if t.startswith("Reminder")]


def channel_reminders(room: Room) -> list[str]:
    return [message_text(m) for m in room.public_messages() if "Reminder:" in message_text(m)]


async def settings(room: Room, member: MemberActor, **options: Any) -> str:
    result = await slash(member, room, "ttr settings", **options)
    assert all_private(result), reply_text(result)
    return reply_text(result)


# ----- the reserve is announced; reminders off ------------------------------------------------------


async def test_the_reserve_is_announced_and_a_member_may_turn_reminders_off(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    await turn_dms(room, *room.members)  # they chose DMs
    _player, mover, other = await clocked(room, turn_time="1h", reserve="1h")
    said = await settings(room, other, reminders="off")
    assert "reminders: **off**" in said and "Saved." in said
    close_dms(simcord_env, other)  # not even the channel's line comes for them

    # the mover: reminders at 30 and 54 minutes, the reserve's start at 60, 90% of it used at 114
    await simcord_env.advance_time(61 * MINUTE)
    got = reminders(room, mover)
    assert len(got) == 3, got
    assert "Your turn time is up: your reserve runs from now on." in got[2] and "Time left: 1 h" in got[2]
    await simcord_env.advance_time(50 * MINUTE)
    assert len(reminders(room, mover)) == 3  # nothing more while most of the reserve runs
    await simcord_env.advance_time(4 * MINUTE)
    got = reminders(room, mover)
    assert len(got) == 4 and "Your reserve runs out soon." in got[3] and "Time left: 6 min" in got[3], got
    await simcord_env.advance_time(10 * MINUTE)  # the autopilot played the turn; now the other member's turn
    turn = room.stage_message()
    assert f"<@{other.id}>" in message_text(turn) and other.id in [u.id for u in turn.mentions]
    await advance(simcord_env, 2 * HOUR + 10 * MINUTE)  # their whole turn and reserve, and the timeout
    assert reminders(room, other) == [] and channel_reminders(room) == []


# ----- turn DMs only once a turn has waited --------------------------------------------------------


async def test_turn_dms_after_a_wait_come_only_for_a_turn_that_waited_that_long(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    _player, mover, other = await clocked(room, turn_time="12h", reserve="none")
    said = await settings(room, other, turn_dms="3600")
    assert "turn DMs: **after 1 h**" in said, said
    before = len(turn_notes(room, other))

    await draw_two(room, mover)  # the other member's turn: no DM at once, one after an hour
    assert f"<@{other.id}>" in message_text(room.stage_message())  # the channel's mention, at once
    await simcord_env.advance_time(50 * MINUTE)
    assert len(turn_notes(room, other)) == before
    await simcord_env.advance_time(21 * MINUTE)
    notes = turn_notes(room, other)
    assert len(notes) == before + 1 and "Since your last turn" in notes[-1]

    # a turn played within the hour gets no DM at all
    await draw_two(room, other)
    await draw_two(room, mover)
    await simcord_env.advance_time(30 * MINUTE)
    await draw_two(room, other)
    await simcord_env.advance_time(2 * HOUR)
    assert len(turn_notes(room, other)) == before + 1
    assert (await room.bot.service.members.held_dms(other.id)) == []


# ----- quiet hours across midnight -----------------------------------------------------------------


def helsinki(moment: datetime) -> datetime:
    return moment.astimezone(HELSINKI)


async def until_local(env: Env, hour: int, minute: int = 0) -> None:
    """Move simulated time on to the next hour:minute in Helsinki."""
    now = helsinki(env.now())
    target = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if target <= now:
        target += timedelta(days=1)
    await advance(env, (target - now).total_seconds())


async def advance(env: Env, seconds: float) -> None:
    """`env.advance_time` in steps of at most two hours (each step must settle within SimCord's time limit)."""
    while seconds > 0:
        step = min(seconds, 2 * HOUR)
        await env.advance_time(step)
        seconds -= step


async def test_quiet_hours_across_midnight_hold_messages_until_they_end(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    await turn_dms(room, *room.members)  # they chose DMs
    await until_local(simcord_env, 20)
    _player, mover, other = await clocked(room, turn_time="12h", reserve="none")
    said = await settings(room, other, quiet_hours="22-07", timezone="Europe/Helsinki")
    assert "quiet hours: **22:00-07:00** (Europe/Helsinki)" in said and "not time" in said, said
    before_notes, before_reminders = len(turn_notes(room, other)), len(reminders(room, other))

    await until_local(simcord_env, 22, 30)
    await draw_two(room, mover)  # 22:30 in Helsinki: the other member's turn, inside their quiet hours
    deadline = simcord_env.now() + timedelta(hours=12)
    assert f"<@{other.id}>" in message_text(room.stage_message())  # the channel still says it
    await until_local(simcord_env, 6, 55)  # past the reminder at half time (04:30) and midnight
    assert len(turn_notes(room, other)) == before_notes and len(reminders(room, other)) == before_reminders
    held = await room.bot.service.members.held_dms(other.id)
    assert sorted(h.kind for h in held) == ["reminder", "turn"]
    assert all(helsinki(h.due_at).hour == 7 for h in held)

    await until_local(simcord_env, 7, 11)
    notes, got = turn_notes(room, other), reminders(room, other)
    assert len(notes) == before_notes + 1 and len(got) == before_reminders + 1
    assert "Time left: 3 h 30 min" in got[-1]  # as of 07:00, when it was sent: the clock ran on meanwhile
    assert deadline - simcord_env.now() < timedelta(hours=3, minutes=30)
    assert await room.bot.service.members.held_dms(other.id) == []

    # out of the quiet hours, the next reminder comes on time (at 90%: 09:18)
    await until_local(simcord_env, 9, 20)
    assert len(reminders(room, other)) == before_reminders + 2


# ----- away ---------------------------------------------------------------------------------------


def played_for(room: Room, member: MemberActor) -> list[str]:
    return [t for t in dm_texts(room, member) if "autopilot" in t and ("your seat" in t or "played for you" in t)]


async def test_an_away_member_is_played_at_once_over_several_turns_and_gets_one_summary(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    player, mover, other = await clocked(room, turn_time="12h", reserve="none")
    moves = len((await player.game()).moves)
    notes = len(turn_notes(room, mover))
    said = await settings(room, mover, away="2d")
    assert "away: **until <t:" in said, said
    # it was their turn: the autopilot played it at once, and the other member's turn came
    game = await player.game()
    assert len(game.moves) > moves and (await player.member(game.to_move().player)).id == other.id  # type: ignore[union-attr]
    for _ in range(3):  # three more turns of theirs, each played at once, without waiting out the clock
        await draw_two(room, other)
        game = await player.game()
        assert (await player.member(game.to_move().player)).id == other.id  # type: ignore[union-attr]
    mine = [m for m in game.moves[moves:] if (await player.member(m.player)).id == mover.id]
    assert len(mine) >= 4
    assert played_for(room, mover) == [] and len(turn_notes(room, mover)) == notes  # nothing while away
    assert await timeouts_of(room, player.game_id) == []  # no timeouts: away is not lateness
    await simcord_env.advance_time(30 * MINUTE)
    assert played_for(room, mover) == []

    back = await settings(room, mover, away="none")
    assert "away: **no**" in back, back
    (summary,) = played_for(room, mover)
    assert summary.startswith("While you were away, the autopilot played for you in your USA game #1"), summary
    assert "cards:" in summary or "claims" in summary, summary
    assert await room.bot.service.members.held_dms(mover.id) == []
    # back: their turn waits for them again
    await draw_two(room, other)
    game = await player.game()
    assert (await player.member(game.to_move().player)).id == mover.id  # type: ignore[union-attr]


async def test_a_server_bounds_or_forbids_going_away(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "manager"])
    alice = room.members[0]
    too_long = await settings(room, alice, away="20d")
    assert "at most 14 d: nothing was changed" in too_long, too_long
    managers = room.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    manager = room.add_member("boss", roles=[managers])
    configured = await slash(manager, room, "ttr config", away="none")
    assert "Away: not allowed" in reply_text(configured), reply_text(configured)
    refused = await settings(room, alice, away="1d")
    assert "does not let its members go away" in refused and "away: **no**" not in refused, refused


async def timeouts_of(room: Room, game_id: int) -> list[int]:
    audit = await room.bot.service.audit.audit(game_id)
    return [a.details["timeouts"] for a in audit if a.action == "timeout"]


async def test_the_summary_comes_by_itself_when_the_away_ends(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    player, mover, other = await clocked(room, turn_time="12h", reserve="none")
    await settings(room, mover, away="1h")  # their turn is played at once
    await draw_two(room, other)  # and the next one too
    assert played_for(room, mover) == []
    await simcord_env.advance_time(50 * MINUTE)
    assert played_for(room, mover) == []
    await simcord_env.advance_time(21 * MINUTE)  # the away is over: the scheduler sends the one summary
    (summary,) = played_for(room, mover)
    assert summary.startswith("While you were away, the autopilot played for you"), summary
    # and their turns wait for them again
    await draw_two(room, other)
    game = await player.game()
    assert (await player.member(game.to_move().player)).id == mover.id  # type: ignore[union-attr]
