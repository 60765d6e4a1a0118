"""Playing: one move for the member in a seat, then whatever the autopilot must play after it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from bot.service.checks import check_id, check_version
from bot.service.core import ServiceCore
from bot.service.errors import IdKind, InvalidInput, NotAllowed, NotAPlayer, Why, WrongState
from bot.service.kinds import Actor
from bot.service.loading import LiveGame
from bot.service.results import ActionResult
from bot.service.runner import Runner
from bot.store import ClockChanged, GameStatus
from engine import Move
from engine.moves import Keep, TicketRef

T = TypeVar("T")


class PlayService:
    def __init__(self, core: ServiceCore, runner: Runner) -> None:
        self.core = core
        self.runner = runner

    async def act(
        self,
        game_id: int,
        user_id: int,
        move: Move,
        expected_version: int | None = None,
    ) -> ActionResult:
        """Make one move (an engine move) for the player seated as `user_id`.

        With `expected_version`, the move is refused with StaleVersion unless
        the game is still at that version. A claim by route: bot/service/claims.py's `claim`.
        """
        user_id = check_id(user_id, IdKind.USER)

        async def attempt() -> ActionResult:
            return await self.move_now(await self.core.live(game_id), user_id, move, expected_version)

        # refused ("not your turn", "the game moved on", ...) by a copy another process has outdated: answered
        # from the game as stored
        return await self.core.act(game_id, clock_retried(attempt))

    async def move_now(
        self, live: LiveGame, user_id: int, move: Move, expected_version: int | None = None
    ) -> ActionResult:
        """Make one move on the game as committed (`live`) for the player seated as `user_id`, then the autopilot's
        moves after it; the caller holds the game's lock (inside `core.act`: bot/service/claims.py's claim decides
        and moves under one lock)."""
        info, game = live.info, live.game
        if info.status is GameStatus.LOBBY or game is None:
            raise WrongState(Why.NOT_STARTED)
        if not info.status.active:
            raise WrongState(Why.NO_MORE_MOVES, {"status": info.status})
        seat = info.seat_of(user_id)
        if seat is None or seat.player is None:
            raise NotAPlayer(Why.NOT_PLAYING)
        clock = await self.core.stored_clock(info.id)
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

    async def keep(
        self, game_id: int, user_id: int, ticket_ids: Sequence[int], expected_version: int | None = None
    ) -> ActionResult:
        """Keep the offered tickets `ticket_ids` (the board's ticket numbers), named as the game's rules name them."""

        async def refs() -> tuple[TicketRef, ...]:
            game = (await self.core.live(game_id)).game
            if game is None:
                raise WrongState(Why.NOT_STARTED)
            return tuple(game.ticket_ref(t) for t in ticket_ids if 0 <= t < len(game.board.tickets))

        kept = await self.core.locked(game_id, refs)
        seat = (await self.core.game(game_id)).seat_of(check_id(user_id, IdKind.USER))
        player = "" if seat is None or seat.player is None else seat.player
        return await self.act(game_id, user_id, Keep(player, kept), expected_version)


def clock_retried(attempt: Callable[[], Awaitable[T]]) -> Callable[[], Awaitable[T]]:
    """`attempt`, tried once more if the game's clock was changed by another process (a pause, more time) since this
    one wrote it: the store is read again."""

    async def work() -> T:
        try:
            return await attempt()
        except ClockChanged:
            return await attempt()

    return work


def parse_move(move: object, player: str) -> Move:
    """`move` if it is an engine move of `player`; NotAllowed for another player's move."""
    if isinstance(move, Move):
        if move.player != player:
            raise NotAllowed(Why.NOT_YOUR_SEAT, {"player": player, "claimed": move.player})
        return move
    raise InvalidInput(Why.BAD_MOVE, {"type": type(move).__name__})
