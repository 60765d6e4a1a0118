"""Odd input through Discord: forged menu values and signed counts of cards are refused privately; nothing changes."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import pytest
from discord_harness import (
    Room,
    all_private,
    click,
    find_id,
    forge_choice,
    make_room,
    moderate,
    panel,
    reply_text,
    slash,
)
from discord_play import open_game
from simcord import Env


async def member_to_move(room: Room, game_id: int) -> tuple[int, str]:
    """The index in `room.members` of the member whose turn it is, and their player."""
    game = await room.bot.service.reading.engine_game(game_id)
    info = await room.bot.service.core.game(game_id)
    player = game.names[game.state.current]
    user = info.user_of(player)
    return next(i for i, m in enumerate(room.members) if m.id == user), player


async def hand_of(room: Room, game_id: int, player: str) -> Mapping[str, int]:
    game = await room.bot.service.reading.engine_game(game_id)
    return game.state.players[game.seat(player)].hand


@pytest.mark.parametrize("game_seed", [1])
async def test_forged_menu_values_and_odd_counts_are_refused_privately(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    game_id, _ = await open_game(room, "usa", 2)
    service = room.bot.service
    alice = room.members[0]
    with caplog.at_level(logging.WARNING):
        # a forged value in the tickets menu at the start
        result = await click(alice, room.stage_message(), "ttr:setup:")
        menu = panel(result, "ttrs:setupkeep:")
        before = (await service.core.game(game_id)).version
        menu_id = find_id(menu, "ttrs:setupkeep:")
        for forged in (["²", "1"], ["1" * 4301], ["-1"], [""]):
            refused = await forge_choice(alice, menu, menu_id, forged)
            assert all_private(refused) and "not one I offered" in reply_text(refused), reply_text(refused)
        refused = await forge_choice(alice, menu, menu_id, [])
        assert all_private(refused) and "must keep at least 2" in reply_text(refused), reply_text(refused)
        assert (await service.core.game(game_id)).version == before
        for member in room.members:
            kept = await slash(member, room, "ttr keep", numbers="1 2")
            assert all_private(kept), reply_text(kept)

        # a signed, fractional or odd count of cards when claiming
        index, player = await member_to_move(room, game_id)
        mover = room.members[index]
        before = (await service.core.game(game_id)).version
        hand = dict(await hand_of(room, game_id, player))
        for pay in ("-1 red", "+2 red", "1.5 red", "0x2 red", "²", "٣ red", "1e3 red"):
            refused = await slash(mover, room, "ttr claim", route="0", pay=pay)
            assert all_private(refused) and "is not a count of cards" in reply_text(refused), reply_text(refused)
        # durations nobody could mean, from a server manager and a moderator
        mods = await moderate(room)
        before = (await service.core.game(game_id)).version
        for duration in ("9" * 309 + "h", "²", "1" * 4301 + "d", "٣h"):
            for refused in (
                await slash(mods.manager, room, "ttr config", turn_time=duration),
                await slash(mods.manager, room, "ttr config", reminders=duration),
                await slash(mods.moderator, room, "ttrmod extend", duration=duration, reason="x"),
            ):
                assert all_private(refused) and "cannot read" in reply_text(refused), reply_text(refused)
        assert (await service.core.game(game_id)).version == before
        assert dict(await hand_of(room, game_id, player)) == hand
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
