"""Moderators in control, through SimCord: `/ttrmod end` asks first and `/ttrmod reopen` brings the game back,
reasons reach the channel only when the moderator says so, clock-only actions leave open menus working, and
`/ttr config` names the step left in Discord's settings.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from discord_harness import (
    all_private,
    attachment,
    click,
    custom_ids,
    end_game,
    make_room,
    message_text,
    panel,
    reply_text,
    select_options,
    slash,
)
from simcord import Env
from test_discord_moderation import deadline, moderated_game, mover
from test_discord_secrets import pressed_by_another

pytestmark = pytest.mark.parametrize("game_seed", [5])
HOUR = 3600


async def test_end_asks_first_and_reopen_brings_the_game_back_as_it_was(simcord_env: Env) -> None:
    room, mods, player = await moderated_game(simcord_env)
    game, name, _member = await mover(player)
    await simcord_env.advance_time(HOUR // 4)
    before = await deadline(player, name)
    seats = (await player.service.core.game(player.game_id)).seats

    question = await slash(mods.moderator, room, "ttrmod end", score="no", reason="long evening")
    assert all_private(question) and f"End game #{player.game_id}" in reply_text(question), reply_text(question)
    assert "/ttrmod reopen" in reply_text(question) and "24 h" in reply_text(question)
    assert (await player.service.core.game(player.game_id)).status.active and mods.log_lines() == []
    other = await pressed_by_another(mods.moderator, mods.manager, panel(question, "ttrmod:end:"), "ttrmod:end:yes")
    assert "Only the moderator who asked for this end" in reply_text(other)
    kept = await click(mods.moderator, panel(question, "ttrmod:end:"), "ttrmod:end:no")
    assert "goes on" in reply_text(kept) and (await player.service.core.game(player.game_id)).status.active

    # abandoned, not scored: a scored end shows every player's tickets, so it could not be reopened
    ended = await end_game(mods, room, score="no", reason="long evening")
    assert "is over" in reply_text(ended) and "/ttrmod reopen" in reply_text(ended)
    assert (await player.service.core.game(player.game_id)).status.value == "cancelled"
    # two hours over: longer than the turn clock, and none of it counts against the player on turn
    await simcord_env.advance_time(2 * HOUR)
    reopened = await slash(mods.moderator, room, "ttrmod reopen", reason="ended by mistake", public="yes")
    assert all_private(reopened) and "runs again" in reply_text(reopened), reply_text(reopened)
    info = await player.service.core.game(player.game_id)
    assert info.status.value == "playing" and info.seats == seats
    assert (await player.game()).moves == game.moves
    assert before is not None
    assert await deadline(player, name) == (datetime.fromisoformat(before) + timedelta(hours=2)).isoformat()
    fresh = room.stage_message()
    assert "A moderator reopens the game, 2 h after it ended" in message_text(
        fresh
    ) and "ended by mistake" in message_text(fresh)
    assert "reopened the game 2 h after it ended" in mods.log_lines()[-1] and "ended by mistake" in mods.log_lines()[-1]
    assert any(c.startswith("ttr:") for c in custom_ids(fresh))
    log = (await attachment(await slash(mods.manager, room, "ttrmod log")))[1].decode()
    assert "reopened the game - ended by mistake" in log
    await player.step(await player.game())  # the game goes on
    assert len((await player.game()).moves) > len(game.moves)

    again = await slash(mods.moderator, room, "ttrmod reopen", reason="x")
    assert "was not ended by a moderator" in reply_text(again), reply_text(again)


async def test_reopen_is_refused_after_a_new_game_or_too_late(simcord_env: Env) -> None:
    room, mods, player = await moderated_game(simcord_env)
    await end_game(mods, room, score="no", reason="duplicate table")
    alice, _bob = room.members[:2]
    await slash(alice, room, "ttr new", map="india")
    newer = await slash(mods.moderator, room, "ttrmod reopen", reason="x", game=player.game_id)
    assert all_private(newer) and "was opened in this channel after game" in reply_text(newer), reply_text(newer)
    await end_game(mods, room, score="no", reason="not wanted")
    for _ in range(5):
        await simcord_env.advance_time(5 * HOUR + 1)
    late = await slash(mods.moderator, room, "ttrmod reopen", reason="x")
    assert "can be reopened within 24 h" in reply_text(late), reply_text(late)
    assert await player.service.reading.active_game(room.channel.id) is None


async def test_the_reason_reaches_the_channel_only_when_the_moderator_says_so(simcord_env: Env) -> None:
    room, mods, _player = await moderated_game(simcord_env)
    await slash(mods.moderator, room, "ttrmod pause", reason="a private matter")
    note = message_text(room.public_messages()[-1])
    assert "A moderator pauses the game" in note and "private matter" not in note and "Reason" not in note
    assert "Reason: a private matter" in mods.log_lines()[-1]
    await slash(mods.moderator, room, "ttrmod resume", reason="all sorted", public="no")
    assert not any("all sorted" in message_text(m) for m in room.public_messages())
    await slash(mods.moderator, room, "ttrmod extend", duration="1h", reason="long train ride", public="yes")
    assert "Reason: long train ride" in message_text(room.public_messages()[-1])
    log = (await attachment(await slash(mods.moderator, room, "ttrmod log")))[1].decode()
    assert all(reason in log for reason in ("a private matter", "all sorted", "long train ride"))


async def test_clock_actions_and_reads_leave_an_open_menu_working(simcord_env: Env) -> None:
    """A player opens a menu; a moderator extends, pauses, reads the log and exports: the menu still works."""
    room, mods, player = await moderated_game(simcord_env)
    game, _name, member = await mover(player)
    version = (await player.service.core.game(player.game_id)).version
    first = await click(member, room.stage_message(), "ttr:claim:")
    menu = panel(first, "ttrs:route:")
    await slash(mods.moderator, room, "ttrmod extend", duration="2h", reason="x")
    await slash(mods.moderator, room, "ttrmod log", reason="a complaint")
    await slash(mods.manager, room, "ttrmod export")
    assert (await player.service.core.game(player.game_id)).version == version
    route = next(o["value"] for c in custom_ids(menu) for o in select_options(menu, c))
    chosen = await member.select(menu, [route], custom_id=next(c for c in custom_ids(menu)))
    assert "out of date" not in reply_text(chosen), reply_text(chosen)

    await slash(mods.moderator, room, "ttrmod pause", reason="x")
    assert (await player.service.core.game(player.game_id)).version == version
    drawn = await click(member, room.stage_message(), "ttr:draw:")
    assert "paused" in reply_text(drawn) and "out of date" not in reply_text(drawn), reply_text(drawn)
    assert (await player.game()).moves == game.moves


async def test_config_tells_the_step_left_after_a_moderator_role(simcord_env: Env) -> None:
    import discord

    room = make_room(simcord_env, ["alice"])
    managers = room.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    manager = room.add_member("manager", roles=[managers])
    mods = room.guild.create_role("Game mods")
    done = reply_text(await slash(manager, room, "ttr config", moderator_role=mods))
    assert "Server Settings > Integrations > Conductor" in done and "/ttrmod" in done, done
    other = reply_text(await slash(manager, room, "ttr config", log_channel=room.channel))
    assert "Integrations" not in other
