"""The Discord bot: `create_bot(settings)` builds it, `python -m bot` runs it.

`setup_hook` opens the database and the game service, wires the front end
(bot/table/), adds the `/ttr` commands (one group shared by the cogs of the
lobby, of play and of the server's settings: bot/cogs/ttr.py) and the
`/ttrmod` ones, registers the persistent buttons and menus (so that the
buttons of messages posted before a restart keep working), sets the
translator of the commands' names and descriptions (bot/cogs/command_words.py)
and syncs the commands if their definitions or translations changed. Once the bot is connected it posts any
stage message a crash kept back and starts the scheduler of the turn clocks
(bot/runtime/scheduler.py), which first moves every running clock on by the time the
bot was down (that time counts against no one). After a reconnection (a
resumed session, or a new one) it brings every running game's stage message
up to date again. Tests and harnesses build the bot with the same factory;
they may give it their own clock (SimCord's simulated time).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime
from typing import Any

import discord
from discord.ext import commands

from bot.cogs.command_words import CommandTranslator
from bot.cogs.config import ConfigCog
from bot.cogs.lobby import LobbyCog
from bot.cogs.member_settings import MemberSettingsCog
from bot.cogs.mod_base import ttrmod_group
from bot.cogs.mod_clock import ModClockCog
from bot.cogs.mod_reads import ModReadsCog
from bot.cogs.moderation import ModerationCog
from bot.cogs.plans import PlanCog
from bot.cogs.play import PlayCog
from bot.cogs.ratings import RatingsCog
from bot.cogs.review import ReviewCog
from bot.cogs.tour_base import ttrtour_group
from bot.cogs.tour_desk import TournamentDeskCog, TournamentRecordsCog
from bot.cogs.tour_players import TournamentCog
from bot.cogs.tour_rounds import TournamentRoundsCog
from bot.cogs.ttr import add_ttr_cogs, ttr_group
from bot.present.image_words import image_words
from bot.runtime import collector
from bot.runtime.endpoints import Check, Endpoints, bounded_check
from bot.runtime.metrics import Metrics
from bot.runtime.scheduler import Scheduler, Sleep
from bot.runtime.settings import Settings
from bot.runtime.sync import sync_if_changed
from bot.runtime.tree import ConductorTree
from bot.runtime.warm_up import BoardWarmUp
from bot.service import GameService
from bot.service.kinds import Language
from bot.service.observer import QUIET, Observer
from bot.service.review import Reviews
from bot.service.thinking import Thinking, expert_search
from bot.table.clock_notifier import ClockNotifier
from bot.table.controls import Controls
from bot.table.front import Front
from bot.table.languages import Languages
from bot.table.tournaments import TournamentDesk
from bot.views.answering import Answering
from bot.views.items import GameButton, GameSelect
from bot.views.ratelimit import RateLimiter
from bot.views.replies import current_game
from maps import MAP_NAMES

log = logging.getLogger(__name__)

REVIEW_WORKERS = 2  # processes for `/ttr review`'s playouts (a review's batches of turns run side by side)


class ConductorBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], datetime] | None = None,
        heartbeat: float = 60.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        intents = discord.Intents.default()  # no privileged intents: slash commands need none
        # the operator's metrics (CONDUCTOR_METRICS_ADDRESS); off: nobody listens, and nothing is measured
        self.metrics = Metrics(settings.shards) if settings.metrics_address is not None else None
        self.observer: Observer = self.metrics or QUIET
        # discord.py's options: its HTTP session traced for the metrics; the shards of this process
        options: dict[str, Any] = {} if self.metrics is None else {"http_trace": self.metrics.trace()}
        if settings.shards is not None:  # an AutoShardedBot (ShardedConductorBot) for this process's shards
            options |= {"shard_count": settings.shards.count, "shard_ids": list(settings.shards.ids)}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=ConductorTree,
            # a safety net: every message names whom it pings; one that forgets pings nobody
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings
        self.clock = clock  # the game service's clock; None: the wall clock (UTC)
        self.heartbeat = heartbeat  # seconds between the notes that the bot runs (bot/runtime/scheduler.py)
        self.sleep = sleep  # how the scheduler waits for its next timer (the try-out: on its simulated clock)
        self._service: GameService | None = None
        self._front: Front | None = None
        self._scheduler: Scheduler | None = None
        self._recovery: asyncio.Task[None] | None = None
        # the command rate reads the bot's clock when it has one (tests: simulated time)
        limiter_clock = time.monotonic if clock is None else (lambda: clock().timestamp())
        self.limiter = RateLimiter(
            settings.commands_per_window,
            settings.command_window_seconds,
            clock=limiter_clock,
            wall_clock=time.time if clock is None else (lambda: clock().timestamp()),
        )
        self._ready_before = False
        self._refreshes: set[asyncio.Task[None]] = set()
        self._warm_up: BoardWarmUp | None = None
        self.answering = Answering()  # the interactions being answered now (bot/views/replies.py counts them)
        # `/ttr review`'s playouts: worker processes, started at the first review (bot/service/review.py)
        self._review_pool: ProcessPoolExecutor | None = None
        # where the autopilot thinks: the expert's searches in worker processes, started at its first decision and
        # again if one dies (bot/service/thinking.py)
        self._thinking: Thinking | None = None
        self.endpoints: Endpoints | None = None  # /metrics, /healthz, /readyz (bot/runtime/endpoints.py)

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._service

    @property
    def components(self) -> Controls:
        """What the persistent buttons and menus call (bot.views.items)."""
        if self._front is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._front.controls

    @property
    def languages(self) -> Languages | None:
        """Who reads what in which language (None until the bot is set up)."""
        return None if self._front is None else self._front.languages

    @property
    def warming(self) -> bool:
        """Is the boards' warm-up still running (in the background: the bot answers meanwhile)?"""
        return self._warm_up is not None and self._warm_up.running

    @property
    def scheduler(self) -> Scheduler:
        """The runner of the turn clocks' timers (started once the bot is connected)."""
        if self._scheduler is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._scheduler

    async def setup_hook(self) -> None:
        # the expert autopilot's searches: each decision (up to ~2 s) split between every process of the pool
        parts = self.settings.expert_processes

        def expert_pool() -> ProcessPoolExecutor:
            return ProcessPoolExecutor(parts, mp_context=multiprocessing.get_context("spawn"))

        search = expert_search(self.settings.expert_seconds, parts)
        thinking = self._thinking = Thinking(expert_pool(), search, parts, make_executor=expert_pool)
        self._service = await GameService.open(
            self.settings.database,
            clock=self.clock,
            shards=self.settings.shards,
            thinking=thinking,
            observer=self.observer,
        )
        await self._service.ratings.rate_pending()  # games a stop left unrated (bot/service/ratings.py)
        if self.settings.rate_limit_shared:  # one command rate per member for every process on the database
            self.limiter.share(self._service.store.rates)
        front = self._front = Front.build(self, self._service)
        front.stage.table.talk.listen(self)  # the messages after each table, from the gateway (bot/table/talk.py)
        ttrtour, desk = ttrtour_group(), TournamentDesk(self, front)
        self._scheduler = Scheduler(
            self._service,
            ClockNotifier(front, desk),
            sleep=self.sleep,
            heartbeat=self.heartbeat,
            tick=front.delivery.notifier.release,
        )
        ttr = ttr_group()
        self._review_pool = ProcessPoolExecutor(REVIEW_WORKERS, mp_context=multiprocessing.get_context("spawn"))
        reviews = Reviews(
            self._service.store.games,
            self._service.audit,
            clock=self.clock,
            executor=self._review_pool,
            history=self._service.store.history,
            workers=REVIEW_WORKERS,
        )
        await add_ttr_cogs(
            self,
            ttr,
            [
                LobbyCog(ttr, front),
                PlayCog(ttr, front),
                PlanCog(ttr, front),
                MemberSettingsCog(ttr, front),
                RatingsCog(ttr, front),
                ReviewCog(ttr, front, reviews),
                ConfigCog(ttr, front),
            ],
        )
        ttrmod = ttrmod_group()
        await add_ttr_cogs(
            self, ttrmod, [ModClockCog(ttrmod, front), ModerationCog(ttrmod, front), ModReadsCog(ttrmod, front)]
        )
        await add_ttr_cogs(
            self,
            ttrtour,
            [
                TournamentDeskCog(ttrtour, front, desk),
                TournamentRecordsCog(ttrtour, front, desk),
                TournamentRoundsCog(ttrtour, front, desk),
                TournamentCog(ttrtour, front, desk),
            ],
        )
        self.add_dynamic_items(GameButton, GameSelect)
        await self.tree.set_translator(CommandTranslator())  # the commands in Swedish and Finnish too
        shards = self.settings.shards
        if shards is None or shards.first:  # one process syncs the commands: the one running shard 0
            await sync_if_changed(self.tree, self._service, self.application_id, self.settings.dev_guild_id)
        else:
            log.info("shards %s: the process running shard 0 syncs the commands", shards.ids)
        await self._serve_endpoints()
        self._recovery = asyncio.create_task(self._recover(), name="conductor-recover")
        await self._warm_images()

    async def _serve_endpoints(self) -> None:
        """Serve /metrics, /healthz and /readyz where the operator asked (CONDUCTOR_METRICS_ADDRESS)."""
        address = self.settings.metrics_address
        if address is None or self.metrics is None:
            return
        service, metrics = self.service, self.metrics

        async def count_open_games() -> None:
            metrics.count_open_games(await service.store.games.open_games())

        endpoints = Endpoints(*address, metrics=metrics, checks=self.readiness, refresh=count_open_games)
        try:
            await endpoints.start()
        except OSError as exc:  # the port is taken, the address not this machine's: the games go on without them
            log.error("cannot serve the metrics on %s port %d (%s); the bot runs without them", *address, exc)
            return
        self.endpoints = endpoints

    async def readiness(self) -> list[Check]:
        """Whether the bot can serve: connected to Discord, the store answers, the timers' scheduler runs."""
        connected = self.is_ready() and not self.is_closed() and self._gateway_open()
        service = self._service
        if service is None:
            store = Check("store", False, "not open")
        else:
            store = await bounded_check("store", lambda: service.store.games.game(0))
        timers = self._scheduler is not None and self._scheduler.running
        return [
            Check("discord", connected, "" if connected else "not connected"),
            store,
            Check("timers", timers, "" if timers else "not running"),
        ]

    def _gateway_open(self) -> bool:
        """Discord's gateway connection is up now (each shard's, for a sharded bot); what cannot be told counts as
        up (a simulated Discord's gateway)."""
        try:
            if isinstance(self, commands.AutoShardedBot):
                return all(not shard.is_closed() for shard in self.shards.values())
            return bool(getattr(self.ws, "open", True))
        except Exception:
            return True

    async def _warm_images(self) -> None:
        """Start building the boards' static layers in a thread of their own (bot/runtime/warm_up.py): in the
        background, never on the way to an answer; each layer waits while interactions are being answered."""
        try:
            order = await self.service.images.warm_order()
        except Exception:
            log.exception("could not read the maps of running games at start (every board is warmed in turn)")
            order = list(MAP_NAMES)
        # English: the layers of other languages differ by the caption of the project's own boards only,
        # built on first use
        self._warm_up = BoardWarmUp(order, image_words(Language.EN), self.answering.quiet)
        self._warm_up.start()

    async def _recover(self) -> None:
        """Once connected: post the stage messages a crash kept back, then run the clocks (moved on by the outage)."""
        await self.wait_until_ready()
        try:
            if self._front is not None:
                await self._front.stage.recover()
        except Exception:
            log.exception("could not bring the games' channel messages up to date")
        if self._scheduler is not None and not self.is_closed():
            await self._scheduler.begin()
        collector.settle()  # what the start made stays for good: out of the collector's way (a tuned process only)

    async def on_ready(self) -> None:
        if self._ready_before:  # a new session after a lost one: the games may have moved on meanwhile
            if self._front is not None:
                self._front.stage.table.talk.forget()  # the messages of the gap are not known: read again
            self._refresh_stages()
        self._ready_before = True

    async def on_resumed(self) -> None:
        self._refresh_stages()

    def _refresh_stages(self) -> None:
        """After a reconnection: bring every running game's stage message up to date (what failed is posted now)."""
        if self._front is None:
            return
        task = asyncio.create_task(self._front.stage.recover(), name="conductor-refresh")
        self._refreshes.add(task)
        task.add_done_callback(self._refreshes.discard)

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        # discord.py calls this from inside its except block: the exception is the one being handled
        log.exception("game #%s: unhandled error in %s", current_game.get(), event_method)  # noqa: LOG004

    async def close(self) -> None:
        if self._recovery is not None and not self._recovery.done():
            self._recovery.cancel()
        if self._warm_up is not None:
            self._warm_up.stop()
        if self.endpoints is not None:
            await self.endpoints.stop()
            self.endpoints = None
        if self._front is not None:
            self._front.close()
        if self._review_pool is not None:
            self._review_pool.shutdown(wait=False, cancel_futures=True)
        self._review_pool = None
        if self._thinking is not None:
            self._thinking.close()
        try:
            if self._scheduler is not None:
                await self._scheduler.stop()
        finally:
            try:
                await super().close()
            finally:
                if self._service is not None:
                    await self._service.close()
                    self._service = None


class ShardedConductorBot(ConductorBot, commands.AutoShardedBot):
    """The bot of one process of a sharded bot: an AutoShardedBot for the shards of `settings.shards`.

    Each process serves its shards' servers: Discord sends it their events, its scheduler fires their games'
    timers (bot/runtime/scheduler.py), and only the process running shard 0 syncs the commands.
    """


def create_bot(
    settings: Settings,
    *,
    clock: Callable[[], datetime] | None = None,
    heartbeat: float = 60.0,
    sleep: Sleep = asyncio.sleep,
) -> ConductorBot:
    """The bot, not started: `await bot.start(token)`, or `bot.run(token)`.

    `clock`: where the game service reads the time (timezone-aware UTC); the
    wall clock by default. Tests pass simulated time. `heartbeat`: seconds
    between the notes that the bot runs, from which an outage is measured.
    `sleep`: how the timers' scheduler waits (asyncio.sleep by default; the
    try-out waits on its simulated clock alone, bot/tryout/session.py).
    With `settings.shards` it is an AutoShardedBot for those shards.
    """
    if settings.shards is not None:
        return ShardedConductorBot(settings, clock=clock, heartbeat=heartbeat, sleep=sleep)
    return ConductorBot(settings, clock=clock, heartbeat=heartbeat, sleep=sleep)
