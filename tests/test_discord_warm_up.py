"""A restart during a busy evening is not a pause: the bot answers while it still warms its boards' layers.

The warm-up (bot/runtime/warm_up.py) runs in a thread of its own in the background, a layer at a time, each once
no interaction is being answered. Here it is held before its first layer (as a slow machine would hold it) while
members open, start and look at a game: every command is answered, and the board image drawn meanwhile (its
layer built on demand) is the very image drawn from a freshly built layer. Then the warm-up goes on and builds
the other maps' layers, and not the one built on demand again.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from discord_harness import SIM_HEARTBEAT, all_private, attachment, make_room, reply_text, sim_clock, slash
from simcord import Env

from bot import Settings, create_bot
from bot.present.image_words import image_words
from bot.runtime import warm_up as warm_up_module
from bot.runtime.warm_up import BoardWarmUp
from bot.service.kinds import Language
from bot.views.answering import Answering
from maps import MAP_NAMES
from render import static_layer


async def test_commands_are_answered_while_the_warm_up_is_held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for thread in threading.enumerate():  # an earlier test's bot, closed, ends its warm-up after the layer it builds
        if thread.name == "conductor-warm-up":
            thread.join(120)
    monkeypatch.setattr(static_layer, "_cache", {})  # this process has built no layer yet, as after a restart
    built: list[str] = []
    build = static_layer.build_static_board

    def counted(*args: Any, **kwargs: Any) -> static_layer.StaticBoard:
        layer = build(*args, **kwargs)
        built.append(layer.board.name)
        return layer

    monkeypatch.setattr(static_layer, "build_static_board", counted)
    hold = threading.Event()
    asked: list[str] = []
    own = BoardWarmUp.before_layer  # the warm-up's own wait: while interactions are answered

    def held(self: BoardWarmUp) -> bool:  # held before its first layer, as a slow machine would hold it
        asked.append("layer")
        hold.wait(120)
        return own(self)

    monkeypatch.setattr(BoardWarmUp, "before_layer", held)
    settings = Settings(database=tmp_path / "c.sqlite3", commands_per_window=0)
    bot = create_bot(settings, clock=sim_clock, heartbeat=SIM_HEARTBEAT)
    env = Env(bot)
    await env.start()
    try:
        with env.time_context():
            room = make_room(env, ["alice", "bob"])
            alice, bob = room.members
            opened = await slash(alice, room, "ttr new", map="usa")
            assert all_private(opened) and "You opened game" in reply_text(opened), reply_text(opened)
            assert "joined" in reply_text(await slash(bob, room, "ttr join")).casefold()
            await slash(alice, room, "ttr start")
            assert bot.warming and asked == ["layer"] and built == ["usa"], built  # held; usa built on demand
            result = await slash(alice, room, "ttr board")
            assert all_private(result)
            _, during = await attachment(result)
            assert bot.warming and built == ["usa"]

            hold.set()
            warm_up = bot._warm_up  # the bot's warm-up thread
            assert warm_up is not None and await asyncio.to_thread(warm_up.join, 120)
            assert not bot.warming and len(asked) == len(MAP_NAMES) and sorted(warm_up.built) == sorted(MAP_NAMES)
            assert sorted(built) == sorted(MAP_NAMES), built  # each layer once: usa not built again

            monkeypatch.setattr(static_layer, "_cache", {})  # a fresh layer: the image is the same
            _, fresh = await attachment(await slash(alice, room, "ttr board"))
            assert fresh == during and built.count("usa") == 2
    finally:
        hold.set()
        await env.shutdown()
        await bot.close()


def test_the_warm_up_builds_a_layer_only_while_no_interaction_is_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    monkeypatch.setattr(warm_up_module, "static_board", lambda name, *, words: built.append(name))
    answering = Answering()
    with answering:  # an interaction being answered
        warm = BoardWarmUp(["usa", "india"], image_words(Language.EN), answering.quiet)
        warm.start()
        assert not warm.join(0.6) and built == []  # waits
    assert warm.join(30) and built == ["usa", "india"] == warm.built
    with answering:
        stopped = BoardWarmUp(["usa"], image_words(Language.EN), answering.quiet)
        stopped.start()
        stopped.stop()  # the bot closes
        assert stopped.join(30) and stopped.built == []


async def test_answering_counts_the_interactions_and_idle_waits_for_the_last() -> None:
    answering = Answering()
    await asyncio.wait_for(answering.idle(), 1)  # none: at once
    order: list[str] = []

    async def waiter() -> None:
        await answering.idle()
        order.append("idle")

    with answering:
        with answering:
            task = asyncio.create_task(waiter())
            await asyncio.sleep(0)
            order.append("first answered")
        await asyncio.sleep(0)
        assert not task.done()
        order.append("last answered")
    await asyncio.wait_for(task, 1)
    assert order == ["first answered", "last answered", "idle"] and answering.count == 0
