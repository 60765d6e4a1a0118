"""`/ttr review` benchmark: the seconds to review a 120-turn game, as the bot does it (issue #63: within two minutes).

Run: .venv/bin/python -m bench.review [--seed S] [--workers N] [--search-only] [--show PNG]

A three-player USA game is played to its end by the steady autopilot (its
moves often differ from strong's, as a person's do, so most turns are played
out twice); the seed is chosen so that the game has 120 turns. Its record is
then reviewed through the review service (bot/service/review.py) with the
bot's own executor (a pool of `--workers` processes, 2 as in bot/app.py) and
the default search, as `/ttr review` runs it; the time from the request to
the answer is printed with the plan (turns, spots weighed, worlds per spot,
spots cut short or left out by the time limit) and PASS/FAIL against the
two minutes. `--search-only` times the same review in this one process
(`engine.review.review_game`) instead. `--show PNG` prints the first
player's review as the bot words it (English) and writes its chart to PNG.
Prints figures; asserts nothing (speed targets live here, not in tests).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from bot.service.review import Reviews
from bot.service.review_models import GameReviewed
from bot.store import GameStatus, MoveRow, SeatRow
from engine import Game
from engine.record import to_record
from engine.review import DEFAULT_REVIEW, plan_review, review_game
from engine.steady import choose_steady
from maps import load_board

FLOOR_SECONDS = 120.0
TURNS = 120
PLAYERS = ("ann", "bob", "cid")


def game_of(turns: int, seed: str | None) -> Game:
    """A finished three-player USA game of steady players with `turns` turns (the first seed that gives it)."""
    for i in range(200):
        label = seed or f"bench-review-{i}"
        game = Game(load_board("usa"), list(PLAYERS), label)
        while not game.finished:
            game.apply(choose_steady(game, game.waiting_for()[0]))
        if seed is not None or game.state.turn == turns:
            return game
    raise SystemExit(f"no seed gave a game of {turns} turns")


class OneGame:
    """The store and record reader the service is given, over one finished game (id 1, member ids 1-3)."""

    def __init__(self, game: Game) -> None:
        self.game_ = game

    async def game(self, game_id: int) -> Any:
        return SimpleNamespace(id=1, channel_id=1, status=GameStatus.FINISHED, seed="s")

    async def seats(self, game_id: int) -> list[SeatRow]:
        now = datetime.now(UTC)
        return [SeatRow(1, i + 1, name, i, i, name, now) for i, name in enumerate(self.game_.names)]

    async def moves(self, game_id: int) -> list[MoveRow]:
        now = datetime.now(UTC)
        return [MoveRow(1, i, m, None, now) for i, m in enumerate(to_record(self.game_)["moves"])]

    async def games_of_user(self, user_id: int, statuses: Any) -> list[Any]:
        return [await self.game(1)]

    async def export_record(self, game_id: int, reader_user_id: int | None = None, **_: Any) -> Any:
        doc = to_record(self.game_)
        doc["conductor"] = {"seats": [{"player": p, "user_id": i + 1} for i, p in enumerate(self.game_.names)]}
        return SimpleNamespace(record=doc)


async def through_service(game: Game, workers: int) -> tuple[float, GameReviewed]:
    """Seconds from the request to the answer, with the worker processes started first (as a running bot has
    them after its first review), and the answer."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        list(pool.map(abs, range(workers)))  # the processes started
        source = OneGame(game)
        reviews = Reviews(source, source, executor=pool, history=source, workers=workers)  # type: ignore[arg-type]
        began = time.perf_counter()
        answer = await reviews.review(1, 1)
        return time.perf_counter() - began, answer


def show(answer: GameReviewed, path: str) -> None:
    """The answer as the bot words it in English, and its chart written to `path`."""
    from bot.present.i18n import speaking
    from bot.present.review import chart_words, review_summary
    from bot.service.kinds import Language
    from render.review_chart import render_review_chart

    with speaking(Language.EN):
        print(review_summary(answer))
        image = render_review_chart(answer.chances, answer.key_turns, chart_words(answer))
    with open(path, "wb") as out:
        out.write(image.png)
    print(f"chart: {path} ({image.width}x{image.height}, {len(image.png)} bytes)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", help="the game's seed (default: the first that gives 120 turns)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (the bot's: 2)")
    parser.add_argument("--search-only", action="store_true", help="review in this process, without the service")
    parser.add_argument("--show", metavar="PNG", help="print the review's words and write its chart here")
    args = parser.parse_args(argv)
    game = game_of(TURNS, args.seed)
    plan = plan_review(game, DEFAULT_REVIEW)
    decisions = sum(1 for s in plan.spots if s.decision)
    print(
        f"game: USA, {len(PLAYERS)} players, {game.state.turn} turns, {len(game.moves)} moves, "
        f"{len(plan.spots)} spots ({decisions} decisions); search: {DEFAULT_REVIEW}"
    )
    if args.search_only:
        began = time.perf_counter()
        review = review_game(game, DEFAULT_REVIEW)
        seconds, worlds, cut, left = time.perf_counter() - began, review.worlds, review.cut_short, review.unweighed
        where = "in one process"
    else:
        seconds, answer = asyncio.run(through_service(game, args.workers))
        worlds, cut, left = answer.worlds, answer.cut_short, answer.unweighed
        where = f"through the service, {args.workers} worker processes"
        if args.show:
            show(answer, args.show)
    verdict = "PASS" if seconds <= FLOOR_SECONDS else "FAIL"
    print(
        f"review of a {game.state.turn}-turn game {where}: {seconds:.1f} s "
        f"({worlds} worlds per spot planned, {cut} spots cut short and {left} left out by the time limit; "
        f"floor {FLOOR_SECONDS:.0f} s) {verdict}"
    )


if __name__ == "__main__":
    main()
