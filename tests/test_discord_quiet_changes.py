"""Quiet hours changed while they hold messages, and time zones that are no place's, on SimCord's simulated time.

- Quiet hours switched off: what they held comes at once (not at their old end).
- Quiet hours changed to end later: what they held waits for the new end; changed so that now is outside them: at once.
- `localtime` (whatever the machine is set to) and `Factory` (a placeholder) are files of the system's time zone
  database, no place's time: refused privately, nothing changed, never offered.
"""

from __future__ import annotations

import pytest
from discord_harness import Room, all_private, dm_texts, make_room, reply_text, slash, turn_dms
from simcord import Env, MemberActor
from test_discord_quiet import clocked, draw_two, helsinki, settings, turn_notes, until_local

from bot.service.member_settings import known_zone, time_zones

pytestmark = pytest.mark.parametrize("game_seed", [3])


async def held_turn(simcord_env: Env) -> tuple[Room, MemberActor, int]:
    """A game where it is a member's turn at 22:30 in Helsinki, inside their quiet hours 22-07: its DM held."""
    room = make_room(simcord_env, ["alice", "bob"])
    await until_local(simcord_env, 20)
    _player, mover, other = await clocked(room, turn_time="12h", reserve="none")
    await turn_dms(room, other)  # they chose a DM on every turn (the table's notice is the default)
    said = await settings(room, other, quiet_hours="22-07", timezone="Europe/Helsinki")
    assert "quiet hours: **22:00-07:00** (Europe/Helsinki)" in said, said
    before = len(turn_notes(room, other))
    await until_local(simcord_env, 22, 30)
    await draw_two(room, mover)
    await simcord_env.advance_time(20 * 60)  # a heartbeat: still held
    assert len(turn_notes(room, other)) == before
    held = await room.bot.service.members.held_dms(other.id)
    assert [h.kind for h in held] == ["turn"] and helsinki(held[0].due_at).hour == 7
    return room, other, before


async def test_quiet_hours_switched_off_send_what_they_held_at_once(simcord_env: Env) -> None:
    room, other, before = await held_turn(simcord_env)
    said = await settings(room, other, quiet_hours="none")
    assert "quiet hours: **none**" in said.casefold() or "quiet hours: **off**" in said.casefold(), said
    notes = turn_notes(room, other)
    assert len(notes) == before + 1, dm_texts(room, other)  # at once, with the answer: not at 07:00
    assert await room.bot.service.members.held_dms(other.id) == []


async def test_quiet_hours_changed_hold_until_the_new_end_or_send_at_once(simcord_env: Env) -> None:
    room, other, before = await held_turn(simcord_env)
    await settings(room, other, quiet_hours="21-09")  # still quiet now, but until 09:00
    (held,) = await room.bot.service.members.held_dms(other.id)
    assert helsinki(held.due_at).hour == 9 and helsinki(held.due_at).minute == 0
    assert len(turn_notes(room, other)) == before
    await settings(room, other, quiet_hours="01-06")  # now (about 23:00) is outside them: at once
    assert len(turn_notes(room, other)) == before + 1
    assert await room.bot.service.members.held_dms(other.id) == []


@pytest.mark.parametrize("zone", ["localtime", "Factory", "posixrules", "posix/Europe/Helsinki", "right/UTC"])
async def test_a_time_zone_that_is_no_place_is_refused(simcord_env: Env, zone: str) -> None:
    room = make_room(simcord_env, ["alice"])
    alice = room.members[0]
    result = await slash(alice, room, "ttr settings", quiet_hours="22-07", timezone=zone)
    said = reply_text(result)
    assert all_private(result) and "is not a time zone I know" in said and "Nothing was changed" in said, said
    assert (await room.bot.service.members.member_settings(alice.id)).quiet_hours is None
    assert not known_zone(zone) and zone not in time_zones()
