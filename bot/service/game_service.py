"""The game service: every way to change or read a game, for any front end.

Each change runs under the game's own lock, as one store transaction that is
checked against the version the service read; the move is applied to a copy
of the game and the copy replaces the cached game only once the store has
committed. So a refused or failed action leaves both the database and the
cache as they were, and games never wait for each other's locks.

Every transaction that changes who must act also writes the game's clock and
replaces its timers (deadlines, reminders, autopilot turns; bot/service/clock.py),
so a crash can leave no timer stale or missing. Seats the autopilot plays move
at once after any action, each move its own transaction; `fire_timer` is what
the scheduler (bot/scheduler.py) calls when a timer is due. Time comes from the
injected `clock`, so tests and simulated Discord time control it.
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from bot.service import announce
from bot.service import clock as clocks
from bot.service.choices import MoveChoices
from bot.service.clock import ClockSettings, duration_text
from bot.service.digest import Digest, digest
from bot.service.errors import (
    ChannelBusy,
    GameFull,
    InvalidInput,
    NotAllowed,
    NotAPlayer,
    NotFound,
    RuleViolation,
    StaleVersion,
    WrongState,
)
from bot.service.front_records import FrontRecords
from bot.service.images import Images
from bot.service.loading import LiveGame, load, status_of
from bot.service.models import (
    ActionResult,
    GameInfo,
    PrivateEvent,
    PublicEvent,
    Reminder,
    TimerOutcome,
    Waiting,
    is_bot,
)
from bot.service.moderation import (
    GuildConfig,
    LogEntry,
    audit_text,
    check_setting,
    clean_reason,
    may_moderate,
    mod_line,
)
from bot.service.names import clean_name, unique_names
from bot.service.record import record_of
from bot.service.stages import Stages
from bot.service.views import private_view, public_view
from bot.store import (
    ACTIVE,
    AuditRow,
    ClockRow,
    GameChange,
    GameStart,
    GameStatus,
    NewAudit,
    NewGame,
    NewMove,
    NewTimer,
    SeatClockRow,
    SeatUpdate,
    SqliteStore,
    StartedSeat,
    Store,
    TimerGone,
    TimerRow,
    Undo,
    UnknownGame,
    VersionConflict,
    Writes,
)
from bot.store import ChannelBusy as StoreChannelBusy
from engine import Game, GameError, Move
from engine.autopilot import choose_move
from engine.game import MAX_TRAINS_OPTION, MIN_TRAINS_OPTION
from engine.moves import move_from_json, move_to_json
from engine.snapshot import EMPTY_DIGEST, extend_digest, moves_digest, snapshot_text
from maps import MAP_NAMES, load_board

log = logging.getLogger(__name__)

T = TypeVar("T")

# Discord ids are positive and fit SQLite's signed 64-bit integers.
MAX_ID = 2**63 - 1

# A safety stop for one run of autopilot moves (a whole autopilot-only game takes 100-300);
# what is left is played when the autopilot timer the last move wrote fires.
MAX_AUTOPILOT_MOVES = 2000


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class _Run:
    """One action in progress: the game as committed so far and what to announce."""

    live: LiveGame
    clock: ClockRow
    waits_before: dict[int, str | None]  # each seat's wait before the action: whose turn came since
    stored_clock: ClockRow | None = None  # the clock as the store has it (None: unknown)
    public: list[PublicEvent] = field(default_factory=list)
    private: list[PrivateEvent] = field(default_factory=list)
    mod_log: list[str] = field(default_factory=list)
    timers: list[NewTimer] | None = None  # as last written


def _check_id(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        raise InvalidInput(f"{what} must be a positive whole number, not {value!r}")
    return value


def _display_name(raw: object) -> str:
    if not isinstance(raw, str) or not clean_name(raw):
        raise InvalidInput("a display name with at least one visible character is needed")
    return clean_name(raw)


class GameService(FrontRecords, MoveChoices, Images, Stages):
    """Create, join, start and play games; read views; export records. Knows nothing of Discord."""

    def __init__(
        self,
        store: Store,
        *,
        rng: random.Random | None = None,
        cache_size: int = 1000,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.store = store
        # seat order and seeds must not be predictable by players
        self._rng = rng if rng is not None else random.SystemRandom()
        self._cache: OrderedDict[int, LiveGame] = OrderedDict()
        self._cache_size = cache_size
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._clock = clock if clock is not None else utc_now
        self._timer_listeners: list[Callable[[datetime], None]] = []
        # each seat's game right after its last move, for catch-up digests without a replay (a cache only)
        self._after_last_move: dict[int, dict[int, Game]] = {}

    def now(self) -> datetime:
        """The time as the service sees it (the injected clock), timezone-aware."""
        moment = self._clock()
        if moment.tzinfo is None:
            raise ValueError("the service's clock must give timezone-aware times (UTC)")
        return moment

    def add_timer_listener(self, listener: Callable[[datetime], None]) -> None:
        """Call `listener(soonest deadline)` whenever the service has written timers (the scheduler wakes up)."""
        self._timer_listeners.append(listener)

    def remove_timer_listener(self, listener: Callable[[datetime], None]) -> None:
        if listener in self._timer_listeners:
            self._timer_listeners.remove(listener)

    def _timers_written(self, timers: Sequence[NewTimer] | None) -> None:
        if not timers:
            return
        soonest = min(t.deadline for t in timers)
        for listener in list(self._timer_listeners):
            try:
                listener(soonest)
            except Exception:
                log.exception("a timer listener failed")

    @classmethod
    async def open(cls, database: Path | str, **kwargs: Any) -> GameService:
        return cls(await SqliteStore.open(database), **kwargs)

    async def close(self) -> None:
        await self.store.close()

    # ----- locking and the cache ---------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def _locked(self, game_id: int, work: Callable[[], Awaitable[T]]) -> T:
        """Run `work` under the game's lock, to its end even if the caller is cancelled.

        A cancelled Discord interaction must not stop an action between the
        commit and the cache update; the shield lets it finish.
        """
        game_id = _check_id(game_id, "the game id")

        async def run() -> T:
            async with self._lock(game_id):
                return await work()

        task = asyncio.ensure_future(run())
        task.add_done_callback(_retrieve)
        return await asyncio.shield(task)

    def _remember(self, game_id: int, live: LiveGame) -> None:
        self._cache[game_id] = live
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            dropped, _ = self._cache.popitem(last=False)
            self._after_last_move.pop(dropped, None)

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)
        self._after_last_move.pop(game_id, None)

    async def _live(self, game_id: int) -> LiveGame:
        """The game as committed; the caller holds its lock."""
        live = self._cache.get(game_id)
        if live is not None:
            self._cache.move_to_end(game_id)
            return live
        stored = await self.store.stored_game(game_id)
        if stored is None:
            raise NotFound(f"There is no game #{game_id}.")
        loaded = await load(stored)
        if loaded.fresh_snapshot is not None:
            log.warning("game #%d: snapshot not used (%s); rebuilt from its move log", game_id, loaded.snapshot_problem)
            try:
                await self.store.save_snapshot(game_id, stored.game.version, len(stored.moves), loaded.fresh_snapshot)
            except VersionConflict:
                pass  # someone else moved on meanwhile; their snapshot is the newer one
        self._remember(game_id, loaded.live)
        return loaded.live

    async def _fresh_info(self, game_id: int) -> GameInfo:
        self._forget(game_id)
        return (await self._live(game_id)).info

    # ----- lookups -----------------------------------------------------------------

    async def game(self, game_id: int) -> GameInfo:
        return await self._locked(game_id, lambda: self._info(game_id))

    async def _info(self, game_id: int) -> GameInfo:
        return (await self._live(game_id)).info

    async def active_game(self, channel_id: int) -> GameInfo | None:
        """The lobby or running game in a channel, if any."""
        row = await self.store.active_game(_check_id(channel_id, "the channel id"))
        return None if row is None else GameInfo.of(row, await self.store.seats(row.id))

    async def games_of_user(self, user_id: int, *, active_only: bool = True) -> list[GameInfo]:
        statuses = ACTIVE if active_only else set(GameStatus)
        rows = await self.store.games_of_user(_check_id(user_id, "the user id"), statuses)
        return [GameInfo.of(row, await self.store.seats(row.id)) for row in rows]

    async def engine_game(self, game_id: int) -> Game:
        """A copy of the engine's game (for drawing the board, tools, tests); secrets included."""

        async def work() -> Game:
            live = await self._live(game_id)
            if live.game is None:
                raise WrongState("The game has not started yet: nothing is dealt.")
            return live.game.copy()

        return await self._locked(game_id, work)

    # ----- the lobby ---------------------------------------------------------------

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        host_user_id: int,
        host_name: str,
        map_name: str,
        max_players: int | None = None,
        trains: int | None = None,
        *,
        clock: ClockSettings | None = None,
        bots: int = 0,
    ) -> ActionResult:
        """Open a lobby in a channel, with the host in the first seat.

        `clock`: the game's turn clock; None takes the server's default
        (`guild_config`), `clock.NO_CLOCK` has none. `bots`: seats filled with
        autopilot players at once (user ids -1, -2, ...; see `add_bot`).
        """
        guild_id = _check_id(guild_id, "the server id")
        channel_id = _check_id(channel_id, "the channel id")
        host_user_id = _check_id(host_user_id, "the user id")
        name = _display_name(host_name)
        if map_name not in MAP_NAMES:
            raise InvalidInput(f"There is no map {map_name!r}. The maps are: {', '.join(MAP_NAMES)}.")
        rules = load_board(map_name).rules
        seats = rules.max_players if max_players is None else max_players
        if isinstance(seats, bool) or not isinstance(seats, int) or not rules.min_players <= seats <= rules.max_players:
            raise InvalidInput(
                f"{rules.title} is played by {rules.min_players} to {rules.max_players} players, "
                f"so the number of seats must be in that range, not {max_players!r}."
            )
        if trains is not None and (
            isinstance(trains, bool)
            or not isinstance(trains, int)
            or not MIN_TRAINS_OPTION <= trains <= MAX_TRAINS_OPTION
        ):
            raise InvalidInput(
                f"The number of {rules.piece_name} must be from {MIN_TRAINS_OPTION} to {MAX_TRAINS_OPTION}, "
                f"not {trains!r}."
            )
        if isinstance(bots, bool) or not isinstance(bots, int) or not 0 <= bots < seats:
            raise InvalidInput(
                f"With {seats} seats there is room for 0 to {seats - 1} autopilot players, not {bots!r}."
            )
        if clock is None:
            clock = (await self.guild_config(guild_id)).clock
        elif not isinstance(clock, ClockSettings):
            raise InvalidInput(f"the clock must be clock settings, not {type(clock).__name__}")
        options: dict[str, Any] = {"max_players": seats}
        if trains is not None:
            options["trains"] = trains
        options["clock"] = clock.to_json()
        try:
            row = await self.store.create_game(NewGame(guild_id, channel_id, host_user_id, name, map_name, options))
        except StoreChannelBusy as exc:
            game = f" (game #{exc.game_id})" if exc.game_id is not None else ""
            raise ChannelBusy(
                f"This channel already has a game{game}. Finish or cancel it first, or use another channel.",
                exc.game_id,
            ) from None
        if bots:

            async def seat_bots() -> None:
                info = await self._info(row.id)
                version = info.version
                for k in range(1, bots + 1):
                    if len(info.seats) + k > info.max_players:
                        break  # someone joined meanwhile
                    add = partial(self.store.add_seat, row.id, version, -k, _bot_name(k))
                    version = await self._write(row.id, add)
                self._forget(row.id)

            await self._locked(row.id, seat_bots)
        info = await self.game(row.id)
        article = "an" if rules.title[0] in "AEIO" else "a"  # an India, an Amsterdam; a USA
        text = f"{name} opens {article} {rules.title} game for up to {seats} players."
        if bots:
            text += f" {bots} {'seat is' if bots == 1 else 'seats are'} taken by the autopilot."
        return ActionResult(info, (PublicEvent("created", text, {"map": map_name, "bots": bots}, None, host_user_id),))

    async def add_bot(self, game_id: int, user_id: int) -> ActionResult:
        """The host fills an empty seat of the lobby with an autopilot player (user id -1, -2, ...)."""
        user_id = _check_id(user_id, "the user id")

        async def work() -> ActionResult:
            info = await self._info(game_id)
            if info.status is not GameStatus.LOBBY:
                raise WrongState(_not_in_lobby(info))
            if user_id != info.host_user_id:
                raise NotAllowed("Only the host can add autopilot players.")
            if len(info.seats) >= info.max_players:
                raise GameFull(f"All {info.max_players} seats of this game are taken.")
            k = next(k for k in range(1, info.max_players + 1) if info.seat_of(-k) is None)
            name = _bot_name(k)
            await self._write(game_id, lambda: self.store.add_seat(game_id, info.version, -k, name))
            after = await self._fresh_info(game_id)
            text = f"{name} (the autopilot) joins ({len(after.seats)}/{after.max_players})."
            return ActionResult(after, (PublicEvent("joined", text, {"autopilot": True}, None, -k),))

        return await self._locked(game_id, work)

    async def remove_bot(self, game_id: int, user_id: int, bot_user_id: int) -> ActionResult:
        """The host takes an autopilot player out of the lobby again."""
        user_id = _check_id(user_id, "the user id")

        async def work() -> ActionResult:
            info = await self._info(game_id)
            if info.status is not GameStatus.LOBBY:
                raise WrongState(_not_in_lobby(info))
            if user_id != info.host_user_id:
                raise NotAllowed("Only the host can remove autopilot players.")
            seat = info.seat_of(bot_user_id)
            if seat is None or not seat.bot:
                raise NotAPlayer("There is no such autopilot player in this game.")
            await self._write(game_id, lambda: self.store.remove_seat(game_id, info.version, bot_user_id, None))
            after = await self._fresh_info(game_id)
            event = PublicEvent("left", f"{seat.display_name} (the autopilot) leaves.", {"autopilot": True}, None, None)
            return ActionResult(after, (event,))

        return await self._locked(game_id, work)

    async def join(self, game_id: int, user_id: int, display_name: str) -> ActionResult:
        user_id = _check_id(user_id, "the user id")
        name = _display_name(display_name)

        async def work() -> ActionResult:
            info = await self._info(game_id)
            if info.status is not GameStatus.LOBBY:
                raise WrongState(_not_in_lobby(info))
            if info.seat_of(user_id) is not None:
                raise WrongState("You have already joined this game.")
            if len(info.seats) >= info.max_players:
                raise GameFull(f"All {info.max_players} seats of this game are taken.")
            await self._write(game_id, lambda: self.store.add_seat(game_id, info.version, user_id, name))
            after = await self._fresh_info(game_id)
            text = f"{name} joins ({len(after.seats)}/{after.max_players})."
            return ActionResult(after, (PublicEvent("joined", text, {}, None, user_id),))

        return await self._locked(game_id, work)

    async def leave(self, game_id: int, user_id: int) -> ActionResult:
        """Leave a lobby; a leaving host hands the game to the next to have joined, or cancels it if alone."""
        user_id = _check_id(user_id, "the user id")

        async def work() -> ActionResult:
            info = await self._info(game_id)
            if info.status is not GameStatus.LOBBY:
                raise WrongState(
                    "Only a game that has not started can be left." if info.status.active else _not_in_lobby(info)
                )
            seat = info.seat_of(user_id)
            if seat is None:
                raise NotAPlayer("You have not joined this game.")
            # an autopilot player is never the host: with only those left, the game is off
            others = [s for s in info.seats if s.user_id != user_id and not s.bot]
            events = [PublicEvent("left", f"{seat.display_name} leaves.", {}, None, user_id)]
            if not others:
                await self._write(game_id, lambda: self.store.set_status(game_id, info.version, GameStatus.CANCELLED))
                events.append(PublicEvent("cancelled", "Nobody is left: the game is cancelled.", {}, None, None))
                return ActionResult(await self._fresh_info(game_id), tuple(events))
            new_host = others[0].user_id if user_id == info.host_user_id else None
            await self._write(game_id, lambda: self.store.remove_seat(game_id, info.version, user_id, new_host))
            if new_host is not None:
                text = f"{others[0].display_name} is the host now."
                events.append(PublicEvent("host_changed", text, {}, None, new_host))
            return ActionResult(await self._fresh_info(game_id), tuple(events))

        return await self._locked(game_id, work)

    async def cancel(self, game_id: int, user_id: int, *, moderator: bool = False, reason: str = "") -> ActionResult:
        """The host cancels a lobby; a moderator (checked by the caller) any active game (audited, with `reason`)."""
        user_id = _check_id(user_id, "the user id")
        reason = clean_reason(reason)

        async def work() -> ActionResult:
            info = await self._info(game_id)
            if not info.status.active:
                raise WrongState(f"The game is already {info.status.value}.")
            if not moderator:
                if user_id != info.host_user_id:
                    raise NotAllowed("Only the host can cancel the game.")
                if info.status is not GameStatus.LOBBY:
                    raise WrongState("A game that has started can only be cancelled by a moderator.")
            audit = [NewAudit(user_id, "cancel", {}, reason, self.now())] if moderator else []
            change = GameChange(Writes(timers=[], audit=audit), status=GameStatus.CANCELLED)
            await self._write(game_id, lambda: self.store.apply_change(game_id, info.version, change))
            by = "a moderator" if moderator else "the host"
            event = PublicEvent("cancelled", f"The game is cancelled by {by}.", {"moderator": moderator}, None, user_id)
            after = await self._fresh_info(game_id)
            lines = (mod_line(after, user_id, "cancelled the game", reason),) if moderator else ()
            return ActionResult(after, (event,), mod_log=lines)

        return await self._locked(game_id, work)

    async def start(self, game_id: int, user_id: int, expected_version: int | None = None) -> ActionResult:
        """The host starts the game: random seat order, random seed, the deal."""
        user_id = _check_id(user_id, "the user id")

        async def work() -> ActionResult:
            info = await self._info(game_id)
            if info.status is not GameStatus.LOBBY:
                raise WrongState(_not_in_lobby(info))
            if user_id != info.host_user_id:
                raise NotAllowed("Only the host can start the game.")
            _check_version(info, expected_version)
            rules = load_board(info.map).rules
            if len(info.seats) < rules.min_players:
                raise WrongState(
                    f"{rules.title} needs at least {rules.min_players} players; {len(info.seats)} have joined."
                )
            order = list(info.seats)
            self._rng.shuffle(order)
            names = unique_names([s.display_name for s in order])
            seed = f"{self._rng.getrandbits(64):016x}"
            game = Game(load_board(info.map), names, seed, info.trains)
            now = self.now()
            clock = clocks.advance(info.clock, ClockRow(game_id), game, now)
            timers = clocks.timers(info.clock, clock, [s.autopilot for s in order], now)
            start = GameStart(
                seed=seed,
                cards=list(game.initial_cards),
                tickets=list(game.initial_tickets),
                seats=[StartedSeat(s.user_id, i, n) for i, (s, n) in enumerate(zip(order, names, strict=True))],
                status=status_of(game),
                snapshot=snapshot_text(game, EMPTY_DIGEST),
                writes=Writes(clock=clock, timers=timers),
            )
            await self._write(game_id, lambda: self.store.start_game(game_id, info.version, start))
            self._forget(game_id)
            run = self._run(await self._live(game_id), clock)
            run.timers = timers
            dealt = [e for e in announce.dealt(run.live.info, game) if not is_bot(e.user_id)]
            seating = ", ".join(names)
            text = f"The {rules.title} game starts! Seat order: {seating}. Everyone chooses starting tickets now."
            public = PublicEvent("started", text, {"players": names, "face_up": list(game.state.piles.face_up)})
            run.public.append(public)
            run.private.extend(dealt)
            await self._autoplay(run)  # autopilot players keep their tickets at once
            return await self._result(run)

        return await self._locked(game_id, work)

    async def _write(self, game_id: int, write: Callable[[], Awaitable[int]]) -> int:
        """A versioned store write; a version conflict means someone else came first."""
        try:
            return await write()
        except VersionConflict:
            self._forget(game_id)
            raise StaleVersion(game_id, None, None) from None
        except UnknownGame:
            self._forget(game_id)
            raise NotFound(f"There is no game #{game_id}.") from None
        except BaseException:
            self._forget(game_id)  # the database may hold more than the cache knows
            raise

    # ----- playing -----------------------------------------------------------------

    async def act(
        self,
        game_id: int,
        user_id: int,
        move: Move | Mapping[str, Any],
        expected_version: int | None = None,
    ) -> ActionResult:
        """Make one move for the player seated as `user_id`.

        `move` is an engine move or its record form (the "player" key may be
        left out). With `expected_version`, the move is refused with
        StaleVersion unless the game is still at that version.
        """
        user_id = _check_id(user_id, "the user id")

        async def work() -> ActionResult:
            live = await self._live(game_id)
            info, game = live.info, live.game
            if info.status is GameStatus.LOBBY or game is None:
                raise WrongState("The game has not started yet.")
            if not info.status.active:
                raise WrongState(f"The game is {info.status.value}; no more moves can be made.")
            seat = info.seat_of(user_id)
            if seat is None or seat.player is None:
                raise NotAPlayer("You are not playing in this game.")
            clock = await self.store.clock(game_id)
            if clock.paused_at is not None:
                raise WrongState("A moderator has paused the game: moves wait until it is resumed.")
            if seat.autopilot:
                raise NotAllowed("The autopilot plays your seat now; a moderator can give it back to you.")
            _check_version(info, expected_version)
            parsed = _parse_move(move, seat.player)
            run = self._run(live, clock)
            await self._step(run, parsed, actor="player", user_id=user_id)
            await self._autoplay(run)
            return await self._result(run)

        return await self._locked(game_id, work)

    # ----- reading -----------------------------------------------------------------

    async def public_view(self, game_id: int) -> dict[str, Any]:
        async def work() -> dict[str, Any]:
            live = await self._live(game_id)
            return public_view(live.info, live.game)

        return await self._locked(game_id, work)

    async def private_view(self, game_id: int, user_id: int) -> dict[str, Any]:
        """What one player sees: their hand, tickets and the moves open to them."""
        user_id = _check_id(user_id, "the user id")

        async def work() -> dict[str, Any]:
            live = await self._live(game_id)
            seat = live.info.seat_of(user_id)
            if seat is None:
                raise NotAPlayer("You are not playing in this game.")
            if live.game is None or seat.seat is None:
                raise WrongState("The game has not started yet: nothing is dealt.")
            return private_view(live.info, live.game, seat.seat)

        return await self._locked(game_id, work)

    async def waiting(self, game_id: int) -> Waiting | None:
        async def work() -> Waiting | None:
            live = await self._live(game_id)
            return None if live.game is None else _waiting(live.info, live.game)

        return await self._locked(game_id, work)

    async def export_record(self, game_id: int, *, moderator: bool = False) -> dict[str, Any]:
        """The game record: for everyone once the game is over, for moderators (checked by the caller) at any time."""

        async def work() -> dict[str, Any]:
            stored = await self.store.stored_game(game_id)
            if stored is None:
                raise NotFound(f"There is no game #{game_id}.")
            status = stored.game.status
            if stored.game.seed is None:
                raise WrongState("The game never started, so it has no record.")
            if status.active and not moderator:
                raise NotAllowed("The record of a game is available once the game is over.")
            return record_of(stored, await self.store.audit_log(game_id))

        return await self._locked(game_id, work)

    # ----- the clock and the autopilot: one action's moves ----------------------------

    def _run(self, live: LiveGame, clock: ClockRow) -> _Run:
        """Begin an action on the game as committed; the clock is brought in line with it (a no-op if stored so)."""
        stored = clock
        if live.game is not None:
            clock = clocks.advance(live.info.clock, clock, live.game, self.now(), active=live.info.status.active)
        return _Run(live, clock, {c.seat: c.wait for c in clock.seats}, stored)

    async def _step(
        self,
        run: _Run,
        move: Move,
        *,
        actor: str,
        user_id: int | None,
        claim_timer: int | None = None,
        audit: Sequence[NewAudit] = (),
    ) -> None:
        """Apply one move and commit it with the clock and timers it leads to, in one transaction."""
        info, game = run.live.info, run.live.game
        assert game is not None
        after = game.copy()
        try:
            events = after.apply(move)
        except GameError as exc:
            raise RuleViolation.of(exc) from None
        moves_hash = extend_digest(run.live.digest, move)
        status = status_of(after)
        now = self.now()
        clock = clocks.advance(info.clock, run.clock, after, now, active=status.active)
        flags = [s.autopilot for s in info.seats]
        timers: list[NewTimer] | None = clocks.timers(info.clock, clock, flags, now, active=status.active)
        if clock == run.stored_clock and not any(t.kind == clocks.AUTOPLAY for t in timers or ()):
            timers = None  # the same waits go on: the stored clock and timers still hold
        writes = Writes(clock=None if timers is None else clock, timers=timers, claim_timer=claim_timer, audit=audit)
        entry = NewMove(
            len(game.moves),
            move_to_json(move),
            user_id,
            status,
            snapshot_text(after, moves_hash),
            actor=actor,
            at=now,
            writes=writes,
        )
        version = await self._write(info.id, lambda: self.store.append_move(info.id, info.version, entry))
        new_info = _with(info, version, status)
        run.live = LiveGame(new_info, after, moves_hash, (*run.live.actors, actor))
        self._remember(info.id, run.live)
        self._after_last_move.setdefault(info.id, {})[after.seat(move.player)] = after
        run.clock = run.stored_clock = clock
        if timers is not None:
            run.timers = timers
        public, private = announce.announce(new_info, after, events)
        if actor != "player":
            public = [replace(e, data={**e.data, "autopilot": True}) if e.player else e for e in public]
        run.public.extend(public)
        run.private.extend(e for e in private if not is_bot(e.user_id))

    def _autopilot_seat(self, run: _Run) -> int | None:
        """A waiting seat the autopilot must play now, if any (none while paused)."""
        info, game = run.live.info, run.live.game
        if game is None or not info.status.active or run.clock.paused_at is not None:
            return None
        for name in game.waiting_for():
            seat = game.seat(name)
            if clocks.needs_autopilot(info.clock, run.clock.seat(seat), info.seats[seat].autopilot):
                return seat
        return None

    async def _autoplay(
        self,
        run: _Run,
        *,
        claim_timer: int | None = None,
        audit: Sequence[NewAudit] = (),
        after_action: bool = True,
    ) -> int:
        """Let the autopilot move while a seat it plays must act; each move is its own transaction.

        `claim_timer` and `audit` go with the first move. The number of moves made.
        After an action (`after_action`), a failure only stops the autopilot:
        the action itself is committed, and the autopilot timer committed with
        it lets the scheduler try again. From a timer, the failure is raised.
        """
        made = 0
        while made < MAX_AUTOPILOT_MOVES:
            seat = self._autopilot_seat(run)
            if seat is None:
                return made
            game = run.live.game
            assert game is not None
            actor = "autopilot" if run.live.info.seats[seat].autopilot else "timeout"
            try:
                move = choose_move(game, game.names[seat])
                await self._step(run, move, actor=actor, user_id=None, claim_timer=claim_timer, audit=audit)
            except Exception:
                if not after_action:
                    raise
                log.exception("game #%d: the autopilot could not move now; its timer tries again", run.live.info.id)
                return made
            claim_timer, audit = None, ()
            made += 1
        log.warning("game #%d: stopped after %d autopilot moves; its timer plays on", run.live.info.id, made)
        return made

    async def _result(self, run: _Run) -> ActionResult:
        info, game = run.live.info, run.live.game
        notices = self._notices(run)
        self._timers_written(run.timers)
        waiting = None if game is None else _waiting(info, game)
        return ActionResult(info, tuple(run.public), tuple(run.private), waiting, tuple(notices), tuple(run.mod_log))

    def _notices(self, run: _Run) -> list[PrivateEvent]:
        """A "your turn" note with the catch-up digest for each member whose turn came in this action."""
        info, game = run.live.info, run.live.game
        if game is None or not info.status.active or run.clock.paused_at is not None:
            return []
        fresh = [
            c
            for c in run.clock.seats
            if c.wait is not None
            and c.wait != "keep"  # starting tickets: the deal itself tells everyone
            and c.wait != run.waits_before.get(c.seat)
            and not info.seats[c.seat].autopilot
        ]
        return [self._notice(info, game, c, run.live.actors) for c in fresh]

    def _notice(self, info: GameInfo, game: Game, c: SeatClockRow, actors: Sequence[str]) -> PrivateEvent:
        caught_up = digest(info, game, c.seat, actors, self._after_last_move.get(info.id, {}).get(c.seat))
        end = clocks.deadline(info.clock, c)
        text = caught_up.text(f"game #{info.id} ({info.title})")
        if end is not None:
            text += f"\nTime left: {duration_text((end - self.now()).total_seconds())} (reserve included)."
        to_move = game.to_move()
        data = {
            "digest": caught_up.to_json(),
            "deadline": None if end is None else end.isoformat(),
            "must": None if to_move is None else to_move.must,
        }
        return PrivateEvent(info.seats[c.seat].user_id, "turn", text, data)

    async def _change(
        self,
        live: LiveGame,
        clock: ClockRow,
        *,
        audit: NewAudit | None = None,
        status: GameStatus | None = None,
        seats: Sequence[SeatUpdate] = (),
        undo: Undo | None = None,
        bump: bool = True,
        claim_timer: int | None = None,
    ) -> list[NewTimer]:
        """Commit a change that is not a move, with the clock and the timers it leads to; the timers."""
        info = live.info
        flags = [s.autopilot for s in info.seats]
        for update in seats:
            if update.autopilot is not None:
                flags[update.seat] = update.autopilot or is_bot(update.user_id or info.seats[update.seat].user_id)
        active = (status or info.status).active
        timers = clocks.timers(info.clock, clock, flags, self.now(), active=active)
        writes = Writes(clock, timers, claim_timer, [audit] if audit else [], seats)
        change = GameChange(writes, status, undo, bump)
        await self._write(info.id, lambda: self.store.apply_change(info.id, info.version, change))
        if bump:
            self._forget(info.id)
        self._timers_written(timers)
        return timers

    # ----- timers: what the scheduler calls -----------------------------------------

    async def fire_timer(self, timer: TimerRow) -> TimerOutcome:
        """Handle a due timer, once: its effect commits together with the timer's deletion.

        A timer that no longer fits the game (the turn it was for is over, the
        game is paused or over) is only deleted. If someone else handled it
        first, nothing happens.
        """
        if timer.game_id is None or timer.kind not in clocks.TIMER_KINDS:
            log.warning("timer %d (%s) has nothing to handle it; deleted", timer.id, timer.kind)
            await self.store.delete_timer(timer.id)
            return TimerOutcome(None)
        game_id = timer.game_id

        async def work() -> TimerOutcome:
            live = await self._live(game_id)
            info, game = live.info, live.game
            clock = await self.store.clock(game_id)
            seat = timer.data.get("seat")
            current = clock.seat(seat) if isinstance(seat, int) and game and 0 <= seat < len(game.names) else None
            if (
                game is None
                or not info.status.active
                or clock.paused_at is not None
                or current is None
                or current.wait is None
                or current.wait != timer.data.get("wait")
            ):
                await self._write(
                    game_id,
                    lambda: self.store.apply_change(game_id, info.version, _claim_only(timer.id)),
                )
                return TimerOutcome(info)
            if timer.kind == clocks.REMINDER:
                return await self._remind(live, clock, current, timer)
            if timer.kind == clocks.AUTOPLAY:
                run = self._run(live, clock)
                if await self._autoplay(run, claim_timer=timer.id, after_action=False) == 0:
                    await self._write(
                        game_id, lambda: self.store.apply_change(game_id, info.version, _claim_only(timer.id))
                    )
                    return TimerOutcome(info)
                return TimerOutcome(run.live.info, await self._result(run))
            return await self._timeout(live, clock, current, timer)

        try:
            return await self._locked(game_id, work)
        except (TimerGone, StaleVersion):
            return TimerOutcome(None)  # handled elsewhere, or the game moved on: a timer still due is seen again
        except NotFound:
            await self.store.delete_timer(timer.id)
            return TimerOutcome(None)

    async def _remind(self, live: LiveGame, clock: ClockRow, c: SeatClockRow, timer: TimerRow) -> TimerOutcome:
        info = live.info
        index = timer.data.get("index")
        reminded = replace(c, reminded=max(c.reminded, (index if isinstance(index, int) else 0) + 1))
        after = clocks.with_seat(clock, reminded)
        change = GameChange(Writes(clock=after, claim_timer=timer.id), bump=False)
        await self._write(info.id, lambda: self.store.apply_change(info.id, info.version, change))
        sitter = info.seats[c.seat]
        if sitter.autopilot:
            return TimerOutcome(info)
        now = self.now()
        end = clocks.deadline(info.clock, c)
        left = "" if end is None else f" Time left: {duration_text((end - now).total_seconds())}."
        turn_over = (
            info.clock.turn_seconds is not None
            and c.since is not None
            and (now - c.since).total_seconds() > info.clock.turn_seconds + c.extra_seconds
        )
        reserve = " Your turn time is up: you are using your reserve." if turn_over else ""
        policy = "the autopilot plays for you" if info.clock.policy == clocks.AUTOPILOT else "a moderator is called"
        text = (
            f"Reminder: it is your turn in game #{info.id} ({info.title}).{left}{reserve} "
            f"When the time runs out, {policy}."
        )
        return TimerOutcome(info, reminders=(Reminder(info, sitter.user_id, text, end),))

    async def _timeout(self, live: LiveGame, clock: ClockRow, c: SeatClockRow, timer: TimerRow) -> TimerOutcome:
        info, game = live.info, live.game
        assert game is not None
        now = self.now()
        seat = c.seat
        player = game.names[seat]
        sitter = info.seats[seat]
        timeouts = c.timeouts + 1
        clock = clocks.with_seat(clock, replace(c, timed_out=True, timeouts=timeouts))
        policy = info.clock.policy
        details = {"seat": seat, "player": player, "user_id": sitter.user_id, "timeouts": timeouts, "policy": policy}
        audit = NewAudit(None, "timeout", details, "time ran out", now)
        times = "once" if timeouts == 1 else "twice" if timeouts == 2 else f"{timeouts} times"
        if policy == clocks.AUTOPILOT:
            run = self._run(live, clock)
            run.stored_clock = None  # the timeout is not written yet: it goes with the autopilot's first move
            text = f"{player}'s time is up: the autopilot plays this turn for them."
            run.public.append(PublicEvent("timeout", text, dict(details), player, sitter.user_id))
            if timeouts >= clocks.REPORT_TIMEOUTS_FROM:
                what = f"{sitter.display_name} ({player}) ran out of time, {times} now; the autopilot played the turn"
                run.mod_log.append(mod_line(info, None, what, ""))
            if await self._autoplay(run, claim_timer=timer.id, audit=(audit,), after_action=False) == 0:
                await self._change(live, clock, audit=audit, bump=False, claim_timer=timer.id)
            return TimerOutcome(run.live.info, await self._result(run), mod_log=tuple(run.mod_log))
        await self._change(live, clock, audit=audit, bump=False, claim_timer=timer.id)
        text = f"{player}'s time is up: the game waits for a moderator. {player} may still make their move."
        what = (
            f"{sitter.display_name} ({player}) ran out of time ({times} in this game); the game waits for a "
            "moderator: extend the time, hand the seat to the autopilot, or replace the player"
        )
        line = mod_line(info, None, what, "")
        event = PublicEvent("timeout", text, dict(details), player, sitter.user_id)
        result = ActionResult(info, (event,), (), _waiting(info, game), (), (line,))
        return TimerOutcome(info, result, mod_log=(line,))

    async def clock_status(self, game_id: int) -> dict[str, Any]:
        """The clock as anyone may see it: settings, paused or not, and each seat's deadline, reserve and timeouts."""

        async def work() -> dict[str, Any]:
            live = await self._live(game_id)
            stored = await self.store.clock(game_id)
            info = live.info
            clock = self._run(live, stored).clock
            seats = []
            for sitter in info.seats:
                if sitter.seat is None:
                    continue
                c = clock.seat(sitter.seat)
                end = clocks.deadline(info.clock, c)
                seats.append(
                    {
                        "seat": sitter.seat,
                        "player": sitter.player,
                        "user_id": sitter.user_id,
                        "autopilot": sitter.autopilot,
                        "waiting": c.wait is not None,
                        "since": None if c.since is None else c.since.isoformat(),
                        "deadline": None if end is None or c.timed_out else end.isoformat(),
                        "reserve_left": clocks.reserve_left(info.clock, c) if info.clock.enabled else None,
                        "timeouts": c.timeouts,
                        "waiting_for_moderator": c.timed_out and info.clock.policy == clocks.WAIT,
                    }
                )
            return {
                "game_id": info.id,
                "settings": info.clock.to_json(),
                "paused": clock.paused_at is not None,
                "paused_at": None if clock.paused_at is None else clock.paused_at.isoformat(),
                "paused_by": clock.paused_by,
                "seats": seats,
            }

        return await self._locked(game_id, work)

    async def digest(self, game_id: int, user_id: int) -> Digest:
        """What changed since this player's own last turn: for them alone (it names their tickets)."""
        user_id = _check_id(user_id, "the user id")

        async def work() -> Digest:
            live = await self._live(game_id)
            seat = live.info.seat_of(user_id)
            if seat is None or seat.seat is None:
                raise NotAPlayer("You are not playing in this game.")
            if live.game is None:
                raise WrongState("The game has not started yet.")
            earlier = self._after_last_move.get(game_id, {}).get(seat.seat)
            return digest(live.info, live.game, seat.seat, live.actors, earlier)

        return await self._locked(game_id, work)

    # ----- server settings ------------------------------------------------------------

    async def guild_config(self, guild_id: int) -> GuildConfig:
        """The server's settings: moderator role, moderators' log channel, clock defaults (moderation.py)."""
        guild_id = _check_id(guild_id, "the server id")
        return GuildConfig.of(guild_id, await self.store.guild_settings(guild_id))

    async def set_guild_config(self, guild_id: int, key: str, value: Any) -> GuildConfig:
        """Set one server setting (None goes back to the default); InvalidInput for a bad key or value."""
        guild_id = _check_id(guild_id, "the server id")
        await self.store.set_guild_setting(guild_id, key, check_setting(key, value))
        return await self.guild_config(guild_id)

    async def check_moderator(
        self, guild_id: int, user_id: int, *, role_ids: Collection[int], manage_guild: bool
    ) -> None:
        """NotAllowed unless the member may moderate this server's games (Manage Server, or the moderator role)."""
        config = await self.guild_config(guild_id)
        if not may_moderate(config, role_ids=role_ids, manage_guild=manage_guild):
            raise NotAllowed("Only the server's moderators can do this.")

    # ----- moderation -------------------------------------------------------------

    async def _moderate(
        self,
        game_id: int,
        moderator_user_id: int,
        reason: str,
        work: Callable[[LiveGame, Game, int, str], Awaitable[T]],
    ) -> T:
        """Run a moderator action on a started, active game under its lock."""
        moderator_user_id = _check_id(moderator_user_id, "the moderator's user id")
        reason = clean_reason(reason)

        async def locked() -> T:
            live = await self._live(game_id)
            if not live.info.status.active:
                raise WrongState(f"The game is {live.info.status.value}.")
            if live.game is None:
                raise WrongState("The game has not started yet.")
            return await work(live, live.game, moderator_user_id, reason)

        return await self._locked(game_id, locked)

    async def pause(self, game_id: int, moderator_user_id: int, reason: str) -> ActionResult:
        """Stop the clocks: no deadlines or reminders, no moves (the autopilot waits too) until `resume`."""

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            run = self._run(live, await self.store.clock(game_id))
            if run.clock.paused_at is not None:
                raise WrongState("The game is paused already.")
            now = self.now()
            clock = replace(run.clock, paused_at=now, paused_by=mod)
            await self._change(live, clock, audit=NewAudit(mod, "pause", {}, why, now))
            info = await self._fresh_info(game_id)
            text = "A moderator pauses the game: the clocks stop, and moves wait until it is resumed."
            event = PublicEvent("paused", text, {"reason": why}, None, mod)
            return ActionResult(info, (event,), mod_log=(mod_line(info, mod, "paused the game", why),))

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def resume(self, game_id: int, moderator_user_id: int, reason: str) -> ActionResult:
        """Start the clocks again; every deadline moves on by the time the game was paused."""

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            stored = await self.store.clock(game_id)
            if stored.paused_at is None:
                raise WrongState("The game is not paused.")
            now = self.now()
            paused_for = (now - stored.paused_at).total_seconds()
            clock = clocks.resumed(self._run(live, stored).clock, now)
            details = {"paused_seconds": round(paused_for, 3)}
            await self._change(live, clock, audit=NewAudit(mod, "resume", details, why, now))
            run = self._run(await self._live(game_id), clock)
            run.waits_before = {}  # everyone who must act now hears it
            text = f"A moderator resumes the game after {duration_text(paused_for)}: the clocks run again."
            run.public.append(PublicEvent("resumed", text, {"reason": why}, None, mod))
            run.mod_log.append(mod_line(run.live.info, mod, "resumed the game", why))
            await self._autoplay(run)
            return await self._result(run)

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def extend(
        self, game_id: int, moderator_user_id: int, seconds: int, reason: str, seat: int | None = None
    ) -> ActionResult:
        """Move a deadline `seconds` past the later of the deadline and now: of `seat`, or of everyone who must act.

        A player who ran out of time under the "wait" policy gets a running clock again.
        """

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            info = live.info
            if not info.clock.enabled:
                raise WrongState("This game has no turn clock, so there is no deadline to extend.")
            if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 < seconds <= clocks.MAX_SECONDS:
                raise InvalidInput(f"the extension must be 1 to {clocks.MAX_SECONDS} seconds, not {seconds!r}")
            clock = self._run(live, await self.store.clock(game_id)).clock
            if seat is None:
                targets = [c.seat for c in clock.seats if c.wait is not None and not info.seats[c.seat].autopilot]
            else:
                _seat_number(info, seat)
                if clock.seat(seat).wait is None:
                    raise WrongState(f"{game.names[seat]} is not to move, so has no deadline to extend.")
                targets = [seat]
            if not targets:
                raise WrongState("Nobody the clock runs for is to move now.")
            now = self.now()
            for target in targets:
                clock = clocks.extended(info.clock, clock, target, seconds, now)
            names = [game.names[t] for t in targets]
            details = {"seconds": seconds, "seats": targets, "player": ", ".join(names)}
            await self._change(live, clock, audit=NewAudit(mod, "extend", details, why, now), bump=False)
            text = f"A moderator gives {' and '.join(names)} {duration_text(seconds)} more."
            event = PublicEvent("extended", text, {"seconds": seconds, "players": names, "reason": why}, None, mod)
            line = mod_line(info, mod, f"gave {', '.join(names)} {duration_text(seconds)} more", why)
            return ActionResult(info, (event,), (), _waiting(info, game), (), (line,))

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def replace(
        self,
        game_id: int,
        moderator_user_id: int,
        seat: int,
        new_user_id: int,
        new_display_name: str,
        reason: str,
    ) -> ActionResult:
        """Give a seat to another member: they get its private view and may act; the old player no longer.

        The player's name in the engine and the record stays, so the record
        still replays; the record's `conductor` part notes the change. If the
        seat is to move, the new player gets a fresh turn.
        """
        new_user_id = _check_id(new_user_id, "the new player's user id")
        new_name = _display_name(new_display_name)

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            info = live.info
            old = info.seats[_seat_number(info, seat)]
            if info.seat_of(new_user_id) is not None:
                raise WrongState("That member already plays in this game.")
            now = self.now()
            stored = self._run(live, await self.store.clock(game_id)).clock
            clock = clocks.advance(info.clock, stored, game, now, restart=[seat])
            clock = clocks.with_seat(clock, replace(clock.seat(seat), timeouts=0))
            details = {
                "seat": seat,
                "player": old.player,
                "from_user_id": old.user_id,
                "from_name": old.display_name,
                "to_user_id": new_user_id,
                "to_name": new_name,
            }
            update = SeatUpdate(seat, new_user_id, new_name, autopilot=False)
            await self._change(live, clock, audit=NewAudit(mod, "replace", details, why, now), seats=[update])
            after = await self._live(game_id)
            info = after.info
            text = f"A moderator gives {old.player}'s seat to {new_name}."
            public = PublicEvent("replaced", text, {"seat": seat, "player": old.player}, old.player, new_user_id)
            view = private_view(info, game, seat)
            given = PrivateEvent(
                new_user_id,
                "seat_given",
                f"You now play {old.player}'s seat in game #{info.id} ({info.title}).",
                {"view": view},
            )
            private = [given]
            if not is_bot(old.user_id):
                note = f"A moderator has given your seat in game #{info.id} ({info.title}) to {new_name}."
                private.append(PrivateEvent(old.user_id, "seat_taken", note, {"seat": seat}))
            run = _Run(after, clock, {c.seat: c.wait for c in stored.seats if c.seat != seat})
            run.public.append(public)
            run.private.extend(private)
            what = f"gave {old.player}'s seat from <@{old.user_id}> to <@{new_user_id}> ({new_name})"
            if is_bot(old.user_id):
                what = f"gave {old.player}'s seat from the autopilot to <@{new_user_id}> ({new_name})"
            run.mod_log.append(mod_line(info, mod, what, why))
            return await self._result(run)

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def set_autopilot(
        self, game_id: int, seat: int, on: bool = True, *, moderator_user_id: int, reason: str
    ) -> ActionResult:
        """Hand a seat to the autopilot (it moves at once whenever the seat must act), or give it back (`on=False`)."""

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            info = live.info
            sitter = info.seats[_seat_number(info, seat)]
            if not isinstance(on, bool):
                raise InvalidInput(f"on must be true or false, not {on!r}")
            if sitter.bot and not on:
                raise WrongState("An autopilot player has no member to give the seat back to: replace it instead.")
            if sitter.autopilot == on:
                raise WrongState(f"{sitter.player}'s seat is {'already' if on else 'not'} played by the autopilot.")
            now = self.now()
            stored = self._run(live, await self.store.clock(game_id)).clock
            clock = stored if on else clocks.advance(info.clock, stored, game, now, restart=[seat])
            details = {"seat": seat, "player": sitter.player, "user_id": sitter.user_id, "on": on}
            audit = NewAudit(mod, "autopilot", details, why, now)
            await self._change(live, clock, audit=audit, seats=[SeatUpdate(seat, autopilot=on)])
            run = self._run(await self._live(game_id), clock)
            run.waits_before = {c.seat: c.wait for c in stored.seats if on or c.seat != seat}
            if on:
                text = f"A moderator hands {sitter.player}'s seat to the autopilot."
                what = f"handed {sitter.player}'s seat (<@{sitter.user_id}>) to the autopilot"
            else:
                text = f"A moderator gives {sitter.player}'s seat back to {sitter.display_name}."
                what = f"gave {sitter.player}'s seat back from the autopilot to <@{sitter.user_id}>"
            run.public.append(PublicEvent("autopilot", text, {"seat": seat, "on": on}, sitter.player, sitter.user_id))
            run.mod_log.append(mod_line(run.live.info, mod, what, why))
            await self._autoplay(run)
            return await self._result(run)

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def undo(self, game_id: int, moderator_user_id: int, moves: int, reason: str) -> ActionResult:
        """Take back the last `moves` moves: the game is exactly as it was before them.

        The moves taken back stay in the audit (`log`, table undone_moves);
        loading and the record use only the moves that count. Whoever must act
        then gets a fresh turn. If an autopilot seat is to move, it moves at
        once (unless the game is paused): pause first to undo past it.
        """

        async def work(live: LiveGame, game: Game, mod: int, why: str) -> ActionResult:
            info = live.info
            count = len(game.moves)
            if isinstance(moves, bool) or not isinstance(moves, int) or not 1 <= moves <= count:
                raise InvalidInput(f"The game has {count} moves; take back 1 to {count}, not {moves!r}.")
            keep = count - moves
            earlier = Game(
                game.board, game.names, game.seed, game.trains_option, game.initial_cards, game.initial_tickets
            )
            for move in game.moves[:keep]:
                earlier.apply(move)
            status = status_of(earlier)
            now = self.now()
            stored = self._run(live, await self.store.clock(game_id)).clock
            clock = clocks.advance(info.clock, stored, earlier, now, restart=range(len(game.names)))
            undone = [move_to_json(m) for m in game.moves[keep:]]
            details = {"moves": moves, "from": count, "to": keep, "undone": undone}
            snapshot = snapshot_text(earlier, moves_digest(earlier.moves))
            audit = NewAudit(mod, "undo", details, why, now)
            await self._change(live, clock, audit=audit, status=status, undo=Undo(keep, snapshot))
            run = self._run(await self._live(game_id), clock)
            run.waits_before = {}
            to_move = earlier.to_move()
            who = f" It is {to_move.player}'s move again." if to_move else ""
            text = f"A moderator takes back the last {moves} move{'s' if moves != 1 else ''}.{who}"
            run.public.append(PublicEvent("undone", text, {"moves": moves, "reason": why}, None, mod))
            run.mod_log.append(mod_line(run.live.info, mod, f"took back {moves} move(s) ({count} -> {keep})", why))
            await self._autoplay(run)
            return await self._result(run)

        return await self._moderate(game_id, moderator_user_id, reason, work)

    async def end(self, game_id: int, moderator_user_id: int, score: bool, reason: str) -> ActionResult:
        """End the game now: `score` True scores it as it stands (finished, with winners); False abandons it
        (cancelled, no result). A lobby can only be abandoned."""
        moderator_user_id = _check_id(moderator_user_id, "the moderator's user id")
        why = clean_reason(reason)
        if not isinstance(score, bool):
            raise InvalidInput(f"score must be true or false, not {score!r}")

        async def work() -> ActionResult:
            live = await self._live(game_id)
            info, game = live.info, live.game
            if not info.status.active:
                raise WrongState(f"The game is {info.status.value}.")
            if game is None and score:
                raise WrongState("The game has not started, so there is nothing to score: abandon it instead.")
            now = self.now()
            status = GameStatus.FINISHED if score else GameStatus.CANCELLED
            events: list[PublicEvent] = []
            details: dict[str, Any] = {"score": score}
            if score:
                assert game is not None
                scores = announce.final_scores(info, game)
                details["winners"] = scores.data["winners"]
                details["totals"] = {r["player"]: r["total"] for r in scores.data["scores"]}
                events.append(PublicEvent("ended", "A moderator ends the game now; it is scored as it stands.", {}))
                events.append(scores)
            else:
                events.append(PublicEvent("ended", "A moderator abandons the game: it ends without a result.", {}))
            audit = NewAudit(moderator_user_id, "end", details, why, now)
            if game is None:
                change = GameChange(Writes(timers=[], audit=[audit]), status=status)
                await self._write(game_id, lambda: self.store.apply_change(game_id, info.version, change))
            else:
                stored = self._run(live, await self.store.clock(game_id)).clock
                clock = clocks.advance(info.clock, stored, game, now, active=False)
                await self._change(live, clock, audit=audit, status=status)
            after = await self._fresh_info(game_id)
            what = "ended the game with scoring" if score else "abandoned the game without a result"
            return ActionResult(after, tuple(events), mod_log=(mod_line(after, moderator_user_id, what, why),))

        return await self._locked(game_id, work)

    async def note_read(self, game_id: int, moderator_user_id: int, action: str, reason: str = "") -> None:
        """Audit a moderator reading a game (its log, its record) without changing it."""
        moderator_user_id = _check_id(moderator_user_id, "the moderator's user id")
        entry = NewAudit(moderator_user_id, action, {}, reason.strip(), self.now())
        try:
            await self.store.add_audit(game_id, entry)
        except UnknownGame:
            raise NotFound(f"There is no game #{game_id}.") from None

    async def audit(self, game_id: int) -> list[AuditRow]:
        """Every moderator action and timeout of the game: who, what, when, why."""
        return await self._locked(game_id, lambda: self.store.audit_log(game_id))

    async def log(self, game_id: int) -> list[LogEntry]:
        """The full log for moderators: moves with times and actors, moves taken back, moderator actions, timeouts."""

        async def work() -> list[LogEntry]:
            live = await self._live(game_id)
            stored = await self.store.stored_game(game_id)
            if stored is None:
                raise NotFound(f"There is no game #{game_id}.")
            info, game = live.info, live.game
            entries: list[tuple[datetime, int, int, LogEntry]] = []
            if game is not None:
                replay = Game(
                    game.board, game.names, game.seed, game.trains_option, game.initial_cards, game.initial_tickets
                )
                for row in stored.moves:
                    move = move_from_json(row.move)
                    public, _ = announce.announce(info, replay, replay.apply(move))
                    text = " ".join(e.text for e in public)
                    actor = _actor_label(move.player, row.actor, row.user_id)
                    entry = LogEntry(row.created_at, "move", actor, row.user_id, text, {"index": row.index, **row.move})
                    entries.append((row.created_at, 1, row.index, entry))
            for undone in await self.store.undone_moves(game_id):
                player = str(undone.move.get("player", "?"))
                text = f"move {undone.index} (later taken back): {undone.move}"
                actor = _actor_label(player, undone.actor, undone.user_id)
                data = {"index": undone.index, "undo": undone.audit_id, **undone.move}
                entries.append(
                    (
                        undone.created_at,
                        1,
                        undone.index,
                        LogEntry(undone.created_at, "undone_move", actor, undone.user_id, text, data),
                    )
                )
            for done in await self.store.audit_log(game_id):
                by = done.moderator_user_id
                actor = "the clock" if by is None else f"moderator <@{by}>"
                text = audit_text(done.action, done.details, done.reason)
                data = {**done.details, "reason": done.reason}
                entries.append(
                    (done.created_at, 0, done.id, LogEntry(done.created_at, done.action, actor, by, text, data))
                )
            # by time; at the same moment an audit entry first (a timeout comes before the autopilot's moves)
            entries.sort(key=lambda e: (e[0], e[1], e[2]))
            return [e[3] for e in entries]

        return await self._locked(game_id, work)


def _bot_name(k: int) -> str:
    return f"Autopilot {k}"


def _seat_number(info: GameInfo, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(info.seats):
        raise InvalidInput(f"Seats are numbered 0 to {len(info.seats) - 1}, not {seat!r}.")
    return seat


def _claim_only(timer_id: int) -> GameChange:
    return GameChange(Writes(claim_timer=timer_id), bump=False)


def _actor_label(player: str, actor: str, user_id: int | None) -> str:
    if actor == "autopilot":
        return f"the autopilot for {player}"
    if actor == "timeout":
        return f"the autopilot for {player} (time ran out)"
    return player if user_id is None else f"{player} (<@{user_id}>)"


def _retrieve(task: asyncio.Task[Any]) -> None:
    # the caller may have been cancelled; the outcome was still seen, so asyncio does not warn
    if not task.cancelled():
        task.exception()


def _not_in_lobby(info: GameInfo) -> str:
    if info.status.active:
        return "The game has already started."
    return f"The game is {info.status.value}."


def _check_version(info: GameInfo, expected: int | None) -> None:
    if expected is None:
        return
    if isinstance(expected, bool) or not isinstance(expected, int):
        raise InvalidInput(f"the version must be a whole number, not {expected!r}")
    if expected != info.version:
        raise StaleVersion(info.id, expected, info.version)


def _parse_move(move: object, player: str) -> Move:
    if isinstance(move, Mapping):
        data = dict(move)
        claimed = data.setdefault("player", player)
        if claimed != player:
            raise NotAllowed(f"You play as {player}; you cannot make a move for {claimed}.")
        try:
            return move_from_json(data)
        except GameError as exc:
            raise RuleViolation.of(exc) from None
    if isinstance(move, Move):
        if move.player != player:
            raise NotAllowed(f"You play as {player}; you cannot make a move for {move.player}.")
        return move
    raise InvalidInput(f"a move must be an engine move or its record form (an object), not {type(move).__name__}")


def _with(info: GameInfo, version: int, status: GameStatus) -> GameInfo:
    return replace(info, version=version, status=status)


def _waiting(info: GameInfo, game: Game) -> Waiting | None:
    to_move = game.to_move()
    if to_move is None:
        return None
    players = tuple(game.waiting_for())
    # autopilot players (negative ids) are no one to ping
    users = tuple(u for u in (info.user_of(p) for p in players) if u is not None and not is_bot(u))
    return Waiting(to_move.must, players, users)
