"""How much a game says: the DMs and public messages of a short game, counted.

A three-player USA game (7 trains each), opened with `/ttr new`, joined with
`/ttr join`, started and played through to its end with the default settings
of every member and of the server. Each figure below is exact for its seed:
a change that makes the bot louder (or quieter) must change this test and the
README's figures ("Playing", "How much a game says") with it.
"""

from __future__ import annotations

from collections import Counter

import pytest
from discord_harness import (  # noqa: F401
    Room,
    all_private,
    bot_settings,
    dm_texts,
    game_seed,
    make_room,
    posted_texts,
    reply_text,
    simcord_bot,
    slash,
)
from discord_play import Player, open_game
from simcord import Env

NAMES = ["alice", "bob", "carol"]


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


# The figures of this game. Before issue 25 (main at f17df4a) the same game made 24 public messages (4 until
# the start: the lobby, a copy of it per join, the ticket choice) and 21 DMs (3 "choose tickets", 18 "your turn").
TURNS = 18
LOBBY_POSTS = 4
PUBLIC = 24
DMS = {"choose tickets": 3, "your turn": 18}


@pytest.mark.parametrize("game_seed", [1])
async def test_a_member_who_turns_turn_dms_off_gets_none_all_game_and_is_still_mentioned(simcord_env: Env) -> None:
    room = make_room(simcord_env, NAMES)
    bob = room.members[1]
    answer = await slash(bob, room, "ttr settings", turn_dms="never")
    assert all_private(answer) and "turn DMs: **never**" in reply_text(answer), reply_text(answer)
    game_id, _ = await open_game(room, "usa", 3, trains=7)
    player = Player(room, game_id)
    game = await player.play()

    assert dm_texts(room, bob) == []  # no "choose tickets", no "your turn"
    assert dm_kinds(room)["your turn"] > 0  # the others still get theirs
    # every turn of bob's was announced in the channel with a mention that pings him
    theirs = [m for m in room.public_messages() if "your turn:" in m.content and f"<@{bob.id}>" in m.content]
    assert game.state.turn == TURNS and len(theirs) == TURNS // 3  # three players take turns in order
    assert all(bob.id in [u.id for u in m.mentions] for m in theirs)
