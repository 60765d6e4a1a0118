"""The try-out (`python -m bot try`, bot/tryout/): the real bot in a simulated Discord, on the wall clock, kept.

The browser side is tests/test_tryout_browser.py; these run the try-out in
the test's own process, through the same `TryOut` the command runs.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import discord
from discord_harness import custom_ids, message_text, replies, select_options
from helpers.tryout_process import ROOT, URL, TryOutProcess

from bot.commands.tryout import MISSING_EXTRA
from bot.tryout.session import GameRequest, TryOptions, TryOut, guide
from bot.tryout.world import World

TIMESTAMP = re.compile(r"<t:(\d+):R>")
START_SECONDS = 120  # generous: the machine running the tests may be busy


def stage_message(world: World) -> discord.Message:
    """The newest public message with buttons: the game's turn (or setup) message."""
    for message in reversed(world.channel.history()):
        if custom_ids(message) and not message.flags.ephemeral:
            return message
    raise AssertionError("no message with buttons in #games")


def deadline_of(message: discord.Message) -> datetime:
    found = TIMESTAMP.search(message_text(message))
    assert found, f"no deadline on the message: {message_text(message)!r}"
    return datetime.fromtimestamp(int(found.group(1)), UTC)


async def test_a_game_against_the_autopilot_goes_on_after_a_restart(tmp_path: Path) -> None:
    options = TryOptions(data=tmp_path, port=0, name="Alex", friends=2, game=GameRequest("india", 2, "strong"))
    first = TryOut(options, out=io.StringIO())
    await first.start()
    try:
        assert first.world is not None and first.bot is not None
        world = first.world
        assert [m.user.name for m in world.members] == ["Alex", "Robin", "Sam"]
        game = await first.bot.service.reading.active_game(world.channel.id)
        assert game is not None and game.map == "india" and game.status.value != "lobby"  # started
        assert sum(1 for seat in game.seats if seat.user_id <= 0) == 2  # the autopilot's seats
        # the bot's clock is the simulated one, and that is the wall clock: a day's deadline reads as one
        assert abs((first.bot.service.core.now() - datetime.now(UTC)).total_seconds()) < 60
        due = deadline_of(stage_message(world)) - datetime.now(UTC)
        assert timedelta(hours=12) < due < timedelta(days=3), due
        ids = (world.guild.id, world.channel.id, world.person.id, tuple(m.id for m in world.friends))
        first_page = first.url
    finally:
        await first.close()

    out = io.StringIO()
    second = TryOut(options, out=out)
    await second.start()
    try:
        assert second.world is not None and second.bot is not None
        world = second.world
        assert (world.guild.id, world.channel.id, world.person.id, tuple(m.id for m in world.friends)) == ids
        assert "already open in #games: it goes on" in out.getvalue()
        again = await second.bot.service.reading.active_game(world.channel.id)
        assert again is not None and again.id == game.id  # the same game, no new one
        # the new simulated Discord has the game's message again, with its buttons, for the same game
        message = stage_message(world)
        assert any(f":{game.id}:" in str(row.to_dict()) for row in message.components), message.components
        assert second.url != first_page  # a new key for the new page
        # and the game goes on from the page's buttons: Alex keeps tickets, the autopilot plays, Alex's turn comes
        clicked = await world.person.click(message, label="Choose my tickets")
        panel = next(m for m in replies(clicked) if custom_ids(m))
        menu = custom_ids(panel)[0]
        await world.person.select(panel, [o["value"] for o in select_options(panel, menu)], custom_id=menu)
        running = await second.bot.service.reading.active_game(world.channel.id)
        assert running is not None and running.status.value == "playing"
        turn = stage_message(world)
        assert f"<@{world.person.id}>" in message_text(turn) and "Draw from deck" in str(turn.components)
    finally:
        await second.close()


def test_a_second_start_takes_another_port_and_ctrl_c_stops_it(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        tryout = TryOutProcess(tmp_path / "tryout", port=port)
        try:
            first = tryout.wait_for(re.compile(r".+"), START_SECONDS)
            assert first.startswith("Conductor try-out: the real bot in a local simulated Discord")
            assert "DISCORD_TOKEN" in first  # and how to run it on Discord instead
            url = tryout.wait_for(URL, START_SECONDS)
            assert f"Port {port} on 127.0.0.1 is in use" in "".join(tryout.seen)
            found = URL.search(url)
            assert found and int(found.group(1)) != port
            # the same folder (the same database) is not run twice
            again = subprocess.run(
                [sys.executable, "-m", "bot", "try", "--port", "0", "--data", str(tmp_path / "tryout")],
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                capture_output=True,
                text=True,
                timeout=START_SECONDS,
            )
            assert again.returncode == 2 and "another try-out is running on" in again.stderr, again.stderr
        finally:
            status = tryout.stop()
    assert status == 0, "".join(tryout.seen)
    tryout.wait_for(re.compile(r"^Stopped\."), 10)
    assert url not in "".join(tryout.seen[:-1]).replace(url, "", 1)  # the page's key is printed once, nowhere else


def test_without_the_try_extra_it_says_what_to_install() -> None:
    assert "pip install -e '.[try]'" in MISSING_EXTRA
    done = subprocess.run(
        [sys.executable, "-m", "bot", "try", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    for option in ("--bots", "--level", "--map", "--language", "--port", "--data"):
        assert option in done.stdout


async def test_the_start_page_answers_only_with_its_key_and_shows_one_place_at_a_time(tmp_path: Path) -> None:
    tryout = TryOut(TryOptions(data=tmp_path, port=0, name="Alex", friends=1), out=io.StringIO())
    await tryout.start()
    try:
        assert tryout.places is not None and tryout.world is not None and tryout.preview is not None
        base, key = tryout.url.split("/#")
        robin = tryout.world.friends[0]
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/") as page:
                assert page.status == 200 and "Conductor try-out" in await page.text()
            async with http.get(f"{base}/", headers={"Host": "example.com"}) as page:
                assert page.status == 403  # a page of another name pointing here (DNS rebinding)
            for headers in ({}, {"X-Tryout-Key": "guess"}):
                async with http.get(f"{base}/api/places", headers=headers) as answer:
                    assert answer.status == 401
                async with http.post(f"{base}/api/show", headers=headers, json={"where": "games"}) as answer:
                    assert answer.status == 401
            async with http.get(f"{base}/api/places", headers={"X-Tryout-Key": key}) as answer:
                places = [p["label"] for p in (await answer.json())["places"]]
            assert places == ["#games: play", "Direct messages of Alex", "Direct messages of Robin"]
            games_page = tryout.preview
            assert games_page.channel.id == tryout.world.channel.id
            async with http.post(
                f"{base}/api/show", headers={"X-Tryout-Key": key}, json={"where": f"dm:{robin.id}"}
            ) as answer:
                shown = (await answer.json())["url"]
            assert URL.match(shown) and shown != tryout.url
            # Robin's direct messages, for Robin alone; the #games page before it is closed
            assert tryout.preview is not games_page and tryout.preview.channel.id == robin.user.dm_channel.id
            assert [viewer.id for viewer in tryout.preview.viewers] == [robin.id]
            async with http.post(f"{base}/api/show", headers={"X-Tryout-Key": key}, json={"where": "dm:1"}) as answer:
                assert answer.status == 404  # only the places listed
    finally:
        await tryout.close()


def test_the_printed_guide_fits_how_the_try_out_was_started() -> None:
    """Started with --bots, the game is open: the guide does not tell to start with --bots to open one. With
    --friends 0 there is nobody to switch to: no "your friends ()"."""
    alone = guide(TryOptions(name="Alex", friends=0), [], game_open=False)
    assert "friends" not in alone and "()" not in alone, alone
    assert "open a game at once: python -m bot try --bots 2" in alone  # no game yet: how to open one
    with_game = guide(TryOptions(game=GameRequest("usa", 2, "steady")), ["Robin", "Sam"], game_open=True)
    assert "--bots" not in with_game and "your friends (Robin, Sam)" in with_game, with_game
    assert "Play the game opened there" in with_game


async def test_a_game_the_bot_refuses_to_open_is_said_with_its_reason(tmp_path: Path) -> None:
    """`--bots 4 --map switzerland`: Switzerland seats at most 3, so the bot refuses the game. The try-out says
    so with the bot's reason, and does not send the person to play a game that is not there."""
    out = io.StringIO()
    options = TryOptions(data=tmp_path, port=0, friends=0, game=GameRequest("switzerland", 4, "steady"))
    tryout = TryOut(options, out=out)
    await tryout.start()
    try:
        assert tryout.bot is not None and tryout.world is not None
        assert await tryout.bot.service.reading.active_game(tryout.world.channel.id) is None
        said = out.getvalue()
        assert "No game was opened: " in said and "autopilot" in said, said
        assert not tryout.game_open
        assert "Play the game opened there" not in guide(options, [], game_open=tryout.game_open)
    finally:
        await tryout.close()


async def test_an_action_never_waits_for_the_bots_timers(tmp_path: Path) -> None:
    """The page's actions answer as in the tests, whenever the bot's heartbeat falls due.

    The bot's scheduler sleeps until its next timer or heartbeat. A plain sleep got a wall-clock fallback from
    SimCord, and an action's settlement waited for any fallback due within its timeout: with the clock unable to
    move meanwhile, the first tap before each heartbeat waited up to 30 s. With a heartbeat every 6 s, taps one
    second apart meet it every few taps; each must answer at once, and the heartbeat and the autopilot's turns
    still come with the clock."""
    options = TryOptions(data=tmp_path, port=0, name="Alex", friends=0, game=GameRequest("usa", 1, "steady"))
    tryout = TryOut(options, out=io.StringIO(), heartbeat=6.0)
    await tryout.start()
    clock = asyncio.create_task(tryout.run_clock())
    try:
        assert tryout.world is not None and tryout.bot is not None
        world, service = tryout.world, tryout.bot.service
        async with tryout.lock:
            clicked = await world.person.click(stage_message(world), label="Choose my tickets")
            panel = next(m for m in replies(clicked) if custom_ids(m))
            menu = custom_ids(panel)[0]
            await world.person.select(panel, [o["value"] for o in select_options(panel, menu)], custom_id=menu)
        first_beat = await service.timers.last_alive()
        seconds: list[float] = []
        ended = time.monotonic() + 20
        while time.monotonic() < ended:
            await asyncio.sleep(1)
            turn = stage_message(world)
            if f"<@{world.person.id}>" not in message_text(turn):
                continue  # the autopilot's turn: it comes with the clock
            started = time.monotonic()
            async with tryout.lock:
                await world.person.click(turn, label="Draw from deck")
            seconds.append(time.monotonic() - started)
        assert len(seconds) >= 8, seconds  # the autopilot played its turns meanwhile
        assert max(seconds) < 3, seconds
        last_beat = await service.timers.last_alive()
        assert first_beat is not None and last_beat is not None
        assert (last_beat - first_beat).total_seconds() >= 12  # the heartbeat ran with the clock
    finally:
        tryout.stop()
        await clock
        await tryout.close()


def test_the_first_run_says_it_installs_before_it_installs(tmp_path: Path) -> None:
    """scripts/run.sh on a fresh copy: its own line comes first, then the (quiet) installation, then the bot."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "run.sh", tmp_path / "scripts" / "run.sh")
    log = tmp_path / "calls.log"
    fake = tmp_path / "fake-python"  # stands for python3 and the .venv's python: imports fail until installed
    fake.write_text(
        "#!/usr/bin/env bash\n"
        f'echo "$*" >> {log}\n'
        'if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; fi\n'
        'if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then echo "(pip output)"; touch installed; fi\n'
        'if [ "$1" = "-c" ] && [ ! -e installed ]; then exit 1; fi\n'
        'if [ "$1" = "-m" ] && [ "$2" = "bot" ]; then echo "(the bot)"; fi\n'
    )
    fake.chmod(0o755)
    done = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "run.sh"), "check-maps"],
        cwd=tmp_path,
        env={"PATH": os.environ["PATH"], "PYTHON": str(fake)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Conductor: installing the bot"), lines
    assert lines[1:] == ["(pip output)", "(the bot)"], lines


async def test_brisk_play_against_the_autopilot_is_not_too_fast(tmp_path: Path) -> None:
    """The command rate (6 in 10 s) counts what a member does, not how fast the autopilot gives the turn back:
    moves the game takes in the member's own turn do not count, so twelve cards drawn in a few seconds all go
    through; taps that move nothing (My hand) still count: seven in a row are too many."""
    options = TryOptions(data=tmp_path, port=0, name="Alex", friends=0, game=GameRequest("usa", 1, "steady"))
    tryout = TryOut(options, out=io.StringIO())
    await tryout.start()
    clock = asyncio.create_task(tryout.run_clock())
    try:
        assert tryout.world is not None
        world = tryout.world
        async with tryout.lock:
            clicked = await world.person.click(stage_message(world), label="Choose my tickets")
            panel = next(m for m in replies(clicked) if custom_ids(m))
            menu = custom_ids(panel)[0]
            await world.person.select(panel, [o["value"] for o in select_options(panel, menu)], custom_id=menu)
        answers: list[str] = []
        drawn = 0
        ended = time.monotonic() + 60
        while drawn < 12 and time.monotonic() < ended:
            await asyncio.sleep(0.2)
            turn = stage_message(world)
            if f"<@{world.person.id}>" not in message_text(turn):
                continue
            async with tryout.lock:
                for _ in range(2):  # the two cards of the turn
                    clicked = await world.person.click(stage_message(world), label="Draw from deck")
                    answers.append(" ".join(m.content or "" for m in replies(clicked)))
                    drawn += 1
        assert drawn == 12 and not [a for a in answers if "too fast" in a], answers
        hands: list[str] = []
        async with tryout.lock:
            for _ in range(7):
                clicked = await world.person.click(stage_message(world), label="My hand")
                hands.append(" ".join(m.content or "" for m in replies(clicked)))
        assert "too fast" not in hands[0] and "too fast" in hands[-1], hands  # at most 6 in any 10 s
    finally:
        tryout.stop()
        await clock
        await tryout.close()
