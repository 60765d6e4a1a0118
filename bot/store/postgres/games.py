"""Games and their seats on PostgreSQL: opening a lobby, seating, starting, and finding games."""

from __future__ import annotations

from collections.abc import Collection

import asyncpg

from bot.store.columns import (
    GAME_COLUMNS,
    MOVE_COLUMNS,
    SEAT_COLUMNS,
    SNAPSHOT_COLUMNS,
    game_row,
    move_row,
    now_text,
    seat_row,
    snapshot_row,
    to_json,
)
from bot.store.errors import ChannelBusy, StoreError
from bot.store.postgres.connection import Conn
from bot.store.postgres.core import PostgresCore, changed
from bot.store.postgres.versioned import apply_writes, bump, put_snapshot
from bot.store.rows import GameRow, SeatRow, StoredGame
from bot.store.status import GameStatus
from bot.store.writes import GameStart, NewGame, check_open_games

ACTIVE_IN_CHANNEL = "channel_id = $1 AND status IN ('lobby', 'setup', 'playing')"
OPEN_STATUSES = "('lobby', 'setup', 'playing')"
# the first key of the server's advisory lock while a game is opened there ("Open" in ASCII)
OPENING_LOCK = 0x4F70656E


def status_values(statuses: Collection[GameStatus]) -> list[str]:
    return [GameStatus(s).value for s in statuses]


class PostgresGames(PostgresCore):
    """The games and seats part of `GameStore` on PostgreSQL."""

    async def create_game(self, new: NewGame) -> GameRow:
        async def work(conn: Conn) -> GameRow:
            busy = await conn.fetchval(f"SELECT id FROM games WHERE {ACTIVE_IN_CHANNEL}", new.channel_id)
            if busy is not None:
                raise ChannelBusy(new.channel_id, int(busy))
            if new.server_limit is not None or new.member_limit is not None:
                # the server's lock until the commit: a second process opening a game there counts after this one
                await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", OPENING_LOCK, str(new.guild_id))
                rows = await conn.fetch(
                    f"SELECT id, host_user_id FROM games WHERE guild_id = $1 AND status IN {OPEN_STATUSES}",
                    new.guild_id,
                )
                check_open_games(new, [(int(r[0]), int(r[1])) for r in rows])
            stamp = now_text()
            try:
                row = await conn.fetchrow(
                    "INSERT INTO games (guild_id, channel_id, host_user_id, map, options, status, version, "
                    f"created_at, updated_at) VALUES ($1, $2, $3, $4, $5, 'lobby', 0, $6, $6) RETURNING {GAME_COLUMNS}",
                    new.guild_id,
                    new.channel_id,
                    new.host_user_id,
                    new.map,
                    to_json(new.options),
                    stamp,
                )
            except asyncpg.UniqueViolationError:  # another process opened one in this channel meanwhile
                raise ChannelBusy(new.channel_id, None) from None
            assert row is not None
            await conn.execute(
                "INSERT INTO seats (game_id, user_id, display_name, joined, joined_at) VALUES ($1, $2, $3, 0, $4)",
                row[0],
                new.host_user_id,
                new.host_name,
                stamp,
            )
            return game_row(tuple(row))

        return await self._write(work)

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one(game_row, f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", (game_id,))

    async def stored_game(self, game_id: int) -> StoredGame | None:
        async def work(conn: Conn) -> StoredGame | None:
            row = await conn.fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", game_id)
            if row is None:
                return None
            moves = await conn.fetch(f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY idx", game_id)
            snap = await conn.fetchrow(f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE game_id = $1", game_id)
            return StoredGame(
                game_row(tuple(row)),
                await _seats(conn, game_id),
                [move_row(game_id, tuple(r)) for r in moves],
                None if snap is None else snapshot_row(game_id, tuple(snap)),
            )

        return await self._read(work)

    async def active_game(self, channel_id: int) -> GameRow | None:
        return await self._one(game_row, f"SELECT {GAME_COLUMNS} FROM games WHERE {ACTIVE_IN_CHANNEL}", (channel_id,))

    async def latest_game(self, channel_id: int) -> GameRow | None:
        return await self._one(
            game_row, f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1", (channel_id,)
        )

    async def games_of_user(self, user_id: int, statuses: Collection[GameStatus]) -> list[GameRow]:
        columns = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        return await self._all(
            game_row,
            f"SELECT {columns} FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.user_id = $1 AND g.status = ANY($2::text[]) ORDER BY g.id",
            (user_id, status_values(statuses)),
        )

    async def games_with_status(self, statuses: Collection[GameStatus]) -> list[GameRow]:
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE status = ANY($1::text[]) ORDER BY id"
        return await self._all(game_row, sql, (status_values(statuses),))

    async def seats(self, game_id: int) -> list[SeatRow]:
        async def work(conn: Conn) -> list[SeatRow]:
            return await _seats(conn, game_id)

        return await self._read(work)

    async def add_seat(self, game_id: int, expected_version: int, user_id: int, display_name: str) -> int:
        async def work(conn: Conn) -> int:
            version = await bump(conn, game_id, expected_version)
            try:
                await conn.execute(
                    "INSERT INTO seats (game_id, user_id, display_name, joined, joined_at) VALUES "
                    "($1, $2, $3, (SELECT COALESCE(MAX(joined), -1) + 1 FROM seats WHERE game_id = $1), $4)",
                    game_id,
                    user_id,
                    display_name,
                    now_text(),
                )
            except asyncpg.UniqueViolationError:
                raise StoreError(f"user {user_id} is already seated in game #{game_id}") from None
            return version

        return await self._write(work)

    async def remove_seat(self, game_id: int, expected_version: int, user_id: int, new_host: int | None) -> int:
        async def work(conn: Conn) -> int:
            version = await bump(conn, game_id, expected_version)
            status = await conn.execute("DELETE FROM seats WHERE game_id = $1 AND user_id = $2", game_id, user_id)
            if changed(status) != 1:
                raise StoreError(f"user {user_id} is not seated in game #{game_id}")
            if new_host is not None:
                await conn.execute("UPDATE games SET host_user_id = $1 WHERE id = $2", new_host, game_id)
            return version

        return await self._write(work)

    async def set_status(self, game_id: int, expected_version: int, status: GameStatus) -> int:
        async def work(conn: Conn) -> int:
            return await bump(conn, game_id, expected_version, status)

        return await self._write(work)

    async def start_game(self, game_id: int, expected_version: int, start: GameStart) -> int:
        async def work(conn: Conn) -> int:
            version = await bump(
                conn,
                game_id,
                expected_version,
                start.status,
                seed=start.seed,
                cards=to_json(list(start.cards)),
                tickets=to_json(list(start.tickets)),
            )
            seated = await conn.fetchval("SELECT COUNT(*) FROM seats WHERE game_id = $1", game_id)
            if seated != len(start.seats):
                raise StoreError(f"game #{game_id} has {seated} seats, but {len(start.seats)} were given a place")
            for seat in start.seats:
                status = await conn.execute(
                    "UPDATE seats SET seat = $1, player = $2 WHERE game_id = $3 AND user_id = $4",
                    seat.seat,
                    seat.player,
                    game_id,
                    seat.user_id,
                )
                if changed(status) != 1:
                    raise StoreError(f"user {seat.user_id} is not seated in game #{game_id}")
            await put_snapshot(conn, game_id, 0, start.snapshot)
            if start.writes is not None:
                await apply_writes(conn, game_id, start.writes)
            return version

        return await self._write(work)


async def _seats(conn: Conn, game_id: int) -> list[SeatRow]:
    rows = await conn.fetch(
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 ORDER BY seat IS NULL, seat, joined", game_id
    )
    return [seat_row(tuple(r)) for r in rows]
