"""Load from one member: the command rate, the render queue's fairness, the open-game limits."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.present.refusals import refusal_text
from bot.service import GameService, InvalidInput, WrongState
from bot.service.errors import Why
from bot.service.render_queue import RenderQueue, RenderStart
from bot.service.settings import MEMBER_OPEN_GAMES, SERVER_OPEN_GAMES
from bot.views.ratelimit import RateLimiter

GUILD = 1


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# ----- the command rate ----------------------------------------------------------


def test_a_member_gets_six_commands_in_ten_seconds_then_waits() -> None:
    clock = Clock()
    limiter = RateLimiter(6, 10, clock=clock)
    assert [limiter.wait(7) for _ in range(6)] == [None] * 6
    assert limiter.wait(7) == 10
    assert limiter.wait(8) is None  # another member is not slowed
    clock.now = 4
    assert limiter.wait(7) == 6  # refusals do not count: still the first command's window
    clock.now = 10
    assert [limiter.wait(7) for _ in range(6)] == [None] * 6  # the first six left the window
    assert limiter.wait(7) == 10


def test_the_window_slides() -> None:
    clock = Clock()
    limiter = RateLimiter(2, 10, clock=clock)
    assert limiter.wait(1) is None
    clock.now = 6
    assert limiter.wait(1) is None
    assert limiter.wait(1) == 4
    clock.now = 10
    assert limiter.wait(1) is None  # the first left the window
    assert limiter.wait(1) == 6


def test_no_limit_and_forgotten_members() -> None:
    assert all(RateLimiter(0, 10).wait(1) is None for _ in range(100))
    clock = Clock()
    limiter = RateLimiter(1, 1, clock=clock)
    for user in range(2000):
        limiter.wait(user)
        clock.now += 0.01
    assert limiter.tracked() < 2000  # members whose window emptied are swept away
    with pytest.raises(ValueError):
        RateLimiter(1, 0)


# ----- the render queue -----------------------------------------------------------


class Gate:
    """A renderer the test controls: each render waits until the test lets it finish; it records the order."""

    def __init__(self) -> None:
        self.order: list[str] = []
        self.release = asyncio.Semaphore(0)

    async def run(self, draw: Callable[[], Any]) -> Any:
        await self.release.acquire()
        return draw()

    def draw(self, name: str, *, fail: bool = False) -> Callable[[], str]:
        def work() -> str:
            self.order.append(name)
            if fail:
                raise RuntimeError(f"{name} failed")
            return name

        return work

    async def finish(self, count: int) -> None:
        for _ in range(count):
            self.release.release()
            for _ in range(5):
                await asyncio.sleep(0)


async def test_a_burst_in_one_game_delays_another_game_by_one_render() -> None:
    gate = Gate()
    queue = RenderQueue(1, run=gate.run)
    starts: list[RenderStart] = []
    queue.observe(starts.append)
    burst = [asyncio.create_task(queue.render(1, (1, "board", i), gate.draw(f"a{i}"))) for i in range(100)]
    await asyncio.sleep(0)
    other = asyncio.create_task(queue.render(2, (2, "board", 0), gate.draw("b0")))
    urgent = asyncio.create_task(queue.render(3, (3, "stage", 0), gate.draw("c0"), urgent=True))
    for _ in range(5):
        await asyncio.sleep(0)
    await gate.finish(103)
    results = await asyncio.gather(*burst, other, urgent)
    assert results[-2:] == ["b0", "c0"]
    assert gate.order[:3] == ["a0", "c0", "b0"]  # the urgent stage image first, then round-robin
    by_game = {s.game_id: s for s in starts if s.game_id != 1}
    assert by_game[2].behind == (1, 3) and by_game[3].behind == (1,)  # a0 was running when they came
    assert queue.pending() == 0


async def test_round_robin_across_games() -> None:
    gate = Gate()
    queue = RenderQueue(1, run=gate.run)
    tasks = [asyncio.create_task(queue.render(g, (g, i), gate.draw(f"{g}{i}"))) for g in (1, 2, 3) for i in range(3)]
    await gate.finish(9)
    await asyncio.gather(*tasks)
    assert gate.order == ["10", "20", "30", "11", "21", "31", "12", "22", "32"]


async def test_identical_requests_share_one_render() -> None:
    gate = Gate()
    queue = RenderQueue(1, run=gate.run)
    tasks = [asyncio.create_task(queue.render(1, ("board", 1, 5), gate.draw("board"))) for _ in range(50)]
    hand = asyncio.create_task(queue.render(1, ("hand", 1, 5, 77), gate.draw("hand")))
    await gate.finish(2)
    assert await asyncio.gather(*tasks) == ["board"] * 50
    assert await hand == "hand"
    assert gate.order == ["board", "hand"]


async def test_an_urgent_copy_of_a_waiting_request_moves_it_ahead() -> None:
    gate = Gate()
    queue = RenderQueue(1, run=gate.run)
    first = asyncio.create_task(queue.render(1, "x", gate.draw("x")))
    await asyncio.sleep(0)
    late = [asyncio.create_task(queue.render(1, k, gate.draw(k))) for k in ("y", "z")]
    again = asyncio.create_task(queue.render(1, "z", gate.draw("z2"), urgent=True))
    await gate.finish(3)
    await asyncio.gather(first, *late, again)
    assert gate.order == ["x", "z", "y"]


async def test_a_failing_render_fails_its_request_only() -> None:
    gate = Gate()
    queue = RenderQueue(1, run=gate.run)
    bad = asyncio.create_task(queue.render(1, "bad", gate.draw("bad", fail=True)))
    good = asyncio.create_task(queue.render(2, "good", gate.draw("good")))
    await gate.finish(2)
    with pytest.raises(RuntimeError, match="bad failed"):
        await bad
    assert await good == "good"
    again = asyncio.create_task(queue.render(1, "bad", gate.draw("fine")))  # a failed key is drawn anew
    await gate.finish(1)
    assert await again == "fine"
    await queue.stop()


async def test_the_real_queue_draws_in_a_thread() -> None:
    queue = RenderQueue(2)
    results = await asyncio.gather(*(queue.render(g, g, lambda g=g: g * 2) for g in range(10)))
    assert results == [g * 2 for g in range(10)]
    await queue.stop()


# ----- open games -------------------------------------------------------------------


@pytest.fixture
async def limited(tmp_path: Path) -> AsyncIterator[GameService]:
    """The service with the open-game limits it has by default (the shared fixture lifts them)."""
    service = await GameService.open(tmp_path / "db.sqlite3")
    yield service
    await service.close()


async def open_in(service: GameService, channel: int, host: int) -> int:
    return (await service.lobby.create_game(GUILD, channel, host, f"host {host}", "usa")).game.id


async def test_a_member_may_host_three_open_games(limited: GameService) -> None:
    games = [await open_in(limited, 10 + i, 100) for i in range(3)]
    with pytest.raises(WrongState) as refused:
        await open_in(limited, 20, 100)
    assert refused.value.why is Why.MEMBER_GAME_LIMIT
    text = refusal_text(refused.value)
    assert "3 open games" in text and f"#{games[0]}" in text and "cancel" in text and "server manager" in text
    assert await limited.reading.active_game(20) is None  # nothing was made
    await open_in(limited, 21, 101)  # another member may
    await limited.lobby.cancel(games[0], 100)  # cancelling frees a place
    await open_in(limited, 20, 100)
    with pytest.raises(WrongState):
        await open_in(limited, 22, 100)
    await limited.settings.set_guild_config(GUILD, MEMBER_OPEN_GAMES, 4)  # a manager raises the limit
    await open_in(limited, 22, 100)


async def test_a_finished_game_frees_a_place(limited: GameService) -> None:
    await limited.settings.set_guild_config(GUILD, MEMBER_OPEN_GAMES, 1)
    game = await open_in(limited, 10, 100)
    await limited.lobby.join(game, 101, "Bob")
    await limited.lobby.start(game, 100)
    with pytest.raises(WrongState):
        await open_in(limited, 11, 100)
    await limited.moderation.end(game, 999, True, "test")
    await open_in(limited, 11, 100)


async def test_a_server_has_at_most_its_limit_of_open_games(limited: GameService) -> None:
    await limited.settings.set_guild_config(GUILD, SERVER_OPEN_GAMES, 4)
    for i in range(4):
        await open_in(limited, 10 + i, 100 + i)
    with pytest.raises(WrongState) as refused:
        await open_in(limited, 20, 200)
    assert refused.value.why is Why.SERVER_GAME_LIMIT
    assert "4 open games" in refusal_text(refused.value)
    await limited.lobby.create_game(2, 30, 200, "elsewhere", "usa")  # another server has its own count
    with pytest.raises(InvalidInput):
        await limited.settings.set_guild_config(GUILD, SERVER_OPEN_GAMES, 0)
    assert (await limited.settings.guild_config(GUILD)).server_open_games == 4


async def test_a_burst_of_new_games_cannot_pass_the_limits(limited: GameService) -> None:
    await limited.settings.set_guild_config(GUILD, SERVER_OPEN_GAMES, 10)
    burst = [open_in(limited, 100 + i, 100) for i in range(40)]  # one member
    burst += [open_in(limited, 200 + i, 200 + i) for i in range(40)]  # many members
    results = await asyncio.gather(*burst, return_exceptions=True)
    made = [r for r in results if isinstance(r, int)]
    assert len(made) == 10
    assert all(isinstance(r, WrongState) for r in results if not isinstance(r, int))
    hosts = [(await limited.core.game(g)).host_user_id for g in made]
    assert hosts.count(100) <= 3
