"""Games and their seats on SQLite: opening a lobby, seating, starting, and finding games."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection

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
    status_marks,
    to_json,
)
from bot.store.errors import ChannelBusy, StoreError
from bot.store.rows import GameRow, SeatRow, StoredGame
from bot.store.sqlite.core import SqliteCore
from bot.store.sqlite.versioned import apply_writes, bump, put_snapshot
from bot.store.status import GameStatus
from bot.store.writes import GameStart, NewGame, check_open_games

ACTIVE_IN_CHANNEL = "channel_id = ? AND status IN ('lobby', 'setup', 'playing')"


class SqliteGames(SqliteCore):
    """The games and seats part of `GameStore` on SQLite."""

    async def create_game(self, new: NewGame) -> GameRow:
        def work(conn: sqlite3.Connection) -> GameRow:
            busy = conn.execute(f"SELECT id FROM games WHERE {ACTIVE_IN_CHANNEL}", (new.channel_id,)).fetchone()
            if busy is not None:
                raise ChannelBusy(new.channel_id, busy[0])
            if new.server_limit is not None or new.member_limit is not None:
                # one writer at a time on SQLite: the count and the insert are one step
                rows = conn.execute(
                    "SELECT id, host_user_id FROM games WHERE guild_id = ? AND status IN ('lobby', 'setup', 'playing')",
                    (new.guild_id,),
                ).fetchall()
                check_open_games(new, [(int(r[0]), int(r[1])) for r in rows])
            stamp = now_text()
            try:
                cur = conn.execute(
                    "INSERT INTO games (guild_id, channel_id, host_user_id, map, options, status, version, "
                    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', 0, ?, ?)",
                    (new.guild_id, new.channel_id, new.host_user_id, new.map, to_json(new.options), stamp, stamp),
                )
            except sqlite3.IntegrityError:
                raise ChannelBusy(new.channel_id, None) from None
            game_id = cur.lastrowid
            conn.execute(
                "INSERT INTO seats (game_id, user_id, display_name, joined, joined_at) VALUES (?, ?, ?, 0, ?)",
                (game_id, new.host_user_id, new.host_name, stamp),
            )
            return game_row(conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone())

        return await self._write(work)

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one(game_row, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))

    async def stored_game(self, game_id: int) -> StoredGame | None:
        def work(conn: sqlite3.Connection) -> StoredGame | None:
            row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            moves = conn.execute(f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY idx", (game_id,))
            snap = conn.execute(f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()
            return StoredGame(
                game_row(row),
                _seats(conn, game_id),
                [move_row(game_id, r) for r in moves],
                None if snap is None else snapshot_row(game_id, snap),
            )

        return await self._read(work)

    async def active_game(self, channel_id: int) -> GameRow | None:
        return await self._one(game_row, f"SELECT {GAME_COLUMNS} FROM games WHERE {ACTIVE_IN_CHANNEL}", (channel_id,))

    async def latest_game(self, channel_id: int) -> GameRow | None:
        return await self._one(
            game_row, f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )

    async def games_of_user(self, user_id: int, statuses: Collection[GameStatus]) -> list[GameRow]:
        marks, values = status_marks(statuses)
        columns = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        return await self._all(
            game_row,
            f"SELECT {columns} FROM games g JOIN seats s ON s.game_id = g.id "
            f"WHERE s.user_id = ? AND g.status IN ({marks}) ORDER BY g.id",
            (user_id, *values),
        )

    async def games_with_status(self, statuses: Collection[GameStatus]) -> list[GameRow]:
        marks, values = status_marks(statuses)
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ({marks}) ORDER BY id"
        return await self._all(game_row, sql, values)

    async def seats(self, game_id: int) -> list[SeatRow]:
        return await self._run(lambda conn: _seats(conn, game_id))

    async def add_seat(self, game_id: int, expected_version: int, user_id: int, display_name: str) -> int:
        def work(conn: sqlite3.Connection) -> int:
            version = bump(conn, game_id, expected_version)
            try:
                conn.execute(
                    "INSERT INTO seats (game_id, user_id, display_name, joined, joined_at) VALUES "
                    "(?, ?, ?, (SELECT COALESCE(MAX(joined), -1) + 1 FROM seats WHERE game_id = ?), ?)",
                    (game_id, user_id, display_name, game_id, now_text()),
                )
            except sqlite3.IntegrityError:
                raise StoreError(f"user {user_id} is already seated in game #{game_id}") from None
            return version

        return await self._write(work)

    async def remove_seat(self, game_id: int, expected_version: int, user_id: int, new_host: int | None) -> int:
        def work(conn: sqlite3.Connection) -> int:
            version = bump(conn, game_id, expected_version)
            cur = conn.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            if cur.rowcount != 1:
                raise StoreError(f"user {user_id} is not seated in game #{game_id}")
            if new_host is not None:
                conn.execute("UPDATE games SET host_user_id = ? WHERE id = ?", (new_host, game_id))
            return version

        return await self._write(work)

    async def set_status(self, game_id: int, expected_version: int, status: GameStatus) -> int:
        return await self._write(lambda conn: bump(conn, game_id, expected_version, status))

    async def start_game(self, game_id: int, expected_version: int, start: GameStart) -> int:
        def work(conn: sqlite3.Connection) -> int:
            version = bump(
                conn,
                game_id,
                expected_version,
                start.status,
                seed=start.seed,
                cards=to_json(list(start.cards)),
                tickets=to_json(list(start.tickets)),
            )
            seated = conn.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,)).fetchone()[0]
            if seated != len(start.seats):
                raise StoreError(f"game #{game_id} has {seated} seats, but {len(start.seats)} were given a place")
            for seat in start.seats:
                cur = conn.execute(
                    "UPDATE seats SET seat = ?, player = ? WHERE game_id = ? AND user_id = ?",
                    (seat.seat, seat.player, game_id, seat.user_id),
                )
                if cur.rowcount != 1:
                    raise StoreError(f"user {seat.user_id} is not seated in game #{game_id}")
            put_snapshot(conn, game_id, 0, start.snapshot)
            if start.writes is not None:
                apply_writes(conn, game_id, start.writes)
            return version

        return await self._write(work)


def _seats(conn: sqlite3.Connection, game_id: int) -> list[SeatRow]:
    rows = conn.execute(
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat IS NULL, seat, joined", (game_id,)
    )
    return [seat_row(r) for r in rows]
