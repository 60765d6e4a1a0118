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

import json
from collections.abc import Collection, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from sqlalchemy import ClauseElement, delete, false, func, insert, literal_column, null, select, update

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
from bot.store.parts.base import Backend
from bot.store.query import Flavor, Q, Work, changed, many, one, param, rows, scalar
from bot.store.schema import (
    timers,
    tournament_audit,
    tournament_players,
    tournament_results,
    tournament_rounds,
    tournament_tables,
    tournaments,
)
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


def _columns(table: Any, names: str) -> tuple[Any, ...]:
    return tuple(table.c[c.strip()] for c in names.split(","))


TOURNAMENT = _columns(tournaments, TOURNAMENT_COLUMNS)
PLAYER = _columns(tournament_players, PLAYER_COLUMNS)
ROUND = _columns(tournament_rounds, ROUND_COLUMNS)
TABLE = _columns(tournament_tables, TABLE_COLUMNS)
RESULT = _columns(tournament_results, RESULT_COLUMNS)
AUDIT = _columns(tournament_audit, AUDIT_COLUMNS)
OF_TOURNAMENT = {
    t: t.c.tournament_id == param("tournament_id")
    for t in (tournament_players, tournament_rounds, tournament_tables, tournament_results)
}
TABLE_KEY = (
    tournament_tables.c.tournament_id == param("tournament_id"),
    tournament_tables.c.round == param("round"),
    tournament_tables.c.table_no == param("table_no"),
)

INSERT_TOURNAMENT = Q(
    insert(tournaments)
    .values(
        {
            **{c: param(c) for c in ("guild_id", "channel_id", "name", "status", "settings", "created_by")},
            "registration_open": 0,
            "version": 0,
            "created_at": param("now"),
            "updated_at": param("now"),
        }
    )
    .returning(*TOURNAMENT)
)
AUDIT_NAMES = ("tournament_id", "user_id", "action", "details", "reason", "created_at")
INSERT_AUDIT = Q(insert(tournament_audit).values({c: param(c) for c in AUDIT_NAMES}))
TOURNAMENT_BY_ID = Q(select(*TOURNAMENT).where(tournaments.c.id == param("tournament_id")))
TOURNAMENT_VERSION = Q(select(tournaments.c.version).where(tournaments.c.id == param("tournament_id")))
LOCK_TOURNAMENT = Q(select(tournaments.c.version).where(tournaments.c.id == param("tournament_id")).with_for_update())
TOURNAMENTS_OF_GUILD = Q(
    select(*TOURNAMENT).where(tournaments.c.guild_id == param("guild_id")).order_by(tournaments.c.id.desc())
)
PLAYERS = Q(select(*PLAYER).where(OF_TOURNAMENT[tournament_players]).order_by(tournament_players.c.joined))
ROUNDS = Q(select(*ROUND).where(OF_TOURNAMENT[tournament_rounds]).order_by(tournament_rounds.c.round))
TABLES = Q(
    select(*TABLE)
    .where(OF_TOURNAMENT[tournament_tables])
    .order_by(tournament_tables.c.round, tournament_tables.c.table_no)
)
RESULTS = Q(
    select(*RESULT)
    .where(OF_TOURNAMENT[tournament_results])
    .order_by(
        tournament_results.c.round,
        tournament_results.c.table_no,
        tournament_results.c.place,
        tournament_results.c.user_id,
    )
)
REMOVE_PLAYER = Q(
    delete(tournament_players).where(
        OF_TOURNAMENT[tournament_players], tournament_players.c.user_id == param("user_id")
    )
)


def _put_player(flavor: Flavor) -> ClauseElement:
    joined = (
        select(func.coalesce(func.max(tournament_players.c.joined), 0) + 1)
        .where(OF_TOURNAMENT[tournament_players])
        .scalar_subquery()
    )
    query = flavor.insert(tournament_players).values(
        tournament_id=param("tournament_id"),
        user_id=param("user_id"),
        display_name=param("display_name"),
        status=param("status"),
        joined=joined,
        joined_at=param("joined_at"),
        substitute_for=param("substitute_for"),
    )
    return query.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=["tournament_id", "user_id"],
        set_={
            "display_name": query.excluded.display_name,
            "status": query.excluded.status,
            "substitute_for": func.coalesce(query.excluded.substitute_for, tournament_players.c.substitute_for),
        },
    )


def _put_round(flavor: Flavor) -> ClauseElement:
    names = ("tournament_id", "round", "attempt", "seed", "status", "final", "map", "started_at", "deadline")
    query = flavor.insert(tournament_rounds).values({**{c: param(c) for c in names}, "completed_at": null()})
    return query.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=["tournament_id", "round"],
        set_={
            **{c: query.excluded[c] for c in ("attempt", "seed", "status", "final", "map", "started_at", "deadline")},
            "completed_at": null(),
        },
    )


PUT_PLAYER = Q(_put_player)
PUT_ROUND = Q(_put_round)
ROUND_RESULTS = Q(
    select(func.count())
    .select_from(tournament_results)
    .where(OF_TOURNAMENT[tournament_results], tournament_results.c.round == param("round"))
)
DELETE_ROUND_TABLES = Q(
    delete(tournament_tables).where(OF_TOURNAMENT[tournament_tables], tournament_tables.c.round == param("round"))
)
TABLE_NAMES = ("tournament_id", "round", "table_no", "seats", "status")
INSERT_TABLE = Q(
    insert(tournament_tables).values({**{c: param(c) for c in TABLE_NAMES}, "channel_id": null(), "game_id": null()})
)
TIMER_NAMES = ("kind", "deadline", "data", "created_at")
INSERT_TIMER = Q(insert(timers).values({**{c: param(c) for c in TIMER_NAMES}, "game_id": null()}))
SET_TABLE_CHANNEL = Q(
    update(tournament_tables)
    .where(*TABLE_KEY, tournament_tables.c.channel_id.is_(None))
    .values(channel_id=param("channel_id"))
)
SET_TABLE_GAME = Q(
    update(tournament_tables)
    .where(*TABLE_KEY, tournament_tables.c.game_id.is_(None))
    .values(game_id=param("game_id"), status=literal_column(f"'{TableStatus.PLAYING.value}'"))
)
TABLE_OF_GAME = Q(select(*TABLE).where(tournament_tables.c.game_id == param("game_id")))
TABLE_STATUS = Q(select(tournament_tables.c.status).where(*TABLE_KEY))
SET_TABLE_STATUS = Q(update(tournament_tables).where(*TABLE_KEY).values(status=param("status")))
INSERT_RESULT = Q(insert(tournament_results).values({c.name: param(c.name) for c in RESULT}))
TABLES_LEFT = Q(
    select(func.count())
    .select_from(tournament_tables)
    .where(
        OF_TOURNAMENT[tournament_tables],
        tournament_tables.c.round == param("round"),
        tournament_tables.c.status.in_(
            [literal_column(f"'{s.value}'") for s in (TableStatus.PENDING, TableStatus.PLAYING)]
        ),
    )
)
COMPLETE_ROUND = Q(
    update(tournament_rounds)
    .where(OF_TOURNAMENT[tournament_rounds], tournament_rounds.c.round == param("round"))
    .values(status=literal_column(f"'{RoundStatus.COMPLETE.value}'"), completed_at=param("now"))
)
AUDIT_LOG = Q(
    select(*AUDIT).where(tournament_audit.c.tournament_id == param("tournament_id")).order_by(tournament_audit.c.id)
)


@cache
def _recent(count: int) -> Q:
    statuses = tournaments.c.status.in_([param(f"status{i}") for i in range(count)]) if count else false()
    return Q(
        select(*TOURNAMENT)
        .where(tournaments.c.guild_id == param("guild_id"), statuses)
        .order_by(tournaments.c.id.desc())
        .limit(param("limit"))
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


class Tournaments(Backend):
    """`TournamentStore`."""

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

        return await self._do_write(work)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self._fetch_one(TOURNAMENT_BY_ID, tournament_id=tournament_id)
        return None if row is None else _tournament(row)

    async def tournaments_of_guild(self, guild_id: int) -> list[TournamentRow]:
        """The server's tournaments, newest first."""
        return [_tournament(r) for r in await self._fetch_all(TOURNAMENTS_OF_GUILD, guild_id=guild_id)]

    async def recent_tournaments(
        self, guild_id: int, statuses: Collection[TournamentStatus], limit: int
    ) -> list[TournamentRow]:
        """The server's newest tournaments in one of `statuses`, newest first, at most `limit`."""
        values = {f"status{i}": TournamentStatus(s).value for i, s in enumerate(statuses)}
        found = await self._fetch_all(_recent(len(values)), guild_id=guild_id, limit=max(0, limit), **values)
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

        return await self._do_read(work)

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

        return await self._do_write(work)

    async def set_table_channel(self, tournament_id: int, round_no: int, table_no: int, channel_id: int) -> bool:
        """Note the table's thread, once: False if it has one already."""
        count = await self._execute(
            SET_TABLE_CHANNEL, tournament_id=tournament_id, round=round_no, table_no=table_no, channel_id=channel_id
        )
        return count == 1

    async def set_table_game(self, tournament_id: int, round_no: int, table_no: int, game_id: int) -> bool:
        """Note the table's game, once (the table is playing then): False if it has one already."""
        count = await self._execute(
            SET_TABLE_GAME, tournament_id=tournament_id, round=round_no, table_no=table_no, game_id=game_id
        )
        return count == 1

    async def table_of_game(self, game_id: int) -> TableRow | None:
        row = await self._fetch_one(TABLE_OF_GAME, game_id=game_id)
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

        return await self._do_write(work)

    async def tournament_audit(self, tournament_id: int) -> list[TournamentAuditRow]:
        """The tournament's audit entries, oldest first."""
        return [_audit(r) for r in await self._fetch_all(AUDIT_LOG, tournament_id=tournament_id)]
