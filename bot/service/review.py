"""`/ttr review`'s service: a finished game reviewed turn by turn (engine/review.py), for its players and moderators.

`Reviews` is a part of its own: it is given what it uses (the store, for the
games and seats; a reader of game records, which refuses a game whose
secrets are not yet final; a clock; where to run the work) and answers with
typed data, never a sentence (bot/present/review.py words it).

- Only a game that ended by the rules, or that a moderator scored, and whose
  end is final (bot/service/finality.py: the record is everyone's) is
  reviewed; only for a member who held one of its seats, or a moderator.
- The playouts run off the event loop, a batch of spots at a time, in the
  executor given (the bot's: a pool of worker processes; None: the default
  thread pool); `progress` is told, on the event loop, which turn is next.
- The moves someone else decided for a seat (the store's actor of each move:
  the autopilot for an away member or a player out of time, or any other
  actor than the player, such as a planned move) are marked and left out of
  that player's figures (`engine.review_models.NotCounted`).
- A review is computed once per game and process, then kept in memory (the
  last `KEEP` games asked for; a restart computes it again on its first
  request); members asking for a game being reviewed share that computation.
- Each member has at most one review being computed, and may start at most
  `per_hour` computations in an hour (a kept review answers at once and does
  not count).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, Protocol

from bot.service.audit import RecordRead
from bot.service.errors import NotAllowed, Why
from bot.service.kinds import AuditAction
from bot.service.review_models import (
    GameReviewed,
    MoveKind,
    PlayerReview,
    ReviewedMove,
    ReviewedSpot,
    ReviewProgress,
    ReviewRefused,
    ReviewWhy,
)
from bot.service.review_shown import as_shown, player_review, reviewed_spot
from bot.store import GameStatus, MoveRow, SeatRow
from bot.store.protocols import GameStore
from engine.review import (
    DEFAULT_REVIEW,
    Chance,
    GameReview,
    NotCounted,
    ReviewPlan,
    ReviewSearch,
    SpotReview,
    assemble_record,
    plan_record,
    review_record_spots,
)
from engine.review_figures import all_figures
from maps import load_board

PER_HOUR = 3  # review computations a member may start in an hour
BATCH = 4  # spots a worker reviews at a time (progress is told between batches)
KEEP = 1000  # reviews kept in memory (the least recently asked for goes first)
HOUR = timedelta(hours=1)


class MoveLog(Protocol):
    """Where each move's actor comes from (the store's history part): who decided each move of the record."""

    async def moves(self, game_id: int) -> list[MoveRow]: ...


class RecordReader(Protocol):
    """Where game records come from (the game service's `export_record`): it refuses a record not yet everyone's."""

    async def export_record(
        self,
        game_id: int,
        reader_user_id: int | None = None,
        *,
        moderator: bool = False,
        reason: str = "",
        audit_after_end: bool = False,
    ) -> RecordRead: ...


@dataclass(frozen=True)
class _Done:
    """A computed review, the same for every reader."""

    game_id: int
    map: str
    names: tuple[str, ...]
    review: GameReview
    spots: tuple[ReviewedSpot, ...]
    players: tuple[PlayerReview, ...]
    seconds: float


Progress = Callable[[ReviewProgress], Awaitable[None]]


def _now() -> datetime:
    return datetime.now(UTC)


class Reviews:
    """Reviews of finished games: refusals, the limits, the work off the event loop, the results kept."""

    def __init__(
        self,
        store: GameStore,
        records: RecordReader,
        *,
        clock: Callable[[], datetime] | None = None,
        executor: Executor | None = None,
        history: MoveLog | None = None,
        workers: int = 1,
        search: ReviewSearch = DEFAULT_REVIEW,
        per_hour: int = PER_HOUR,
        batch: int = BATCH,
    ) -> None:
        self.store = store
        self.records = records
        self.clock = clock or _now  # the hourly limit's time (the bot's clock: simulated in tests)
        self.executor = executor
        self.history = history  # the moves' actors (None: every move counts as its player's)
        self.workers = max(1, workers)  # batches in the executor at once
        self.search = search
        self.per_hour = per_hour
        self.batch = max(1, batch)
        self._done: OrderedDict[int, _Done] = OrderedDict()
        self._running: dict[int, asyncio.Future[_Done]] = {}
        self._members: set[int] = set()  # members with a computation running
        self._started: dict[int, deque[datetime]] = {}

    # ----- which game ----------------------------------------------------------------------------

    async def default_game(self, channel_id: int, user_id: int) -> int:
        """The channel's last finished game the member played in; ReviewRefused(NO_GAME) if none."""
        games = await self.store.games_of_user(user_id, {GameStatus.FINISHED})
        here = [g.id for g in games if g.channel_id == channel_id]
        if not here:
            raise ReviewRefused(ReviewWhy.NO_GAME)
        return max(here)

    def cached(self, game_id: int) -> bool:
        return game_id in self._done

    # ----- the review ----------------------------------------------------------------------------

    async def review(
        self, game_id: int, user_id: int, *, moderator: bool = False, progress: Progress | None = None
    ) -> GameReviewed:
        """The game's review for this member; ReviewRefused says why not."""
        row = await self.store.game(game_id)
        if row is None:
            raise ReviewRefused(ReviewWhy.NO_SUCH_GAME, {"game_id": game_id})
        if row.status is not GameStatus.FINISHED or row.seed is None:
            raise ReviewRefused(ReviewWhy.NOT_FINISHED, {"game_id": game_id})
        seats = await self.store.seats(game_id)
        try:
            read = await self.records.export_record(game_id)
        except NotAllowed as exc:
            if exc.why is Why.RECORD_REOPENABLE:
                raise ReviewRefused(ReviewWhy.NOT_FINAL, {"game_id": game_id, **exc.facts}) from None
            raise ReviewRefused(ReviewWhy.NOT_FINISHED, {"game_id": game_id}) from None
        doc = read.record
        if _abandoned(doc):
            raise ReviewRefused(ReviewWhy.NOT_FINISHED, {"game_id": game_id})
        players = [str(p) for p in doc["players"]]
        holders = _holders(doc)
        reader_seat = next((seat for seat, users in enumerate(holders) if user_id in users), None)
        if reader_seat is None and not moderator:
            raise ReviewRefused(ReviewWhy.NOT_A_PLAYER, {"game_id": game_id})
        done = self._done.get(game_id)
        if done is None:
            done = await self._computed(game_id, user_id, doc, await self._not_counted(game_id, doc), progress)
        else:
            self._done.move_to_end(game_id)
        names = _names(players, seats)
        return _for_reader(replace(done, names=names), reader_seat)

    async def _not_counted(self, game_id: int, doc: dict[str, Any]) -> dict[int, NotCounted]:
        """The record's moves someone else decided for their player (by the store's actor of each move)."""
        if self.history is None:
            return {}
        rows = await self.history.moves(game_id)
        moves = doc.get("moves", [])
        out: dict[int, NotCounted] = {}
        for row in rows:
            if row.index >= len(moves) or row.move != moves[row.index] or row.actor == "player":
                continue
            out[row.index] = NotCounted(row.actor) if row.actor in NotCounted._value2member_map_ else NotCounted.PLAN
        return out

    async def _computed(
        self,
        game_id: int,
        user_id: int,
        doc: dict[str, Any],
        not_counted: dict[int, NotCounted],
        progress: Progress | None,
    ) -> _Done:
        """The review of a game no one has had yet: joined if another member's is running, else started."""
        running = self._running.get(game_id)
        if running is not None:
            return await asyncio.shield(running)
        if user_id in self._members:
            raise ReviewRefused(ReviewWhy.RUNNING, {"game_id": game_id})
        now = self.clock()
        started = self._started.setdefault(user_id, deque())
        while started and now - started[0] >= HOUR:
            started.popleft()
        if len(started) >= self.per_hour:
            raise ReviewRefused(ReviewWhy.TOO_MANY, {"limit": self.per_hour, "retry_at": started[0] + HOUR})
        started.append(now)
        self._members.add(user_id)
        future: asyncio.Future[_Done] = asyncio.get_running_loop().create_future()
        self._running[game_id] = future
        try:
            done = await self._compute(game_id, doc, not_counted, progress)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        else:
            self._done[game_id] = done
            while len(self._done) > KEEP:
                self._done.popitem(last=False)
            future.set_result(done)
            return done
        finally:
            self._members.discard(user_id)
            del self._running[game_id]

    async def _compute(
        self, game_id: int, doc: dict[str, Any], not_counted: dict[int, NotCounted], progress: Progress | None
    ) -> _Done:
        loop = asyncio.get_running_loop()
        began_wall = time.perf_counter()
        plan: ReviewPlan = await loop.run_in_executor(self.executor, plan_record, doc, self.search)
        n = len(plan.spots)
        began = time.monotonic()  # the schedule of the time limit (CLOCK_MONOTONIC: the same in every process)
        batches = deque((first, min(n, first + self.batch)) for first in range(0, n, self.batch))
        running: dict[asyncio.Future[list[SpotReview]], int] = {}
        results: dict[int, list[SpotReview]] = {}
        reported = 0
        while batches or running:
            while batches and len(running) < self.workers:
                first, stop = batches.popleft()
                job = partial(review_record_spots, doc, plan, first, stop, began)
                running[loop.run_in_executor(self.executor, job)] = first
            next_turn = max(1, plan.spots[min(running.values())].number)
            if progress is not None and next_turn != reported:
                reported = next_turn
                await progress(ReviewProgress(game_id, next_turn, plan.turns))
            finished, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for job_done in finished:
                results[running.pop(job_done)] = job_done.result()
        spots = [t for first in sorted(results) for t in results[first]]
        review = await loop.run_in_executor(self.executor, assemble_record, doc, plan, spots, not_counted)
        board = load_board(str(doc["map"]))
        review = replace(review, spots=tuple(as_shown(board, s) for s in review.spots))
        shown = tuple(reviewed_spot(board, t, review.not_counted.get(t.index)) for t in review.spots)
        players = tuple(player_review(f) for f in all_figures(review))
        return _Done(game_id, str(doc["map"]), (), review, shown, players, time.perf_counter() - began_wall)


def _abandoned(doc: dict[str, Any]) -> bool:
    """A moderator ended the game without a result (the game's last end or reopening is such an end)."""
    last: dict[str, Any] | None = None
    for entry in doc.get("conductor", {}).get("moderation", []):
        if entry.get("action") in (AuditAction.END.value, AuditAction.REOPEN.value):
            last = entry
    return (
        last is not None
        and last.get("action") == AuditAction.END.value
        and (last.get("details") or {}).get("score") is not True
    )


def _holders(doc: dict[str, Any]) -> list[set[int]]:
    """Per seat, every member who held it (at the end, and before a moderator gave it to another)."""
    conductor = doc.get("conductor", {})
    players = [str(p) for p in doc["players"]]
    holders: list[set[int]] = [set() for _ in players]
    for seat in conductor.get("seats", []):
        if seat.get("player") in players:
            holders[players.index(seat["player"])].add(int(seat["user_id"]))
    for change in conductor.get("seat_changes", []):
        seat_no = change.get("seat")
        if isinstance(seat_no, int) and 0 <= seat_no < len(holders):
            for key in ("from_user_id", "to_user_id"):
                if isinstance(change.get(key), int):
                    holders[seat_no].add(change[key])
    return holders


def _names(players: list[str], seats: list[SeatRow]) -> tuple[str, ...]:
    by_player = {s.player: s.display_name for s in seats if s.player is not None}
    return tuple(by_player.get(p, p) for p in players)


def _for_reader(done: _Done, seat: int | None) -> GameReviewed:
    review = done.review
    return GameReviewed(
        done.game_id,
        done.map,
        done.names,
        seat,
        done.spots,
        done.players,
        tuple(review.chances()),
        review.scores,
        review.worlds,
        review.cut_short,
        review.unweighed,
        done.seconds,
    )


__all__ = [
    "Chance",
    "GameReviewed",
    "MoveKind",
    "NotCounted",
    "PlayerReview",
    "RecordReader",
    "ReviewProgress",
    "ReviewRefused",
    "ReviewWhy",
    "ReviewedMove",
    "ReviewedSpot",
    "Reviews",
]
