"""One bot process of a sharded bot, in a simulated Discord of its own: the driver of tests/test_shards.py.

`python tests/shard_driver.py DATABASE SHARD COUNT` builds the bot with the
harness (Settings with `shards`, SimCord's clock), starts it in a SimCord
environment, makes a server on its shard with a games channel and the
members alice and bob, and then obeys one JSON command per line on standard
input, answering each with one line `@ {json}` on standard output (the log
goes to standard error). The world is made the same way at the same
simulated moment every time, so a restarted process of the same shard finds
the same server, channel and members (Discord's ids) as the one before it.

Commands: `open` (alice opens a USA game with a one-hour turn and no reserve,
timeout policy `wait`, bob joins, alice starts), `keep NAME` (that player
keeps starting tickets through the buttons, as a member would), `advance
SECONDS` (simulated time moves on: every timer of this process due on the
way fires), `state` (the game's waiting players, moves, timeouts told in the
channel, and the due timers this process sees), `quit`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from typing import Any

from discord_harness import SIM_HEARTBEAT, Room, posted_texts, reply_text, sim_clock, slash
from discord_play import Player
from simcord import Env

from bot import Settings, create_bot
from bot.runtime.app import ConductorBot
from bot.store import Shards

log = logging.getLogger(__name__)


def say(payload: dict[str, Any]) -> None:
    sys.stdout.write("@ " + json.dumps(payload) + "\n")
    sys.stdout.flush()


class Driver:
    def __init__(self, env: Env, room: Room) -> None:
        self.env = env
        self.room = room
        self.game_id: int | None = None

    @property
    def bot(self) -> ConductorBot:
        bot = self.env.bot
        assert isinstance(bot, ConductorBot)
        return bot

    async def open(self) -> dict[str, Any]:
        alice, bob = self.room.members
        opened = await slash(
            alice, self.room, "ttr new", map="usa", turn_time="1h", reserve="none", timeout_policy="wait"
        )
        info = await self.bot.service.reading.active_game(self.room.channel.id)
        assert info is not None, reply_text(opened)
        self.game_id = info.id
        joined = await slash(bob, self.room, "ttr join")
        assert "joined" in reply_text(joined), reply_text(joined)
        started = await slash(alice, self.room, "ttr start")
        assert "has started" in reply_text(started), reply_text(started)
        return {"game": info.id}

    async def game_id_here(self) -> int:
        if self.game_id is None:  # a restarted process: the channel's game
            info = await self.bot.service.reading.active_game(self.room.channel.id)
            assert info is not None
            self.game_id = info.id
        return self.game_id

    async def keep(self, name: str) -> dict[str, Any]:
        player = Player(self.room, await self.game_id_here())
        await player.keep_at_start(await player.game(), name)
        return await self.state()

    async def advance(self, seconds: float) -> dict[str, Any]:
        await self.env.advance_time(seconds)
        return await self.state()

    async def state(self) -> dict[str, Any]:
        service = self.bot.service
        game_id = await self.game_id_here()
        game = await service.reading.engine_game(game_id)
        due = await service.timers.due_timers(service.core.now())
        told = [t for t in posted_texts(self.env, self.room.channel) if "time is up" in t]
        return {
            "game": game_id,
            "waiting": sorted(game.waiting_for()),
            "moves": len(game.moves),
            "timeouts_told": len(told),
            "due_games": sorted({t.game_id for t in due if t.game_id is not None}),
            "fired": self.bot.scheduler.fired,
        }


async def main(database: str, shard: int, count: int) -> None:
    settings = Settings(database=database, commands_per_window=0, shards=Shards(count, (shard,)))
    bot = create_bot(settings, clock=sim_clock, heartbeat=SIM_HEARTBEAT)
    # the other shards sync nothing (Discord has shard 0's commands);
    # PostgreSQL answers in real time: more time to settle
    env = Env(bot, strict_sync=shard == 0, settle_timeout=120)
    await env.start()
    try:
        with env.time_context():
            await env.advance_time(10 * (shard + 1))  # each shard's world at its own moment: no id is shared
            guild = env.create_guild(f"shard {shard}", shard_id=shard)
            channel = guild.create_text_channel("games")
            members = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
            driver = Driver(env, Room(env, guild, channel, members))
            say({"ready": True, "guild": guild.id, "channel": channel.id, "members": [m.id for m in members]})
            loop = asyncio.get_running_loop()
            while True:
                line = await loop.run_in_executor(None, sys.stdin.readline)
                if not line or not line.strip():
                    break
                words = line.split()
                try:
                    if words[0] == "quit":
                        break
                    if words[0] == "open":
                        say(await driver.open())
                    elif words[0] == "keep":
                        say(await driver.keep(words[1]))
                    elif words[0] == "advance":
                        say(await driver.advance(float(words[1])))
                    elif words[0] == "state":
                        say(await driver.state())
                    else:
                        say({"error": f"unknown command {words[0]!r}"})
                except Exception as exc:  # the test reads the failure instead of waiting for an answer
                    log.exception("command %r failed", line)
                    say({"error": f"{type(exc).__name__}: {exc}"})
    finally:
        await env.shutdown()
        await bot.close()


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
