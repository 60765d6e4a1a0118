"""Whole games in a Discord channel, played only through slash commands, buttons and menus.

Every map is played with 2 players and with its most players, short games
thanks to the trains house rule. `Player` (tests/discord_play.py) checks at
every step that the answers are private, that no public message shows a card
or ticket that is secret at that moment, and that every turn message carries
the board image with alt text.
"""

from __future__ import annotations

import json
import re

import pytest
from discord_harness import Room, make_room, message_text, reply_text, slash, table_texts
from discord_play import Player, open_game
from simcord import Env

from engine.verify import verify
from maps import load_board

NAMES = ["alice", "bob", "carol", "dave", "erin"]
# (map, players, seed): the seeds make the deals reproducible and were picked so that each game
# shows its map's special interface (tunnels paid and given up, ferries, souvenir menus).
GAMES = [
    ("usa", 2, 1),
    ("usa", 5, 1),
    ("india", 2, 1),
    ("india", 4, 1),
    ("switzerland", 2, 1),
    ("switzerland", 3, 1),
    ("amsterdam", 2, 1),
    ("amsterdam", 4, 1),
    ("san_francisco", 2, 2),
    ("san_francisco", 4, 1),
]


@pytest.mark.parametrize(("map_name", "players", "game_seed"), GAMES, ids=[f"{m}-{n}p" for m, n, _ in GAMES])
async def test_a_whole_game_through_discord(simcord_env: Env, map_name: str, players: int) -> None:
    room = make_room(simcord_env, NAMES[:players])
    assert players in (2, load_board(map_name).rules.max_players)
    game_id, _ = await open_game(room, map_name, players, trains=7)
    player = Player(room, game_id)

    game = await player.play()

    used = player.used
    assert used["tickets button"] + used["tickets command"] >= 1, used
    assert used["keep menu"] + used["keep command"] >= 1, used
    assert used["setup menu"] >= 1 and used["claim menu"] >= 1 and used["claim command"] >= 1, used
    assert used["draw button"] + used["draw command"] >= 1, used
    assert used["claim confirmed"] >= 1, used  # confirmations are on by default
    if map_name == "switzerland":
        assert used["tunnel given up"] >= 1, used
        assert used["tunnel paid"] >= 1 or players == 2, used
    if map_name in ("india", "san_francisco"):
        assert used["ferry claimed"] >= 1, used
    if map_name == "san_francisco":
        assert used["placement"] == 2 and used["souvenir menu"] >= 1, used
    assert player.scan.scanned >= game.state.turn

    await the_end_is_shown(room, game_id)
    # every turn shown at the table (one message, edited after every move), each time with the board and its alt text
    shown = [(text, files) for text, files in table_texts(simcord_env, room.channel) if "your turn:" in text]
    turns = {int(t) for text, _ in shown for t in re.findall(r"turn (\d+):\*\*", text)}
    assert turns == set(range(1, game.state.turn + 1)), sorted(turns)
    assert all(files and files[0].get("description") for _, files in shown)


async def the_end_is_shown(room: Room, game_id: int) -> None:
    final = next(m for m in room.public_messages() if "is over" in message_text(m))
    assert final.attachments[0].filename == "final.png"
    assert final.attachments[0].description and "final" in final.attachments[0].description.lower()
    assert "Score breakdown" in message_text(room.public_messages()[-1])
    # the record is everyone's once the game is over: a player, and someone who never played
    watcher = room.add_member("watcher")
    for member in (room.members[0], watcher):
        result = await slash(member, room, "ttr export")
        reply = result.response
        assert reply is not None and reply.ephemeral, reply_text(result)
        record = json.loads(await reply.attachments[0].read())
        assert record["conductor"]["game_id"] == game_id and record["moves"]
        # the channel published the commitment at the start and the seed and chain head at the end: they prove it
        texts = [message_text(m) for m in room.public_messages()]
        posted = next(re.search(r"commitment `([0-9a-f]{64})`", t) for t in texts if "commitment `" in t)
        proof = next(re.search(r"seed `([^`]+)`, chain head `([0-9a-f]{64})`", t) for t in texts if "chain head `" in t)
        assert posted is not None and proof is not None and proof.group(1) == str(record["seed"])
        assert verify(record, posted_commitment=posted.group(1), posted_head=proof.group(2)).ok
