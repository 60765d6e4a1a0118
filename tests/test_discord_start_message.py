"""The start message once the ticket choice is over: it said "Still choosing: @Robin" and a deadline for ever.

When the last player has chosen, the start message is written once more: the
seat order and the commitment as before, what comes next, and no one "still
choosing", no deadline and no buttons.
"""

from __future__ import annotations

import pytest
from discord_harness import make_room, message_text
from discord_play import Player, open_game
from simcord import Env

from engine import Phase

pytestmark = pytest.mark.parametrize("game_seed", [5])


@pytest.mark.parametrize("map_name", ["usa", "san_francisco"])
async def test_the_start_message_says_the_choice_is_over(simcord_env: Env, map_name: str) -> None:
    room = make_room(simcord_env, ["Alex", "Robin"])
    game_id, _ = await open_game(room, map_name, 2)
    start = next(m for m in room.public_messages() if "starts!" in message_text(m))
    assert "Still choosing" in message_text(start) and "Deadline" in message_text(start)
    commitment = message_text(start).split("`")[1]
    player = Player(room, game_id)
    while (await player.game()).state.phase is Phase.SETUP_KEEP:
        await player.step(await player.game())
    after = next(m for m in room.public_messages() if m.id == start.id)
    assert "Still choosing" not in message_text(after) and "Deadline" not in message_text(after), message_text(after)
    assert "Everyone has chosen" in message_text(after) and f"`{commitment}`" in message_text(after), message_text(
        after
    )
    # the message after it tells the starting tickets, not once more who takes the first turn
    said = [message_text(m) for m in room.public_messages() if "Everyone has chosen" in message_text(m)]
    assert said == [message_text(after)], said
    assert "Seat order" in message_text(after) and not after.components
