"""bot/service/review.py: who may review which game, the work off the event loop, the cache and each member's limit.

The service is given a store and a record reader; here both are small fakes over finished engine games, so that
each refusal and limit is tested on its own (tests/test_discord_review.py runs the real bot).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Collection
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest

from bot.service.errors import NotAllowed, Why
from bot.service.review import NotCounted, ReviewProgress, ReviewRefused, Reviews, ReviewWhy
from bot.store import GameStatus, MoveRow, SeatRow
from engine import Game
from engine.record import to_record
from engine.review import ReviewSearch
from engine.steady import choose_steady
from maps import load_board

SMALL = ReviewSearch(seed="test", work=1000, min_worlds=1, max_worlds=1, time_limit=None)
ANN, BOB, CID, STRANGER, MOD, LATE = 11, 12, 13, 99, 50, 14
START = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def played(seed: str) -> Game:
    game = Game(load_board("usa"), ["ann", "bob", "cid"], seed, trains=8)
    while not game.finished:
        game.apply(choose_steady(game, game.waiting_for()[0]))
    return game


@dataclass
class Fakes:
    """A store and a record reader over a few games: 1-3 finished, 4 running, 5 a moderator's reopenable end,
    6 abandoned for good; in game 2 a moderator gave cid's seat to member LATE."""

    games: dict[int, Game]
    status: dict[int, GameStatus]
    moderation: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    changes: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    actors: dict[int, dict[int, str]] = field(default_factory=dict)  # game: move index: who made it
    reads: int = 0

    def users(self, game_id: int) -> list[int]:
        return [ANN, BOB, LATE if game_id == 2 else CID]

    async def game(self, game_id: int) -> Any:
        if game_id not in self.games:
            return None
        return SimpleNamespace(id=game_id, channel_id=500, status=self.status[game_id], seed="s")

    async def seats(self, game_id: int) -> list[SeatRow]:
        names = self.games[game_id].names
        users = self.users(game_id)
        return [SeatRow(game_id, user, f"member {user}", i, i, names[i], START) for i, user in enumerate(users)]

    async def moves(self, game_id: int) -> list[MoveRow]:
        doc = to_record(self.games[game_id])
        who = self.actors.get(game_id, {})
        return [MoveRow(game_id, i, m, None, START, who.get(i, "player")) for i, m in enumerate(doc["moves"])]

    async def games_of_user(self, user_id: int, statuses: Collection[GameStatus]) -> list[Any]:
        return [await self.game(g) for g in self.games if user_id in self.users(g) and self.status[g] in statuses]

    async def export_record(self, game_id: int, reader_user_id: int | None = None, **_: Any) -> Any:
        self.reads += 1
        if game_id == 5:
            raise NotAllowed(Why.RECORD_REOPENABLE, {"game_id": game_id, "hours": 24})
        doc = to_record(self.games[game_id])
        seats = [{"player": p, "user_id": u} for p, u in zip(doc["players"], self.users(game_id), strict=True)]
        doc["conductor"] = {
            "seats": seats,
            "moderation": self.moderation.get(game_id, []),
            "seat_changes": self.changes.get(game_id, []),
        }
        return SimpleNamespace(record=doc)


@pytest.fixture(scope="module")
def games() -> dict[int, Game]:
    return {i: played(f"service-{i}") for i in range(1, 7)}


@pytest.fixture
def fakes(games: dict[int, Game]) -> Fakes:
    status = dict.fromkeys(games, GameStatus.FINISHED)
    status[4] = GameStatus.PLAYING
    found = Fakes(games, status)
    found.moderation[6] = [{"action": "end", "details": {"score": False}}]
    found.changes[2] = [{"action": "replace", "seat": 2, "from_user_id": CID, "to_user_id": LATE}]
    return found


class CountingExecutor(ThreadPoolExecutor):
    """A thread pool that counts what it is given and where it ran."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.jobs = 0
        self.threads: set[int] = set()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.jobs += 1

        def run() -> Any:
            self.threads.add(threading.get_ident())
            return fn(*args, **kwargs)

        return super().submit(run)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def make(fakes: Fakes, executor: CountingExecutor, clock: Clock | None = None, **kwargs: Any) -> Reviews:
    return Reviews(
        fakes, fakes, clock=clock or Clock(), executor=executor, history=fakes, search=SMALL, workers=2, **kwargs
    )


async def refusal(reviews: Reviews, game_id: int, user: int, *, moderator: bool = False) -> ReviewRefused:
    with pytest.raises(ReviewRefused) as caught:
        await reviews.review(game_id, user, moderator=moderator)
    return caught.value


async def test_players_and_moderators_only_of_finished_games_whose_end_is_final(fakes: Fakes) -> None:
    with CountingExecutor() as pool:
        reviews = make(fakes, pool)
        assert (await refusal(reviews, 77, ANN)).why is ReviewWhy.NO_SUCH_GAME
        assert (await refusal(reviews, 4, ANN)).why is ReviewWhy.NOT_FINISHED
        not_final = await refusal(reviews, 5, ANN)
        assert not_final.why is ReviewWhy.NOT_FINAL and not_final.facts["hours"] == 24
        assert (await refusal(reviews, 6, ANN)).why is ReviewWhy.NOT_FINISHED  # abandoned: no result
        assert (await refusal(reviews, 1, STRANGER)).why is ReviewWhy.NOT_A_PLAYER
        assert pool.jobs == 0  # nothing was computed for a refusal
        mine = await reviews.review(1, BOB)
        assert mine.reader_seat == 1 and mine.names == ("member 11", "member 12", "member 13")
        assert {t.seat for t in mine.mine()} == {1} and len(mine.spots) > len(mine.mine())
        assert all(mine.spots[k].seat == 1 for k in mine.key_spots)
        moderated = await reviews.review(1, MOD, moderator=True)
        assert moderated.reader_seat is None and moderated.mine() == moderated.spots
        assert moderated.chances == mine.chances
        # a seat a moderator gave to another member: both held it
        assert (await reviews.review(2, CID)).reader_seat == 2
        assert (await reviews.review(2, LATE)).reader_seat == 2


async def test_the_default_is_the_members_last_finished_game_in_the_channel(fakes: Fakes) -> None:
    with CountingExecutor() as pool:
        reviews = make(fakes, pool)
        assert await reviews.default_game(500, ANN) == 6
        assert await reviews.default_game(500, LATE) == 2
        with pytest.raises(ReviewRefused) as none:
            await reviews.default_game(500, STRANGER)
        assert none.value.why is ReviewWhy.NO_GAME
        with pytest.raises(ReviewRefused):
            await reviews.default_game(501, ANN)


async def test_the_work_runs_in_the_executor_with_progress_and_is_kept(fakes: Fakes) -> None:
    steps: list[ReviewProgress] = []

    async def progress(step: ReviewProgress) -> None:
        steps.append(step)

    with CountingExecutor() as pool:
        reviews = make(fakes, pool, batch=3)
        assert not reviews.cached(1)
        first = await reviews.review(1, ANN, progress=progress)
        assert threading.get_ident() not in pool.threads and pool.threads
        turns, spots = first.turns, len(first.spots)
        assert pool.jobs == 2 + (spots + 2) // 3  # the plan, the batches, the whole
        assert steps[0] == ReviewProgress(1, 1, turns) and all(s.turns == turns for s in steps)
        assert [s.turn for s in steps] == sorted({s.turn for s in steps})
        assert reviews.cached(1)
        jobs, steps[:] = pool.jobs, []
        again = await reviews.review(1, BOB, progress=progress)
        assert pool.jobs == jobs and steps == []  # kept: nothing computed, no progress
        assert again.spots == first.spots and again.reader_seat == 1


async def test_each_member_has_one_review_running_and_a_few_an_hour(fakes: Fakes) -> None:
    clock = Clock()
    gate = asyncio.Event()
    started = asyncio.Event()

    async def held(step: ReviewProgress) -> None:
        started.set()
        await gate.wait()

    with CountingExecutor() as pool:
        reviews = make(fakes, pool, clock, per_hour=2)
        running = asyncio.create_task(reviews.review(1, ANN, progress=held))
        await started.wait()
        busy = await refusal(reviews, 2, ANN)
        assert busy.why is ReviewWhy.RUNNING
        joined = asyncio.create_task(reviews.review(1, BOB))  # the same game: BOB waits for ANN's review
        await asyncio.sleep(0)
        jobs = pool.jobs
        gate.set()
        first, shared = await running, await joined
        assert first.spots == shared.spots and shared.reader_seat == 1
        assert pool.jobs > jobs  # ANN's review went on; BOB's started no other (it counts against nobody)
        await reviews.review(2, ANN)  # ANN's second computation this hour
        await reviews.review(1, ANN)  # kept: answered, not counted
        limited = await refusal(reviews, 3, ANN)
        assert limited.why is ReviewWhy.TOO_MANY
        assert limited.facts == {"limit": 2, "retry_at": START + timedelta(hours=1)}
        await reviews.review(3, BOB)  # BOB has his own count
        clock.now = START + timedelta(hours=1)
        assert (await reviews.review(3, ANN)).game_id == 3  # an hour later: allowed again


async def test_a_failed_review_frees_the_member_and_is_not_kept(fakes: Fakes, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.service.review as module

    def broken(*args: Any) -> Any:
        raise RuntimeError("no")

    with CountingExecutor() as pool:
        reviews = make(fakes, pool)
        monkeypatch.setattr(module, "plan_record", broken)
        with pytest.raises(RuntimeError):
            await reviews.review(1, ANN)
        assert not reviews.cached(1)
        monkeypatch.undo()
        assert (await reviews.review(1, ANN)).game_id == 1


async def test_the_moves_the_autopilot_made_are_marked_and_not_the_players(fakes: Fakes) -> None:
    """In game 3 bob was away from the middle on: the store's actors say the autopilot made his moves (and one ran
    out of time); those spots are marked, and his figures are computed here from his own spots alone."""
    game = fakes.games[3]
    middle = len(game.moves) // 2
    marks = {i: "autopilot" for i, m in enumerate(game.moves) if m.player == "bob" and i >= middle}
    late = next(i for i, m in enumerate(game.moves) if m.player == "bob" and i < middle and i > 3)
    marks[late] = "timeout"
    planned = next(i for i, m in enumerate(game.moves) if m.player == "bob" and late < i < middle)
    marks[planned] = "plan"  # a planned move (any actor but the player counts as not theirs)
    fakes.actors[3] = marks
    with CountingExecutor() as pool:
        reviews = make(fakes, pool)
        result = await reviews.review(3, BOB)
    marked = [s for s in result.spots if s.not_counted is not None]
    assert marked and {s.seat for s in marked} == {1}
    assert {s.not_counted.value for s in marked if s.not_counted is not None} <= {"autopilot", "timeout", "plan"}
    assert {s.index: s.not_counted for s in marked}.get(late) in (NotCounted.TIMEOUT, None)
    assert [s.not_counted for s in marked if s.index == planned] == [NotCounted.PLAN]
    assert {s.index for s in marked} <= set(marks)
    bob = result.players[1]
    own = [s for s in result.spots if s.seat == 1 and s.not_counted is None and s.weighed]
    decisions = [s for s in own if s.decision and s.win_played is not None]
    assert bob.decisions == len(decisions) > 0
    assert bob.choices == pytest.approx(sum(0.0 if s.same else 100 * (s.win_played - s.win_expert) for s in decisions))  # type: ignore[operator]
    assert bob.luck_total == pytest.approx(sum(100 * (s.luck or 0.0) for s in own if s.chance is not None))
    assert bob.not_counted == len({s.number for s in marked})
    assert all(result.spots[i].not_counted is None for i in bob.costliest)
