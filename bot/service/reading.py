"""Reading a game without changing it: lookups, views, who it waits for, history, digest, clock."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime

from bot.service import clock as clocks
from bot.service.checks import check_id
from bot.service.clock import ClockSettings
from bot.service.core import ServiceCore
from bot.service.digest import Digest, digest
from bot.service.errors import IdKind, NotAPlayer, Why, WrongState
from bot.service.history import Stage, stages
from bot.service.kinds import TimeoutPolicy
from bot.service.models import GameInfo, Waiting
from bot.service.observer import Observer
from bot.service.runner import Runner, waiting_of
from bot.service.views import PrivateView, PublicView, private_view, public_view
from bot.store import ACTIVE, GameStatus
from bot.store.protocols import GameStore, HistoryStore
from engine import Game


@dataclass(frozen=True)
class SeatClock:
    seat: int
    player: str | None
    user_id: int
    autopilot: bool
    waiting: bool  # the game waits for this seat
    since: datetime | None  # its wait began
    deadline: datetime | None  # with the reserve; None: not waiting, no clock, or out of time
    reserve_left: float | None  # seconds; None without a clock
    timeouts: int
    waiting_for_moderator: bool  # out of time under the "wait" policy


@dataclass(frozen=True)
class ClockStatus:
    """The clock as anyone may see it: settings, paused or not, and each seat's deadline, reserve and timeouts."""

    game_id: int
    settings: ClockSettings
    paused: bool
    paused_at: datetime | None
    paused_by: int | None
    seats: tuple[SeatClock, ...]


class ReadingService:
    def __init__(self, core: ServiceCore, game_store: GameStore, history_store: HistoryStore, runner: Runner) -> None:
        self.core = core
        self.game_store = game_store
        self.history_store = history_store
        self.runner = runner

    async def game(self, game_id: int) -> GameInfo:
        """The game as it is now (its info, from the live games or the store)."""
        return await self.core.game(game_id)

    def now(self) -> datetime:
        """The service's clock (a test's, or the try-out's)."""
        return self.core.now()

    @property
    def observer(self) -> Observer:
        """Who hears how the front's work went (the operator's metrics; nobody by default)."""
        return self.core.observer

    async def active_game(self, channel_id: int) -> GameInfo | None:
        """The lobby or running game in a channel, if any."""
        row = await self.game_store.active_game(check_id(channel_id, IdKind.CHANNEL))
        return None if row is None else GameInfo.of(row, await self.game_store.seats(row.id))

    async def games_of_user(self, user_id: int, *, active_only: bool = True) -> list[GameInfo]:
        statuses = ACTIVE if active_only else set(GameStatus)
        rows = await self.game_store.games_of_user(check_id(user_id, IdKind.USER), statuses)
        return [GameInfo.of(row, await self.game_store.seats(row.id)) for row in rows]

    async def engine_game(self, game_id: int) -> Game:
        """A copy of the engine's game (for drawing the board, tools, tests); secrets included."""

        async def work() -> Game:
            live = await self.core.live(game_id)
            if live.game is None:
                raise WrongState(Why.NOT_DEALT)
            return self.core.working_copy(live.game)

        return await self.core.locked(game_id, work)

    async def public_view(self, game_id: int) -> PublicView:
        async def work() -> PublicView:
            live = await self.core.live(game_id)
            return public_view(live.info, live.game)

        return await self.core.locked(game_id, work)

    async def private_view(self, game_id: int, user_id: int) -> PrivateView:
        """What one player sees: their hand, tickets and the moves open to them."""
        user_id = check_id(user_id, IdKind.USER)

        async def work() -> PrivateView:
            live = await self.core.live(game_id)
            seat = live.info.seat_of(user_id)
            if seat is None:
                raise NotAPlayer(Why.NOT_PLAYING)
            if live.game is None or seat.seat is None:
                raise WrongState(Why.NOT_DEALT)
            return private_view(live.info, live.game, seat.seat)

        return await self.core.locked(game_id, work)

    async def waiting(self, game_id: int) -> Waiting | None:
        async def work() -> Waiting | None:
            live = await self.core.live(game_id)
            return None if live.game is None else waiting_of(live.info, live.game)

        return await self.core.locked(game_id, work)

    async def history(self, game_id: int) -> tuple[Stage, ...]:
        """Every stage so far with the public events of its moves and who made them (nothing before the deal)."""

        async def work() -> tuple[Stage, ...]:
            live = await self.core.live(game_id)
            if live.game is None:
                return ()
            # a replay of the whole game: off the event loop (the cached game is never changed in place)
            return await asyncio.to_thread(stages, live.info, live.game, live.actors)

        return await self.core.locked(game_id, work)

    async def digest(self, game_id: int, user_id: int) -> Digest:
        """What changed since this player's own last turn: for them alone (it names their tickets)."""
        user_id = check_id(user_id, IdKind.USER)

        async def work() -> Digest:
            live = await self.core.live(game_id)
            seat = live.info.seat_of(user_id)
            if seat is None or seat.seat is None:
                raise NotAPlayer(Why.NOT_PLAYING)
            if live.game is None:
                raise WrongState(Why.NOT_STARTED)
            earlier = self.core.after_last_move.get(game_id, {}).get(seat.seat)
            return digest(live.info, live.game, seat.seat, live.actors, earlier)

        return await self.core.locked(game_id, work)

    async def clock_status(self, game_id: int) -> ClockStatus:
        """The clock as anyone may see it: settings, paused or not, and each seat's deadline, reserve and timeouts."""

        async def work() -> ClockStatus:
            live = await self.core.live(game_id)
            stored = await self.history_store.clock(game_id)
            info = live.info
            clock = self.runner.run(live, stored).clock
            seats = []
            for sitter in info.seats:
                if sitter.seat is None:
                    continue
                c = clock.seat(sitter.seat)
                end = clocks.deadline(info.clock, c)
                seats.append(
                    SeatClock(
                        seat=sitter.seat,
                        player=sitter.player,
                        user_id=sitter.user_id,
                        autopilot=sitter.autopilot,
                        waiting=c.wait is not None,
                        since=c.since,
                        deadline=None if c.timed_out else end,
                        reserve_left=clocks.reserve_left(info.clock, c) if info.clock.enabled else None,
                        timeouts=c.timeouts,
                        waiting_for_moderator=c.timed_out and info.clock.policy is TimeoutPolicy.WAIT,
                    )
                )
            paused = clock.paused_at is not None
            return ClockStatus(info.id, info.clock, paused, clock.paused_at, clock.paused_by, tuple(seats))

        return await self.core.locked(game_id, work)
