"""Simulated time, a recording notifier and helpers for clock, scheduler and moderation tests."""

from __future__ import annotations

import asyncio
import itertools
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.present.clock import reminder_text
from bot.present.moderation import mod_line
from bot.runtime.scheduler import Scheduler
from bot.service import ActionResult, GameInfo, GameService, ModLogEntry, Reminder
from bot.service.clock import ClockSettings
from bot.service.settings import MAX_OPEN_GAMES
from bot.store import Database, TimerRow
from engine import Game
from engine.autopilot import choose_move

GUILD = 7
HOUR = 3600
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
_channels = itertools.count(5000)


class FakeTime:
    """A wall clock the test moves by hand, and a sleep that returns once the clock got that far."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start
        self._moved = asyncio.Event()
        self.sleeps: list[float] = []

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        target = self.now + timedelta(seconds=seconds)
        while self.now < target:
            await self._moved.wait()


@dataclass
class RecordingNotifier:
    reminders: list[tuple[int, int, str]] = field(default_factory=list)  # game id, user id, text
    announced: list[ActionResult] = field(default_factory=list)
    mod_logs: list[tuple[int, int, str]] = field(default_factory=list)  # guild id, game id, text

    async def remind(self, reminder: Reminder) -> None:
        self.reminders.append((reminder.game.id, reminder.user_id, reminder_text(reminder)))

    async def announce(self, result: ActionResult) -> None:
        self.announced.append(result)

    async def mod_log(self, entry: ModLogEntry) -> None:
        self.mod_logs.append((entry.game.guild_id, entry.game.id, mod_line(entry)))


async def open_service(path: Database, time: FakeTime, seed: int = 0) -> GameService:
    service = await GameService.open(path, rng=random.Random(seed), clock=time)
    service.settings.default_open_games = (MAX_OPEN_GAMES, MAX_OPEN_GAMES)  # these tests host many games
    return service


async def new_game(
    service: GameService,
    clock: ClockSettings | None,
    *,
    map_name: str = "usa",
    players: int = 2,
    bots: int = 0,
    max_players: int | None = None,
) -> tuple[int, list[int]]:
    """A started game with members 100, 101, ... (100 hosts) and `bots` autopilot players."""
    users = [100 + i for i in range(players)]
    created = await service.lobby.create_game(
        GUILD, next(_channels), users[0], "p0", map_name, max_players=max_players, clock=clock, bots=bots
    )
    game_id = created.game.id
    for i, user in enumerate(users[1:], start=1):
        await service.lobby.join(game_id, user, f"p{i}")
    await service.lobby.start(game_id, users[0])
    return game_id, users


async def play_one(service: GameService, game_id: int) -> ActionResult:
    """One sensible legal move by the member who must act (the autopilot's choice, made as a player)."""
    game = await service.reading.engine_game(game_id)
    info = await service.core.game(game_id)
    name = game.waiting_for()[0]
    user = info.user_of(name)
    assert user is not None and user > 0
    return await service.play.act(game_id, user, choose_move(game, name), expected_version=info.version)


async def play_until(service: GameService, game_id: int, done: Any, limit: int = 500) -> None:
    """Members play until `done(game, info)` holds."""
    for _ in range(limit):
        game = await service.reading.engine_game(game_id)
        info = await service.core.game(game_id)
        if done(game, info):
            return
        await play_one(service, game_id)
    raise AssertionError("the condition never came")


async def to_play_phase(service: GameService, game_id: int) -> None:
    """Members choose their tickets until the first turn; the turn to move starts fresh."""

    def ready(game: Game, info: GameInfo) -> bool:
        return game.state.phase.value == "play" and game.state.pending is None

    await play_until(service, game_id, ready)


async def mover(service: GameService, game_id: int) -> tuple[str, int]:
    """The player to move and their user id."""
    game = await service.reading.engine_game(game_id)
    info = await service.core.game(game_id)
    to_move = game.to_move()
    assert to_move is not None
    user = info.user_of(to_move.player)
    assert user is not None
    return to_move.player, user


async def timers(service: GameService, game_id: int) -> list[TimerRow]:
    return await service.store.timers.timers(game_id)


async def settle(scheduler: Scheduler, time: FakeTime, timeout: float = 10.0) -> None:
    """Wait (in real milliseconds) until the scheduler has handled everything due and sleeps again."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while True:
        await asyncio.sleep(0.002)
        quiet = scheduler.idle and not scheduler.woken
        if quiet and (scheduler.next_deadline is None or scheduler.next_deadline > time.now):
            if not await scheduler.service.timers.due_timers(time.now):
                return
        assert loop.time() < give_up, "the scheduler never settled"
