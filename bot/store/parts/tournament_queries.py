"""The tournaments' queries and rows, written once for both backends (tournaments.py runs them)."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from typing import Any

from sqlalchemy import ClauseElement, delete, false, func, insert, literal_column, null, select, update

from bot.store.columns import (
    Row,
    parse_optional_time,
    parse_time,
)
from bot.store.query import Flavor, Q, param
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
    ParticipantRow,
    ParticipantStatus,
    RoundRow,
    RoundStatus,
    TableResultRow,
    TableRow,
    TableStatus,
    TournamentAuditRow,
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
