"""Tournaments, their participants, rounds, tables, results and audit.

Every change of a tournament is one transaction checked against the version
the caller read (`change_tournament`), as a game's changes are: a double click
pairs a round once. The version is raised by a compare-and-set on the
tournament's row (`UPDATE tournaments ... WHERE id AND version`), which on
PostgreSQL locks the row until the transaction ends: a second process doing the
same waits, then finds the version moved on and is refused (VersionConflict).
What happens at a table is keyed by the table instead: its channel and its
game are set once, its result is recorded once, and the transaction that
records the last table of a round marks the round complete (recording locks
the tournament's row first, so tables ending at once take turns).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache
from typing import Any

from sqlalchemy import update

from bot.store.columns import (
    now_text,
    optional_time_text,
    time_text,
    to_json,
)
from bot.store.errors import StoreError, UnknownTournament, VersionConflict
from bot.store.parts.base import Backend
from bot.store.parts.tournament_queries import (
    AUDIT_LOG,
    COMPLETE_ROUND,
    DELETE_ROUND_TABLES,
    INSERT_AUDIT,
    INSERT_RESULT,
    INSERT_TABLE,
    INSERT_TIMER,
    INSERT_TOURNAMENT,
    LOCK_TOURNAMENT,
    PLAYERS,
    PUT_PLAYER,
    PUT_ROUND,
    REMOVE_PLAYER,
    RESULTS,
    ROUND_RESULTS,
    ROUNDS,
    SET_TABLE_CHANNEL,
    SET_TABLE_GAME,
    SET_TABLE_STATUS,
    TABLE_OF_GAME,
    TABLE_STATUS,
    TABLES,
    TABLES_LEFT,
    TOURNAMENT_BY_ID,
    TOURNAMENT_VERSION,
    TOURNAMENTS_OF_GUILD,
    _audit,
    _player,
    _recent,
    _result,
    _round,
    _table,
    _tournament,
)
from bot.store.query import Q, Work, changed, many, one, param, rows, scalar
from bot.store.schema import (
    tournaments,
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


@cache
def _bump_query(names: tuple[str, ...], checked: bool) -> Q:
    values: dict[str, Any] = {"version": tournaments.c.version + 1, **{n: param(n) for n in names}}
    values["updated_at"] = param("updated_at")
    where = [tournaments.c.id == param("tournament_id")]
    if checked:
        where.append(tournaments.c.version == param("expected"))
    return Q(update(tournaments).where(*where).values(values).returning(tournaments.c.version))


def _bump(tournament_id: int, expected: int | None, **columns: object) -> Work[int]:
    """Raise the tournament's version (if still `expected`, unless None), setting `columns`; the new version."""
    params: dict[str, Any] = {"tournament_id": tournament_id, "updated_at": now_text(), **columns}
    if expected is not None:
        params["expected"] = expected
    version = yield scalar(_bump_query(tuple(columns), expected is not None), **params)
    if version is None:
        found = yield scalar(TOURNAMENT_VERSION, tournament_id=tournament_id)
        if found is None:
            raise UnknownTournament(tournament_id)
        raise VersionConflict(f"tournament #{tournament_id} is at version {found}, not {expected}")
    return int(version)


def _add_audit(tournament_id: int, entries: Sequence[NewTournamentAudit]) -> Work[None]:
    if entries:
        yield many(
            INSERT_AUDIT,
            [
                {
                    "tournament_id": tournament_id,
                    "user_id": a.user_id,
                    "action": a.action,
                    "details": to_json(a.details),
                    "reason": a.reason,
                    "created_at": time_text(a.at),
                }
                for a in entries
            ],
        )


def _complete(tournament_id: int, round_no: int) -> Work[bool]:
    """Is every table of the round done or void?"""
    left = yield scalar(TABLES_LEFT, tournament_id=tournament_id, round=round_no)
    return int(left) == 0


class Tournaments:
    """`TournamentStore`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def create_tournament(self, new: NewTournament) -> TournamentRow:
        def work() -> Work[TournamentRow]:
            row = yield one(
                INSERT_TOURNAMENT,
                guild_id=new.guild_id,
                channel_id=new.channel_id,
                name=new.name,
                status=TournamentStatus.REGISTRATION.value,
                settings=to_json(new.settings),
                created_by=new.created_by,
                now=now_text(),
            )
            created = _tournament(row)
            if new.audit is not None:
                yield from _add_audit(created.id, [new.audit])
            return created

        return await self.backend.do_write(work)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self.backend.fetch_one(TOURNAMENT_BY_ID, tournament_id=tournament_id)
        return None if row is None else _tournament(row)

    async def tournaments_of_guild(self, guild_id: int) -> list[TournamentRow]:
        """The server's tournaments, newest first."""
        return [_tournament(r) for r in await self.backend.fetch_all(TOURNAMENTS_OF_GUILD, guild_id=guild_id)]

    async def recent_tournaments(
        self, guild_id: int, statuses: Collection[TournamentStatus], limit: int
    ) -> list[TournamentRow]:
        """The server's newest tournaments in one of `statuses`, newest first, at most `limit`."""
        values = {f"status{i}": TournamentStatus(s).value for i, s in enumerate(statuses)}
        found = await self.backend.fetch_all(_recent(len(values)), guild_id=guild_id, limit=max(0, limit), **values)
        return [_tournament(r) for r in found]

    async def tournament_data(self, tournament_id: int) -> TournamentData | None:
        """The tournament, its participants (in join order), rounds, tables and results, read at once."""

        def work() -> Work[TournamentData | None]:
            found = yield one(TOURNAMENT_BY_ID, tournament_id=tournament_id)
            if found is None:
                return None
            players = yield rows(PLAYERS, tournament_id=tournament_id)
            rounds = yield rows(ROUNDS, tournament_id=tournament_id)
            tables = yield rows(TABLES, tournament_id=tournament_id)
            results = yield rows(RESULTS, tournament_id=tournament_id)
            return TournamentData(
                _tournament(found),
                tuple(_player(r) for r in players),
                tuple(_round(r) for r in rounds),
                tuple(_table(r) for r in tables),
                tuple(_result(r) for r in results),
            )

        return await self.backend.do_read(work)

    async def change_tournament(self, tournament_id: int, expected_version: int, change: TournamentChange) -> int:
        """Apply `change` if the tournament is still at `expected_version` (else VersionConflict); the new version."""

        def work() -> Work[int]:
            columns: dict[str, object] = {}
            if change.status is not None:
                columns["status"] = change.status.value
            if change.registration_open is not None:
                columns["registration_open"] = int(change.registration_open)
            if change.settings is not None:
                columns["settings"] = to_json(change.settings)
            if change.name is not None:
                columns["name"] = change.name
            version = yield from _bump(tournament_id, expected_version, **columns)
            now = now_text()
            for p in change.participants:
                if p.remove:
                    yield changed(REMOVE_PLAYER, tournament_id=tournament_id, user_id=p.user_id)
                    continue
                yield changed(
                    PUT_PLAYER,
                    tournament_id=tournament_id,
                    user_id=p.user_id,
                    display_name=p.display_name,
                    status=p.status.value,
                    joined_at=now,
                    substitute_for=p.substitute_for,
                )
            if change.round is not None:
                r = change.round
                if (yield scalar(ROUND_RESULTS, tournament_id=tournament_id, round=r.round)):
                    raise StoreError(f"round {r.round} of tournament #{tournament_id} has results; it stays")
                yield changed(DELETE_ROUND_TABLES, tournament_id=tournament_id, round=r.round)
                yield changed(
                    PUT_ROUND,
                    tournament_id=tournament_id,
                    round=r.round,
                    attempt=r.attempt,
                    seed=r.seed,
                    status=RoundStatus.RUNNING.value,
                    final=int(r.final),
                    map=r.map,
                    started_at=time_text(r.started_at),
                    deadline=optional_time_text(r.deadline),
                )
                tables = [
                    {
                        "tournament_id": tournament_id,
                        "round": r.round,
                        "table_no": number,
                        "seats": to_json(list(seats)),
                        "status": TableStatus.PENDING.value,
                    }
                    for number, seats in enumerate(r.tables, start=1)
                ]
                if tables:
                    yield many(INSERT_TABLE, tables)
            yield from _add_audit(tournament_id, change.audit)
            if change.timers:
                yield many(
                    INSERT_TIMER,
                    [
                        {"kind": t.kind, "deadline": time_text(t.deadline), "data": to_json(t.data), "created_at": now}
                        for t in change.timers
                    ],
                )
            return version

        return await self.backend.do_write(work)

    async def set_table_channel(self, tournament_id: int, round_no: int, table_no: int, channel_id: int) -> bool:
        """Note the table's thread, once: False if it has one already."""
        count = await self.backend.execute(
            SET_TABLE_CHANNEL, tournament_id=tournament_id, round=round_no, table_no=table_no, channel_id=channel_id
        )
        return count == 1

    async def set_table_game(self, tournament_id: int, round_no: int, table_no: int, game_id: int) -> bool:
        """Note the table's game, once (the table is playing then): False if it has one already."""
        count = await self.backend.execute(
            SET_TABLE_GAME, tournament_id=tournament_id, round=round_no, table_no=table_no, game_id=game_id
        )
        return count == 1

    async def table_of_game(self, game_id: int) -> TableRow | None:
        row = await self.backend.fetch_one(TABLE_OF_GAME, game_id=game_id)
        return None if row is None else _table(row)

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
        key = {"tournament_id": tournament_id, "round": round_no, "table_no": table_no}

        def work() -> Work[TableRecorded]:
            # the tournament's row first: tables ending at once take turns, and the last sees the round complete
            locked = yield scalar(LOCK_TOURNAMENT, tournament_id=tournament_id)
            if locked is None:
                raise UnknownTournament(tournament_id)
            status = yield scalar(TABLE_STATUS, **key)
            if status is None:
                raise StoreError(f"tournament #{tournament_id} has no table {table_no} in round {round_no}")
            if status in (TableStatus.DONE.value, TableStatus.VOID.value):
                return TableRecorded(False, (yield from _complete(tournament_id, round_no)), int(locked))
            new_status = TableStatus.DONE if finishes else TableStatus.VOID
            yield changed(SET_TABLE_STATUS, status=new_status.value, **key)
            if finishes:
                yield many(
                    INSERT_RESULT,
                    [
                        {
                            **key,
                            "user_id": f.user_id,
                            "place": f.place,
                            "points_num": f.place_points.numerator,
                            "points_den": f.place_points.denominator,
                            "score": f.score,
                            "tickets_done": f.tickets_done,
                        }
                        for f in finishes
                    ],
                )
            complete = yield from _complete(tournament_id, round_no)
            if complete:
                yield changed(COMPLETE_ROUND, tournament_id=tournament_id, round=round_no, now=now_text())
            if complete and last_round:
                version = yield from _bump(tournament_id, None, status=TournamentStatus.FINISHED.value)
            else:
                version = yield from _bump(tournament_id, None)
            yield from _add_audit(tournament_id, [audit])
            return TableRecorded(True, complete, version)

        return await self.backend.do_write(work)

    async def tournament_audit(self, tournament_id: int) -> list[TournamentAuditRow]:
        """The tournament's audit entries, oldest first."""
        return [_audit(r) for r in await self.backend.fetch_all(AUDIT_LOG, tournament_id=tournament_id)]
