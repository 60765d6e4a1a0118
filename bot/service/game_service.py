"""The game service: every way to change or read a game, for any front end.

Each change runs under the game's own lock, as one store transaction that is
checked against the version the service read; the move is applied to a copy
of the game and the copy replaces the cached game only once the store has
committed. So a refused or failed action leaves both the database and the
cache as they were, and games never wait for each other's locks.
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from bot.service import announce
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
from bot.service.loading import LiveGame, load, status_of
from bot.service.models import ActionResult, GameInfo, PublicEvent, Waiting
from bot.service.names import clean_name, unique_names
from bot.service.record import record_of
from bot.service.views import private_view, public_view
from bot.store import (
    ACTIVE,
    GameStart,
    GameStatus,
    NewGame,
    NewMove,
    SqliteStore,
    StartedSeat,
    Store,
    UnknownGame,
    VersionConflict,
)
from bot.store import ChannelBusy as StoreChannelBusy
from engine import Game, GameError, Move
from engine.game import MAX_TRAINS_OPTION, MIN_TRAINS_OPTION
from engine.moves import move_from_json, move_to_json
from engine.snapshot import EMPTY_DIGEST, extend_digest, snapshot_text
from maps import MAP_NAMES, load_board

log = logging.getLogger(__name__)

T = TypeVar("T")

# Discord ids are positive and fit SQLite's signed 64-bit integers.
MAX_ID = 2**63 - 1


def _check_id(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        raise InvalidInput(f"{what} must be a positive whole number, not {value!r}")
    return value


def _display_name(raw: object) -> str:
    if not isinstance(raw, str) or not clean_name(raw):
        raise InvalidInput("a display name with at least one visible character is needed")
    return clean_name(raw)


class GameService:
    """Create, join, start and play games; read views; export records. Knows nothing of Discord."""

    def __init__(self, store: Store, *, rng: random.Random | None = None, cache_size: int = 1000) -> None:
        self.store = store
        # seat order and seeds must not be predictable by players
        self._rng = rng if rng is not None else random.SystemRandom()
        self._cache: OrderedDict[int, LiveGame] = OrderedDict()
        self._cache_size = cache_size
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

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
            self._cache.popitem(last=False)

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

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
    ) -> ActionResult:
        """Open a lobby in a channel, with the host in the first seat."""
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
        options: dict[str, Any] = {"max_players": seats}
        if trains is not None:
            options["trains"] = trains
        try:
            row = await self.store.create_game(NewGame(guild_id, channel_id, host_user_id, name, map_name, options))
        except StoreChannelBusy as exc:
            game = f" (game #{exc.game_id})" if exc.game_id is not None else ""
            raise ChannelBusy(
                f"This channel already has a game{game}. Finish or cancel it first, or use another channel.",
                exc.game_id,
            ) from None
        info = await self.game(row.id)
        text = f"{name} opens a {rules.title} game for up to {seats} players."
        return ActionResult(info, (PublicEvent("created", text, {"map": map_name}, None, host_user_id),))

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
            others = [s for s in info.seats if s.user_id != user_id]
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

    async def cancel(self, game_id: int, user_id: int, *, moderator: bool = False) -> ActionResult:
        """The host cancels a lobby; a moderator (checked by the caller) any active game."""
        user_id = _check_id(user_id, "the user id")

        async def work() -> ActionResult:
            info = await self._info(game_id)
            if not info.status.active:
                raise WrongState(f"The game is already {info.status.value}.")
            if not moderator:
                if user_id != info.host_user_id:
                    raise NotAllowed("Only the host can cancel the game.")
                if info.status is not GameStatus.LOBBY:
                    raise WrongState("A game that has started can only be cancelled by a moderator.")
            await self._write(game_id, lambda: self.store.set_status(game_id, info.version, GameStatus.CANCELLED))
            by = "a moderator" if moderator else "the host"
            event = PublicEvent("cancelled", f"The game is cancelled by {by}.", {"moderator": moderator}, None, user_id)
            return ActionResult(await self._fresh_info(game_id), (event,))

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
            start = GameStart(
                seed=seed,
                cards=list(game.initial_cards),
                tickets=list(game.initial_tickets),
                seats=[StartedSeat(s.user_id, i, n) for i, (s, n) in enumerate(zip(order, names, strict=True))],
                status=status_of(game),
                snapshot=snapshot_text(game, EMPTY_DIGEST),
            )
            await self._write(game_id, lambda: self.store.start_game(game_id, info.version, start))
            after = await self._fresh_info(game_id)
            seating = ", ".join(names)
            text = f"The {rules.title} game starts! Seat order: {seating}. Everyone chooses starting tickets now."
            public = PublicEvent("started", text, {"players": names, "face_up": list(game.state.piles.face_up)})
            return ActionResult(after, (public,), tuple(announce.dealt(after, game)), _waiting(after, game))

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
            _check_version(info, expected_version)
            parsed = _parse_move(move, seat.player)
            after = game.copy()
            try:
                events = after.apply(parsed)
            except GameError as exc:
                raise RuleViolation.of(exc) from None
            digest = extend_digest(live.digest, parsed)
            status = status_of(after)
            entry = NewMove(len(game.moves), move_to_json(parsed), user_id, status, snapshot_text(after, digest))
            version = await self._write(game_id, lambda: self.store.append_move(game_id, info.version, entry))
            new_info = _with(info, version, status)
            self._remember(game_id, LiveGame(new_info, after, digest))
            public, private = announce.announce(new_info, after, events)
            return ActionResult(new_info, tuple(public), tuple(private), _waiting(new_info, after))

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
            return record_of(stored)

        return await self._locked(game_id, work)


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
    users = tuple(u for u in (info.user_of(p) for p in players) if u is not None)
    return Waiting(to_move.must, players, users)
