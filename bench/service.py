"""Game service benchmark: persisted actions per second, action latency, and memory.

Run: .venv/bin/python -m bench.service [--quick]

Every action goes through the service's play part (`service.play.act`) onto a SQLite file (WAL,
synchronous=FULL), as in production. The moves are chosen before the clock
starts, so the figures are those of the service and the store, not of the
random player. Python's garbage collector is set as in the bot's process
(bot/runtime/collector.py). Prints figures; asserts nothing (speed targets live here, not in tests).
The "your turn" digests are worked out when first read (by the delivery,
as it writes the DMs), not inside the action: their cost is printed apart.

Goals of issue #16, printed with their floors and PASS/FAIL: persisted actions
per second with 200 games acting at once >= 30% of raw SQLite single-row
commits per second (WAL, synchronous=FULL) on the same disk, measured in the
same run; and with those 200 games acting at once (one action in flight per
game), p99 from action to commit <= 300 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bot.runtime import collector
from bot.service import GameService, TurnNotice
from bot.store import ACTIVE, GameStatus, NewMove, SqliteStore
from engine import Move
from engine.random_play import random_move
from maps import MAP_NAMES

USERS = (100, 101, 102)
Plan = list[tuple[int, Move]]  # (user id, move), in order


def percentiles(latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    return f"{p50:7.2f} / {p99:7.2f} ms"


RATIO_FLOOR = 0.30  # service actions/s over raw commits/s, 200 games acting at once
P99_FLOOR_MS = 300.0  # action to commit, 200 games acting at once


def p99_ms(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def raw_commits(path: Path, seconds: float) -> float:
    """Single-row commits per second straight through sqlite3 (WAL, synchronous=FULL) on the same disk."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, data TEXT NOT NULL)")
        row = "x" * 200
        done = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO rows (data) VALUES (?)", (row,))
            conn.execute("COMMIT")
            done += 1
        return done / elapsed
    finally:
        conn.close()


HEADER = (
    "active games | actions/s, all acting at once | to commit p50 / p99, at once | to answer p50 / p99, at once | "
    "to answer p50 / p99, one at a time"
)


class Commits:
    """When each game's move was last committed: the move log's append_move, timed (one action in flight per game)."""

    def __init__(self, service: GameService) -> None:
        self.at: dict[int, float] = {}
        append = service.store.history.append_move

        async def timed(game_id: int, expected_version: int, move: NewMove) -> int:
            version = await append(game_id, expected_version, move)
            self.at.setdefault(game_id, time.perf_counter())  # the action's own move, not the autopilot's after it
            return version

        setattr(service.store.history, "append_move", timed)  # noqa: B010 (an instance's method, replaced for timing)


@dataclass(frozen=True)
class Load:
    games: int
    actions: int
    seconds: float
    together: list[float]  # action to answer, while every game acts at once
    committed: list[float]  # action to the commit of its move, while every game acts at once
    in_turn: list[float]  # action to answer, actions made one at a time, round the games
    digests: int  # "your turn" notices of the actions made at once
    digest_seconds: float  # working out their catch-up digests afterwards, as the delivery does when it writes the DMs

    @property
    def rate(self) -> float:
        return self.actions / self.seconds

    def line(self) -> str:
        rate = f"{self.rate:.0f} ({self.actions} actions)"
        return (
            f"{self.games:>12} | {rate:<29} | {percentiles(self.committed):<27} | {percentiles(self.together):<27} | "
            f"{percentiles(self.in_turn)}"
        )


async def new_game(service: GameService, channel: int, map_name: str, trains: int | None = None) -> int:
    # one server per game: the servers' and members' limits on open games stay out of the way
    created = await service.lobby.create_game(channel, channel, USERS[0], "ann", map_name, max_players=3, trains=trains)
    game_id = created.game.id
    await service.lobby.join(game_id, USERS[1], "bob")
    await service.lobby.join(game_id, USERS[2], "cid")
    await service.lobby.start(game_id, USERS[0])
    return game_id


async def plan(service: GameService, game_id: int, moves: int, rng: random.Random) -> Plan:
    """Up to `moves` random legal moves from the game as it stands, worked out on a copy."""
    game = await service.reading.engine_game(game_id)
    info = await service.core.game(game_id)
    out: Plan = []
    for _ in range(moves):
        move = random_move(game, rng)
        if move is None:
            break
        game.apply(move)
        user = info.user_of(move.player)
        assert user is not None
        out.append((user, move))
    return out


async def play(
    service: GameService,
    game_id: int,
    steps: Plan,
    latencies: list[float] | None = None,
    commits: tuple[Commits, list[float]] | None = None,
    notices: list[TurnNotice] | None = None,
) -> None:
    for user, move in steps:
        if commits is not None:
            commits[0].at.pop(game_id, None)
        start = time.perf_counter()
        result = await service.play.act(game_id, user, move)
        if notices is not None:
            notices.extend(result.notices)
        if latencies is not None:
            latencies.append(time.perf_counter() - start)
        if commits is not None:
            commits[1].append(commits[0].at[game_id] - start)


async def load(folder: Path, games: int, per_game: int) -> Load:
    """Every game acting as fast as it can (throughput, and latency with queueing), then one action at a time."""
    service = await GameService.open(folder / f"load-{games}.sqlite3", rng=random.Random(games))
    try:
        ids = [await new_game(service, 10_000 + i, MAP_NAMES[i % len(MAP_NAMES)]) for i in range(games)]
        plans = [await plan(service, g, 2 * per_game, random.Random(g)) for g in ids]
        together: list[float] = []
        committed: list[float] = []
        timing = (Commits(service), committed)
        notices: list[TurnNotice] = []
        collector.settle()  # as the bot does once started (bot/runtime/collector.py)
        start = time.perf_counter()
        await asyncio.gather(
            *(play(service, g, p[:per_game], together, timing, notices) for g, p in zip(ids, plans, strict=True))
        )
        seconds = time.perf_counter() - start
        # the digests are worked out when first read (by the delivery, writing the DM), not in the action: timed apart
        begun = time.perf_counter()
        for notice in notices:
            assert notice.digest.user_id == notice.user_id
        digest_seconds = time.perf_counter() - begun
        in_turn: list[float] = []
        for step in range(per_game, 2 * per_game):
            for game_id, steps in zip(ids, plans, strict=True):
                await play(service, game_id, steps[step : step + 1], in_turn)
    finally:
        await service.close()
    return Load(games, len(together), seconds, together, committed, in_turn, len(notices), digest_seconds)


async def build_archive(path: Path, stored: int, active: int, trains: int) -> int:
    """`stored` games of which `active` are mid-game and the rest finished; the moves written.

    A finished game per map is planned once and replayed into the others:
    the service's random number generator is re-seeded before each start, so
    those games are dealt the same and the same moves fit. The games are
    played side by side, as a busy bot would.
    """
    rng = random.Random()
    service = GameService(await SqliteStore.open(path), rng=rng)
    try:
        templates: dict[str, Plan] = {}
        work: list[tuple[int, Plan]] = []
        for i in range(stored):
            map_name = MAP_NAMES[i % len(MAP_NAMES)]
            rng.seed(f"deal-{map_name}")
            game_id = await new_game(service, 20_000 + i, map_name, trains)
            if map_name not in templates:
                templates[map_name] = await plan(service, game_id, 10_000, random.Random(map_name))
            whole = templates[map_name]
            work.append((game_id, whole if i >= active else whole[: len(whole) // 3]))
        for start in range(0, len(work), 100):
            batch = work[start : start + 100]
            await asyncio.gather(*(play(service, game_id, steps) for game_id, steps in batch))
    finally:
        await service.close()
    return sum(len(steps) for _, steps in work)


def rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def probe(path: Path) -> dict[str, int]:
    """Run in a fresh process: the memory of a service holding every active game of the archive."""
    before = rss_kib()
    service = await GameService.open(path)
    try:
        rows = await service.store.games.games_with_status(ACTIVE)
        for row in rows:
            await service.reading.public_view(row.id)  # loads the game into the service
        stored = len(await service.store.games.games_with_status(set(GameStatus)))
        return {"before_kib": before, "after_kib": rss_kib(), "active": len(rows), "stored": stored}
    finally:
        await service.close()


def memory(folder: Path, stored: int, active: int, trains: int) -> str:
    path = folder / "archive.sqlite3"
    start = time.perf_counter()
    written = asyncio.run(build_archive(path, stored, active, trains))
    built = time.perf_counter() - start
    out = subprocess.run(
        [sys.executable, "-m", "bench.service", "--probe", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    figures = json.loads(out)
    size = path.stat().st_size // 1024
    return (
        f"{figures['stored']} stored games ({written} moves, {size} KiB file, built in {built:.0f} s), "
        f"{figures['active']} active and loaded: resident memory {figures['after_kib'] / 1024:.1f} MiB "
        f"({figures['before_kib'] / 1024:.1f} MiB before loading, "
        f"{(figures['after_kib'] - figures['before_kib']) / max(1, figures['active']):.0f} KiB per active game)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer actions and games, for a smoke run")
    parser.add_argument("--probe", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    collector.tune()  # the service's process set as the bot's is
    if args.probe:
        print(json.dumps(asyncio.run(probe(args.probe))))
        return
    quick = args.quick
    with tempfile.TemporaryDirectory(prefix="conductor-bench-") as tmp:
        folder = Path(tmp)
        print("Game service on a SQLite file (WAL, synchronous=FULL); each action committed before it is answered")
        # the disk is shared: raw commits are sampled before, between and after the service's runs (median)
        sample = 0.3 if quick else 1.0
        raw_samples = [raw_commits(folder / "raw-0.sqlite3", sample)]
        print(HEADER)
        loads = []
        for games, per_game in ((1, 120), (10, 60), (200, 15)):
            loads.append(asyncio.run(load(folder, games, per_game // 4 if quick else per_game)))
            print(loads[-1].line())
            raw_samples.append(raw_commits(folder / f"raw-{len(loads)}.sqlite3", sample))
        raw = statistics.median(raw_samples)
        print(
            f"raw SQLite single-row commits (WAL, synchronous=FULL), same disk: {raw:.0f}/s "
            f"(median of {len(raw_samples)} samples around the runs: {', '.join(f'{r:.0f}' for r in raw_samples)})"
        )
        for one in loads:
            print(f"  {one.games:>3} games at once: service {one.rate:.0f} actions/s = {one.rate / raw:.0%} of raw")
        busy = loads[-1]
        ratio = busy.rate / raw
        print(
            f"goal: actions/s with {busy.games} games at once >= {RATIO_FLOOR:.0%} of raw commits/s: "
            f"{ratio:.0%} {verdict(ratio >= RATIO_FLOOR)}"
        )
        p99 = p99_ms(busy.committed)
        print(
            f'  the {busy.digests} "your turn" digests of those {busy.actions} actions, worked out afterwards as '
            f"the delivery does when it writes the DMs (not in the actions/s above): "
            f"{busy.digest_seconds / max(1, busy.digests) * 1e6:.0f} us each"
        )
        print(
            f"goal: p99 action to commit with {busy.games} games at once <= {P99_FLOOR_MS:.0f} ms: "
            f"{p99:.0f} ms (p50 {statistics.median(busy.committed) * 1000:.0f} ms; to the answer, with the "
            f"turn notices, p99 {p99_ms(busy.together):.0f} ms) {verdict(p99 <= P99_FLOOR_MS)}"
        )
        stored, active = (100, 20) if quick else (1000, 200)
        print(memory(folder, stored, active, trains=10))
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cpus)")


if __name__ == "__main__":
    main()
