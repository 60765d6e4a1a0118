"""The game service, assembled: every way to change or read a game, for any front end.

The service is a set of parts, each an object of its own module that is
given, here and only here, the parts it uses; the front end uses the parts
it needs (`service.lobby.join(...)`, `service.tournaments.rounds.start_round(...)`).

- core (core.py): each game's lock, the cache of live games, versioned writes, the clock
- the store's parts (bot/store/protocols.py): each part below is given, besides core, the ones it uses
- runner (runner.py): one action's moves, the autopilot's moves after it, the result; tells the
  end-of-game listeners (game_end.py); the autopilot's decisions run where thinking.py says (threads;
  the expert's in the bot's worker process)
- settings (settings.py): each server's settings and who may moderate; members (member_settings.py):
  each member's own settings and held DMs
- lobby (lobby.py): create, join, leave, seat autopilot players, cancel, start
- play (play.py): a member's move; choices (choices.py): what a player may choose now, why a claim
  cannot be made; claims (claims.py): a claim by route as one call (made, a question first, or refused);
  plans (plans.py): a member's planned next turn, played by the runner when it comes (plan_turns.py,
  plan_eval.py)
- reading (reading.py): lookups, views, waiting, history, digest, clock status
- timers (timers.py): what the scheduler (bot/runtime/scheduler.py) hands over when a timer is due
- moderation (moderation.py): pause, resume, extend, replace, autopilot, undo, end;
  reopen (reopen.py): a game a moderator ended runs again, for a while
- finality (finality.py): whether an ended game is over for good (its secrets may be shown)
- audit (audit.py): the record and the full log (moderators' reads audited), the audit entries
- images (images.py), stages (stages.py), replays (replay.py): the board, a player's private view,
  the stage message's view, the public board after any turn, drawn off the event loop
- ratings (ratings.py): per-server OpenSkill ratings of finished games, the leaderboard, profiles
- front (front_records.py): what the Discord front end keeps: its messages, DM refusals, commands synced
- tournaments (tournaments/service.py): the tournament desk, itself made of parts

When a game ends, the runner tells its listeners in this order: the
tournaments first (a table's result is recorded, rated as a tournament game,
and the end goes no further), then ratings (a casual game is rated if the
server rates them). Due timers of no game go to the tournaments' deadlines.

Everything the parts return is data (results.py, events.py, views.py);
bot/present words it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from typing import Self

from bot.service.audit import AuditService
from bot.service.choices import MoveChoices
from bot.service.claims import ClaimService
from bot.service.core import ServiceCore
from bot.service.finality import Finality
from bot.service.front_records import FrontRecords
from bot.service.images import Images
from bot.service.lobby import LobbyService
from bot.service.member_settings import MemberSettingsService
from bot.service.moderation import ModerationService
from bot.service.observer import QUIET, Observer
from bot.service.plans import PlanService
from bot.service.play import PlayService
from bot.service.ratings import RatingsService
from bot.service.reading import ReadingService
from bot.service.reopen import ReopenService
from bot.service.replay import Replays
from bot.service.runner import Runner
from bot.service.settings import SettingsService
from bot.service.stages import Stages
from bot.service.thinking import Thinking
from bot.service.timers import TimerService
from bot.service.tournaments.service import Tournaments
from bot.store import Database, Shards, Store, open_store
from bot.store.parts.base import Backend


class GameService:
    """Create, join, start and play games; read views; moderate; tournaments; ratings. Knows nothing of Discord."""

    def __init__(
        self,
        store: Store,
        *,
        rng: random.Random | None = None,
        cache_size: int = 1000,
        clock: Callable[[], datetime] | None = None,
        shards: Shards | None = None,
        thinking: Thinking | None = None,
        observer: Observer = QUIET,
    ) -> None:
        self.core = core = ServiceCore(
            store.games,
            store.history,
            store.settings,
            rng=rng,
            cache_size=cache_size,
            clock=clock,
            shards=shards,
            observer=observer,
        )
        if isinstance(backend := getattr(store, "backend", None), Backend):
            backend.observer = observer  # the store's writes too
        self.store = store
        # each part is given the store's parts it reads and writes (`store.games`...): who touches which tables
        self.runner = runner = Runner(core, store.games, store.history, store.settings, store.tournaments, thinking)
        self.settings = settings = SettingsService(core, store.settings)
        self.members = MemberSettingsService(core, store.messages, store.settings)
        self.finality = finality = Finality(core, store.games, store.history, store.tournaments)
        self.lobby = lobby = LobbyService(core, store.games, store.history, runner, settings)
        self.play = play = PlayService(core, runner)
        self.choices = MoveChoices(core)
        self.claims = ClaimService(core, play)
        self.plans = PlanService(core, store.history, store.settings, store.tournaments)
        self.reading = ReadingService(core, store.games, store.history, runner)
        self.timers = timers = TimerService(core, store.games, store.history, store.timers, store.settings, runner)
        self.moderation = moderation = ModerationService(core, store.history, runner)
        self.reopen = ReopenService(core, store.history, runner, finality)
        self.audit = AuditService(core, store.games, store.history, finality)
        self.images = images = Images(core, store.games)
        self.stages = Stages(core, store.history, images)
        self.replays = Replays(core, images)
        self.front = FrontRecords(core, store.games, store.messages, store.settings)
        self.ratings = ratings = RatingsService(core, store.ratings, settings)
        self.tournaments = tournaments = Tournaments(
            core,
            store.games,
            store.history,
            store.timers,
            store.tournaments,
            lobby=lobby,
            moderation=moderation,
            ratings=ratings,
            finality=finality,
        )
        # when a game ends: its tournament first (which takes a table's end), then the casual ratings
        runner.end_listeners.extend([tournaments.results, ratings])
        timers.gameless.append(tournaments.deadlines)

    @classmethod
    async def open(
        cls,
        database: Database,
        *,
        rng: random.Random | None = None,
        cache_size: int = 1000,
        clock: Callable[[], datetime] | None = None,
        shards: Shards | None = None,
        thinking: Thinking | None = None,
        observer: Observer = QUIET,
    ) -> Self:
        """The service on an SQLite database file (created if missing) or a `postgresql://` URL.

        `shards`: the shards this process runs (None: one process for every server); `thinking`: where and how
        hard the autopilot thinks (None: in threads, the expert at its default search); `observer`: who hears what
        it does (the bot's metrics; nobody by default)."""
        store = await open_store(database)
        return cls(
            store, rng=rng, cache_size=cache_size, clock=clock, shards=shards, thinking=thinking, observer=observer
        )

    async def close(self) -> None:
        await self.images.close()
        await self.store.close()
