"""Playing: one move for the member in a seat, then whatever the autopilot must play after it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.service.checks import check_id, check_version
from bot.service.core import ServiceCore
from bot.service.errors import IdKind, InvalidInput, NotAllowed, NotAPlayer, RuleViolation, Why, WrongState
from bot.service.kinds import Actor
from bot.service.results import ActionResult
from bot.service.runner import Runner
from bot.store import ClockChanged, GameStatus
from engine import GameError, Move
from engine.moves import move_from_json


class PlayService:
    def __init__(self, core: ServiceCore, runner: Runner) -> None:
        self.core = core
        self.runner = runner

    async def act(
        self,
        game_id: int,
        user_id: int,
        move: Move | Mapping[str, Any],
        expected_version: int | None = None,
    ) -> ActionResult:
        """Make one move for the player seated as `user_id`.

        `move` is an engine move or its record form (the "player" key may be
        left out). With `expected_version`, the move is refused with
        StaleVersion unless the game is still at that version.
        """
        user_id = check_id(user_id, IdKind.USER)

        async def attempt() -> ActionResult:
            live = await self.core.live(game_id)
            info, game = live.info, live.game
            if info.status is GameStatus.LOBBY or game is None:
                raise WrongState(Why.NOT_STARTED)
            if not info.status.active:
                raise WrongState(Why.NO_MORE_MOVES, {"status": info.status})
            seat = info.seat_of(user_id)
            if seat is None or seat.player is None:
                raise NotAPlayer(Why.NOT_PLAYING)
            clock = await self.core.stored_clock(game_id)
            if clock.paused_at is not None:
                raise WrongState(Why.PAUSED)
            if seat.autopilot:
                raise NotAllowed(Why.AUTOPILOT_SEAT)
            check_version(info, expected_version)
            parsed = parse_move(move, seat.player)
            run = self.runner.run(live, clock)
            # the clock may come from memory: the move's own transaction checks that the store still has it
            await self.runner.step(run, parsed, actor=Actor.PLAYER, user_id=user_id, expected_clock=clock)
            await self.runner.autoplay(run)
            return await self.runner.result(run)

        async def work() -> ActionResult:
            try:
                return await attempt()
            except ClockChanged:
                # changed by another process (a pause, more time) since this one wrote it: read the store again
                return await attempt()

        return await self.core.locked(game_id, work)


def parse_move(move: object, player: str) -> Move:
    """An engine move of `player` from a move or its record form; NotAllowed for another player's move."""
    if isinstance(move, Mapping):
        data = dict(move)
        claimed = data.setdefault("player", player)
        if claimed != player:
            raise NotAllowed(Why.NOT_YOUR_SEAT, {"player": player, "claimed": claimed})
        try:
            return move_from_json(data)
        except GameError as exc:
            raise RuleViolation.of(exc) from None
    if isinstance(move, Move):
        if move.player != player:
            raise NotAllowed(Why.NOT_YOUR_SEAT, {"player": player, "claimed": move.player})
        return move
    raise InvalidInput(Why.BAD_MOVE, {"type": type(move).__name__})
