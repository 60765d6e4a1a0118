"""The game service on PostgreSQL: persisted actions per second and latency, one process and two.

Run: .venv/bin/python -m bench.pg [--quick] [--database URL]

Without `--database` it starts a throwaway server (tools/pg_server.py, as the
tests do, but durable: fsync and synchronous commits on, as in production)
in a temporary folder and removes it at the end. For 200 and 2,000 games
active at once it opens and deals the games, plans each game's moves
beforehand (so the random player is not timed), then makes every game act
as fast as it can through the service's play part (`service.play.act`): first in one process, then with
the games split between two processes, the processes of shards 0 and 1 of
2 (each game has a server of its own, on either shard; each process its own
service and connection pool, on the same database). It prints persisted actions per second and the
p50/p99 time from the action to its answer (after the commit), beside the
floor measured in the same run on the same server: single-row INSERT
transactions per second from one connection (asyncpg, one commit each).
With 2,000 games it then runs a steady load: 100 actions per second spread
over the games, each arriving at its scheduled moment (not as fast as
possible), and prints the p50/p99 from that moment to the answer.
Every process here sets Python's garbage collector as the bot's process does
(bot/runtime/collector.py: fewer collections, and what is loaded before the
clock starts left out of them).
Prints figures and the goals of issue #27 (two processes with 2,000 games at
>= 35% of the floor with p99 < 1 s; the steady load's p99 < 150 ms) with
PASS/FAIL; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncpg

from bench.service import new_game, plan
from bot.runtime import collector
from bot.service import GameService
from bot.service.settings import MAX_OPEN_GAMES
from bot.store import Shards
from bot.store.postgres import redact
from engine import Move
from engine.moves import move_from_json, move_to_json
from maps import MAP_NAMES
from tools.pg_server import PgServer, new_database_name

ROOT = Path(__file__).resolve().parent.parent


async def floor(url: str, seconds: float) -> float:
    """Single-row INSERT transactions per second from one connection (each statement its own commit)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS bench_rows (id BIGSERIAL PRIMARY KEY, data TEXT NOT NULL)")
        row = "x" * 200
        done = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            await conn.execute("INSERT INTO bench_rows (data) VALUES ($1)", row)
            done += 1
        await conn.execute("DROP TABLE bench_rows")
        return done / elapsed
    finally:
        await conn.close()


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if q == 0.5:
        return statistics.median(ordered) * 1000
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


async def setup(url: str, games: int, per_game: int, base: int) -> list[tuple[int, list[tuple[int, Move]]]]:
    """Deal `games` games and plan `per_game` moves for each; (game id, plan).

    Each game has a server of its own, `(base + i) << 22`, so Discord's formula puts every other one on shard 1
    of 2: the two processes are the two shards' processes, each acting on its own shard's games."""
    service = await GameService.open(url, rng=random.Random(games))
    service.settings.default_open_games = (MAX_OPEN_GAMES, MAX_OPEN_GAMES)
    try:
        ids: list[int] = []
        for start in range(0, games, 100):
            batch = range(start, min(games, start + 100))
            ids += await asyncio.gather(
                *(new_game(service, (base + i) << 22, MAP_NAMES[i % len(MAP_NAMES)]) for i in batch)
            )
        return [(g, await plan(service, g, per_game, random.Random(g))) for g in ids]
    finally:
        await service.close()


async def act_all(
    url: str, work: list[tuple[int, list[tuple[int, Move]]]], go: Path | None, shards: Shards | None = None
) -> dict[str, object]:
    """Every game of `work` plays its plan as fast as it can; the actions, the seconds and each action's latency."""
    service = await GameService.open(url, shards=shards)
    try:
        for game_id, _ in work:
            await service.core.game(game_id)  # loaded into the service before the clock starts
        collector.settle()  # as the bot does once started (bot/runtime/collector.py)
        if go is not None:
            print("ready", flush=True)
            while not go.exists():
                await asyncio.sleep(0.001)
        latencies: list[float] = []

        async def one(game_id: int, steps: list[tuple[int, Move]]) -> None:
            for user, move in steps:
                begun = time.perf_counter()
                await service.play.act(game_id, user, move)
                latencies.append(time.perf_counter() - begun)

        start = time.perf_counter()
        await asyncio.gather(*(one(g, s) for g, s in work))
        return {"actions": len(latencies), "seconds": time.perf_counter() - start, "latencies": latencies}
    finally:
        await service.close()


async def steady(url: str, work: list[tuple[int, list[tuple[int, Move]]]], rate: float) -> dict[str, object]:
    """One action of each game of `work`, the i-th arriving at `i / rate` seconds; each latency from its arrival."""
    service = await GameService.open(url)
    try:
        for game_id, _ in work:
            await service.core.game(game_id)
        collector.settle()
        latencies: list[float] = []
        start = time.perf_counter() + 0.5

        async def one(i: int, game_id: int, user: int, move: Move) -> None:
            due = start + i / rate
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            await service.play.act(game_id, user, move)
            latencies.append(time.perf_counter() - due)

        await asyncio.gather(*(one(i, g, *steps[0]) for i, (g, steps) in enumerate(work)))
        return {"actions": len(latencies), "seconds": len(work) / rate, "latencies": latencies}
    finally:
        await service.close()


def two_processes(url: str, work: list[tuple[int, list[tuple[int, Move]]]], folder: Path) -> dict[str, object]:
    """The same, with the games split between two worker processes started together: shards 0 and 1 of 2."""
    go = folder / f"go-{time.monotonic_ns()}"
    halves = asyncio.run(by_shard(url, work))
    procs = []
    for i, half in enumerate(halves):
        job = folder / f"job-{i}.json"
        job.write_text(json.dumps([[g, [[u, move_to_json(m)] for u, m in steps]] for g, steps in half]))
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "bench.pg", "--worker", url, str(job), str(go), str(i)],
                cwd=ROOT,
                env=dict(os.environ, PYTHONPATH=str(ROOT)),
                stdout=subprocess.PIPE,
                text=True,
            )
        )
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    go.touch()
    results = []
    for proc in procs:
        out, _ = proc.communicate()
        results.append(json.loads(out.strip().splitlines()[-1]))
    latencies = [x for r in results for x in r["latencies"]]
    seconds = max(float(r["seconds"]) for r in results)
    return {"actions": len(latencies), "seconds": seconds, "latencies": latencies}


async def by_shard(
    url: str, work: list[tuple[int, list[tuple[int, Move]]]]
) -> list[list[tuple[int, list[tuple[int, Move]]]]]:
    """`work` split by the shard (of 2) of each game's server."""
    service = await GameService.open(url)
    try:
        halves: list[list[tuple[int, list[tuple[int, Move]]]]] = [[], []]
        for game_id, steps in work:
            info = await service.core.game(game_id)
            halves[Shards(2, (0, 1)).shard_of(info.guild_id)].append((game_id, steps))
        return halves
    finally:
        await service.close()


def line(label: str, result: dict[str, object], floor_rate: float) -> str:
    latencies = result["latencies"]
    assert isinstance(latencies, list)
    actions, seconds = int(str(result["actions"])), float(str(result["seconds"]))
    rate = actions / seconds
    return (
        f"{label:<28} | {rate:8.0f} actions/s ({actions} actions) | {rate / floor_rate:6.1%} of the floor | "
        f"p50 {ms(latencies, 0.5):7.1f} ms | p99 {ms(latencies, 0.99):7.1f} ms"
    )


def goal(both: dict[str, object], floor_rate: float, calm: dict[str, object]) -> str:
    """Issue #27's goals for 2,000 games, PASS or FAIL each, with the figures they are judged on."""
    latencies, steady_latencies = both["latencies"], calm["latencies"]
    assert isinstance(latencies, list) and isinstance(steady_latencies, list)
    share = int(str(both["actions"])) / float(str(both["seconds"])) / floor_rate
    p99, steady_p99 = ms(latencies, 0.99), ms(steady_latencies, 0.99)

    def verdict(ok: bool) -> str:
        return "PASS" if ok else "FAIL"

    return (
        f"goal: two processes, 2,000 games, >= 35% of the floor: {share:.1%} {verdict(share >= 0.35)}\n"
        f"goal: two processes, 2,000 games, p99 action to commit < 1 s: {p99:.0f} ms {verdict(p99 < 1000)}\n"
        f"goal: steady 100 actions/s over 2,000 games, p99 < 150 ms: {steady_p99:.0f} ms {verdict(steady_p99 < 150)}"
    )


async def make_database(server: PgServer) -> str:
    name = new_database_name()
    conn = await asyncpg.connect(server.url("postgres"))
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return server.url(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer actions per game")
    parser.add_argument("--database", help="a postgresql:// URL to use (default: a throwaway server)")
    parser.add_argument("--worker", nargs=4, metavar=("URL", "JOB", "GO", "SHARD"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    collector.tune()  # every process here runs the service as the bot's process does
    if args.worker:
        worker_url, job, go, shard = args.worker
        work = [(g, [(u, move_from_json(m)) for u, m in steps]) for g, steps in json.loads(Path(job).read_text())]
        result = asyncio.run(act_all(worker_url, work, Path(go), Shards(2, (int(shard),))))
        print(json.dumps(result), flush=True)
        return
    server = None if args.database else PgServer.start(durable=True)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-pg-") as tmp:
            folder = Path(tmp)
            shown = redact(args.database) if args.database else "a throwaway server (fsync on)"
            print(f"PostgreSQL: {shown}; {os.cpu_count()} cores")
            goals: list[str] = []
            for games, per_game in ((200, 4 if args.quick else 10), (2000, 2 if args.quick else 4)):
                url: str = args.database if server is None else asyncio.run(make_database(server))
                floor_rate = asyncio.run(floor(url, 3.0))
                print(f"\n{games} games active at once; floor: {floor_rate:.0f} single-row INSERT commits/s")
                base = 1_000_000 + games * 10 + random.randrange(1_000_000) * 10_000
                work = asyncio.run(setup(url, games, 2 * per_game + 1, base))
                first = [(g, steps[:per_game]) for g, steps in work]
                print(line("one process", asyncio.run(act_all(url, first, None)), floor_rate))
                second = [(g, steps[per_game : 2 * per_game]) for g, steps in work]
                both = two_processes(url, second, folder)
                print(line("two processes", both, floor_rate))
                if games < 2000:
                    continue
                rate = 100.0
                count = min(games, int(rate * (5 if args.quick else 15)))
                third = [(g, steps[2 * per_game :]) for g, steps in work if len(steps) > 2 * per_game][:count]
                calm = asyncio.run(steady(url, third, rate))
                print(line(f"steady {rate:.0f} actions/s", calm, floor_rate))
                goals.append(goal(both, floor_rate, calm))
            for text in goals:
                print(text)
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
