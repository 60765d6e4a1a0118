"""Games and their seats: opening a lobby, seating, starting, and finding games."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache
from typing import Any

from sqlalchemy import ColumnElement, delete, false, func, insert, literal_column, select, update

from bot.store.columns import (
    AUDIT_COLUMNS,
    GAME_COLUMNS,
    MOVE_COLUMNS,
    SEAT_CLOCK_COLUMNS,
    SEAT_COLUMNS,
    SNAPSHOT_COLUMNS,
    audit_row,
    game_row,
    move_row,
    now_text,
    parse_optional_time,
    seat_clock_row,
    seat_row,
    snapshot_row,
    to_json,
)
from bot.store.errors import ChannelBusy, StoreError
from bot.store.parts.base import Backend
from bot.store.parts.versioned import apply_writes, bump, game_key, put_snapshot
from bot.store.query import Q, Row, UniqueViolation, Work, changed, one, param, rows, scalar
from bot.store.rows import ClockRow, GameRow, OpenGame, SeatRow, StoredGame
from bot.store.schema import audit_log, game_clocks, games, moves, seat_clocks, seats, snapshots
from bot.store.status import ACTIVE, GameStatus
from bot.store.writes import GameStart, NewGame, check_open_games

# the first key of the server's advisory lock while a game is opened there ("Open" in ASCII)
OPENING_LOCK = 0x4F70656E

GAME = tuple(games.c[c.strip()] for c in GAME_COLUMNS.split(","))
SEAT = tuple(seats.c[c.strip()] for c in SEAT_COLUMNS.split(","))
MOVE = tuple(moves.c[c.strip()] for c in MOVE_COLUMNS.split(","))
SNAPSHOT = tuple(snapshots.c[c.strip()] for c in SNAPSHOT_COLUMNS.split(","))
OPEN = games.c.status.in_([literal_column(f"'{s.value}'") for s in sorted(ACTIVE)])

ACTIVE_IN_CHANNEL = Q(select(*GAME).where(games.c.channel_id == param("channel_id"), OPEN))
# on PostgreSQL the server's lock until the commit: a second process opening a game there counts after this one
LOCK_OPENING = Q(select(func.pg_advisory_xact_lock(param("lock"), func.hashtext(param("guild")))), only="postgresql")
OPEN_IN_GUILD = Q(select(games.c.id, games.c.host_user_id).where(games.c.guild_id == param("guild_id"), OPEN))
NEW_GAME_NAMES = ("guild_id", "channel_id", "host_user_id", "map", "options", "status", "version")
INSERT_GAME = Q(
    insert(games)
    .values({**{c: param(c) for c in NEW_GAME_NAMES}, "created_at": param("stamp"), "updated_at": param("stamp")})
    .returning(*GAME)
)
INSERT_HOST = Q(
    insert(seats).values(
        game_id=param("game_id"), user_id=param("user_id"), display_name=param("name"), joined=0, joined_at=param("at")
    )
)
GAME_BY_ID = Q(select(*GAME).where(games.c.id == param("game_id")))
LATEST_IN_CHANNEL = Q(
    select(*GAME).where(games.c.channel_id == param("channel_id")).order_by(games.c.id.desc()).limit(1)
)
GAME_MOVES = Q(select(*MOVE).where(moves.c.game_id == param("game_id")).order_by(moves.c.idx))
GAME_SNAPSHOT = Q(select(*SNAPSHOT).where(snapshots.c.game_id == param("game_id")))
# the audit actions that change who holds a seat (a member for another, the autopilot) or which moves count
SEAT_AUDIT_ACTIONS = ("replace", "autopilot", "undo")
GAME_SEAT_AUDIT = Q(
    select(*(audit_log.c[c.strip()] for c in AUDIT_COLUMNS.split(",")))
    .where(
        audit_log.c.game_id == param("game_id"),
        audit_log.c.action.in_([literal_column(f"'{a}'") for a in SEAT_AUDIT_ACTIONS]),
    )
    .order_by(audit_log.c.id)
)
# a game's clock in one read: the pause (if any) beside each seat's clock; one row of NULLs when it has none
GAME_CLOCK = Q(
    select(
        game_clocks.c.paused_at,
        game_clocks.c.paused_by,
        *(seat_clocks.c[c.strip()] for c in SEAT_CLOCK_COLUMNS.split(",")),
    )
    .select_from(
        games.outerjoin(game_clocks, game_clocks.c.game_id == games.c.id).outerjoin(
            seat_clocks, seat_clocks.c.game_id == games.c.id
        )
    )
    .where(games.c.id == param("game_id"))
    .order_by(seat_clocks.c.seat)
)
# every game not over yet: its map, status, server and number of seats (the operator's metrics)
OPEN_GAMES = Q(
    select(games.c.map, games.c.status, games.c.guild_id, func.count(seats.c.user_id))
    .select_from(games.outerjoin(seats, seats.c.game_id == games.c.id))
    .where(OPEN)
    .group_by(games.c.id, games.c.map, games.c.status, games.c.guild_id)
)
GAME_SEATS = Q(
    select(*SEAT)
    .where(seats.c.game_id == param("game_id"))
    .order_by(seats.c.seat.is_(None), seats.c.seat, seats.c.joined)
)
NEXT_JOINED = select(func.coalesce(func.max(seats.c.joined), -1) + 1).where(seats.c.game_id == param("game_id"))
ADD_SEAT = Q(
    insert(seats).values(
        game_id=param("game_id"),
        user_id=param("user_id"),
        display_name=param("name"),
        joined=NEXT_JOINED.scalar_subquery(),
        joined_at=param("at"),
    )
)
REMOVE_SEAT = Q(delete(seats).where(seats.c.game_id == param("game_id"), seats.c.user_id == param("user_id")))
SET_HOST = Q(update(games).where(games.c.id == param("game_id")).values(host_user_id=param("host")))
COUNT_SEATS = Q(select(func.count()).select_from(seats).where(seats.c.game_id == param("game_id")))
PLACE_SEAT = Q(
    update(seats)
    .where(seats.c.game_id == param("game_id"), seats.c.user_id == param("user_id"))
    .values(seat=param("seat"), player=param("player"))
)


def _statuses(column: Any, count: int) -> ColumnElement[bool]:
    """`column IN (:status0, ...)`; false for none."""
    return column.in_([param(f"status{i}") for i in range(count)]) if count else false()


@cache
def _games_of_user(count: int) -> Q:
    return Q(
        select(*GAME)
        .join(seats, seats.c.game_id == games.c.id)
        .where(seats.c.user_id == param("user_id"), _statuses(games.c.status, count))
        .order_by(games.c.id)
    )


@cache
def _games_with_status(count: int) -> Q:
    return Q(select(*GAME).where(_statuses(games.c.status, count)).order_by(games.c.id))


def status_params(statuses: Collection[GameStatus]) -> dict[str, str]:
    return {f"status{i}": GameStatus(s).value for i, s in enumerate(statuses)}


def clock_of(game_id: int, found: Sequence[Row]) -> ClockRow:
    """The clock from the rows of GAME_CLOCK."""
    seats = tuple(seat_clock_row(r[2:]) for r in found if r[2] is not None)
    if not found or (found[0][0] is None and found[0][1] is None):
        return ClockRow(game_id, seats=seats)
    return ClockRow(game_id, parse_optional_time(found[0][0]), found[0][1], seats)


def game_clock(game_id: int) -> Work[ClockRow]:
    return clock_of(game_id, (yield rows(GAME_CLOCK, game_id=game_id)))


def game_seats(game_id: int) -> Work[list[SeatRow]]:
    return [seat_row(r) for r in (yield rows(GAME_SEATS, game_id=game_id))]


class Games:
    """The games and seats part of `GameStore`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def create_game(self, new: NewGame) -> GameRow:
        def work() -> Work[GameRow]:
            busy = yield one(ACTIVE_IN_CHANNEL, channel_id=new.channel_id)
            if busy is not None:
                raise ChannelBusy(new.channel_id, int(busy[0]))
            if new.server_limit is not None or new.member_limit is not None:
                # the count and the insert are one step: SQLite has one writer at a time, PostgreSQL takes a lock
                yield scalar(LOCK_OPENING, lock=OPENING_LOCK, guild=str(new.guild_id))
                found = yield rows(OPEN_IN_GUILD, guild_id=new.guild_id)
                check_open_games(new, [(int(r[0]), int(r[1])) for r in found])
            stamp = now_text()
            try:
                row = yield one(
                    INSERT_GAME,
                    guild_id=new.guild_id,
                    channel_id=new.channel_id,
                    host_user_id=new.host_user_id,
                    map=new.map,
                    options=to_json(new.options),
                    status=GameStatus.LOBBY.value,
                    version=0,
                    stamp=stamp,
                )
            except UniqueViolation:  # another process opened one in this channel meanwhile
                raise ChannelBusy(new.channel_id, None) from None
            yield changed(INSERT_HOST, game_id=row[0], user_id=new.host_user_id, name=new.host_name, at=stamp)
            return game_row(row)

        return await self.backend.do_write(work)

    async def game(self, game_id: int) -> GameRow | None:
        row = await self.backend.fetch_one(GAME_BY_ID, game_id=game_id)
        return None if row is None else game_row(row)

    async def stored_game(self, game_id: int) -> StoredGame | None:
        def work() -> Work[StoredGame | None]:
            row = yield one(GAME_BY_ID, game_id=game_id)
            if row is None:
                return None
            found = yield rows(GAME_MOVES, game_id=game_id)
            snap = yield one(GAME_SNAPSHOT, game_id=game_id)
            seat_audit = yield rows(GAME_SEAT_AUDIT, game_id=game_id)
            return StoredGame(
                game_row(row),
                (yield from game_seats(game_id)),
                [move_row(game_id, r) for r in found],
                None if snap is None else snapshot_row(game_id, snap),
                (yield from game_clock(game_id)),
                [audit_row(r) for r in seat_audit],
            )

        return await self.backend.do_read(work)

    async def active_game(self, channel_id: int) -> GameRow | None:
        row = await self.backend.fetch_one(ACTIVE_IN_CHANNEL, channel_id=channel_id)
        return None if row is None else game_row(row)

    async def latest_game(self, channel_id: int) -> GameRow | None:
        row = await self.backend.fetch_one(LATEST_IN_CHANNEL, channel_id=channel_id)
        return None if row is None else game_row(row)

    async def games_of_user(self, user_id: int, statuses: Collection[GameStatus]) -> list[GameRow]:
        q = _games_of_user(len(statuses))
        return [game_row(r) for r in await self.backend.fetch_all(q, user_id=user_id, **status_params(statuses))]

    async def games_with_status(self, statuses: Collection[GameStatus]) -> list[GameRow]:
        q = _games_with_status(len(statuses))
        return [game_row(r) for r in await self.backend.fetch_all(q, **status_params(statuses))]

    async def open_games(self) -> list[OpenGame]:
        return [
            OpenGame(r[0], GameStatus(r[1]), int(r[2]), int(r[3])) for r in await self.backend.fetch_all(OPEN_GAMES)
        ]

    async def seats(self, game_id: int) -> list[SeatRow]:
        return [seat_row(r) for r in await self.backend.fetch_all(GAME_SEATS, game_id=game_id)]

    async def add_seat(self, game_id: int, expected_version: int, user_id: int, display_name: str) -> int:
        def work() -> Work[int]:
            version = yield from bump(game_id, expected_version)
            try:
                yield changed(ADD_SEAT, game_id=game_id, user_id=user_id, name=display_name, at=now_text())
            except UniqueViolation:
                raise StoreError(f"user {user_id} is already seated in game #{game_id}") from None
            return version

        return await self.backend.do_write(work, key=game_key(game_id))

    async def remove_seat(self, game_id: int, expected_version: int, user_id: int, new_host: int | None) -> int:
        def work() -> Work[int]:
            version = yield from bump(game_id, expected_version)
            if (yield changed(REMOVE_SEAT, game_id=game_id, user_id=user_id)) != 1:
                raise StoreError(f"user {user_id} is not seated in game #{game_id}")
            if new_host is not None:
                yield changed(SET_HOST, game_id=game_id, host=new_host)
            return version

        return await self.backend.do_write(work, key=game_key(game_id))

    async def set_status(self, game_id: int, expected_version: int, status: GameStatus) -> int:
        return await self.backend.do_write(lambda: bump(game_id, expected_version, status), key=game_key(game_id))

    async def start_game(self, game_id: int, expected_version: int, start: GameStart) -> int:
        def work() -> Work[int]:
            version = yield from bump(
                game_id,
                expected_version,
                start.status,
                seed=start.seed,
                cards=to_json(list(start.cards)),
                tickets=to_json(list(start.tickets)),
            )
            seated = yield scalar(COUNT_SEATS, game_id=game_id)
            if seated != len(start.seats):
                raise StoreError(f"game #{game_id} has {seated} seats, but {len(start.seats)} were given a place")
            for seat in start.seats:
                placed = yield changed(
                    PLACE_SEAT, game_id=game_id, user_id=seat.user_id, seat=seat.seat, player=seat.player
                )
                if placed != 1:
                    raise StoreError(f"user {seat.user_id} is not seated in game #{game_id}")
            yield from put_snapshot(game_id, 0, start.snapshot)
            if start.writes is not None:
                yield from apply_writes(game_id, start.writes)
            return version

        return await self.backend.do_write(work, key=game_key(game_id))
