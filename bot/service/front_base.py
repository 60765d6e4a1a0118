"""What the front end's queries (front_records, choices, images, stages) need from the game service's core.

The queries are mixins of `GameService`; this protocol names the part of the
service they use, so each stays readable on its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from bot.service.errors import NotAPlayer, WrongState
from bot.service.loading import LiveGame
from bot.service.models import GameInfo, SeatInfo
from bot.store import Store
from engine import Game

T = TypeVar("T")


class ServiceCore(Protocol):
    @property
    def store(self) -> Store: ...

    async def _locked(self, game_id: int, work: Callable[[], Awaitable[T]]) -> T: ...

    async def _live(self, game_id: int) -> LiveGame: ...

    async def game(self, game_id: int) -> GameInfo: ...


@dataclass(frozen=True)
class Dealt:
    """A started game as committed: its info, a copy of its engine game, and who made each move."""

    info: GameInfo
    game: Game
    actors: tuple[str, ...]


async def dealt_game(core: ServiceCore, game_id: int) -> Dealt:
    """The game as committed, read under its lock; WrongState before the deal."""

    async def work() -> Dealt:
        live = await core._live(game_id)
        if live.game is None:
            raise WrongState("The game has not started yet: nothing is dealt.")
        return Dealt(live.info, live.game.copy(), live.actors)

    return await core._locked(game_id, work)


def seated(info: GameInfo, user_id: int) -> tuple[SeatInfo, str, int]:
    """The seat, player name and seat number of a member playing in a started game; NotAPlayer otherwise."""
    seat = info.seat_of(user_id)
    if seat is None or seat.player is None or seat.seat is None:
        raise NotAPlayer("You are not playing in this game.")
    return seat, seat.player, seat.seat
