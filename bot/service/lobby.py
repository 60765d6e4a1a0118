"""The lobby: open a game, join and leave it, seat autopilot players, cancel it, start it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import partial
from typing import Any

from bot.service import clock as clocks
from bot.service.announce import dealt
from bot.service.checks import check_id, check_name, check_version, clean_reason
from bot.service.clock import ClockSettings
from bot.service.core import ServiceCore
from bot.service.errors import ChannelBusy, GameFull, IdKind, InvalidInput, NotAllowed, NotAPlayer, Why, WrongState
from bot.service.events import Cancelled, Created, HostChanged, Joined, Left, PublicEvent, Started
from bot.service.game_options import check_options
from bot.service.kinds import AuditAction, EventKind
from bot.service.loading import status_of
from bot.service.models import GameInfo
from bot.service.names import unique_names
from bot.service.results import ActionResult, ModLogEntry
from bot.service.runner import Runner
from bot.service.settings import SettingsService, check_level
from bot.store import ChannelBusy as StoreChannelBusy
from bot.store import (
    ClockRow,
    GameChange,
    GameStart,
    GameStatus,
    NewAudit,
    NewGame,
    OpenGamesLimit,
    StartedSeat,
    Writes,
)
from bot.store.protocols import GameStore, HistoryStore
from engine import Game
from engine.snapshot import EMPTY_DIGEST, snapshot_text
from engine.verify import game_setup, setup_commitment
from maps import MAP_NAMES, load_board


def bot_name(k: int) -> str:
    """The display name of autopilot player k (user id -k)."""
    return f"Autopilot {k}"


def not_in_lobby(info: GameInfo) -> WrongState:
    if info.status.active:
        return WrongState(Why.ALREADY_STARTED)
    return WrongState(Why.GAME_IS, {"status": info.status})


def check_room(info: GameInfo) -> None:
    if len(info.seats) >= info.max_players:
        raise GameFull(Why.FULL, {"seats": info.max_players})


class LobbyService:
    def __init__(
        self,
        core: ServiceCore,
        game_store: GameStore,
        history_store: HistoryStore,
        runner: Runner,
        settings: SettingsService,
    ) -> None:
        self.core = core
        self.game_store = game_store
        self.history_store = history_store
        self.runner = runner
        self.settings = settings
        self._opening_locks: dict[int, asyncio.Lock] = {}

    def _opening_lock(self, guild_id: int) -> asyncio.Lock:
        """The lock under which a server's games are counted and a new one is opened."""
        return self._opening_locks.setdefault(guild_id, asyncio.Lock())

    @staticmethod
    def _limit_refusal(exc: OpenGamesLimit) -> WrongState:
        """The refusal of a game past a limit on open games (the store counted them as it would have opened it)."""
        if exc.member:
            return WrongState(Why.MEMBER_GAME_LIMIT, {"limit": exc.limit, "game_ids": exc.game_ids})
        return WrongState(Why.SERVER_GAME_LIMIT, {"limit": exc.limit})

    async def _hosted_lobby(self, game_id: int, user_id: int, refusal: Why) -> GameInfo:
        """The game, if it is a lobby `user_id` hosts (else NotAllowed with `refusal`); the caller holds its lock."""
        info = await self.core.info(game_id)
        if info.status is not GameStatus.LOBBY:
            raise not_in_lobby(info)
        if user_id != info.host_user_id:
            raise NotAllowed(refusal)
        return info

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
        bots_level: str | None = None,
        check_limits: bool = True,
        holder_names: bool = False,
    ) -> ActionResult:
        """Open a lobby in a channel, with the host in the first seat.

        `clock`: the game's turn clock; None takes the server's default
        (`guild_config`), `clock.NO_CLOCK` has none. `bots`: seats filled with
        autopilot players at once (user ids -1, -2, ...; see `add_bot`).
        `bots_level`: how well its autopilot players play ("steady", "strong" or "expert");
        None takes the server's autopilot level, which also plays its timed-out
        and handed-over seats. `check_limits` False: the server's open-game
        limits do not apply (a tournament's tables, which moderators open).
        `holder_names`: a seat handed to another member goes by that member's name in the game's texts and images
        (a tournament's substitute); else it keeps its player name.
        """
        guild_id = check_id(guild_id, IdKind.SERVER)
        channel_id = check_id(channel_id, IdKind.CHANNEL)
        host_user_id = check_id(host_user_id, IdKind.USER)
        name = check_name(host_name)
        if map_name not in MAP_NAMES:
            raise InvalidInput(Why.UNKNOWN_MAP, {"map": map_name, "maps": MAP_NAMES})
        seats = check_options(map_name, max_players, trains)
        if isinstance(bots, bool) or not isinstance(bots, int) or not 0 <= bots < seats:
            raise InvalidInput(Why.BAD_BOTS, {"seats": seats, "value": bots})
        config = await self.settings.guild_config(guild_id)
        level = config.autopilot_level if bots_level is None else check_level("bots_level", bots_level)
        if clock is None:
            clock = config.clock
        elif not isinstance(clock, ClockSettings):
            raise InvalidInput(Why.BAD_CLOCK_TYPE, {"type": type(clock).__name__})
        options: dict[str, Any] = {"max_players": seats}
        if trains is not None:
            options["trains"] = trains
        options["clock"] = clock.to_json()
        options["autopilot_level"] = config.autopilot_level.value
        options["bots_level"] = level.value
        if holder_names:
            options["holder_names"] = True
        # the store counts the open games and creates the new one in one transaction, which holds the server's
        # lock on PostgreSQL: processes opening games together cannot pass a limit; the lock here only queues
        # this process's own openings
        async with self._opening_lock(guild_id):
            try:
                new = NewGame(
                    guild_id,
                    channel_id,
                    host_user_id,
                    name,
                    map_name,
                    options,
                    server_limit=config.server_open_games if check_limits else None,
                    member_limit=config.member_open_games if check_limits else None,
                )
                row = await self.game_store.create_game(new)
            except StoreChannelBusy as exc:
                raise ChannelBusy(exc.game_id) from None
            except OpenGamesLimit as exc:
                raise self._limit_refusal(exc) from None
        if bots:

            async def seat_bots() -> None:
                info = await self.core.info(row.id)
                version = info.version
                for k in range(1, bots + 1):
                    if len(info.seats) + k > info.max_players:
                        break  # someone joined meanwhile
                    add = partial(self.game_store.add_seat, row.id, version, -k, bot_name(k))
                    version = await self.core.write(row.id, add)
                self.core.forget(row.id)

            await self.core.locked(row.id, seat_bots)
        info = await self.core.game(row.id)
        event = PublicEvent(EventKind.CREATED, Created(name, map_name, seats, bots, level.value), None, host_user_id)
        return ActionResult(info, (event,))

    async def add_bot(self, game_id: int, user_id: int) -> ActionResult:
        """The host fills an empty seat of the lobby with an autopilot player (user id -1, -2, ...)."""
        user_id = check_id(user_id, IdKind.USER)

        async def work() -> ActionResult:
            info = await self._hosted_lobby(game_id, user_id, Why.ONLY_HOST_ADDS_BOTS)
            check_room(info)
            k = next(k for k in range(1, info.max_players + 1) if info.seat_of(-k) is None)
            name = bot_name(k)
            await self.core.write(game_id, lambda: self.game_store.add_seat(game_id, info.version, -k, name))
            after = await self.core.fresh_info(game_id)
            joined = Joined(name, len(after.seats), after.max_players, autopilot=True)
            return ActionResult(after, (PublicEvent(EventKind.JOINED, joined, None, -k),))

        return await self.core.act(game_id, work)

    async def remove_bot(self, game_id: int, user_id: int, bot_user_id: int) -> ActionResult:
        """The host takes an autopilot player out of the lobby again."""
        user_id = check_id(user_id, IdKind.USER)

        async def work() -> ActionResult:
            info = await self._hosted_lobby(game_id, user_id, Why.ONLY_HOST_REMOVES_BOTS)
            seat = info.seat_of(bot_user_id)
            if seat is None or not seat.bot:
                raise NotAPlayer(Why.NO_SUCH_BOT)
            await self.core.write(
                game_id, lambda: self.game_store.remove_seat(game_id, info.version, bot_user_id, None)
            )
            after = await self.core.fresh_info(game_id)
            left = PublicEvent(EventKind.LEFT, Left(seat.display_name, autopilot=True))
            return ActionResult(after, (left,))

        return await self.core.act(game_id, work)

    async def join(self, game_id: int, user_id: int, display_name: str) -> ActionResult:
        user_id = check_id(user_id, IdKind.USER)
        name = check_name(display_name)

        async def work() -> ActionResult:
            info = await self.core.info(game_id)
            if info.status is not GameStatus.LOBBY:
                raise not_in_lobby(info)
            if info.seat_of(user_id) is not None:
                raise WrongState(Why.ALREADY_JOINED)
            check_room(info)
            await self.core.write(game_id, lambda: self.game_store.add_seat(game_id, info.version, user_id, name))
            after = await self.core.fresh_info(game_id)
            joined = Joined(name, len(after.seats), after.max_players)
            return ActionResult(after, (PublicEvent(EventKind.JOINED, joined, None, user_id),))

        return await self.core.act(game_id, work)

    async def leave(self, game_id: int, user_id: int) -> ActionResult:
        """Leave a lobby; a leaving host hands the game to the next to have joined, or cancels it if alone."""
        user_id = check_id(user_id, IdKind.USER)

        async def work() -> ActionResult:
            info = await self.core.info(game_id)
            if info.status is not GameStatus.LOBBY:
                raise WrongState(Why.LEAVE_STARTED) if info.status.active else not_in_lobby(info)
            seat = info.seat_of(user_id)
            if seat is None:
                raise NotAPlayer(Why.NOT_JOINED)
            # an autopilot player is never the host: with only those left, the game is off
            others = [s for s in info.seats if s.user_id != user_id and not s.bot]
            events = [PublicEvent(EventKind.LEFT, Left(seat.display_name), None, user_id)]
            if not others:
                await self.core.write(
                    game_id, lambda: self.game_store.set_status(game_id, info.version, GameStatus.CANCELLED)
                )
                events.append(PublicEvent(EventKind.CANCELLED, Cancelled(nobody_left=True)))
                return ActionResult(await self.core.fresh_info(game_id), tuple(events))
            new_host = others[0].user_id if user_id == info.host_user_id else None
            await self.core.write(
                game_id, lambda: self.game_store.remove_seat(game_id, info.version, user_id, new_host)
            )
            if new_host is not None:
                events.append(PublicEvent(EventKind.HOST_CHANGED, HostChanged(others[0].display_name), None, new_host))
            return ActionResult(await self.core.fresh_info(game_id), tuple(events))

        return await self.core.act(game_id, work)

    async def cancel(self, game_id: int, user_id: int, *, moderator: bool = False, reason: str = "") -> ActionResult:
        """The host cancels a lobby; a moderator (checked by the caller) any active game (audited, with `reason`)."""
        user_id = check_id(user_id, IdKind.USER)
        reason = clean_reason(reason)

        async def work() -> ActionResult:
            info = await self.core.info(game_id)
            if not info.status.active:
                raise WrongState(Why.ALREADY_OVER, {"status": info.status})
            if not moderator:
                if user_id != info.host_user_id:
                    raise NotAllowed(Why.ONLY_HOST_CANCELS)
                if info.status is not GameStatus.LOBBY:
                    raise WrongState(Why.CANCEL_STARTED)
            audit = [NewAudit(user_id, AuditAction.CANCEL, {}, reason, self.core.now())] if moderator else []
            change = GameChange(Writes(timers=[], audit=audit), status=GameStatus.CANCELLED)
            await self.core.write(game_id, lambda: self.history_store.apply_change(game_id, info.version, change))
            facts = Cancelled(moderator=moderator)
            event = PublicEvent(EventKind.CANCELLED, facts, None, user_id)
            after = await self.core.fresh_info(game_id)
            lines = (ModLogEntry(after, AuditAction.CANCEL, user_id, reason, facts),) if moderator else ()
            return ActionResult(after, (event,), mod_log=lines)

        return await self.core.act(game_id, work)

    async def start(
        self,
        game_id: int,
        user_id: int,
        expected_version: int | None = None,
        *,
        seat_order: Sequence[int] | None = None,
    ) -> ActionResult:
        """The host starts the game: random seat order, random seed, the deal.

        `seat_order`: the seats' user ids in the order they play (a tournament's drawn order) instead of a
        random one; it must name every seated user once (InvalidInput if not).
        """
        user_id = check_id(user_id, IdKind.USER)

        async def work() -> ActionResult:
            info = await self._hosted_lobby(game_id, user_id, Why.ONLY_HOST_STARTS)
            check_version(info, expected_version)
            rules = load_board(info.map).rules
            if len(info.seats) < rules.min_players:
                raise WrongState(Why.TOO_FEW, {"map": info.map, "low": rules.min_players, "joined": len(info.seats)})
            order = list(info.seats)
            if seat_order is None:
                self.core.rng.shuffle(order)
            else:
                by_user = {s.user_id: s for s in info.seats}
                if sorted(seat_order) != sorted(by_user):
                    raise InvalidInput(Why.BAD_SEAT_ORDER, {"value": tuple(seat_order)})
                order = [by_user[u] for u in seat_order]
            names = unique_names([s.display_name for s in order])
            seed = f"{self.core.rng.getrandbits(64):016x}"
            game = Game(load_board(info.map), names, seed, info.trains, pass_round_ends=True)
            now = self.core.now()
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
            await self.core.write(game_id, lambda: self.game_store.start_game(game_id, info.version, start))
            self.core.forget(game_id)
            run = self.runner.run(await self.core.live(game_id), clock)
            run.timers = timers
            posted = setup_commitment(game_setup(game, [s.user_id for s in order]))  # map, options, seats, deal
            started = Started(tuple(names), tuple(game.state.piles.face_up), posted)
            run.public.append(PublicEvent(EventKind.STARTED, started))
            run.private.extend(dealt(run.live.info, game))
            await self.runner.autoplay(run)  # autopilot players keep their tickets at once
            return await self.runner.result(run)

        return await self.core.act(game_id, work)
