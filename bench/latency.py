"""Latency benchmark: from a member's click or command to the turn shown with its board image, through SimCord.

Run: .venv/bin/python -m bench.latency [--trains N] [--maps usa,india]
The real bot runs against SimCord (the offline Discord of the tests:
tests/discord_harness.py), and whole games are played on every map by
tests/discord_play.py's `Player`, by buttons, menus and slash commands. For
every turn message posted in the channel with its image, the time from the
interaction that ended the turn being sent to that message being posted is
measured (wall time); at the table (the default) a turn is shown by editing the game's table message with
its new image, and that edit is what is timed. Printed: p50 and p99 of those, with their floors
(p50 <= 100 ms, p99 <= 200 ms), then per map the first turn message after a
restart (the bot process started again, the boards' static layers gone;
floor <= 300 ms), and the same with the layer cold (what a restart cost
before the layers were built at start), for comparison. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent / "tests"
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

# the tests' SimCord harness (not type-checked here: mypy checks the packages, not tests/)
from discord_harness import SIM_HEARTBEAT, make_room, restart, sim_clock  # type: ignore[import-not-found]  # noqa: E402
from discord_play import Player, open_game  # type: ignore[import-not-found]  # noqa: E402
from simcord import Env, MemberActor  # noqa: E402

import render.static_layer as static_layer  # noqa: E402
from bot import Settings, create_bot  # noqa: E402
from bot.runtime.app import ConductorBot  # noqa: E402
from maps import MAP_NAMES, load_board  # noqa: E402

P50_FLOOR_MS = 100.0
P99_FLOOR_MS = 200.0
RESTART_FLOOR_MS = 300.0
NAMES = ["alice", "bob", "carol", "dave", "erin"]


@dataclass
class Clock:
    """When the last interaction was sent, and the latencies of the turn messages it led to."""

    sent: float | None = None
    channel: int = 0
    latencies: list[float] = field(default_factory=list)
    recording: bool = True


class TimedRequests(list[Any]):
    """SimCord's log of the bot's HTTP requests, noting when each turn is shown with its image (a turn message
    posted, or the table edited)."""

    def __init__(self, clock: Clock) -> None:
        super().__init__()
        self.clock = clock

    def append(self, entry: Any) -> None:
        now = time.perf_counter()
        super().append(entry)
        c = self.clock
        body = entry.json if isinstance(entry.json, dict) else {}
        if (
            c.recording
            and c.sent is not None
            and entry.method in ("POST", "PATCH")
            and entry.path.startswith(f"/channels/{c.channel}/messages")
            and body.get("attachments")
            and "your turn" in str(body.get("content", ""))
        ):
            c.latencies.append(now - c.sent)
            c.sent = None  # one turn message per interaction


def time_interactions(clock: Clock) -> None:
    """Note the moment each member's click, menu choice or command is sent."""
    for name in ("click", "select", "slash"):
        original = getattr(MemberActor, name)
        if getattr(original, "_timed", False):
            continue

        async def timed(self: MemberActor, *args: Any, __original: Any = original, **kwargs: Any) -> Any:
            clock.sent = time.perf_counter()
            return await __original(self, *args, **kwargs)

        timed._timed = True  # type: ignore[attr-defined]
        setattr(MemberActor, name, timed)


def new_bot(database: Path) -> ConductorBot:
    return create_bot(Settings(database=database, commands_per_window=0), clock=sim_clock, heartbeat=SIM_HEARTBEAT)


async def play_map(map_name: str, trains: int, folder: Path, clock: Clock) -> tuple[list[float], float, float]:
    """(turn latencies of a whole game, first turn message after a restart, the same with a cold layer), seconds."""
    env = Env(new_bot(folder / f"{map_name}.sqlite3"))
    await env.start()
    try:
        env.backend.http_requests = TimedRequests(clock)
        players = load_board(map_name).rules.max_players
        room = make_room(env, NAMES[:players])
        clock.channel = room.channel.id
        game_id, _ = await open_game(room, map_name, players, trains=trains)
        player = Player(room, game_id)
        clock.latencies = []
        # the first half of the game, then a restart with the static layers gone (a new process)
        for _ in range(8):
            game = await player.game()
            await player.step(game)
        game_latencies = list(clock.latencies)

        static_layer._cache.clear()
        await restart(env)
        clock.latencies = []
        await first_turn_message(player, clock)
        restarted = clock.latencies[0]

        static_layer._cache.clear()  # before: no warm-up, the layer built by the first image
        clock.latencies = []
        await first_turn_message(player, clock)
        cold = clock.latencies[0]

        clock.latencies = []
        await player.play()
        return game_latencies + clock.latencies, restarted, cold
    finally:
        await env.shutdown()
        await env.bot.close()  # as the tests' fixture does: the bot's database closes with it


async def first_turn_message(player: Any, clock: Clock) -> None:
    """Play on until the next turn message with its image is posted."""
    before = len(clock.latencies)
    while len(clock.latencies) == before:
        game = await player.game()
        if game.finished:
            raise RuntimeError("the game ended before a turn message; play with more trains")
        await player.step(game)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


async def main_async(maps: list[str], trains: int) -> None:
    clock = Clock()
    time_interactions(clock)
    everything: list[float] = []
    restarts: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for map_name in maps:
            latencies, restarted, cold = await play_map(map_name, trains, Path(folder), clock)
            everything.extend(latencies)
            restarts[map_name] = (restarted, cold)
            print(
                f"{map_name:<14} {len(latencies):>4} turn messages  p50 {statistics.median(latencies) * 1000:6.1f} ms"
                f"  p99 {percentile(latencies, 0.99) * 1000:6.1f} ms  max {max(latencies) * 1000:6.1f} ms",
                flush=True,
            )
    p50 = statistics.median(everything) * 1000
    p99 = percentile(everything, 0.99) * 1000
    print(f"\nclick -> turn message with image, {len(everything)} turn messages on {len(maps)} maps:")
    print(f"  p50 {p50:6.1f} ms  (floor <= {P50_FLOOR_MS:.0f} ms)  {verdict(p50 <= P50_FLOOR_MS)}")
    print(f"  p99 {p99:6.1f} ms  (floor <= {P99_FLOOR_MS:.0f} ms)  {verdict(p99 <= P99_FLOOR_MS)}")
    print(f"\nfirst turn message after a restart (floor <= {RESTART_FLOOR_MS:.0f} ms):")
    for map_name, (restarted, cold) in restarts.items():
        print(
            f"  {map_name:<14} {restarted * 1000:6.1f} ms  {verdict(restarted * 1000 <= RESTART_FLOOR_MS)}"
            f"   (static layer cold, as before the warm-up: {cold * 1000:6.1f} ms)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trains", type=int, default=12, help="trains per player (shorter games with fewer)")
    parser.add_argument("--maps", default=",".join(MAP_NAMES), help="comma-separated maps (all by default)")
    args = parser.parse_args()
    asyncio.run(main_async(args.maps.split(","), args.trains))


if __name__ == "__main__":
    main()
