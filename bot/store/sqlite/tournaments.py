"""On SQLite: tournaments, their participants, rounds, tables, results and audit.

Every change of a tournament is one transaction checked against the version
the caller read (`change_tournament`), as a game's changes are: a double click
pairs a round once. What happens at a table is keyed by the table instead:
its channel and its game are set once, its result is recorded once, and the
transaction that records the last table of a round marks the round complete.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Sequence
from fractions import Fraction

from bot.store.columns import (
    Row,
    now_text,
    optional_time_text,
    parse_optional_time,
    parse_time,
    time_text,
    to_json,
)
from bot.store.errors import StoreError, UnknownTournament, VersionConflict
from bot.store.sqlite.core import SqliteCore
from bot.store.tournament_rows import (
    NewTournament,
    NewTournamentAudit,
    ParticipantRow,
    ParticipantStatus,
    RoundRow,
    RoundStatus,
    TableFinish,
    TableRecorded,
    TableResultRow,
    TableRow,
    TableStatus,
    TournamentAuditRow,
    TournamentChange,
    TournamentData,
    TournamentRow,
    TournamentStatus,
)

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, name, status, registration_open, settings, created_by, version, created_at, updated_at"
)
PLAYER_COLUMNS = "tournament_id, user_id, display_name, status, joined, joined_at, substitute_for"
ROUND_COLUMNS = "tournament_id, round, attempt, seed, status, final, map, started_at, deadline, completed_at"
TABLE_COLUMNS = "tournament_id, round, table_no, seats, channel_id, game_id, status"
RESULT_COLUMNS = "tournament_id, round, table_no, user_id, place, points_num, points_den, score, tickets_done"
AUDIT_COLUMNS = "id, tournament_id, user_id, action, details, reason, created_at"


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        name=row[3],
        status=TournamentStatus(row[4]),
        registration_open=bool(row[5]),
        settings=json.loads(row[6]),
        created_by=row[7],
        version=row[8],
        created_at=parse_time(row[9]),
        updated_at=parse_time(row[10]),
    )


def _player(row: Row) -> ParticipantRow:
    return ParticipantRow(row[0], row[1], row[2], ParticipantStatus(row[3]), row[4], parse_time(row[5]), row[6])


def _round(row: Row) -> RoundRow:
    return RoundRow(
        row[0],
        row[1],
        row[2],
        row[3],
        RoundStatus(row[4]),
        bool(row[5]),
        row[6],
        parse_time(row[7]),
        parse_optional_time(row[8]),
        parse_optional_time(row[9]),
    )


def _table(row: Row) -> TableRow:
    return TableRow(row[0], row[1], row[2], tuple(json.loads(row[3])), row[4], row[5], TableStatus(row[6]))


def _result(row: Row) -> TableResultRow:
    return TableResultRow(row[0], row[1], row[2], row[3], row[4], Fraction(row[5], row[6]), row[7], row[8])


def _audit(row: Row) -> TournamentAuditRow:
    return TournamentAuditRow(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], parse_time(row[6]))


def _bump(conn: sqlite3.Connection, tournament_id: int, expected: int | None, **columns: object) -> int:
    """Raise the tournament's version (if still `expected`, unless None), setting `columns`; the new version."""
    sets = "".join(f"{column} = ?, " for column in columns)
    where = "" if expected is None else " AND version = ?"
    params: tuple[object, ...] = (*columns.values(), now_text(), tournament_id)
    if expected is not None:
        params = (*params, expected)
    cur = conn.execute(
        f"UPDATE tournaments SET version = version + 1, {sets}updated_at = ? WHERE id = ?{where}", params
    )
    row = conn.execute("SELECT version FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    if row is None:
        raise UnknownTournament(tournament_id)
    if cur.rowcount != 1:
        raise VersionConflict(f"tournament #{tournament_id} is at version {row[0]}, not {expected}")
    return int(row[0])


def _add_audit(conn: sqlite3.Connection, tournament_id: int, entries: Sequence[NewTournamentAudit]) -> None:
    conn.executemany(
        "INSERT INTO tournament_audit (tournament_id, user_id, action, details, reason, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(tournament_id, a.user_id, a.action, to_json(a.details), a.reason, time_text(a.at)) for a in entries],
    )


class SqliteTournaments(SqliteCore):
    """`TournamentStore` on SQLite."""

    async def create_tournament(self, new: NewTournament) -> TournamentRow:
        def work(conn: sqlite3.Connection) -> TournamentRow:
            now = now_text()
            cur = conn.execute(
                "INSERT INTO tournaments (guild_id, channel_id, name, status, registration_open, settings, "
                "created_by, version, created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?, 0, ?, ?)",
                (
                    new.guild_id,
                    new.channel_id,
                    new.name,
                    TournamentStatus.REGISTRATION.value,
                    to_json(new.settings),
                    new.created_by,
                    now,
                    now,
                ),
            )
            assert cur.lastrowid is not None
            if new.audit is not None:
                _add_audit(conn, cur.lastrowid, [new.audit])
            row = conn.execute(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (cur.lastrowid,))
            return _tournament(row.fetchone())

        return await self._write(work)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        return await self._one(
            _tournament, f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )

    async def tournaments_of_guild(self, guild_id: int) -> list[TournamentRow]:
        """The server's tournaments, newest first."""
        return await self._all(
            _tournament,
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = ? ORDER BY id DESC",
            (guild_id,),
        )

    async def recent_tournaments(
        self, guild_id: int, statuses: Collection[TournamentStatus], limit: int
    ) -> list[TournamentRow]:
        """The server's newest tournaments in one of `statuses`, newest first, at most `limit`."""
        values = [TournamentStatus(s).value for s in statuses]
        marks = ", ".join("?" for _ in values) or "NULL"
        return await self._all(
            _tournament,
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = ? AND status IN ({marks}) "
            "ORDER BY id DESC LIMIT ?",
            (guild_id, *values, max(0, limit)),
        )

    async def tournament_data(self, tournament_id: int) -> TournamentData | None:
        """The tournament, its participants (in join order), rounds, tables and results, read at once."""

        def work(conn: sqlite3.Connection) -> TournamentData | None:
            row = conn.execute(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
            found = row.fetchone()
            if found is None:
                return None
            key = (tournament_id,)
            return TournamentData(
                _tournament(found),
                tuple(
                    _player(r)
                    for r in conn.execute(
                        f"SELECT {PLAYER_COLUMNS} FROM tournament_players WHERE tournament_id = ? ORDER BY joined", key
                    )
                ),
                tuple(
                    _round(r)
                    for r in conn.execute(
                        f"SELECT {ROUND_COLUMNS} FROM tournament_rounds WHERE tournament_id = ? ORDER BY round", key
                    )
                ),
                tuple(
                    _table(r)
                    for r in conn.execute(
                        f"SELECT {TABLE_COLUMNS} FROM tournament_tables WHERE tournament_id = ? "
                        "ORDER BY round, table_no",
                        key,
                    )
                ),
                tuple(
                    _result(r)
                    for r in conn.execute(
                        f"SELECT {RESULT_COLUMNS} FROM tournament_results WHERE tournament_id = ? "
                        "ORDER BY round, table_no, place, user_id",
                        key,
                    )
                ),
            )

        return await self._read(work)

    async def change_tournament(self, tournament_id: int, expected_version: int, change: TournamentChange) -> int:
        """Apply `change` if the tournament is still at `expected_version` (else VersionConflict); the new version."""

        def work(conn: sqlite3.Connection) -> int:
            columns: dict[str, object] = {}
            if change.status is not None:
                columns["status"] = change.status.value
            if change.registration_open is not None:
                columns["registration_open"] = int(change.registration_open)
            if change.settings is not None:
                columns["settings"] = to_json(change.settings)
            if change.name is not None:
                columns["name"] = change.name
            version = _bump(conn, tournament_id, expected_version, **columns)
            now = now_text()
            for p in change.participants:
                if p.remove:
                    conn.execute(
                        "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                        (tournament_id, p.user_id),
                    )
                    continue
                conn.execute(
                    f"INSERT INTO tournament_players ({PLAYER_COLUMNS}) VALUES (?, ?, ?, ?, "
                    "(SELECT COALESCE(MAX(joined), 0) + 1 FROM tournament_players WHERE tournament_id = ?), ?, ?) "
                    "ON CONFLICT (tournament_id, user_id) DO UPDATE SET display_name = excluded.display_name, "
                    "status = excluded.status, substitute_for = COALESCE(excluded.substitute_for, substitute_for)",
                    (
                        tournament_id,
                        p.user_id,
                        p.display_name,
                        p.status.value,
                        tournament_id,
                        now,
                        p.substitute_for,
                    ),
                )
            if change.round is not None:
                r = change.round
                played = conn.execute(
                    "SELECT COUNT(*) FROM tournament_results WHERE tournament_id = ? AND round = ?",
                    (tournament_id, r.round),
                ).fetchone()[0]
                if played:
                    raise StoreError(f"round {r.round} of tournament #{tournament_id} has results; it stays")
                conn.execute(
                    "DELETE FROM tournament_tables WHERE tournament_id = ? AND round = ?", (tournament_id, r.round)
                )
                conn.execute(
                    f"INSERT INTO tournament_rounds ({ROUND_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL) "
                    "ON CONFLICT (tournament_id, round) DO UPDATE SET attempt = excluded.attempt, "
                    "seed = excluded.seed, status = excluded.status, final = excluded.final, map = excluded.map, "
                    "started_at = excluded.started_at, deadline = excluded.deadline, completed_at = NULL",
                    (
                        tournament_id,
                        r.round,
                        r.attempt,
                        r.seed,
                        RoundStatus.RUNNING.value,
                        int(r.final),
                        r.map,
                        time_text(r.started_at),
                        optional_time_text(r.deadline),
                    ),
                )
                conn.executemany(
                    f"INSERT INTO tournament_tables ({TABLE_COLUMNS}) VALUES (?, ?, ?, ?, NULL, NULL, ?)",
                    [
                        (tournament_id, r.round, number, to_json(list(seats)), TableStatus.PENDING.value)
                        for number, seats in enumerate(r.tables, start=1)
                    ],
                )
            _add_audit(conn, tournament_id, change.audit)
            conn.executemany(
                "INSERT INTO timers (game_id, kind, deadline, data, created_at) VALUES (NULL, ?, ?, ?, ?)",
                [(t.kind, time_text(t.deadline), to_json(t.data), now) for t in change.timers],
            )
            return version

        return await self._write(work)

    async def set_table_channel(self, tournament_id: int, round_no: int, table_no: int, channel_id: int) -> bool:
        """Note the table's thread, once: False if it has one already."""
        changed = await self._change(
            "UPDATE tournament_tables SET channel_id = ? WHERE tournament_id = ? AND round = ? AND table_no = ? "
            "AND channel_id IS NULL",
            (channel_id, tournament_id, round_no, table_no),
        )
        return changed == 1

    async def set_table_game(self, tournament_id: int, round_no: int, table_no: int, game_id: int) -> bool:
        """Note the table's game, once (the table is playing then): False if it has one already."""
        changed = await self._change(
            "UPDATE tournament_tables SET game_id = ?, status = ? WHERE tournament_id = ? AND round = ? "
            "AND table_no = ? AND game_id IS NULL",
            (game_id, TableStatus.PLAYING.value, tournament_id, round_no, table_no),
        )
        return changed == 1

    async def table_of_game(self, game_id: int) -> TableRow | None:
        return await self._one(_table, f"SELECT {TABLE_COLUMNS} FROM tournament_tables WHERE game_id = ?", (game_id,))

    async def record_table_result(
        self,
        tournament_id: int,
        round_no: int,
        table_no: int,
        finishes: Sequence[TableFinish],
        audit: NewTournamentAudit,
        last_round: bool,
    ) -> TableRecorded:
        """Record the table's result once (no finishes: the table is void), completing the round with its last
        table, in one transaction (the tournament finished with it if `last_round`); `recorded` False if the table
        had its result (nothing changes then)."""

        def work(conn: sqlite3.Connection) -> TableRecorded:
            found = conn.execute(
                "SELECT status FROM tournament_tables WHERE tournament_id = ? AND round = ? AND table_no = ?",
                (tournament_id, round_no, table_no),
            ).fetchone()
            if found is None:
                raise StoreError(f"tournament #{tournament_id} has no table {table_no} in round {round_no}")
            if found[0] in (TableStatus.DONE.value, TableStatus.VOID.value):
                version = conn.execute("SELECT version FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
                return TableRecorded(False, _complete(conn, tournament_id, round_no), int(version[0]))
            status = TableStatus.DONE if finishes else TableStatus.VOID
            conn.execute(
                "UPDATE tournament_tables SET status = ? WHERE tournament_id = ? AND round = ? AND table_no = ?",
                (status.value, tournament_id, round_no, table_no),
            )
            conn.executemany(
                f"INSERT INTO tournament_results ({RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        tournament_id,
                        round_no,
                        table_no,
                        f.user_id,
                        f.place,
                        f.place_points.numerator,
                        f.place_points.denominator,
                        f.score,
                        f.tickets_done,
                    )
                    for f in finishes
                ],
            )
            complete = _complete(conn, tournament_id, round_no)
            if complete:
                conn.execute(
                    "UPDATE tournament_rounds SET status = ?, completed_at = ? WHERE tournament_id = ? AND round = ?",
                    (RoundStatus.COMPLETE.value, now_text(), tournament_id, round_no),
                )
            if complete and last_round:
                version = _bump(conn, tournament_id, None, status=TournamentStatus.FINISHED.value)
            else:
                version = _bump(conn, tournament_id, None)
            _add_audit(conn, tournament_id, [audit])
            return TableRecorded(True, complete, version)

        return await self._write(work)

    async def tournament_audit(self, tournament_id: int) -> list[TournamentAuditRow]:
        """The tournament's audit entries, oldest first."""
        return await self._all(
            _audit,
            f"SELECT {AUDIT_COLUMNS} FROM tournament_audit WHERE tournament_id = ? ORDER BY id",
            (tournament_id,),
        )


def _complete(conn: sqlite3.Connection, tournament_id: int, round_no: int) -> bool:
    """Is every table of the round done or void?"""
    left = conn.execute(
        "SELECT COUNT(*) FROM tournament_tables WHERE tournament_id = ? AND round = ? AND status IN (?, ?)",
        (tournament_id, round_no, TableStatus.PENDING.value, TableStatus.PLAYING.value),
    ).fetchone()[0]
    return int(left) == 0
