"""Names and mentions: member-chosen text never pings anyone and is shown escaped; invisible names are "player N"."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from discord_harness import attachment, make_room, slash
from discord_play import Player, open_game
from simcord import Env

from bot.present.escape import quoted, shown
from bot.present.seats import member_name
from bot.service.names import clean_name, unique_names

BOLD = "<@12345> **bold**"
EVERYONE = "@everyone"
MENTION = re.compile(r"<@!?(\d+)>")


def bot_messages(env: Env) -> list[dict[str, Any]]:
    """Every message the bot posted, edited or answered with (its JSON), oldest first."""
    out = []
    for r in env.http_requests:
        body = r.json
        if r.method not in ("POST", "PATCH") or not isinstance(body, dict):
            continue
        if r.path.endswith("/callback"):  # an interaction's answer: the message is inside
            body = body.get("data")
            if not isinstance(body, dict) or "content" not in body:
                continue
        elif not r.path.endswith("/messages") and "/messages/" not in r.path:
            continue
        out.append(body)
    return out


def pinged(body: dict[str, Any]) -> set[int]:
    """Whom a message may ping, from its allowed mentions (which every message must state)."""
    allowed = body.get("allowed_mentions")
    assert isinstance(allowed, dict), f"no allowed_mentions: {body.get('content')!r}"
    assert allowed.get("parse") == [], allowed  # no "everyone", "roles" or "users" parsed from the text
    return {int(u) for u in allowed.get("users", [])}


# ----- the escape helper ---------------------------------------------------------------


def test_shown_escapes_markdown_and_breaks_every_mention() -> None:
    assert shown("ann") == "ann"
    assert shown("**bold**") == "\\*\\*bold\\*\\*"
    assert shown("a_b ~x~ `c` |s|") == "a\\_b \\~x\\~ \\`c\\` \\|s\\|"
    for typed in ("<@12345>", "<@!12345>", "<@&77>", "@everyone", "@here"):
        escaped = shown(typed)
        assert "@\N{ZERO WIDTH SPACE}" in escaped
        assert not MENTION.search(escaped) and "@everyone" not in escaped and "@here" not in escaped
    assert quoted("<@1> *x*") == "'<@\N{ZERO WIDTH SPACE}1> \\*x\\*'"


def test_member_names_escape_and_fall_back_for_invisible_ones() -> None:
    assert member_name(BOLD) == shown(BOLD)
    assert member_name("", 3) == "player 3"
    assert member_name("") == "a member without a visible name"


def test_names_of_invisible_characters_are_empty_and_play_as_player_n() -> None:
    for invisible in ("\u200b\u200b", "\u0301\u0302", " \u200d \u3164 ", "\u2800", "\u200b\u0300 \u034f"):
        assert clean_name(invisible) == "", repr(invisible)
    assert clean_name("e\u0301") == "e\u0301"  # a letter with its accent is a name
    assert clean_name("  ann \u200b ") == "ann"
    assert unique_names(["\u200b", "ann", "\u0301"]) == ["player 1", "ann", "player 3"]


# ----- through Discord -------------------------------------------------------------------


@pytest.mark.parametrize("game_seed", [3])
async def test_a_member_named_like_a_mention_pings_nobody_and_is_shown_escaped(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["ann", BOLD, EVERYONE])
    real = {m.id for m in room.members}
    assert 12345 not in real
    game_id, _ = await open_game(room, "usa", 3, trains=7)
    await Player(room, game_id).play()

    messages = bot_messages(simcord_env)
    stage_pings = notice_pings = 0
    for body in messages:
        users = pinged(body)
        content = str(body.get("content") or "")
        assert "**bold**" not in content and "<@12345>" not in content and "@everyone" not in content, content
        assert users <= real, (users, content)
        if users:
            # a message that pings pings exactly the members it mentions: those who must act
            assert users == {int(u) for u in MENTION.findall(content)}, (users, content)
            if body.get("components"):
                stage_pings += 1  # the setup message (the live table's edits ping nobody)
            else:
                notice_pings += 1  # a turn's notice in the channel (the default: no turn DMs)
    assert stage_pings >= 1 and notice_pings >= 2  # the setup message and the turns
    texts = "\n".join(str(b.get("content") or "") for b in messages)
    assert shown(BOLD) in texts and shown(EVERYONE) in texts
    # the lobby, the announcements and the notes ping nobody
    lobby = [b for b in messages if "joins" in str(b.get("content") or "")]
    assert lobby and all(pinged(b) == set() for b in lobby)


async def test_a_member_with_an_invisible_name_plays_as_player_n(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["ann"])
    ghost = room.add_member("ghost", nick="\u200b\u0301\u200d")
    game_id, _ = await open_game(room, "usa", 2, trains=6)
    texts = "\n".join(str(b.get("content") or "") for b in bot_messages(simcord_env))
    assert "player 2 joins (2/" in texts

    info = await room.bot.service.core.game(game_id)
    seat = next(s for s in info.seats if s.user_id == ghost.id)
    assert seat.display_name == "" and seat.player is not None
    assert re.fullmatch(r"player [12]", seat.player)
    await Player(room, game_id).play()

    exported = await slash(ghost, room, "ttr export")
    _, data = await attachment(exported)
    record = json.loads(data)
    assert seat.player in json.dumps(record)
    assert all(s["player"] for s in record["conductor"]["seats"])
