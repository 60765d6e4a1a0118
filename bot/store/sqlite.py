"""The SQLite store: one database file, WAL, migrations at start-up.

Every store call is one unit of work on aiosqlite's database thread (see
`_run`): a write is BEGIN IMMEDIATE ... COMMIT from start to end there, so no
other caller's statement can slip into a transaction, and a caller that is
cancelled while it waits cannot leave a transaction half done.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from bot.store.migrations import migrate
from bot.store.protocol import (
    AuditRow,
    ChannelBusy,
    ClockRow,
    GameChange,
    GameRow,
    GameStart,
    GameStatus,
    MessageRow,
    MoveRow,
    NewAudit,
    NewGame,
    NewMove,
    SeatClockRow,
    SeatRow,
    SnapshotRow,
    StoredGame,
    StoreError,
    TimerGone,
    TimerRow,
    UndoneMoveRow,
    UnknownGame,
    VersionConflict,
    Writes,
)

T = TypeVar("T")

# How long a write waits for another process (a backup, a second bot) to let go.
BUSY_TIMEOUT_SECONDS = 10.0

GAME_COLUMNS = (
    "id, guild_id, channel_id, host_user_id, map, options, seed, cards, tickets, status, version, "
    "created_at, updated_at"
)
SEAT_COLUMNS = "game_id, user_id, display_name, joined, seat, player, joined_at, autopilot"
MOVE_COLUMNS = "idx, move, user_id, created_at, actor"
TIMER_COLUMNS = "id, game_id, kind, deadline, data, created_at"


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def time_text(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("times must be timezone-aware (UTC), not naive")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _game_row(row: tuple[Any, ...]) -> GameRow:
    cards = None if row[7] is None else tuple(json.loads(row[7]))
    tickets = None if row[8] is None else tuple(json.loads(row[8]))
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_user_id=row[3],
        map=row[4],
        options=json.loads(row[5]),
        seed=row[6],
        cards=cards,
        tickets=tickets,
        status=GameStatus(row[9]),
        version=row[10],
        created_at=parse_time(row[11]),
        updated_at=parse_time(row[12]),
    )


def _seat_row(row: tuple[Any, ...]) -> SeatRow:
    return SeatRow(row[0], row[1], row[2], row[3], row[4], row[5], parse_time(row[6]), bool(row[7]))


def _move_row(game_id: int, row: tuple[Any, ...]) -> MoveRow:
    return MoveRow(game_id, row[0], json.loads(row[1]), row[2], parse_time(row[3]), row[4])


def _timer_row(row: tuple[Any, ...]) -> TimerRow:
    return TimerRow(row[0], row[1], row[2], parse_time(row[3]), json.loads(row[4]), parse_time(row[5]))


def _write(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """Run `work` as one write transaction; nothing of it stays if anything fails."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = work(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _read(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """Run several reads against one consistent state of the database."""
    conn.execute("BEGIN")
    try:
        return work(conn)
    finally:
        conn.execute("COMMIT")


def _bump(conn: sqlite3.Connection, game_id: int, expected: int, status: GameStatus | None = None) -> int:
    """Raise the game's version if it is still `expected`; the new version."""
    if status is None:
        cur = conn.execute(
            "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            (now_text(), game_id, expected),
        )
    else:
        cur = conn.execute(
            "UPDATE games SET version = version + 1, status = ?, updated_at = ? WHERE id = ? AND version = ?",
            (status.value, now_text(), game_id, expected),
        )
    if cur.rowcount != 1:
        _check_version(conn, game_id, expected)
    return expected + 1


def _check_version(conn: sqlite3.Connection, game_id: int, expected: int) -> None:
    row = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise UnknownGame(game_id)
    if row[0] != expected:
        raise VersionConflict(f"game #{game_id} is at version {row[0]}, not {expected}")


def _put_snapshot(conn: sqlite3.Connection, game_id: int, move_count: int, data: str) -> None:
    conn.execute(
        "INSERT INTO snapshots (game_id, move_count, data, updated_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET move_count = excluded.move_count, data = excluded.data, "
        "updated_at = excluded.updated_at",
        (game_id, move_count, data, now_text()),
    )


def _statuses(statuses: Collection[GameStatus]) -> tuple[str, list[str]]:
    values = [GameStatus(s).value for s in statuses]
    return ", ".join("?" for _ in values) or "NULL", values


class SqliteStore:
    """The `Store` on one SQLite file. Open it with `await SqliteStore.open(path)`."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self.path = path

    @classmethod
    async def open(cls, path: Path | str) -> SqliteStore:
        """Open (creating the file and its folder if needed) and bring the schema up to date."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for the database {path}: {exc}") from None
        try:
            db = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from None
        store = cls(db, path)
        try:
            await store._run(_prepare)
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work(connection)` on aiosqlite's database thread as one queued call.

        aiosqlite has no public call for this; `_execute` is the one all its
        own methods go through (the dependency is pinned to 0.22.1). The work
        runs to its end even when the awaiting task is cancelled.
        """
        execute = cast(Callable[..., Awaitable[T]], self._db._execute)
        conn: sqlite3.Connection = self._db._conn
        try:
            return await execute(work, conn)
        except sqlite3.Error as exc:
            raise StoreError(f"database error in {self.path}: {exc}") from exc

    # ----- guild settings --------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        def work(conn: sqlite3.Connection) -> dict[str, Any]:
            rows = conn.execute("SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
            return {key: json.loads(value) for key, value in rows}

        return await self._run(work)

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        text = None if value is None else _json(value)

        def work(conn: sqlite3.Connection) -> None:
            if text is None:
                conn.execute("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
            else:
                conn.execute(
                    "INSERT INTO guild_settings (guild_id, key, value, updated_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value, "
                    "updated_at = excluded.updated_at",
                    (guild_id, key, text, now_text()),
                )

        await self._run(lambda conn: _write(conn, work))

    # ----- games and seats -------------------------------------------------------

    async def create_game(self, new: NewGame) -> GameRow:
        def work(conn: sqlite3.Connection) -> GameRow:
            busy = conn.execute(
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'setup', 'playing')",
                (new.channel_id,),
            ).fetchone()
            if busy is not None:
                raise ChannelBusy(new.channel_id, busy[0])
            stamp = now_text()
            try:
                cur = conn.execute(
                    "INSERT INTO games (guild_id, channel_id, host_user_id, map, options, status, version, "
                    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', 0, ?, ?)",
                    (new.guild_id, new.channel_id, new.host_user_id, new.map, _json(new.options), stamp, stamp),
                )
            except sqlite3.IntegrityError:
                raise ChannelBusy(new.channel_id, None) from None
            game_id = cur.lastrowid
            conn.execute(
                "INSERT INTO seats (game_id, user_id, display_name, joined, joined_at) VALUES (?, ?, ?, 0, ?)",
                (game_id, new.host_user_id, new.host_name, stamp),
            )
            row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
            return _game_row(row)

        return await self._run(lambda conn: _write(conn, work))

    async def game(self, game_id: int) -> GameRow | None:
        def work(conn: sqlite3.Connection) -> GameRow | None:
            row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
            return None if row is None else _game_row(row)

        return await self._run(work)

    async def stored_game(self, game_id: int) -> StoredGame | None:
        def work(conn: sqlite3.Connection) -> StoredGame | None:
            row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            moves = [
                _move_row(game_id, r)
                for r in conn.execute(f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY idx", (game_id,))
            ]
            snap = conn.execute(
                "SELECT move_count, data, updated_at FROM snapshots WHERE game_id = ?", (game_id,)
            ).fetchone()
            return StoredGame(
                _game_row(row),
                _seats(conn, game_id),
                moves,
                None if snap is None else SnapshotRow(game_id, snap[0], snap[1], parse_time(snap[2])),
            )

        return await self._run(lambda conn: _read(conn, work))

    async def active_game(self, channel_id: int) -> GameRow | None:
        def work(conn: sqlite3.Connection) -> GameRow | None:
            row = conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'setup', 'playing')",
                (channel_id,),
            ).fetchone()
            return None if row is None else _game_row(row)

        return await self._run(work)

    async def games_of_user(self, user_id: int, statuses: Collection[GameStatus]) -> list[GameRow]:
        marks, values = _statuses(statuses)

        def work(conn: sqlite3.Connection) -> list[GameRow]:
            columns = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
            rows = conn.execute(
                f"SELECT {columns} FROM games g JOIN seats s ON s.game_id = g.id "
                f"WHERE s.user_id = ? AND g.status IN ({marks}) ORDER BY g.id",
                (user_id, *values),
            )
            return [_game_row(r) for r in rows]

        return await self._run(work)

    async def games_with_status(self, statuses: Collection[GameStatus]) -> list[GameRow]:
        marks, values = _statuses(statuses)

        def work(conn: sqlite3.Connection) -> list[GameRow]:
            rows = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ({marks}) ORDER BY id", values)
            return [_game_row(r) for r in rows]

        return await self._run(work)

    async def seats(self, game_id: int) -> list[SeatRow]:
        return await self._run(lambda conn: _seats(conn, game_id))

    async def add_seat(self, game_id: int, expected_version: int, user_id: int, display_name: str) -> int:
        def work(conn: sqlite3.Connection) -> int:
            version = _bump(conn, game_id, expected_version)
            try:
                conn.execute(
                    "INSERT INTO seats (game_id, user_id, display_name, joined, joined_at) VALUES "
                    "(?, ?, ?, (SELECT COALESCE(MAX(joined), -1) + 1 FROM seats WHERE game_id = ?), ?)",
                    (game_id, user_id, display_name, game_id, now_text()),
                )
            except sqlite3.IntegrityError:
                raise StoreError(f"user {user_id} is already seated in game #{game_id}") from None
            return version

        return await self._run(lambda conn: _write(conn, work))

    async def remove_seat(self, game_id: int, expected_version: int, user_id: int, new_host: int | None) -> int:
        def work(conn: sqlite3.Connection) -> int:
            version = _bump(conn, game_id, expected_version)
            cur = conn.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            if cur.rowcount != 1:
                raise StoreError(f"user {user_id} is not seated in game #{game_id}")
            if new_host is not None:
                conn.execute("UPDATE games SET host_user_id = ? WHERE id = ?", (new_host, game_id))
            return version

        return await self._run(lambda conn: _write(conn, work))

    async def set_status(self, game_id: int, expected_version: int, status: GameStatus) -> int:
        return await self._run(lambda conn: _write(conn, lambda c: _bump(c, game_id, expected_version, status)))

    async def start_game(self, game_id: int, expected_version: int, start: GameStart) -> int:
        def work(conn: sqlite3.Connection) -> int:
            cur = conn.execute(
                "UPDATE games SET version = version + 1, status = ?, seed = ?, cards = ?, tickets = ?, updated_at = ? "
                "WHERE id = ? AND version = ?",
                (
                    start.status.value,
                    start.seed,
                    _json(list(start.cards)),
                    _json(list(start.tickets)),
                    now_text(),
                    game_id,
                    expected_version,
                ),
            )
            if cur.rowcount != 1:
                _check_version(conn, game_id, expected_version)
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
            _put_snapshot(conn, game_id, 0, start.snapshot)
            if start.writes is not None:
                _apply_writes(conn, game_id, start.writes)
            return expected_version + 1

        return await self._run(lambda conn: _write(conn, work))

    # ----- the move log ----------------------------------------------------------

    async def append_move(self, game_id: int, expected_version: int, move: NewMove) -> int:
        text = _json(move.move)

        at = now_text() if move.at is None else time_text(move.at)

        def work(conn: sqlite3.Connection) -> int:
            version = _bump(conn, game_id, expected_version, move.status)
            try:
                conn.execute(
                    "INSERT INTO moves (game_id, idx, move, user_id, created_at, actor) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, move.index, text, move.user_id, at, move.actor),
                )
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"move {move.index} of game #{game_id} cannot be logged: {exc}") from None
            _put_snapshot(conn, game_id, move.index + 1, move.snapshot)
            if move.writes is not None:
                _apply_writes(conn, game_id, move.writes)
            return version

        return await self._run(lambda conn: _write(conn, work))

    async def moves(self, game_id: int) -> list[MoveRow]:
        def work(conn: sqlite3.Connection) -> list[MoveRow]:
            rows = conn.execute(f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY idx", (game_id,))
            return [_move_row(game_id, r) for r in rows]

        return await self._run(work)

    async def snapshot(self, game_id: int) -> SnapshotRow | None:
        def work(conn: sqlite3.Connection) -> SnapshotRow | None:
            row = conn.execute(
                "SELECT move_count, data, updated_at FROM snapshots WHERE game_id = ?", (game_id,)
            ).fetchone()
            return None if row is None else SnapshotRow(game_id, row[0], row[1], parse_time(row[2]))

        return await self._run(work)

    async def save_snapshot(self, game_id: int, expected_version: int, move_count: int, data: str) -> None:
        def work(conn: sqlite3.Connection) -> None:
            _check_version(conn, game_id, expected_version)
            _put_snapshot(conn, game_id, move_count, data)

        await self._run(lambda conn: _write(conn, work))

    # ----- durable timers --------------------------------------------------------

    async def add_timer(
        self, game_id: int | None, kind: str, deadline: datetime, data: dict[str, Any] | None = None
    ) -> TimerRow:
        when = time_text(deadline)
        payload = _json(data or {})

        def work(conn: sqlite3.Connection) -> TimerRow:
            if game_id is not None and conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise UnknownGame(game_id)
            cur = conn.execute(
                "INSERT INTO timers (game_id, kind, deadline, data, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, kind, when, payload, now_text()),
            )
            row = conn.execute(f"SELECT {TIMER_COLUMNS} FROM timers WHERE id = ?", (cur.lastrowid,)).fetchone()
            return _timer_row(row)

        return await self._run(lambda conn: _write(conn, work))

    async def timers(self, game_id: int | None = None) -> list[TimerRow]:
        def work(conn: sqlite3.Connection) -> list[TimerRow]:
            if game_id is None:
                rows = conn.execute(f"SELECT {TIMER_COLUMNS} FROM timers ORDER BY deadline, id")
            else:
                rows = conn.execute(
                    f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ? ORDER BY deadline, id", (game_id,)
                )
            return [_timer_row(r) for r in rows]

        return await self._run(work)

    async def due_timers(self, now: datetime) -> list[TimerRow]:
        when = time_text(now)

        def work(conn: sqlite3.Connection) -> list[TimerRow]:
            rows = conn.execute(
                f"SELECT {TIMER_COLUMNS} FROM timers WHERE deadline <= ? ORDER BY deadline, id", (when,)
            )
            return [_timer_row(r) for r in rows]

        return await self._run(work)

    async def next_timer(self) -> TimerRow | None:
        def work(conn: sqlite3.Connection) -> TimerRow | None:
            row = conn.execute(f"SELECT {TIMER_COLUMNS} FROM timers ORDER BY deadline, id LIMIT 1").fetchone()
            return None if row is None else _timer_row(row)

        return await self._run(work)

    async def delete_timer(self, timer_id: int) -> bool:
        def work(conn: sqlite3.Connection) -> bool:
            return conn.execute("DELETE FROM timers WHERE id = ?", (timer_id,)).rowcount == 1

        return await self._run(lambda conn: _write(conn, work))

    async def delete_timers(self, game_id: int, kind: str | None = None) -> int:
        def work(conn: sqlite3.Connection) -> int:
            if kind is None:
                return conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,)).rowcount
            return conn.execute("DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind)).rowcount

        return await self._run(lambda conn: _write(conn, work))

    async def timer(self, timer_id: int) -> TimerRow | None:
        def work(conn: sqlite3.Connection) -> TimerRow | None:
            row = conn.execute(f"SELECT {TIMER_COLUMNS} FROM timers WHERE id = ?", (timer_id,)).fetchone()
            return None if row is None else _timer_row(row)

        return await self._run(work)

    async def postpone_timer(self, timer_id: int, deadline: datetime) -> bool:
        when = time_text(deadline)

        def work(conn: sqlite3.Connection) -> bool:
            return conn.execute("UPDATE timers SET deadline = ? WHERE id = ?", (when, timer_id)).rowcount == 1

        return await self._run(lambda conn: _write(conn, work))

    # ----- clocks, moderation and undo -------------------------------------------

    async def clock(self, game_id: int) -> ClockRow:
        return await self._run(lambda conn: _read(conn, lambda c: _clock(c, game_id)))

    async def apply_change(self, game_id: int, expected_version: int, change: GameChange) -> int:
        if change.undo is not None and len(change.writes.audit) != 1:
            raise StoreError("an undo is kept under exactly one audit entry")

        def work(conn: sqlite3.Connection) -> int:
            if change.bump:
                version = _bump(conn, game_id, expected_version, change.status)
            else:
                _check_version(conn, game_id, expected_version)
                version = expected_version
                if change.status is not None:
                    raise StoreError("a change of status raises the version")
            audit_ids = _apply_writes(conn, game_id, change.writes)
            if change.undo is not None:
                _undo(conn, game_id, change.undo.keep, audit_ids[0])
                _put_snapshot(conn, game_id, change.undo.keep, change.undo.snapshot)
            return version

        return await self._run(lambda conn: _write(conn, work))

    async def add_audit(self, game_id: int, entry: NewAudit) -> int:
        def work(conn: sqlite3.Connection) -> int:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise UnknownGame(game_id)
            return _apply_writes(conn, game_id, Writes(timers=[], audit=[entry]))[0]

        return await self._run(lambda conn: _write(conn, work))

    async def audit_log(self, game_id: int) -> list[AuditRow]:
        def work(conn: sqlite3.Connection) -> list[AuditRow]:
            rows = conn.execute(
                "SELECT id, game_id, moderator_user_id, action, details, reason, created_at FROM audit_log "
                "WHERE game_id = ? ORDER BY id",
                (game_id,),
            )
            return [AuditRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], parse_time(r[6])) for r in rows]

        return await self._run(work)

    async def undone_moves(self, game_id: int) -> list[UndoneMoveRow]:
        def work(conn: sqlite3.Connection) -> list[UndoneMoveRow]:
            rows = conn.execute(
                "SELECT audit_id, game_id, idx, move, user_id, actor, created_at FROM undone_moves "
                "WHERE game_id = ? ORDER BY audit_id, idx",
                (game_id,),
            )
            return [UndoneMoveRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], parse_time(r[6])) for r in rows]

        return await self._run(work)

    # ----- messages the bot posted -----------------------------------------------

    async def add_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        def work(conn: sqlite3.Connection) -> None:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise UnknownGame(game_id)
            conn.execute(
                "INSERT INTO messages (game_id, kind, channel_id, message_id, created_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (game_id, kind, channel_id, message_id, now_text()),
            )

        await self._run(lambda conn: _write(conn, work))

    async def messages(self, game_id: int, kind: str | None = None) -> list[MessageRow]:
        def work(conn: sqlite3.Connection) -> list[MessageRow]:
            sql = "SELECT game_id, kind, channel_id, message_id, created_at FROM messages WHERE game_id = ?"
            params: Sequence[Any] = (game_id,)
            if kind is not None:
                sql += " AND kind = ?"
                params = (game_id, kind)
            rows = conn.execute(sql + " ORDER BY created_at, message_id", params)
            return [MessageRow(g, k, c, m, parse_time(at)) for g, k, c, m, at in rows]

        return await self._run(work)

    async def delete_message(self, message_id: int) -> bool:
        def work(conn: sqlite3.Connection) -> bool:
            return conn.execute("DELETE FROM messages WHERE message_id = ?", (message_id,)).rowcount == 1

        return await self._run(lambda conn: _write(conn, work))

    # ----- the Discord front end -------------------------------------------------

    async def latest_game(self, channel_id: int) -> GameRow | None:
        def work(conn: sqlite3.Connection) -> GameRow | None:
            row = conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
            ).fetchone()
            return None if row is None else _game_row(row)

        return await self._run(work)

    async def command_digest(self, target: str) -> str | None:
        def work(conn: sqlite3.Connection) -> str | None:
            row = conn.execute("SELECT digest FROM command_syncs WHERE target = ?", (target,)).fetchone()
            return None if row is None else str(row[0])

        return await self._run(work)

    async def set_command_digest(self, target: str, digest: str) -> None:
        def work(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO command_syncs (target, digest, synced_at) VALUES (?, ?, ?) "
                "ON CONFLICT (target) DO UPDATE SET digest = excluded.digest, synced_at = excluded.synced_at",
                (target, digest, now_text()),
            )

        await self._run(lambda conn: _write(conn, work))

    async def dm_refused(self, user_id: int) -> bool:
        def work(conn: sqlite3.Connection) -> bool:
            return conn.execute("SELECT 1 FROM dm_refusals WHERE user_id = ?", (user_id,)).fetchone() is not None

        return await self._run(work)

    async def set_dm_refused(self, user_id: int, refused: bool) -> None:
        def work(conn: sqlite3.Connection) -> None:
            if refused:
                conn.execute(
                    "INSERT INTO dm_refusals (user_id, refused_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    (user_id, now_text()),
                )
            else:
                conn.execute("DELETE FROM dm_refusals WHERE user_id = ?", (user_id,))

        await self._run(lambda conn: _write(conn, work))


def _seats(conn: sqlite3.Connection, game_id: int) -> list[SeatRow]:
    rows = conn.execute(
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat IS NULL, seat, joined", (game_id,)
    )
    return [_seat_row(r) for r in rows]


def _clock(conn: sqlite3.Connection, game_id: int) -> ClockRow:
    row = conn.execute("SELECT paused_at, paused_by FROM game_clocks WHERE game_id = ?", (game_id,)).fetchone()
    seats = tuple(
        SeatClockRow(
            seat=r[0],
            wait=r[1],
            since=None if r[2] is None else parse_time(r[2]),
            extra_seconds=r[3],
            reminded=r[4],
            timed_out=bool(r[5]),
            reserve_used=r[6],
            timeouts=r[7],
        )
        for r in conn.execute(
            "SELECT seat, wait, since, extra_seconds, reminded, timed_out, reserve_used, timeouts "
            "FROM seat_clocks WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
    )
    if row is None:
        return ClockRow(game_id, seats=seats)
    return ClockRow(game_id, None if row[0] is None else parse_time(row[0]), row[1], seats)


def _apply_writes(conn: sqlite3.Connection, game_id: int, writes: Writes) -> list[int]:
    """Write what goes with a move or a change, inside its transaction; the ids of the audit entries."""
    if writes.claim_timer is not None:
        claimed = conn.execute(
            "DELETE FROM timers WHERE id = ? AND game_id = ?", (writes.claim_timer, game_id)
        ).rowcount
        if claimed != 1:
            raise TimerGone(writes.claim_timer)
    if writes.timers is not None:
        conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
        stamp = now_text()
        conn.executemany(
            "INSERT INTO timers (game_id, kind, deadline, data, created_at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, t.kind, time_text(t.deadline), _json(t.data), stamp) for t in writes.timers],
        )
    if writes.clock is not None:
        clock = writes.clock
        conn.execute(
            "INSERT INTO game_clocks (game_id, paused_at, paused_by) VALUES (?, ?, ?) ON CONFLICT (game_id) "
            "DO UPDATE SET paused_at = excluded.paused_at, paused_by = excluded.paused_by",
            (game_id, None if clock.paused_at is None else time_text(clock.paused_at), clock.paused_by),
        )
        conn.execute("DELETE FROM seat_clocks WHERE game_id = ?", (game_id,))
        conn.executemany(
            "INSERT INTO seat_clocks (game_id, seat, wait, since, extra_seconds, reminded, timed_out, "
            "reserve_used, timeouts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    c.seat,
                    c.wait,
                    None if c.since is None else time_text(c.since),
                    c.extra_seconds,
                    c.reminded,
                    int(c.timed_out),
                    c.reserve_used,
                    c.timeouts,
                )
                for c in clock.seats
            ],
        )
    for seat in writes.seats:
        _update_seat(conn, game_id, seat.seat, seat.user_id, seat.display_name, seat.autopilot)
    audit_ids = []
    for entry in writes.audit:
        cur = conn.execute(
            "INSERT INTO audit_log (game_id, moderator_user_id, action, details, reason, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, entry.moderator_user_id, entry.action, _json(entry.details), entry.reason, time_text(entry.at)),
        )
        assert cur.lastrowid is not None
        audit_ids.append(cur.lastrowid)
    return audit_ids


def _update_seat(
    conn: sqlite3.Connection,
    game_id: int,
    seat: int,
    user_id: int | None,
    display_name: str | None,
    autopilot: bool | None,
) -> None:
    sets: list[str] = []
    values: list[Any] = []
    for column, value in (("user_id", user_id), ("display_name", display_name), ("autopilot", autopilot)):
        if value is not None:
            sets.append(f"{column} = ?")
            values.append(int(value) if isinstance(value, bool) else value)
    if not sets:
        return
    try:
        cur = conn.execute(
            f"UPDATE seats SET {', '.join(sets)} WHERE game_id = ? AND seat = ?", (*values, game_id, seat)
        )
    except sqlite3.IntegrityError:
        raise StoreError(f"user {user_id} already has a seat in game #{game_id}") from None
    if cur.rowcount != 1:
        raise StoreError(f"game #{game_id} has no seat {seat}")


def _undo(conn: sqlite3.Connection, game_id: int, keep: int, audit_id: int) -> None:
    """Take the moves from index `keep` on off the log, last first, keeping each in undone_moves first."""
    rows = conn.execute(
        "SELECT idx, move, user_id, created_at, actor FROM moves WHERE game_id = ? AND idx >= ? ORDER BY idx DESC",
        (game_id, keep),
    ).fetchall()
    if keep < 0 or not rows:
        raise StoreError(f"game #{game_id} has no moves from index {keep} on to take back")
    for idx, move, user_id, created_at, actor in rows:
        conn.execute(
            "INSERT INTO undone_moves (audit_id, game_id, idx, move, user_id, actor, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (audit_id, game_id, idx, move, user_id, actor, created_at),
        )
        conn.execute("DELETE FROM moves WHERE game_id = ? AND idx = ?", (game_id, idx))


def _enable_wal(conn: sqlite3.Connection, attempts: int = 100) -> str:
    """Switch to write-ahead logging, waiting for a moment when nobody holds the file.

    Changing the journal mode answers "database is locked" at once, without the
    busy timeout, while another process is opening the same file.
    """
    for attempt in range(attempts):
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.05)
    raise AssertionError("unreachable")


def _prepare(conn: sqlite3.Connection) -> None:
    """Connection settings, then the schema migrations."""
    mode = _enable_wal(conn)
    if str(mode).lower() != "wal":
        raise StoreError(f"the database cannot use write-ahead logging (journal mode stays {mode!r})")
    # FULL: a commit is on disk when it returns, so an announced move survives a
    # power cut too (NORMAL would only survive a crash of this process).
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn)
