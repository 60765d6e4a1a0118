"""Plays whole games through the Discord bot in SimCord, forever, until it is killed: the player of
tests/test_stage_kill.py.

Usage: python stage_kill_player.py DATABASE LOG

The bot runs on the SQLite file DATABASE in a SimCord world of its own, with
a games channel where it plays two-player USA games with few trains, one
after another. Discord's side of the messages' buttons is written to LOG as
it happens, one line per change, before the bot hears Discord's answer:
`BUTTONS id custom-id` when a channel message is posted with buttons (in its
action rows, or in a layout's: the table), `OFF id` when an edit takes them off
(no components, or a layout without action rows) or the message is deleted (a table moved down, or
the table at the end, replaced by the final message: a deleted message shows
no buttons). The test kills this process with SIGKILL at random moments and
compares LOG with what the database says.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import simcord.http.router as router
from discord_harness import SIM_HEARTBEAT, Room, sim_clock
from discord_play import Player, open_game
from simcord import Env

from bot import Settings, create_bot
from bot.runtime.app import ConductorBot

NAMES = ("alice", "bob")


def first_custom_id(components: Any) -> str | None:
    """The first custom id among the components, nested ones too (the action rows of a layout's container)."""
    for item in components or []:
        if not isinstance(item, dict):
            continue
        if item.get("custom_id"):
            return str(item["custom_id"])
        found = first_custom_id(item.get("components"))
        if found is not None:
            return found
    return None


def taken_off(json: dict[str, Any]) -> bool:
    """Does an edit leave the message without buttons (no components, or a layout without action rows)?"""
    return "components" in json and first_custom_id(json["components"]) is None


def log_discord(log: int) -> None:
    """Write every change of a channel message's buttons to `log` as Discord makes it."""
    real = router.dispatch

    def dispatch(backend: Any, method: str, path: str, *, json: Any | None = None, **kwargs: Any) -> Any:
        result = real(backend, method, path, json=json, **kwargs)
        parts = path.strip("/").split("/")
        if len(parts) >= 3 and parts[0] == "channels" and parts[2] == "messages" and isinstance(json, dict):
            if method == "POST" and len(parts) == 3:
                custom_id = first_custom_id(json.get("components"))
                if custom_id is not None:
                    os.write(log, f"BUTTONS {result['id']} {custom_id}\n".encode())
            elif (
                method == "PATCH"
                and len(parts) == 4
                and "components" in json
                and not first_custom_id(json["components"])
            ):
                os.write(log, f"OFF {parts[3]}\n".encode())
        if method == "DELETE" and len(parts) == 4 and parts[0] == "channels" and parts[2] == "messages":
            os.write(log, f"OFF {parts[3]}\n".encode())
        return result

    router.dispatch = dispatch


async def no_warm_up(self: ConductorBot) -> None:
    """The boards' layers are built on first use: a start on a busy machine settles at once."""


async def main(database: Path, log_path: Path) -> None:
    ConductorBot._warm_images = no_warm_up  # type: ignore[method-assign]
    log = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    log_discord(log)
    bot = create_bot(Settings(database=database, commands_per_window=0), clock=sim_clock, heartbeat=SIM_HEARTBEAT)
    env = Env(bot, settle_timeout=120)
    await env.start()
    try:
        with env.time_context():
            guild = env.create_guild("kills")
            members = [guild.add_member(env.create_user(name)) for name in NAMES]
            room = Room(env, guild, guild.create_text_channel("games"), members)
            os.write(log, b"READY\n")
            while True:  # one game after another in the channel (no secret scan: a final message names tickets)
                game_id, _ = await open_game(room, "usa", len(NAMES), trains=6)
                player = Player(room, game_id)
                while not (game := await player.game()).finished:
                    await player.step(game)
    finally:
        await env.shutdown()
        await bot.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2])))
