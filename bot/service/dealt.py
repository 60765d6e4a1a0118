"""A dealt game read for the front end's queries (choices, images, stages): the game as committed, under its lock.

The engine game handed out here is a copy that never leaves the service: the
queries answer with what the member may see.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.core import ServiceCore
from bot.service.errors import NotAPlayer, Why, WrongState
from bot.service.kinds import Actor
from bot.service.models import GameInfo, SeatInfo
from engine import Game


@dataclass(frozen=True)
class Dealt:
    """A started game as committed: its info, a copy of its engine game, and who made each move."""

    info: GameInfo
    game: Game
    actors: tuple[Actor, ...]


async def dealt_game(core: ServiceCore, game_id: int) -> Dealt:
    """The game as committed, read under its lock; WrongState before the deal."""

    async def work() -> Dealt:
        live = await core.live(game_id)
        if live.game is None:
            raise WrongState(Why.NOT_DEALT)
        return Dealt(live.info, core.working_copy(live.game), live.actors)

    return await core.locked(game_id, work)


def seated(info: GameInfo, user_id: int) -> tuple[SeatInfo, str, int]:
    """The seat, player name and seat number of a member playing in a started game; NotAPlayer otherwise."""
    seat = info.seat_of(user_id)
    if seat is None or seat.player is None or seat.seat is None:
        raise NotAPlayer(Why.NOT_PLAYING)
    return seat, seat.player, seat.seat
