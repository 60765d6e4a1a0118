"""The try-out: the real bot (`create_bot`) in SimCord's simulated Discord, shown in a local browser page.

SimCord runs discord.py unchanged against an in-memory Discord; its preview
(`env.preview`, the `simcord[preview]` extra) serves that Discord's channel
on the loopback address with the slash-command composer, the buttons, menus
and images, and a "Viewing as" switch between the members. What a member
alone may see (private answers) shows only while viewing as that member.

Time: the bot reads SimCord's simulated clock (as in the tests), and the
try-out keeps that clock on the wall clock: it starts at the real time and
moves on with it, second by second (`env.advance_time`), so deadlines,
reminders and the autopilot's timers run as they would on Discord, and
"Deadline in 23 hours" reads right in the page.

The bot's timers wait on that clock alone (`TryOut.timer_sleep`, declared
to SimCord as an external wait). A plain `asyncio.sleep` gets a wall-clock
fallback from SimCord, and SimCord's settlement of an action waits for any
fallback due within its timeout: the scheduler's heartbeat (a 60-second
sleep) made the first action after it wait up to the whole timeout, while the
clock that would have fired it could not move (the action held the lock). So
an action waits for the bot's own work only, as in the tests; the timers fire
on the next step of the clock, within a second of when they are due.

The browser's actions and the clock's steps are both SimCord operations,
which must not overlap: one lock orders them (the preview's own handler of
the page's actions is wrapped to take it, bot/tryout/page.py, which also
has the page show the commands under their names in the try-out's language).

One preview page at a time: #games, viewed as any member, or one member's
direct messages, viewed by that member alone; the start page (places.py)
switches between them.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import signal
import socket
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from simcord import Env, SetupError
from simcord.preview import Preview

from bot.runtime.app import ConductorBot, create_bot
from bot.runtime.settings import Settings
from bot.service.kinds import Language
from bot.tryout.page import order_actions, speak_locale
from bot.tryout.places import GAMES, Place, PlacesPage
from bot.tryout.world import DISCORD_LOCALES, World, build_world

DEFAULT_DATA = Path("data/tryout")
DATABASE_NAME = "conductor.sqlite3"
DEFAULT_PORT = 8765
# at most this many seconds SimCord waits for the bot to finish what an action started (a cold board image, a slow
# disk); the bot's timers are no part of it (they wait on the try-out's clock: `TryOut.timer_sleep`)
SETTLE_TIMEOUT = 30.0
# how often the simulated clock catches up with the wall clock
TICK_SECONDS = 1.0


class TryOutError(Exception):
    """The try-out cannot start; the message says why and what to do."""


@dataclass(frozen=True)
class GameRequest:
    """A game to open against the autopilot at start (`--bots N --level L --map M`)."""

    map: str
    bots: int
    level: str


@dataclass(frozen=True)
class TryOptions:
    data: Path = DEFAULT_DATA
    port: int = DEFAULT_PORT
    name: str = "Alex"
    friends: int = 3
    language: Language | None = None  # None: the server in English, members' own settings as they chose them
    game: GameRequest | None = None
    log_level: str = "WARNING"
    metrics: tuple[str, int] | None = None  # CONDUCTOR_METRICS_ADDRESS: /metrics, /healthz, /readyz served there

    @property
    def database(self) -> Path:
        return self.data / DATABASE_NAME


def sim_clock() -> datetime:
    """SimCord's simulated time: SimCord runs discord.py's clock on it (the same as the tests' clock)."""
    import discord

    return discord.utils.utcnow()


@contextlib.contextmanager
def data_lock(data: Path) -> Iterator[None]:
    """Hold the try-out's folder for this process: a second try-out on the same database is refused."""
    data.mkdir(parents=True, exist_ok=True)
    with open(data / "lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                raise TryOutError(
                    f"another try-out is running on {data} (its games' database); stop it with Ctrl-C, "
                    "or start this one on a folder of its own with --data DIR"
                ) from None
            raise
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# what the bot noted in its database about the Discord it ran in: the commands it synced, the messages it posted
FORGOTTEN_TABLES = ("command_syncs", "messages", "tournament_messages")


def forget_the_old_discord(database: Path) -> None:
    """Drop what the bot noted about the simulated Discord of the previous start: a new one is built every time.

    Its games, seats, moves and clocks stay; the slash commands it synced and
    the messages it posted there are gone with that Discord. So the bot syncs
    its commands at start (it syncs only when they changed since the sync it
    noted), and posts every running game's turn message again (it posts one
    only when it has not noted it as posted).
    """
    if not database.exists():
        return
    with contextlib.closing(sqlite3.connect(database)) as db:
        for table in FORGOTTEN_TABLES:
            try:
                with db:
                    db.execute(f"DELETE FROM {table}")
            except sqlite3.OperationalError:  # a database the bot never started on (or older): nothing noted
                pass


def port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class TryOut:
    """One running try-out: the simulated Discord, the bot in it, the page, the clock."""

    def __init__(self, options: TryOptions, out: TextIO = sys.stdout, *, heartbeat: float = 60.0) -> None:
        self.options = options
        self.out = out
        self.heartbeat = heartbeat  # the bot's (tests shorten it)
        self.lock = asyncio.Lock()  # the browser's actions and the clock's steps, one at a time
        self.env: Env | None = None
        self.world: World | None = None
        self.preview: Preview | None = None  # the page of the place shown now
        self.places: PlacesPage | None = None  # the start page, whose address is printed
        self.bot: ConductorBot | None = None
        self._seen = 0  # Discord traffic published to the page so far
        self._stopping = asyncio.Event()
        self.game_open = False  # a game asked for at start (`options.game`) is open in #games

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    @property
    def url(self) -> str:
        """The start page's address (with its key): #games, or a member's direct messages."""
        assert self.places is not None
        return self.places.url

    async def start(self) -> None:
        """Build the world, start the bot in it, open the pages (the start page's address is `self.url`)."""
        options = self.options
        forget_the_old_discord(options.database)
        settings = Settings(database=options.database, log_level=options.log_level, metrics_address=options.metrics)
        self.bot = bot = create_bot(settings, clock=sim_clock, heartbeat=self.heartbeat, sleep=self.timer_sleep)
        env = self.env = Env(bot, settle_timeout=SETTLE_TIMEOUT)
        self.world = world = build_world(
            env, name=options.name, friends=options.friends, language=options.language or Language.EN
        )
        # the world was made at SimCord's first instant (the same ids every time); now its clock is the wall clock
        env.backend.advance_clock(max(0.0, (datetime.now(UTC) - env.now()).total_seconds()))
        await env.start()  # the bot warms its boards in the background (bot/runtime/warm_up.py): it answers at once
        if options.language is not None:
            for member in world.members:
                await bot.service.members.set_language(member.id, options.language)
        if options.game is not None:
            await self._open_game(options.game)
        await self._open_page()

    async def timer_sleep(self, seconds: float) -> None:
        """How the bot's scheduler waits for its next timer: until the try-out's clock (`tick`) reaches it.

        Declared to SimCord as an external wait, the sleep has no wall-clock
        fallback: an action's settlement does not wait for it (see the module's
        docstring), and only `env.advance_time` ends it.
        """
        assert self.env is not None
        await self.env.external_wait(asyncio.sleep(seconds), reason="the bot's timers wait for the try-out's clock")

    async def _open_game(self, game: GameRequest) -> None:
        assert self.env is not None and self.world is not None and self.bot is not None
        world = self.world
        running = await self.bot.service.reading.active_game(world.channel.id)
        if running is not None:
            self.say(f"A game (#{running.id}) is already open in #games: it goes on; no new game is opened.")
            self.game_open = True
            return
        opened = await world.person.slash(world.channel, "ttr new", map=game.map, bots=game.bots, bots_level=game.level)
        if (
            await self.bot.service.reading.active_game(world.channel.id) is None
        ):  # refused: say why, as the bot answered
            answers = [opened.response, *opened.followups]
            said = " ".join(m.content for m in answers if m is not None and m.content)
            self.say(f"No game was opened: {said or 'the bot gave no answer.'}")
            return
        self.game_open = True
        await world.person.slash(world.channel, "ttr start")

    async def _open_page(self) -> None:
        assert self.world is not None
        places = [Place(GAMES, "#games: play")]
        places += [Place(f"dm:{m.id}", f"Direct messages of {m.user.name}") for m in self.world.members]
        self.places = PlacesPage(places, self.show)
        port = self.options.port
        if port and not port_free(port):
            self.say(f"Port {port} on 127.0.0.1 is in use (another program, or another try-out): taking a free one.")
            port = 0
        await self.places.start(port)
        await self._show(GAMES)

    async def show(self, where: str) -> str:
        """Show `where` ("games" or "dm:USER_ID") instead of the place shown so far; the address of its page."""
        async with self.lock:
            return await self._show(where)

    async def _show(self, where: str) -> str:
        assert self.env is not None and self.world is not None
        world = self.world
        if self.preview is not None:
            await self.preview.close()
            self.preview = None
        locale = DISCORD_LOCALES[self.options.language or Language.EN]
        if where == GAMES:  # the channel, viewed as any member: each sees what Discord would show them
            preview = self.env.preview(
                world.channel, viewers=list(world.members), layout="channel", locale=locale, port=0
            )
        else:  # a member's direct messages with the bot, for that member alone
            member = next(m for m in world.members if f"dm:{m.id}" == where)
            preview = self.env.preview(member.user.dm_channel, viewers=[member.user], layout="channel", locale=locale)
        self.preview = await preview.__aenter__()
        order_actions(preview, self.lock, self._published)
        speak_locale(preview, locale)
        self._seen = len(self.env.backend.transcript)
        return preview.url

    def _published(self) -> None:
        """The page's action published what it did: the clock's step need not refresh the page for it."""
        assert self.env is not None
        self._seen = len(self.env.backend.transcript)

    async def tick(self) -> None:
        """Move the simulated clock on to the wall clock, then show the page what the bot did meanwhile."""
        env = self.env
        assert env is not None
        async with self.lock:
            lag = (datetime.now(UTC) - env.now()).total_seconds()
            if lag > 0:
                await env.advance_time(lag)
            if len(env.backend.transcript) != self._seen and self.preview is not None:
                with contextlib.suppress(SetupError):  # a page ended with its "End preview session"
                    await self.preview.refresh()
                self._seen = len(env.backend.transcript)

    async def run_clock(self) -> None:
        while not self._stopping.is_set():
            await self.tick()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), TICK_SECONDS)

    def stop(self) -> None:
        self._stopping.set()

    async def wait(self) -> None:
        """Run the clock until Ctrl-C (or SIGTERM)."""
        await self.run_clock()

    async def close(self) -> None:
        """Close the page, stop the bot (its heartbeat noted: the time until the next start counts for no one)."""
        async with self.lock:
            if self.places is not None:
                await self.places.close()
            if self.preview is not None:
                await self.preview.close()
            if self.env is not None and self.env._started:
                await self.env.shutdown()
            if self.bot is not None and not self.bot.is_closed():
                await self.bot.close()


def first_line() -> str:
    return (
        "Conductor try-out: the real bot in a local simulated Discord, no Discord application or token needed. "
        "To run it on Discord instead, set DISCORD_TOKEN (see .env.example) and start `scripts/run.sh` again."
    )


def guide(options: TryOptions, friends: Sequence[str], *, game_open: bool) -> str:
    """What to do on the page: who you are, whom you can switch to, how a game is opened (unless one is open)."""
    where = f"Choose #games: you are {options.name} in the server's #games channel"
    if friends:
        where += f'; "Viewing as" at the top switches to your friends ({", ".join(friends)}) to play their seats'
    if not game_open:
        play = "Type /ttr in the message box, or open a game at once: python -m bot try --bots 2 --map usa."
    else:
        play = "Play the game opened there with its buttons, or type /ttr in the message box."
    return f"{where}. {play} Back on this address, each member's direct messages with the bot."


async def serve(options: TryOptions, out: TextIO = sys.stdout) -> int:
    """Run the try-out until Ctrl-C; 0 once it stopped cleanly."""
    tryout = TryOut(options, out)
    print(first_line(), file=out, flush=True)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, tryout.stop)
    try:
        with data_lock(options.data):
            try:
                await tryout.start()
                assert tryout.world is not None
                tryout.say("")
                tryout.say("Open this address in your browser (it holds the page's key: do not share it):")
                tryout.say("")
                tryout.say(f"    {tryout.url}")
                tryout.say("")
                tryout.say(guide(options, [f.user.name for f in tryout.world.friends], game_open=tryout.game_open))
                tryout.say(f"The games are kept in {options.database} (also after a restart). Ctrl-C stops.")
                await tryout.wait()
            finally:
                await tryout.close()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
    tryout.say("Stopped. Start again to go on with the same games.")
    return 0


def main(options: TryOptions) -> int:
    try:
        return asyncio.run(serve(options))
    except TryOutError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


__all__ = ["GameRequest", "TryOptions", "TryOut", "TryOutError", "guide", "main", "serve"]
