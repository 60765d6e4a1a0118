"""`/ttrtour` rules that members tried to get around, through SimCord (issue 22): a sanction stays until a
moderator lifts it, and the waiting list moves up in order.

- A player a moderator dropped or disqualified tries `/ttrtour leave` then `/ttrtour join` (and the buttons, and
  the check-in) to be registered again: each is refused, privately, saying that a moderator must reinstate them;
  nothing changes. `/ttrtour reinstate` (moderators only, with a reason kept in the audit) lifts it.
- With a cap, a registered player who leaves or is dropped before round 1 frees a place: the first on the waiting
  list gets it and is told by DM; a member who joins later waits behind those already waiting; a higher cap gives
  the waiting players its places, in order.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from discord_harness import (  # noqa: F401
    Room,
    bot_settings,
    click,
    custom_ids,
    dm_texts,
    game_seed,
    make_room,
    moderate,
    simcord_bot,
    slash,
)
from simcord import Env, MemberActor
from test_discord_tournament import current, ok

from bot.service.tournaments.models import TournamentInfo
from bot.store.tournament_rows import ParticipantStatus, TournamentStatus

pytestmark = pytest.mark.parametrize("game_seed", [7])

REGISTERED = ParticipantStatus.REGISTERED
WAITLISTED = ParticipantStatus.WAITLISTED


async def open_cup(room: Room, mod: MemberActor, **options: object) -> TournamentInfo:
    """A one-round tournament on USA in the room's channel, registration open."""
    assert "registration" in ok(await slash(mod, room, "ttrtour create", name="Cup", rounds=1, map="usa", **options))
    assert "open" in ok(await slash(mod, room, "ttrtour registration", state="open"))
    [info] = await room.bot.service.tournaments(room.guild.id)
    return info


def status_of(info: TournamentInfo, member: MemberActor) -> ParticipantStatus | None:
    found = info.participant(member.id)
    return None if found is None else found.status


def join_button(room: Room):  # type: ignore[no-untyped-def]
    return next(m for m in reversed(room.public_messages()) if any(c.startswith("ttrt:join:") for c in custom_ids(m)))


async def test_a_dropped_or_disqualified_player_cannot_leave_and_join_again(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["ann", "bob", "cid", "dan"])
    mods = await moderate(room)
    mod = mods.moderator
    ann, bob, cid, dan = room.members[:4]
    info = await open_cup(room, mod, checkin_window=True)
    for member in (ann, bob, cid, dan):
        assert "registered" in ok(await slash(member, room, "ttrtour join"))
    assert "dropped" in ok(await slash(mod, room, "ttrtour drop", player=bob, reason="abusive"))
    assert "disqualified" in ok(await slash(mod, room, "ttrtour disqualify", player=cid, reason="cheating"))
    version = (await current(room, info.id)).version

    # the attack: leave, then join again (by command and by the message's button)
    for member, word in ((bob, "dropped"), (cid, "disqualified")):
        for answer in (
            await slash(member, room, "ttrtour leave"),
            await slash(member, room, "ttrtour join"),
            await click(member, join_button(room), "ttrt:join:"),
        ):
            text = ok(answer)
            assert f"A moderator {word} you from this tournament" in text, text
            assert "until a moderator reinstates you" in text and "/ttrtour reinstate" in text, text
    after = await current(room, info.id)
    assert after.version == version, "the refusals change nothing"
    assert status_of(after, bob) is ParticipantStatus.DROPPED
    assert status_of(after, cid) is ParticipantStatus.DISQUALIFIED

    # nor through the check-in
    assert "check-in is open" in ok(await slash(mod, room, "ttrtour registration", state="checkin"))
    text = ok(await slash(bob, room, "ttrtour checkin"))
    assert "A moderator dropped you from this tournament" in text, text
    assert status_of(await current(room, info.id), bob) is ParticipantStatus.DROPPED

    # only a moderator lifts it; the audit keeps who, what and why
    refused = ok(await slash(ann, room, "ttrtour reinstate", player=bob, reason="please"))
    assert "moderators" in refused
    assert status_of(await current(room, info.id), bob) is ParticipantStatus.DROPPED
    again = ok(await slash(mod, room, "ttrtour reinstate", player=ann, reason="x"))
    assert "ann is not dropped or disqualified" in again, again
    back = ok(await slash(mod, room, "ttrtour reinstate", player=bob, reason="apologised"))
    assert "bob is registered for **Cup** again" in back, back
    assert status_of(await current(room, info.id), bob) is REGISTERED
    assert "checked in" in ok(await slash(bob, room, "ttrtour checkin"))
    assert "bob is back in **Cup**" in "\n".join(m.content for m in room.public_messages())
    audit = ok(await slash(mod, room, "ttrtour audit"))
    assert "reinstate" in audit and "apologised" in audit


async def test_a_sanction_during_the_rounds_stays_until_reinstated(simcord_env: Env) -> None:
    """Once the rounds run, a dropped player is paired again only after a moderator reinstates them."""
    room = make_room(simcord_env, ["ann", "bob", "cid", "dan", "eve"])
    mods = await moderate(room)
    mod = mods.moderator
    members = room.members[:5]
    info = await open_cup(room, mod)
    settings = replace(info.settings, rounds=2, autopilot=tuple(m.id for m in members), clock=None, table_size=2)
    await room.bot.service.configure_tournament(info.id, mod.id, settings)
    for member in members:
        assert "registered" in ok(await slash(member, room, "ttrtour join"))
    assert "Round 1 has started" in ok(await slash(mod, room, "ttrtour startround"))
    bob = members[1]
    assert "dropped" in ok(await slash(mod, room, "ttrtour drop", player=bob, reason="no show"))
    for command in ("ttrtour leave", "ttrtour join"):
        assert "running already" in ok(await slash(bob, room, command))
    back = ok(await slash(mod, room, "ttrtour reinstate", player=bob, reason="was ill"))
    assert "plays the rounds paired from now on" in back, back
    info = await current(room, info.id)
    assert status_of(info, bob) is ParticipantStatus.ACTIVE
    assert info.rounds[0].status.value == "complete"
    assert "Round 2 has started" in ok(await slash(mod, room, "ttrtour startround"))
    info = await current(room, info.id)
    assert bob.id in {u for t in info.rounds[1].tables for u in t.seats}


async def test_a_substituted_player_cannot_be_reinstated(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["ann", "bob", "cid", "dan"])
    mods = await moderate(room)
    mod = mods.moderator
    members = room.members[:4]
    info = await open_cup(room, mod)
    settings = replace(info.settings, autopilot=tuple(m.id for m in members[1:]), clock=None)
    await room.bot.service.configure_tournament(info.id, mod.id, settings)
    for member in members:
        assert "registered" in ok(await slash(member, room, "ttrtour join"))
    assert "Round 1 has started" in ok(await slash(mod, room, "ttrtour startround"))
    sub = room.add_member("sub")
    assert "sub" in ok(await slash(mod, room, "ttrtour substitute", player=members[0], member=sub, reason="x"))
    refused = ok(await slash(mod, room, "ttrtour reinstate", player=members[0], reason="x"))
    assert "ann's place went to a substitute" in refused, refused
    assert status_of(await current(room, info.id), members[0]) is ParticipantStatus.DROPPED


async def test_the_waiting_list_moves_up_in_order(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["ann", "bob", "cid", "dan", "eve", "fay"])
    mods = await moderate(room)
    mod = mods.moderator
    ann, bob, cid, dan, eve, fay = room.members[:6]
    info = await open_cup(room, mod, cap=2)
    for member in (ann, bob):
        assert "registered" in ok(await slash(member, room, "ttrtour join"))
    for member in (cid, dan):
        assert "waiting list" in ok(await slash(member, room, "ttrtour join"))

    # a registered player leaves: the first waiting player gets the place, by DM; the second still waits
    assert "left" in ok(await slash(ann, room, "ttrtour leave"))
    info = await current(room, info.id)
    assert status_of(info, cid) is REGISTERED and status_of(info, dan) is WAITLISTED
    [news] = dm_texts(room, cid)
    assert "A place has freed up in **Cup**" in news and "registered now" in news
    assert not dm_texts(room, dan)

    # a moderator drops a registered player: the place goes to the next waiting player, not to a later joiner
    assert "dropped" in ok(await slash(mod, room, "ttrtour drop", player=bob, reason="no show"))
    info = await current(room, info.id)
    assert status_of(info, dan) is REGISTERED, "the dropped player's place goes to the first waiting"
    assert any("A place has freed up in **Cup**" in t for t in dm_texts(room, dan))
    assert "waiting list" in ok(await slash(eve, room, "ttrtour join"))
    assert "waiting list" in ok(await click(fay, join_button(room), "ttrt:join:"))
    info = await current(room, info.id)
    assert [p.user_id for p in info.with_status(REGISTERED)] == [cid.id, dan.id]
    assert [p.user_id for p in info.with_status(WAITLISTED)] == [eve.id, fay.id]

    # a waiting player who leaves frees no place; the one behind keeps their turn
    assert "left" in ok(await slash(eve, room, "ttrtour leave"))
    assert status_of(await current(room, info.id), fay) is WAITLISTED
    assert not dm_texts(room, fay)

    # a higher cap gives its places to the waiting players, in order, each told by DM
    assert "now plays" in ok(await slash(mod, room, "ttrtour configure", cap=3))
    info = await current(room, info.id)
    assert status_of(info, fay) is REGISTERED
    assert any("A place has freed up in **Cup**" in t for t in dm_texts(room, fay))
    assert "waiting list" in ok(await slash(eve, room, "ttrtour join"))
    info = await current(room, info.id)
    assert status_of(info, eve) is WAITLISTED, "the tournament is full again"
    assert info.status is TournamentStatus.REGISTRATION
