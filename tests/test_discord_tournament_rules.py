"""`/ttrtour` rules that members tried to get around, and what a round's deadline and a crash do, through SimCord
(issue 22).

- A player a moderator dropped or disqualified tries `/ttrtour leave` then `/ttrtour join` (and the buttons, and
  the check-in) to be registered again: each is refused, privately, saying that a moderator must reinstate them;
  nothing changes. `/ttrtour reinstate` (moderators only, with a reason kept in the audit) lifts it.
- With a cap, a registered player who leaves or is dropped before round 1 frees a place: the first on the waiting
  list gets it and is told by DM; a member who joins later waits behind those already waiting; a higher cap gives
  the waiting players its places, in order.
- At a round's deadline the moderators' log channel is told which tables are still playing, with the
  `/ttrtour adjudicate` that settles them, once (also across a restart).
- After `/ttrtour substitute` the table's game names the seat by the substitute, as the tournament does.
- A `/ttrtour repair` stopped by a crash after storing the new pairing leaves no game of the old one open: they
  are ended at the next start.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from discord_harness import (
    Room,
    click,
    custom_ids,
    dm_texts,
    make_room,
    message_text,
    moderate,
    reply_text,
    restart,
    slash,
)
from simcord import Env, MemberActor
from test_discord_tournament import current, ok, thread_room

from bot.service.tournaments.models import TournamentInfo
from bot.store.tournament_rows import ParticipantStatus, TableStatus, TournamentStatus

pytestmark = pytest.mark.parametrize("game_seed", [7])

REGISTERED = ParticipantStatus.REGISTERED
WAITLISTED = ParticipantStatus.WAITLISTED


async def open_cup(room: Room, mod: MemberActor, **options: object) -> TournamentInfo:
    """A one-round tournament on USA in the room's channel, registration open."""
    assert "registration" in ok(await slash(mod, room, "ttrtour create", name="Cup", rounds=1, map="usa", **options))
    assert "open" in ok(await slash(mod, room, "ttrtour registration", state="open"))
    [info] = await room.bot.service.tournaments.desk.tournaments(room.guild.id)
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
    assert "bob is back in **Cup**" in "\n".join(message_text(m) for m in room.public_messages())
    audit = ok(await slash(mod, room, "ttrtour audit"))
    assert "reinstate" in audit and "apologised" in audit


async def test_a_sanction_during_the_rounds_stays_until_reinstated(simcord_env: Env) -> None:
    """Once the rounds run, a dropped player is paired again only after a moderator reinstates them."""
    room = make_room(simcord_env, ["ann", "bob", "cid", "dan", "eve"])
    mods = await moderate(room)
    mod = mods.moderator
    members = room.members[:5]
    info = await open_cup(room, mod)
    settings = replace(
        info.settings, rounds=2, autopilot=tuple(m.id for m in members), clock=None, table_size=2, trains=5
    )
    await room.bot.service.tournaments.registration.configure_tournament(info.id, mod.id, settings)
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
    await room.bot.service.tournaments.registration.configure_tournament(info.id, mod.id, settings)
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


# ----- a round's deadline; a re-pairing interrupted by a crash -------------------------------------------------


async def table_running(room: Room, mod: MemberActor, humans: int = 2, **options: object) -> TournamentInfo:
    """A one-round tournament of the room's first 4 members on USA, no turn clock: its one table running, the
    first `humans` members to move (nobody moved yet), the others played by the autopilot."""
    members = room.members[:4]
    info = await open_cup(room, mod, **options)
    settings = replace(info.settings, autopilot=tuple(m.id for m in members[humans:]), clock=None)
    await room.bot.service.tournaments.registration.configure_tournament(info.id, mod.id, settings)
    for member in members:
        assert "registered" in ok(await slash(member, room, "ttrtour join"))
    assert "Round 1 has started" in ok(await slash(mod, room, "ttrtour startround"))
    info = await current(room, info.id)
    [table] = info.rounds[0].tables
    assert table.status is TableStatus.PLAYING and table.game_id is not None
    return info


async def test_at_a_rounds_deadline_the_moderators_are_told_the_overdue_tables(simcord_env: Env) -> None:
    env = simcord_env
    room = make_room(env, ["ann", "bob", "cid", "dan"])
    mods = await moderate(room)
    mod = mods.moderator
    info = await table_running(room, mod, deadline="2h")
    [table] = info.rounds[0].tables
    assert info.rounds[0].deadline is not None
    logged = len(mods.log_lines())

    await env.advance_time(3600)
    assert len(mods.log_lines()) == logged, "nothing before the deadline"
    await env.advance_time(3600 + 60)
    [notice] = mods.log_lines()[logged:]
    assert "**Cup**: the deadline of round 1 has passed, and 1 table is still playing" in notice, notice
    assert f"Table 1: {', '.join(table.names)} <#{table.channel_id}>" in notice, notice
    assert "/ttrtour adjudicate round:1 table:1" in notice, notice
    [message] = [m for m in mods.log.history() if m.content == notice]
    assert not message.mentions and not message.mention_everyone, "the notice pings nobody"

    # it is told once, also across a restart; the moderators settle the table as offered
    await restart(env)
    await env.advance_time(2 * 3600)
    assert len(mods.log_lines()) == logged + 1
    answer = await slash(mod, room, "ttrtour adjudicate", round=1, table=1, score="yes", reason="overdue")
    assert "scored as it stands" in ok(answer)


async def test_a_rounds_deadline_after_its_tables_finished_tells_nobody(simcord_env: Env) -> None:
    env = simcord_env
    room = make_room(env, ["ann", "bob", "cid", "dan"])
    mods = await moderate(room)
    mod = mods.moderator
    await table_running(room, mod, deadline="2h")
    assert "scored" in ok(await slash(mod, room, "ttrtour adjudicate", round=1, table=1, score="yes", reason="x"))
    logged = len(mods.log_lines())
    await env.advance_time(3 * 3600)
    assert mods.log_lines()[logged:] == []
    assert "deadline" not in "\n".join(message_text(m) for m in room.public_messages())


async def test_a_repairing_stopped_by_a_crash_ends_the_old_games_at_the_next_start(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The operator's view: the bot stops in the middle of `/ttrtour repair`, after the new pairing is stored and
    before the old round's games are cancelled. At the next start the old games are ended; `startround` opens
    the new tables."""
    env = simcord_env
    room = make_room(env, ["ann", "bob", "cid", "dan"])
    mods = await moderate(room)
    mod = mods.moderator
    info = await table_running(room, mod, humans=4)
    [old] = info.rounds[0].tables
    assert old.game_id is not None

    async def power_cut(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the bot stopped here")

    monkeypatch.setattr(room.bot.service.lobby, "cancel", power_cut)
    assert "went wrong" in reply_text(await slash(mod, room, "ttrtour repair", reason="wrong players"))
    monkeypatch.undo()
    paired = await current(room, info.id)
    assert paired.rounds[0].attempt == 2, "the new pairing is stored"
    assert (await room.bot.service.core.game(old.game_id)).status.active, "the crash left the old game open"

    await restart(env)
    await env.advance_time(120)
    assert not (await room.bot.service.core.game(old.game_id)).status.active, "the old round's game is ended"
    assert "Round 1 has started" in ok(await slash(mod, room, "ttrtour startround"))
    after = await current(room, info.id)
    [table] = after.rounds[0].tables
    assert table.game_id is not None and table.game_id != old.game_id
    assert (await room.bot.service.core.game(table.game_id)).status.active


async def test_after_a_substitute_the_tables_game_names_the_new_player(simcord_env: Env) -> None:
    """The substitute's name is the seat's name in the table's game too (its messages, `/ttr status`), as in the
    tournament; the old player's name is gone from them."""
    room = make_room(simcord_env, ["ann", "bob", "cid", "dan"])
    mods = await moderate(room)
    mod = mods.moderator
    info = await table_running(room, mod, humans=2)
    [table] = info.rounds[0].tables
    ann = room.members[0]
    sub = room.add_member("subby")
    assert "subby" in ok(await slash(mod, room, "ttrtour substitute", player=ann, member=sub, reason="had to go"))
    thread = next(t for t in room.channel.threads if t.id == table.channel_id)
    stage = next(m for m in reversed(thread.history()) if custom_ids(m))
    turn = message_text(stage).split("\n", 1)[1]  # after the moderator's note, which says whose seat it was
    assert "subby" in turn and "ann" not in turn, turn
    assert f"<@{sub.id}> (subby)" in turn, turn
    status = reply_text(await slash(sub, thread_room(room, thread), "ttr status"))
    assert f"subby (<@{sub.id}>)" in status and "ann" not in status, status
    players = ok(await slash(sub, room, "ttrtour info"))
    assert "4 players:\nbob, cid, dan, subby\n" in players, players
