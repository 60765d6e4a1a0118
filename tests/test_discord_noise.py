"""How much a game says: the DMs and public messages of a short game, counted.

A three-player USA game (7 trains each), opened with `/ttr new`, joined with
`/ttr join`, started and played through to its end with the default settings
of every member and of the server. Each figure below is exact for its seed:
a change that makes the bot louder (or quieter) must change this test and the
docs/players.md's figures ("Playing", "How much a game says") with it.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from discord_harness import (
    Room,
    all_private,
    dm_texts,
    make_room,
    message_text,
    moderate,
    posted_texts,
    reply_text,
    slash,
    table_texts,
    turn_dms,
    turn_messages,
)
from discord_play import Player, open_game
from simcord import Env

NAMES = ["alice", "bob", "carol"]
HINT = "Use the buttons below"


def dm_kinds(room: Room) -> Counter[str]:
    """Every DM of the room's members, by what it is."""
    kinds: Counter[str] = Counter()
    for member in room.members:
        for text in dm_texts(room, member):
            if text.startswith("It is your turn"):
                kinds["your turn"] += 1
            elif text.startswith("Choose your starting"):
                kinds["choose tickets"] += 1
            elif text.startswith("Reminder"):
                kinds["reminder"] += 1
            else:
                kinds["other"] += 1
    return kinds


@pytest.mark.parametrize("game_seed", [1])
async def test_the_dms_and_public_messages_of_a_short_three_player_game(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    game_id, _ = await open_game(room, "usa", 3, trains=7)
    lobby_posts = len(posted_texts(simcord_env, room.channel))
    game = await Player(room, game_id).play()
    turns = game.state.turn

    kinds = dm_kinds(room)
    public = len(posted_texts(simcord_env, room.channel))
    print(f"turns {turns}, public messages {public} (lobby {lobby_posts}), DMs {sum(kinds.values())} {dict(kinds)}")
    assert turns == TURNS
    assert lobby_posts == LOBBY_POSTS
    assert public == PUBLIC
    assert dict(kinds) == DMS
    # how to play a turn is said in each player's first two turns only (the table, edited every turn, tells it)
    told: dict[str, str] = {}
    for text, _ in table_texts(simcord_env, room.channel):
        turn = re.search(r"turn (\d+):\*\* .*your turn:", text)
        if turn is not None:
            told.setdefault(turn.group(1), text)
    hints = [HINT in told[str(t)] for t in range(1, TURNS + 1)]
    assert len(told) == TURNS and hints == [True] * 6 + [False] * (TURNS - 6), hints
    # one notice a turn in the channel, each mentioning the member to move (nobody chose DMs)
    notices = [t for t in posted_texts(simcord_env, room.channel) if re.match(r"<@\d+>, your turn in game", t)]
    assert len(notices) == NOTICES
    # with a board image: the table (posted once, then edited) and the final board; left at the end: no notice
    images = [t for t, _ in table_texts(simcord_env, room.channel)]
    posted_images = sum(
        1
        for r in simcord_env.http_requests
        if r.method == "POST"
        and r.path.endswith(f"/channels/{room.channel.id}/messages")
        and isinstance(r.json, dict)
        and r.json.get("attachments")
    )
    assert posted_images == 2 and len(images) > TURNS
    assert len(room.public_messages()) == LEFT
    # the start shows the commitment in one short line; how to check it comes with the final message
    start = next(message_text(m) for m in room.public_messages() if "starts!" in message_text(m))
    assert "python -m bot verify" not in start and len(start.split("commitment `")[1].split("\n")[0]) < 120
    assert "python -m bot verify" in next(
        message_text(m) for m in room.public_messages() if "is over" in message_text(m)
    )


# The figures of this game. Before issue 25 (main at f17df4a) the same game made 24 public messages (4 until
# the start: the lobby, a copy of it per join, the ticket choice) and 21 DMs (3 "choose tickets", 18 "your turn");
# before issue 59 (main at 6935ac4) 22 public messages (18 of them turn messages with a board) and the same 21 DMs.
# At the table: the lobby, the ticket choice, the table, 18 notices (one a turn), the final message and its score
# breakdown; no DMs.
TURNS = 18
LOBBY_POSTS = 2
PUBLIC = 23
NOTICES = 18
LEFT = 4  # the lobby, the ticket choice, the final message, its breakdown (the table and the notices deleted)
DMS: dict[str, int] = {}


@pytest.mark.parametrize("game_seed", [1])
async def test_a_member_who_turns_turn_dms_off_gets_none_all_game_and_is_still_mentioned(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    await turn_messages(room)  # a message per turn: each mentions the member to move
    await turn_dms(room, room.members[0], room.members[2])  # the others chose DMs
    bob = room.members[1]
    answer = await slash(bob, room, "ttr settings", turn_dms="never")
    assert all_private(answer) and "turn DMs: **never**" in reply_text(answer), reply_text(answer)
    game_id, _ = await open_game(room, "usa", 3, trains=7)
    player = Player(room, game_id)
    game = await player.play()

    assert dm_texts(room, bob) == []  # no "choose tickets", no "your turn"
    assert dm_kinds(room)["your turn"] > 0  # the others still get theirs
    # every turn of bob's was announced in the channel with a mention that pings him
    theirs = [
        m for m in room.public_messages() if "your turn:" in message_text(m) and f"<@{bob.id}>" in message_text(m)
    ]
    assert game.state.turn == TURNS and len(theirs) == TURNS // 3  # three players take turns in order
    assert all(bob.id in [u.id for u in m.mentions] for m in theirs)


async def test_a_join_changes_the_lobby_message_in_place_and_posts_nothing(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    await slash(room.members[0], room, "ttr new", map="usa")
    (lobby,) = room.public_messages()
    joined = await slash(room.members[1], room, "ttr join")
    assert all_private(joined) and "joined" in reply_text(joined)
    (after,) = room.public_messages()  # no new message: the lobby message itself tells it
    assert after.id == lobby.id and "bob" in message_text(after) and "2/5 seated" in message_text(after), message_text(
        after
    )
    await slash(room.members[1], room, "ttr leave")
    (after,) = room.public_messages()
    assert "1/5 seated" in message_text(after) and "bob" in message_text(after).split("\n")[0]  # who left, at its top


@pytest.mark.parametrize("game_seed", [1])
async def test_a_long_stretch_played_by_the_autopilot_is_summed_up_in_one_short_dm(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice"])
    mods = await moderate(room)
    alice = room.members[0]
    await slash(alice, room, "ttr new", map="usa", trains=20, bots=2, max_players=3)
    await slash(alice, room, "ttr start")
    info = await room.bot.service.reading.active_game(room.channel.id)
    assert info is not None
    name = next(s.player for s in info.seats if s.user_id == alice.id)
    await slash(mods.moderator, room, "ttrmod autopilot", player=name, state="on", reason="away for the week")
    game = await room.bot.service.reading.engine_game(info.id)
    assert game.finished  # the autopilot played her seat, and the bots theirs, to the end
    made = [m for m in game.moves if m.player == name]
    (note,) = [t for t in dm_texts(room, alice) if "the autopilot plays your seat" in t]
    draws = sum(1 for m in made if type(m).__name__ == "DrawCard")
    assert draws >= 6 and len(note.splitlines()) < len(made), note  # the draws told in one line
    assert re.search(r"^- You drew [0-9]+ cards: ", note, re.MULTILINE), note
    assert not re.search(r"^- You drew [a-z ]+\.$", note, re.MULTILINE), note  # no line per card
