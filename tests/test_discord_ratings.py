"""Ratings in Discord: a server turns casual ratings on, a whole game is played, and the leaderboard and
profiles show its members (names escaped, nobody pinged); a bad page is refused privately."""

from __future__ import annotations

import discord
from discord_harness import make_room, reply_text, slash
from discord_play import Player, open_game
from simcord import Env
from test_discord_names import BOLD, EVERYONE, bot_messages, pinged

from bot.present.escape import shown
from bot.service.ratings import shown_ordinal, shown_rating, shown_uncertainty


async def test_a_rated_game_shows_on_the_leaderboard_and_the_profiles(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["ann", BOLD, EVERYONE])
    managers = room.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    manager = room.add_member("manager", roles=[managers])
    ann, bold, everyone = room.members[:3]

    refused = await slash(ann, room, "ttr config", rated_casual="on")
    assert refused.response is not None and refused.response.ephemeral
    assert "Casual games rated: off" not in reply_text(refused)
    config = await slash(manager, room, "ttr config", rated_casual="on")
    assert "Casual games rated: on" in reply_text(config), reply_text(config)

    empty = await slash(ann, room, "ttr leaderboard")
    assert "Nobody is rated yet" in reply_text(empty)

    game_id, _ = await open_game(room, "usa", 3, trains=3)
    game = await Player(room, game_id).play()
    assert game.finished
    service = room.bot.service
    assert await service.ratings.is_rated(game_id)
    start = len(bot_messages(simcord_env))

    board = await slash(bold, room, "ttr leaderboard")
    assert board.response is not None and board.response.ephemeral
    text = reply_text(board)
    assert shown(BOLD) in text and shown(EVERYONE) in text and "ann" in text
    assert "**bold**" not in text.replace(shown(BOLD), "") and "<@12345>" not in text and "@everyone" not in text
    lines = (await service.ratings.leaderboard(room.guild.id)).lines
    assert [line.user_id for line in lines] != [] and {line.user_id for line in lines} == {
        m.id for m in room.members[:3]
    }
    for line in lines:
        assert f"{line.rank}. " in text and f"**{line.ordinal}** (1 game, " in text
    assert "page 1 of 1" in text

    per_map = await slash(ann, room, "ttr leaderboard", map="usa")
    assert "USA" in reply_text(per_map) and shown(BOLD) in reply_text(per_map)
    other_map = await slash(ann, room, "ttr leaderboard", map="india")
    assert "Nobody is rated yet" in reply_text(other_map)

    profile = await slash(ann, room, "ttr profile", member=bold)
    assert profile.response is not None and profile.response.ephemeral
    shown_text = reply_text(profile)
    skill = await service.ratings.rating_of(room.guild.id, bold.id)
    assert skill is not None
    # one number: the profile shows the member's number and rank of the leaderboard, not a rating ± uncertainty
    line = next(line for line in lines if line.user_id == bold.id)
    assert line.ordinal == shown_ordinal(skill)
    assert f"Rating: **{line.ordinal}** (#{line.rank} on the leaderboard)" in shown_text, shown_text
    assert " ± " not in shown_text and f"**{shown_rating(skill)}" not in shown_text
    assert shown_rating(skill) - shown_uncertainty(skill) in (line.ordinal - 1, line.ordinal, line.ordinal + 1)
    for member in room.members[:3]:  # every member's profile agrees with the leaderboard
        theirs = reply_text(await slash(ann, room, "ttr profile", member=member))
        mine = next(line for line in lines if line.user_id == member.id)
        assert f"Rating: **{mine.ordinal}** (#{mine.rank} on the leaderboard)" in theirs, theirs
    assert shown(BOLD) in shown_text and "Rated games: 1" in shown_text and "Favourite map: USA" in shown_text
    assert "Average score: " in shown_text and "Tickets completed: " in shown_text
    mine = await slash(everyone, room, "ttr profile")
    assert shown(EVERYONE) in reply_text(mine) and "@everyone" not in reply_text(mine)
    stranger = room.add_member("stranger")
    unrated = await slash(stranger, room, "ttr profile")
    assert "no rated game" in reply_text(unrated)

    # nobody is pinged by any of these answers
    for body in bot_messages(simcord_env)[start:]:
        assert pinged(body) == set()

    for page in (2, 0, -3):
        bad = await slash(ann, room, "ttr leaderboard", page=page)
        assert bad.response is not None and bad.response.ephemeral
        assert f"There is no page {page}" in reply_text(bad), reply_text(bad)
