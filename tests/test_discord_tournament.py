"""`/ttrtour` through SimCord: a tournament of 10 members from registration to the export (issue 14).

A moderator creates a tournament of 3 rounds on two maps (USA, India, USA;
8 trains a player, no clock) in the room's channel; players join with the
tournament message's button or `/ttrtour join`. Seven of the ten have their
seats played by the autopilot from the start (`TournamentSettings.autopilot`,
which no Discord option sets: the test configures it through the service), so
their tables play out at once; three are members who move for themselves in
their table's thread (tests/discord_play.py drives them). Each round opens a
thread per table with its players added and mentioned; the round's tables,
each table's result and the standings are announced in the tournament's
channel. On the way: one substitute, one drop, a bot restart in the middle of
round 1, an adjudication, and refusals for a member who is not a moderator and
for bad input. At the end the standings (text) and the export (CSV parsed, zip
opened, every record verified) are checked.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from dataclasses import replace

import discord
import pytest
from discord_harness import (
    Moderation,
    Room,
    all_private,
    click,
    custom_ids,
    end_game,
    make_room,
    message_text,
    moderate,
    replies,
    reply_text,
    restart,
    slash,
)
from discord_play import Player
from simcord import Env, InteractionResult
from simcord.builders import ChannelHandle

from bot.service.tournaments.models import TournamentInfo
from bot.store.tournament_rows import ParticipantStatus, TableStatus, TournamentStatus
from engine import Phase
from engine.verify import verify

pytestmark = pytest.mark.parametrize("game_seed", [7])

NAMES = [f"p{i}" for i in range(10)]


def public_texts(channel: ChannelHandle) -> list[str]:
    return [message_text(m) for m in channel.history() if not m.flags.ephemeral]


def ok(result: InteractionResult) -> str:
    """An answer: given, private, not an apology; its text."""
    assert result.acknowledged and replies(result), "not answered"
    assert all_private(result), reply_text(result)
    text = reply_text(result)
    assert "went wrong" not in text, text
    return text


async def files_of(result: InteractionResult) -> dict[str, bytes]:
    out = {}
    for message in replies(result):
        for file in message.attachments:
            out[file.filename] = await file.read()
    return out


def thread_room(room: Room, thread: ChannelHandle) -> Room:
    return Room(room.env, room.guild, thread, room.members)


async def current(room: Room, tid: int) -> TournamentInfo:
    info: TournamentInfo = await room.bot.service.tournaments.desk.tournament(tid)
    return info


async def play_members(room: Room, info: TournamentInfo, moves: int) -> int:
    """The members (not the autopilot) make up to `moves` moves at the running tables, in their threads."""
    made = 0
    r = info.current
    assert r is not None
    for table in r.tables:
        if table.game_id is None or table.status is not TableStatus.PLAYING:
            continue
        thread = next(t for t in room.channel.threads if t.id == table.channel_id)
        player = Player(thread_room(room, thread), table.game_id)
        for _ in range(moves):
            game = await player.game()
            if game.finished:
                break
            await player.step(game)
            made += 1
        # the table in its thread works as in a channel: one live table message with the game's buttons
        if (await player.game()).state.phase is Phase.PLAY:
            live = [m for m in player.room.public_messages() if custom_ids(m)]
            assert len(live) == 1 and live[0].attachments, [message_text(m)[:40] for m in live]
    return made


async def test_a_tournament_of_ten_members_in_discord(simcord_env: Env) -> None:
    env = simcord_env
    room = make_room(env, NAMES)
    mods = await moderate(room)
    mod = mods.moderator
    members = room.members[:10]
    humans, bots = members[:3], members[3:]
    service = room.bot.service

    # ----- refusals: not a moderator; bad input. Private, clear, nothing created
    refused = await slash(members[0], room, "ttrtour create", name="Cup", rounds=3, map="usa")
    assert "Only this server's moderators run tournaments" in ok(refused)
    bad = await slash(mod, room, "ttrtour create", name="Cup", rounds=3, maps="usa narnia")
    assert "narnia" in ok(bad) and "usa" in ok(bad)
    bad = await slash(mod, room, "ttrtour create", name="Cup", rounds=3, maps="usa india")
    assert "one map per round" in ok(bad)
    bad = await slash(mod, room, "ttrtour create", name="Cup", rounds=3, map="usa", deadline="soon")
    assert ok(bad)
    assert await service.tournaments.desk.tournaments(room.guild.id) == []

    # ----- create; the autopilot seats (no Discord option: set through the service); registration
    created = await slash(
        mod,
        room,
        "ttrtour create",
        name="Autumn **Cup** @everyone",
        rounds=3,
        maps="usa india usa",
        trains=8,
        turn_time="none",
    )
    assert "registration" in ok(created)
    [info] = await service.tournaments.desk.tournaments(room.guild.id)
    assert info.name == "Autumn **Cup** @everyone" and info.channel_id == room.channel.id
    assert info.settings.maps == ("usa", "india", "usa") and info.settings.size == 4 and info.settings.clock is not None
    settings = replace(info.settings, autopilot=tuple(m.id for m in bots))
    await service.tournaments.registration.configure_tournament(info.id, mod.id, settings)
    opened = await slash(mod, room, "ttrtour registration", state="open")
    assert "open" in ok(opened)
    message = next(
        m for m in reversed(room.public_messages()) if any(c.startswith("ttrt:join:") for c in custom_ids(m))
    )
    assert "\\*\\*Cup\\*\\*" in message_text(message) and "@\u200beveryone" in message_text(message)
    assert not message.mention_everyone and not message.mentions
    for i, member in enumerate(members):
        if i == 5:  # a restart during registration: the message's buttons keep working
            await restart(env)
            service = room.bot.service
        if i % 3 == 0:
            answer = await slash(member, room, "ttrtour join")
        else:
            answer = await click(member, message, "ttrt:join:")
        assert "registered" in ok(answer), ok(answer)
    again = await click(members[0], message, "ttrt:join:")
    assert "already" in ok(again)
    info = await current(room, info.id)
    assert len(info.with_status(ParticipantStatus.REGISTERED)) == 10
    assert ok(await slash(members[1], room, "ttrtour registration", state="close"))
    assert (await current(room, info.id)).registration_open
    assert "closed" in ok(await slash(mod, room, "ttrtour registration", state="close"))
    message = next(m for m in room.public_messages() if m.id == message.id)
    assert not custom_ids(message), "the buttons are gone once registration closes"

    # ----- round 1 (USA): 4 + 3 + 3, a thread per table with its players
    started = await slash(mod, room, "ttrtour startround")
    assert "Round 1 has started: 3 tables" in ok(started)
    info = await current(room, info.id)
    r1 = info.rounds[0]
    assert sorted(len(t.seats) for t in r1.tables) == [3, 3, 4]
    threads = {t.id: t for t in room.channel.threads}
    assert len(threads) == 3
    for table in r1.tables:
        assert table.channel_id in threads and table.game_id is not None
        thread = threads[table.channel_id]
        assert thread.name == f"Round 1 · Table {table.table_no}"
        game = await service.core.game(table.game_id)
        assert game.channel_id == thread.id and game.map == "usa"
        first = thread.history()[0]
        assert all(f"<@{u}>" in message_text(first) for u in table.seats)
        assert {u.id for u in first.mentions} == set(table.seats), "the table's players are mentioned, nobody else"
        added = set(env.backend.channels[thread.id].thread_members)
        assert set(table.seats) <= added, "the players are added to their thread"
        assert any(m.components or m.attachments for m in thread.history()[1:]), "the game's messages are there"
    announced = "\n".join(public_texts(room.channel))
    assert "round 1 starts, on USA" in announced
    assert all(f"<#{t.channel_id}>" in announced for t in r1.tables)
    done_at_once = [t for t in r1.tables if not set(t.seats) & {h.id for h in humans}]
    for table in done_at_once:
        assert table.status is TableStatus.DONE
        assert f"table {table.table_no} is over" in announced
    assert "Standings of" in announced

    # the members play a little in their threads
    assert await play_members(room, info, 6) > 0

    # ----- a substitute for human 0 and a drop of human 1, then a restart in the middle of the round
    sub = room.add_member("sub")
    refused = await slash(members[4], room, "ttrtour substitute", player=humans[0], member=sub, reason="x")
    assert "moderator" in ok(refused).lower()
    subbed = await slash(mod, room, "ttrtour substitute", player=humans[0], member=sub, reason="had to leave")
    assert "sub" in ok(subbed)
    dropped = await slash(mod, room, "ttrtour drop", player=humans[1], reason="no show")
    assert "dropped" in ok(dropped)
    info = await current(room, info.id)
    assert info.participant(humans[0].id).status is ParticipantStatus.DROPPED  # type: ignore[union-attr]
    assert info.participant(sub.id).status is ParticipantStatus.ACTIVE  # type: ignore[union-attr]

    await restart(env)
    service = room.bot.service
    late = await slash(members[2], room, "ttrtour join")
    assert "running already" in ok(late)
    # the members go on in their threads after the restart, then a moderator lets the autopilot finish round 1
    info = await current(room, info.id)
    await play_members(room, info, 4)
    await finish_round(room, mods, info)

    # ----- rounds 2 (India) and 3 (USA): 9 players (the substitute in, the dropped player out)
    for number, title in ((2, "India"), (3, "USA")):
        started = await slash(mod, room, "ttrtour startround")
        assert f"Round {number} has started: 3 tables" in ok(started)
        info = await current(room, info.id)
        r = info.rounds[number - 1]
        seated = {u for t in r.tables for u in t.seats}
        assert humans[1].id not in seated and humans[0].id not in seated and sub.id in seated
        assert len(seated) == 9 and r.map == title.lower()
        assert f"round {number} starts, on {title}" in "\n".join(public_texts(room.channel))
        await play_members(room, info, 3)
        await finish_round(room, mods, info, end_one=number == 3)

    info = await current(room, info.id)
    assert info.status is TournamentStatus.FINISHED
    assert len(room.channel.threads) == 9
    announced = "\n".join(public_texts(room.channel))
    assert "is over." in announced and "Final standings of" in announced

    # ----- standings (text), export (CSV and zip, records verified)
    asked = await slash(members[5], room, "ttrtour standings")
    standings = ok(asked)
    [image] = [f for m in replies(asked) for f in m.attachments]
    assert image.filename.endswith(".png") and image.description and image.description.startswith("Final standings")
    assert (await image.read())[:8] == b"\x89PNG\r\n\x1a\n"
    posted = [m for m in room.public_messages() if message_text(m).startswith(("Standings of", "Final standings of"))]
    assert posted and all(m.attachments and m.attachments[0].description for m in posted), "standings with images"
    lines = await service.tournaments.results.standings(info.id)
    assert standings.startswith("Final standings of")
    for line in lines:
        assert f"{line.rank}. **" in standings
    assert "moderator" in ok(await slash(members[5], room, "ttrtour export")).lower()
    exported = await slash(mod, room, "ttrtour export")
    ok(exported)
    files = await files_of(exported)
    rows = list(csv.DictReader(io.StringIO(files[f"tournament-{info.id}-standings.csv"].decode())))
    assert [int(row["user_id"]) for row in rows] == [line.user_id for line in lines]
    assert {row["status"] for row in rows} >= {"active", "dropped"}
    with zipfile.ZipFile(io.BytesIO(files[f"tournament-{info.id}.zip"])) as archive:
        names = [n for n in archive.namelist() if n.startswith("games/")]
        assert len(names) == 9
        for name in names:
            assert verify(json.loads(archive.read(name))).ok, name
    audit = ok(await slash(mod, room, "ttrtour audit"))
    assert "substitute" in audit and "drop" in audit
    assert "moderator" in ok(await slash(members[5], room, "ttrtour audit")).lower()
    assert "Autumn" in ok(await slash(members[5], room, "ttrtour info"))


async def finish_round(room: Room, mods: Moderation, info: TournamentInfo, *, end_one: bool = False) -> None:
    """A moderator adjudicates every table of the running round still playing: the autopilot plays it out.
    `end_one`: the first such table is ended instead with `/ttrmod end score:yes` in its thread (the game's own
    moderation: delivery tells the tournament that the game ended)."""
    mod = mods.moderator
    r = info.current
    assert r is not None
    for table in r.tables:
        if table.status is not TableStatus.PLAYING:
            continue
        if end_one:
            end_one = False
            thread = next(t for t in room.channel.threads if t.id == table.channel_id)
            ended = await end_game(mods, thread_room(room, thread), score="yes", reason="out of time")
            assert "went wrong" not in reply_text(ended)
            assert f"table {table.table_no} is over" in "\n".join(public_texts(room.channel))
            continue
        answer = await slash(
            mod, room, "ttrtour adjudicate", round=r.round, table=table.table_no, score="no", reason="overdue"
        )
        assert "autopilot" in ok(answer)
        assert f"table {table.table_no} is over" in "\n".join(public_texts(room.channel))
    assert not end_one, "no table was left to end"
    after = await room.bot.service.tournaments.desk.tournament(info.id)
    assert after.rounds[r.round - 1].status.value == "complete"


async def test_a_channel_without_thread_permissions_is_refused_clearly(simcord_env: Env) -> None:
    """Where the bot may not open threads, starting a round says what to grant, privately; no apology."""
    room = make_room(simcord_env, ["ann", "bob"])
    mods = await moderate(room)
    cup = room.guild.create_text_channel(
        "cup", overwrites={room.guild.default_role: discord.PermissionOverwrite(create_public_threads=False)}
    )
    mod = mods.moderator
    assert "registration" in ok(await mod.slash(cup, "ttrtour create", name="Cup", rounds=1, map="usa"))
    assert "open" in ok(await mod.slash(cup, "ttrtour registration", state="open"))
    for member in room.members[:2]:
        assert "registered" in ok(await member.slash(cup, "ttrtour join"))
    refused = ok(await mod.slash(cup, "ttrtour startround"))
    assert "Create Public Threads" in refused and "/ttrtour startround" in refused
    assert cup.threads == []


async def running_table(room: Room, mods: Moderation, humans: int) -> TournamentInfo:
    """A one-round tournament of the room's first 4 members on USA, its one table running; the first `humans`
    of them move for themselves (nobody moved yet), the others are played by the autopilot."""
    mod = mods.moderator
    members = room.members[:4]
    service = room.bot.service
    assert "registration" in ok(await slash(mod, room, "ttrtour create", name="Cup", rounds=1, map="usa"))
    [info] = await service.tournaments.desk.tournaments(room.guild.id)
    settings = replace(info.settings, autopilot=tuple(m.id for m in members[humans:]), clock=None)
    await service.tournaments.registration.configure_tournament(info.id, mod.id, settings)
    assert "open" in ok(await slash(mod, room, "ttrtour registration", state="open"))
    for member in members:
        assert "registered" in ok(await slash(member, room, "ttrtour join"))
    assert "Round 1 has started" in ok(await slash(mod, room, "ttrtour startround"))
    info = await current(room, info.id)
    [table] = info.rounds[0].tables
    assert table.status is TableStatus.PLAYING and table.game_id is not None
    return info


async def test_a_moderator_naming_someone_not_in_the_tournament_is_told_who(simcord_env: Env) -> None:
    """Substituting, dropping or disqualifying a member who is not in the tournament is refused naming that
    member (not "you"), privately, and changes nothing."""
    room = make_room(simcord_env, ["ann", "bob", "cid", "dan"])
    mods = await moderate(room)
    mod = mods.moderator
    info = await running_table(room, mods, humans=2)
    stranger = room.add_member("Stranger *X*")
    sub = room.add_member("sub")
    version = info.version
    for answer in (
        await slash(mod, room, "ttrtour drop", player=stranger, reason="x"),
        await slash(mod, room, "ttrtour disqualify", player=stranger, reason="x"),
        await slash(mod, room, "ttrtour substitute", player=stranger, member=sub, reason="x"),
    ):
        text = ok(answer)
        assert "Stranger \\*X\\* is not registered in this tournament" in text, text
        assert "You are" not in text
    assert (await current(room, info.id)).version == version, "refusals change nothing"
    dropped = ok(await slash(mod, room, "ttrtour drop", player=room.members[0], reason="no show"))
    assert "dropped" in dropped
    again = ok(await slash(mod, room, "ttrtour substitute", player=room.members[0], member=sub, reason="x"))
    assert "ann does not play the tournament's rounds now" in again, again


async def test_tournament_moderation_tells_the_seats_and_the_log(simcord_env: Env) -> None:
    """A substitute, a drop and an adjudication change a running table's game: each change is delivered as the
    game's own moderation is (`/ttrmod replace`, `/ttrmod autopilot`, `/ttrmod end`): the new player's seat news
    by DM, a line in the moderators' log for each, the table's result announced once its game ends."""
    room = make_room(simcord_env, ["ann", "bob", "cid", "dan"])
    mods = await moderate(room)
    mod = mods.moderator
    info = await running_table(room, mods, humans=2)
    [table] = info.rounds[0].tables
    assert table.game_id is not None
    ann, bob = room.members[:2]
    sub = room.add_member("sub")
    logged = len(mods.log_lines())

    assert "sub" in ok(await slash(mod, room, "ttrtour substitute", player=ann, member=sub, reason="had to leave"))
    game = await room.bot.service.core.game(table.game_id)
    assert sub.id in [s.user_id for s in game.seats]
    [news] = [m.content for m in room.dms(sub)]
    assert "You now play ann's seat in game #" in news and f"<#{table.channel_id}>" in news
    [line] = mods.log_lines()[logged:]
    assert "gave ann's seat" in line and f"<@{sub.id}>" in line and "had to leave" in line
    assert not room.dms(mod), "the moderator who acted gets no DM"

    assert "dropped" in ok(await slash(mod, room, "ttrtour drop", player=bob, reason="no show"))
    game = await room.bot.service.core.game(table.game_id)
    assert game.status.active and [s.autopilot for s in game.seats if s.user_id == bob.id] == [True]
    [line] = mods.log_lines()[logged + 1 :]
    assert "handed bob's seat" in line and "autopilot" in line and "no show" in line

    answer = await slash(mod, room, "ttrtour adjudicate", round=1, table=1, score="yes", reason="overdue")
    assert "scored as it stands" in ok(answer)
    [line] = mods.log_lines()[logged + 2 :]
    assert "ended the game with scoring" in line and "overdue" in line
    assert not (await room.bot.service.core.game(table.game_id)).status.active
    announced = "\n".join(public_texts(room.channel))
    assert announced.count("round 1, table 1 is over") == 1, announced
    assert "**Cup** is over" in announced and "Final standings of **Cup**" in announced
    again = ok(await slash(mod, room, "ttrtour adjudicate", round=1, table=1, score="yes", reason="overdue"))
    assert "no game being played" in again or "over" in again, again
    assert len(mods.log_lines()) == logged + 3


async def test_the_tournament_message_is_kept_across_a_restart(simcord_env: Env) -> None:
    """The tournament's message id is kept in the database: after a restart, a join by command and a change of
    registration update that same message (no second message is posted)."""
    env = simcord_env
    room = make_room(env, ["ann", "bob"])
    mods = await moderate(room)
    mod = mods.moderator
    assert "registration" in ok(await slash(mod, room, "ttrtour create", name="Cup", rounds=1, map="usa"))
    assert "open" in ok(await slash(mod, room, "ttrtour registration", state="open"))

    def tournament_messages() -> list[discord.Message]:
        return [m for m in room.public_messages() if message_text(m).startswith("**Cup** · tournament #")]

    [message] = tournament_messages()
    assert "ann" not in message_text(message) and custom_ids(message)
    await restart(env)
    assert "registered" in ok(await slash(room.members[0], room, "ttrtour join"))
    [message] = tournament_messages()
    assert "ann" in message_text(message), "the message posted before the restart is updated"
    assert "closed" in ok(await slash(mod, room, "ttrtour registration", state="close"))
    await restart(env)
    assert "open" in ok(await slash(mod, room, "ttrtour registration", state="open"))
    [message] = tournament_messages()
    assert custom_ids(message) and "ann" in message_text(message)
