"""A game nobody can finish, played in a Discord channel through buttons and commands only: the members draw
every ticket and card and claim every short route (tests/helpers/stalemate.py), then each can only press *Pass*;
the last pass of the round ends the game, and the channel's last message says why, with the final scores."""

from __future__ import annotations

import pytest
from discord_harness import Room, click, custom_ids, make_room, message_text
from discord_play import Player, _route_of, open_game
from helpers.stalemate import Drive, plan_of
from simcord import Env, InteractionResult, MemberActor

from engine import Claim, DrawCard, DrawTickets, Game, Pass

MAP = "amsterdam"


class StalemateDrive(Player):
    """A `Player` whose turns are the stalemate drive's moves (its keeps and second cards stay the autopilot's)."""

    async def turn(self, game: Game, member: MemberActor, name: str) -> None:
        move = Drive(game, plan_of(game.board.name)[2]).move()
        if isinstance(move, DrawCard):
            await self.first_card(game, member, move.source)
        elif isinstance(move, DrawTickets):
            await self.draw_tickets(member)
        elif isinstance(move, Claim):
            route = _route_of(game, name, move)
            option = next(o for o in game.claim_options(name) if o.route.id == route)
            await self.claim(game, member, name, option, "drive")
        else:
            assert isinstance(move, Pass)
            await self.run(await click_pass(self.room, member), member)
            self.used["pass"] += 1


async def click_pass(room: Room, member: MemberActor) -> InteractionResult:
    return await click(member, room.stage_message(), "ttr:pass:")


async def play_to_the_end(room: Room) -> tuple[Game, StalemateDrive]:
    players, trains, _plans = plan_of(MAP)
    game_id, _ = await open_game(room, MAP, players, trains=trains, words=False)
    drive = StalemateDrive(room, game_id)
    game = await drive.play(max_steps=1000)
    return game, drive


@pytest.mark.parametrize("game_seed", [1])
async def test_the_round_of_passes_ends_the_game_in_the_channel(simcord_env: Env) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    game, drive = await play_to_the_end(room)
    assert game.finished and game.stalemate
    assert drive.used["pass"] == len(game.names)  # each member pressed Pass once: the round
    # the last stage message (the score breakdown follows it)
    last = next(m for m in reversed(room.public_messages()) if "Final scores" in message_text(m))
    assert "is over (everyone passed in turn: nobody could do anything else)." in message_text(last)
    assert "Everyone has passed in turn and nobody can do anything else" in message_text(last)  # the recap's last line
    assert not any(custom_ids(m) for m in room.public_messages())  # no buttons left in the channel
