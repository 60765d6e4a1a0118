"""On PostgreSQL: tournaments, participants, rounds, tables, results and audit (as `bot.store.sqlite.tournaments`).

A change of a tournament raises its version with a compare-and-set on its row
(`UPDATE tournaments ... WHERE id = $1 AND version = $2`), which locks the row
until the transaction ends: a second process doing the same waits, then finds
the version moved on and is refused (VersionConflict). Recording a table's
result locks the tournament's row first, so two tables ending at once in two
processes take turns and the last one sees the round complete.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.store.columns import now_text, optional_time_text, time_text, to_json
from bot.store.errors import StoreError, UnknownTournament, VersionConflict
from bot.store.postgres.connection import Conn
from bot.store.postgres.core import PostgresCore
from bot.store.sqlite.tournaments import (
    AUDIT_COLUMNS,
    PLAYER_COLUMNS,
    RESULT_COLUMNS,
    ROUND_COLUMNS,
    TABLE_COLUMNS,
    TOURNAMENT_COLUMNS,
    _audit,
    _player,
    _result,
    _round,
    _table,
    _tournament,
)
from bot.store.tournament_rows import (
    NewTournament,
    NewTournamentAudit,
    RoundStatus,
    TableFinish,
    TableRecorded,
    TableRow,
    TableStatus,
    TournamentAuditRow,
    TournamentChange,
    TournamentData,
    TournamentRow,
    TournamentStatus,
)


async def _bump(conn: Conn, tournament_id: int, expected: int | None, **columns: object) -> int:
    """Raise the tournament's version (if still `expected`, unless None), setting `columns`; the new version."""
    values = list(columns.values())
    sets = "".join(f"{column} = ${i}, " for i, column in enumerate(columns, start=1))
    n = len(values)
    where = "" if expected is None else f" AND version = ${n + 3}"
    params: list[object] = [*values, now_text(), tournament_id]
    if expected is not None:
        params.append(expected)
    version = await conn.fetchval(
        f"UPDATE tournaments SET version = version + 1, {sets}updated_at = ${n + 1} WHERE id = ${n + 2}{where} "
        "RETURNING version",
        *params,
    )
    if version is None:
        found = await conn.fetchval("SELECT version FROM tournaments WHERE id = $1", tournament_id)
        if found is None:
            raise UnknownTournament(tournament_id)
        raise VersionConflict(f"tournament #{tournament_id} is at version {found}, not {expected}")
    return int(version)


async def _add_audit(conn: Conn, tournament_id: int, entries: Sequence[NewTournamentAudit]) -> None:
    if entries:
        await conn.executemany(
            "INSERT INTO tournament_audit (tournament_id, user_id, action, details, reason, created_at) "
            "VALUES ($1, $2, $3, $4, $5, $6)",
            [(tournament_id, a.user_id, a.action, to_json(a.details), a.reason, time_text(a.at)) for a in entries],
        )


async def _complete(conn: Conn, tournament_id: int, round_no: int) -> bool:
    left = await conn.fetchval(
        "SELECT COUNT(*) FROM tournament_tables WHERE tournament_id = $1 AND round = $2 AND status IN ($3, $4)",
        tournament_id,
        round_no,
        TableStatus.PENDING.value,
        TableStatus.PLAYING.value,
    )
    return int(left) == 0


class PostgresTournaments(PostgresCore):
    """`TournamentStore` on PostgreSQL."""

    async def create_tournament(self, new: NewTournament) -> TournamentRow:
        async def work(conn: Conn) -> TournamentRow:
            now = now_text()
            row = await conn.fetchrow(
                "INSERT INTO tournaments (guild_id, channel_id, name, status, registration_open, settings, "
                "created_by, version, created_at, updated_at) VALUES ($1, $2, $3, $4, 0, $5, $6, 0, $7, $8) "
                f"RETURNING {TOURNAMENT_COLUMNS}",
                new.guild_id,
                new.channel_id,
                new.name,
                TournamentStatus.REGISTRATION.value,
                to_json(new.settings),
                new.created_by,
                now,
                now,
            )
            assert row is not None
            created = _tournament(tuple(row))
            if new.audit is not None:
                await _add_audit(conn, created.id, [new.audit])
            return created

        return await self._write(work)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        return await self._one(
            _tournament, f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1", (tournament_id,)
        )

    async def tournaments_of_guild(self, guild_id: int) -> list[TournamentRow]:
        return await self._all(
            _tournament,
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = $1 ORDER BY id DESC",
            (guild_id,),
        )

    async def recent_tournaments(
        self, guild_id: int, statuses: Collection[TournamentStatus], limit: int
    ) -> list[TournamentRow]:
        values = [TournamentStatus(s).value for s in statuses]
        return await self._all(
            _tournament,
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = $1 AND status = ANY($2::text[]) "
            "ORDER BY id DESC LIMIT $3",
            (guild_id, values, max(0, limit)),
        )

    async def tournament_data(self, tournament_id: int) -> TournamentData | None:
        async def work(conn: Conn) -> TournamentData | None:
            found = await conn.fetchrow(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1", tournament_id)
            if found is None:
                return None
            players = await conn.fetch(
                f"SELECT {PLAYER_COLUMNS} FROM tournament_players WHERE tournament_id = $1 ORDER BY joined",
                tournament_id,
            )
            rounds = await conn.fetch(
                f"SELECT {ROUND_COLUMNS} FROM tournament_rounds WHERE tournament_id = $1 ORDER BY round",
                tournament_id,
            )
            tables = await conn.fetch(
                f"SELECT {TABLE_COLUMNS} FROM tournament_tables WHERE tournament_id = $1 ORDER BY round, table_no",
                tournament_id,
            )
            results = await conn.fetch(
                f"SELECT {RESULT_COLUMNS} FROM tournament_results WHERE tournament_id = $1 "
                "ORDER BY round, table_no, place, user_id",
                tournament_id,
            )
            return TournamentData(
                _tournament(tuple(found)),
                tuple(_player(tuple(r)) for r in players),
                tuple(_round(tuple(r)) for r in rounds),
                tuple(_table(tuple(r)) for r in tables),
                tuple(_result(tuple(r)) for r in results),
            )

        return await self._read(work)

    async def change_tournament(self, tournament_id: int, expected_version: int, change: TournamentChange) -> int:
        async def work(conn: Conn) -> int:
            columns: dict[str, object] = {}
            if change.status is not None:
                columns["status"] = change.status.value
            if change.registration_open is not None:
                columns["registration_open"] = int(change.registration_open)
            if change.settings is not None:
                columns["settings"] = to_json(change.settings)
            if change.name is not None:
                columns["name"] = change.name
            version = await _bump(conn, tournament_id, expected_version, **columns)
            now = now_text()
            for p in change.participants:
                if p.remove:
                    await conn.execute(
                        "DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2",
                        tournament_id,
                        p.user_id,
                    )
                    continue
                await conn.execute(
                    f"INSERT INTO tournament_players ({PLAYER_COLUMNS}) VALUES ($1, $2, $3, $4, "
                    "(SELECT COALESCE(MAX(joined), 0) + 1 FROM tournament_players WHERE tournament_id = $1), $5, $6) "
                    "ON CONFLICT (tournament_id, user_id) DO UPDATE SET display_name = excluded.display_name, "
                    "status = excluded.status, "
                    "substitute_for = COALESCE(excluded.substitute_for, tournament_players.substitute_for)",
                    tournament_id,
                    p.user_id,
                    p.display_name,
                    p.status.value,
                    now,
                    p.substitute_for,
                )
            if change.round is not None:
                r = change.round
                played = await conn.fetchval(
                    "SELECT COUNT(*) FROM tournament_results WHERE tournament_id = $1 AND round = $2",
                    tournament_id,
                    r.round,
                )
                if played:
                    raise StoreError(f"round {r.round} of tournament #{tournament_id} has results; it stays")
                await conn.execute(
                    "DELETE FROM tournament_tables WHERE tournament_id = $1 AND round = $2", tournament_id, r.round
                )
                await conn.execute(
                    f"INSERT INTO tournament_rounds ({ROUND_COLUMNS}) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL) "
                    "ON CONFLICT (tournament_id, round) DO UPDATE SET attempt = excluded.attempt, "
                    "seed = excluded.seed, status = excluded.status, final = excluded.final, map = excluded.map, "
                    "started_at = excluded.started_at, deadline = excluded.deadline, completed_at = NULL",
                    tournament_id,
                    r.round,
                    r.attempt,
                    r.seed,
                    RoundStatus.RUNNING.value,
                    int(r.final),
                    r.map,
                    time_text(r.started_at),
                    optional_time_text(r.deadline),
                )
                if r.tables:
                    await conn.executemany(
                        f"INSERT INTO tournament_tables ({TABLE_COLUMNS}) VALUES ($1, $2, $3, $4, NULL, NULL, $5)",
                        [
                            (tournament_id, r.round, number, to_json(list(seats)), TableStatus.PENDING.value)
                            for number, seats in enumerate(r.tables, start=1)
                        ],
                    )
            await _add_audit(conn, tournament_id, change.audit)
            for timer in change.timers:
                await conn.execute(
                    "INSERT INTO timers (game_id, kind, deadline, data, created_at) VALUES (NULL, $1, $2, $3, $4)",
                    timer.kind,
                    time_text(timer.deadline),
                    to_json(timer.data),
                    now,
                )
            return version

        return await self._write(work)

    async def set_table_channel(self, tournament_id: int, round_no: int, table_no: int, channel_id: int) -> bool:
        return (
            await self._change(
                "UPDATE tournament_tables SET channel_id = $1 WHERE tournament_id = $2 AND round = $3 "
                "AND table_no = $4 AND channel_id IS NULL",
                (channel_id, tournament_id, round_no, table_no),
            )
            == 1
        )

    async def set_table_game(self, tournament_id: int, round_no: int, table_no: int, game_id: int) -> bool:
        return (
            await self._change(
                "UPDATE tournament_tables SET game_id = $1, status = $2 WHERE tournament_id = $3 AND round = $4 "
                "AND table_no = $5 AND game_id IS NULL",
                (game_id, TableStatus.PLAYING.value, tournament_id, round_no, table_no),
            )
            == 1
        )

    async def table_of_game(self, game_id: int) -> TableRow | None:
        return await self._one(_table, f"SELECT {TABLE_COLUMNS} FROM tournament_tables WHERE game_id = $1", (game_id,))

    async def record_table_result(
        self,
        tournament_id: int,
        round_no: int,
        table_no: int,
        finishes: Sequence[TableFinish],
        audit: NewTournamentAudit,
        last_round: bool,
    ) -> TableRecorded:
        async def work(conn: Conn) -> TableRecorded:
            # the tournament's row first: tables ending at once take turns, and the last sees the round complete
            locked = await conn.fetchval("SELECT version FROM tournaments WHERE id = $1 FOR UPDATE", tournament_id)
            if locked is None:
                raise UnknownTournament(tournament_id)
            status = await conn.fetchval(
                "SELECT status FROM tournament_tables WHERE tournament_id = $1 AND round = $2 AND table_no = $3",
                tournament_id,
                round_no,
                table_no,
            )
            if status is None:
                raise StoreError(f"tournament #{tournament_id} has no table {table_no} in round {round_no}")
            if status in (TableStatus.DONE.value, TableStatus.VOID.value):
                return TableRecorded(False, await _complete(conn, tournament_id, round_no), int(locked))
            new_status = TableStatus.DONE if finishes else TableStatus.VOID
            await conn.execute(
                "UPDATE tournament_tables SET status = $1 WHERE tournament_id = $2 AND round = $3 AND table_no = $4",
                new_status.value,
                tournament_id,
                round_no,
                table_no,
            )
            if finishes:
                await conn.executemany(
                    f"INSERT INTO tournament_results ({RESULT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
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
            complete = await _complete(conn, tournament_id, round_no)
            if complete:
                await conn.execute(
                    "UPDATE tournament_rounds SET status = $1, completed_at = $2 "
                    "WHERE tournament_id = $3 AND round = $4",
                    RoundStatus.COMPLETE.value,
                    now_text(),
                    tournament_id,
                    round_no,
                )
            if complete and last_round:
                version = await _bump(conn, tournament_id, None, status=TournamentStatus.FINISHED.value)
            else:
                version = await _bump(conn, tournament_id, None)
            await _add_audit(conn, tournament_id, [audit])
            return TableRecorded(True, complete, version)

        return await self._write(work)

    async def tournament_audit(self, tournament_id: int) -> list[TournamentAuditRow]:
        return await self._all(
            _audit,
            f"SELECT {AUDIT_COLUMNS} FROM tournament_audit WHERE tournament_id = $1 ORDER BY id",
            (tournament_id,),
        )


__all__ = ["PostgresTournaments"]
