"""The bot's process settles its garbage collector once the bot has started: after the games' messages are brought
up to date and the clocks run, what the start made is left out of later collections (bot/runtime/collector.py)."""

from __future__ import annotations

import asyncio
import gc

import pytest
from discord_harness import make_room, restart
from discord_play import open_game
from simcord import Env

from bot.runtime import collector


async def test_a_started_bot_in_a_tuned_process_freezes_what_its_start_made(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = make_room(simcord_env, ["alice", "bob"])
    await open_game(room, "usa")
    thresholds = gc.get_threshold()
    monkeypatch.setattr(collector, "_tuned", False)
    try:
        assert gc.get_freeze_count() == 0  # the first bot's process was not tuned: nothing frozen
        collector.tune()  # as `python -m bot run` does before the bot starts
        bot = await restart(simcord_env)
        for _ in range(200):
            if gc.get_freeze_count():
                break
            await asyncio.sleep(0.01)
        assert gc.get_freeze_count() > 0
        assert bot.service.core._cache  # the running game was read at the start, and is among what was frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
