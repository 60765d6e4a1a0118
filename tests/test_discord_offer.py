"""Tickets are chosen seeing them: every ticket offer comes with the map, the offered tickets marked A, B, C."""

from __future__ import annotations

import pytest
from discord_harness import all_private, click, make_room, panel, replies, reply_text, slash
from discord_play import Player, open_game
from simcord import Env, InteractionResult

from engine import Phase


def offer_file(result: InteractionResult) -> str | None:
    """The name of the image that came with the keep menu, if any."""
    for message in replies(result):
        if any(a.filename == "tickets.png" for a in message.attachments):
            return "tickets.png"
    return None


@pytest.mark.parametrize("game_seed", [3])
async def test_the_offer_is_shown_on_the_map_at_the_start_and_on_every_draw(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    game_id, started = await open_game(room, "usa", 2)
    # the host's answer to the start already holds the choice, with its image
    assert offer_file(started) == "tickets.png" and "as A, B, C, in this order" in reply_text(started)
    bob = room.members[1]
    chosen = await click(bob, room.stage_message(), "ttr:setup:")
    assert all_private(chosen) and offer_file(chosen) == "tickets.png", reply_text(chosen)
    assert "as A, B, C, in this order" in reply_text(chosen)
    description = next(a.description for m in replies(chosen) for a in m.attachments)
    assert description  # the image has its alt text

    player = Player(room, game_id)
    while (await player.game()).state.phase is not Phase.PLAY:
        await player.step(await player.game())
    game = await player.game()
    mover = await player.member(game.to_move().player)  # type: ignore[union-attr]
    # drawn with the button (and confirmed) or typed: the keep menu comes with the map
    asked = await click(mover, room.stage_message(), "ttr:tickets:")
    drawn = await click(mover, panel(asked, "ttr:ticketsok:"), "ttr:ticketsok:")
    assert all_private(drawn) and offer_file(drawn) == "tickets.png", reply_text(drawn)
    again = await slash(mover, room, "ttr tickets")  # already offered: the same choice, shown again with its image
    assert offer_file(again) == "tickets.png", reply_text(again)
    # a panel that is not a ticket choice has no such image
    hand = await slash(mover, room, "ttr hand")
    assert offer_file(hand) is None
