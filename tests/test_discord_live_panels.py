"""Which private answers lose their buttons when a newer one comes (issue 59, bot/views/live_panels.py).

Only a member's game panel (moves of a game: the ticket choice, the claim
menus, a payment...) is superseded, and only by a newer answer about the same
game. The pages of a paged answer and a moderator's confirmation keep their
buttons whatever the member is answered next, and a panel of one game keeps
its buttons while the member plays another game.
"""

from __future__ import annotations

from typing import Any

import pytest
from discord_harness import Room, click, custom_ids, make_room, moderate, panel, reply_text, slash
from discord_play import Player, open_game
from simcord import Env, MemberActor
from simcord.actors import _visible_message


def fresh(member: MemberActor, message: Any) -> Any:
    """A private answer as it is now."""
    return _visible_message(member, message)


@pytest.mark.parametrize("game_seed", [1])
async def test_pages_and_a_moderators_confirmation_keep_their_buttons_after_other_answers(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    alice = room.members[0]
    mods = await moderate(room)
    game_id, _ = await open_game(room, "usa", 2)
    player = Player(room, game_id)
    while (await player.game()).state.turn < 4:
        await player.step(await player.game())

    pages = panel(await slash(alice, room, "ttr replay", turn=0), "")
    preview = panel(await slash(mods.moderator, room, "ttrmod undo", count=1, reason="misclick"), "ttrmod:undo:no")
    for _ in range(2):  # newer private answers, about the same game, to both members
        await slash(alice, room, "ttr hand")
        await slash(alice, room, "ttr replay", turn=1)
        await slash(mods.moderator, room, "ttr replay", turn=1)
        await slash(mods.moderator, room, "ttr status")

    assert custom_ids(fresh(alice, pages)), "the pager lost its buttons"
    assert any(c.startswith("ttrmod:undo:yes") for c in custom_ids(fresh(mods.moderator, preview)))
    answer = await click(mods.moderator, preview, "ttrmod:undo:no")
    assert "Nothing was taken back" in reply_text(answer), reply_text(answer)


async def test_a_game_panel_is_superseded_only_by_an_answer_about_its_own_game(simcord_env: Env) -> None:
    guild, first, members = _guild(simcord_env, ["alice", "bob"])
    a = Room(simcord_env, guild, first, members)
    b = Room(simcord_env, guild, guild.create_text_channel("games-b"), members)
    alice = members[0]
    await open_game(a, "usa", 2)
    await open_game(b, "usa", 2)

    choice_a = panel(await click(alice, a.stage_message(), "ttr:setup:"), "ttrs:setupkeep:")
    choice_b = panel(await click(alice, b.stage_message(), "ttr:setup:"), "ttrs:setupkeep:")
    await slash(alice, b, "ttr hand")  # answers about game B
    assert any(c.startswith("ttrs:setupkeep:") for c in custom_ids(fresh(alice, choice_a))), "B's answer took A's"
    assert custom_ids(fresh(alice, choice_b)) == [], "game B's older panel was not superseded"
    await slash(alice, a, "ttr hand")  # an answer about game A supersedes its panel
    assert custom_ids(fresh(alice, choice_a)) == []


def _guild(env: Env, names: list[str]) -> tuple[Any, Any, list[MemberActor]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    return guild, channel, [guild.add_member(env.create_user(name)) for name in names]
