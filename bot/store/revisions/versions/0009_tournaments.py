"""Tournaments (bot/service/tournaments): the desk's settings, its participants, each round's tables (each table
one game), the tables' results, and an audit of every tournament action.

Revision ID: 0009_tournaments
Revises: 0008_shard_heartbeats

`version` is bumped by every change, as the games' is: a stale button or a double click changes nothing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions.types import BIG, INT, NO_ROWID, TEXT, TIME, counter, zero

revision = "0009_tournaments"
down_revision = "0008_shard_heartbeats"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        counter(),
        sa.Column("guild_id", BIG, nullable=False),
        # where the tables' threads are opened and results announced
        sa.Column("channel_id", BIG, nullable=False),
        sa.Column("name", TEXT, nullable=False),
        sa.Column(
            "status",
            TEXT,
            sa.CheckConstraint("status IN ('registration', 'checkin', 'running', 'finished', 'cancelled')"),
            nullable=False,
        ),
        sa.Column("registration_open", INT, nullable=False, server_default=zero()),
        # JSON: maps, rounds, table size, clock, deadline, rated, final, cap, check-in
        sa.Column("settings", TEXT, nullable=False),
        sa.Column("created_by", BIG, nullable=False),
        sa.Column("version", BIG, nullable=False, server_default=zero()),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
    )
    op.create_index("tournaments_guild", "tournaments", ["guild_id", "status"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", BIG, sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("user_id", BIG, nullable=False),
        sa.Column("display_name", TEXT, nullable=False),
        sa.Column(
            "status",
            TEXT,
            sa.CheckConstraint(
                "status IN ('registered', 'waitlisted', 'checked_in', 'active', 'dropped', 'disqualified')"
            ),
            nullable=False,
        ),
        sa.Column("joined", BIG, nullable=False),  # join order: the waiting list is promoted in it
        sa.Column("joined_at", TIME, nullable=False),
        sa.Column("substitute_for", BIG),  # the participant whose place this one took
        sa.PrimaryKeyConstraint("tournament_id", "user_id"),
        **NO_ROWID,
    )
    op.create_index("tournament_players_user", "tournament_players", ["user_id"])
    # `attempt` counts re-pairings of the round; `seed` is the pairing's draw (audited, so it can be checked).
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", BIG, sa.ForeignKey("tournaments.id"), nullable=False),
        # 1, 2, ...; the final table (if any) is the round after the Swiss ones
        sa.Column("round", INT, nullable=False),
        sa.Column("attempt", INT, nullable=False),
        sa.Column("seed", TEXT, nullable=False),
        sa.Column("status", TEXT, sa.CheckConstraint("status IN ('running', 'complete')"), nullable=False),
        sa.Column("final", INT, nullable=False),
        sa.Column("map", TEXT, nullable=False),
        sa.Column("started_at", TIME, nullable=False),
        sa.Column("deadline", TIME),
        sa.Column("completed_at", TIME),
        sa.PrimaryKeyConstraint("tournament_id", "round"),
        **NO_ROWID,
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", BIG, nullable=False),
        sa.Column("round", INT, nullable=False),
        sa.Column("table_no", INT, nullable=False),  # 1, 2, ... (1 = the top table)
        sa.Column("seats", TEXT, nullable=False),  # JSON: the players' user ids in seat order
        sa.Column("channel_id", BIG),  # the table's thread, once opened
        sa.Column("game_id", BIG, sa.ForeignKey("games.id"), unique=True),
        sa.Column(
            "status", TEXT, sa.CheckConstraint("status IN ('pending', 'playing', 'done', 'void')"), nullable=False
        ),
        sa.PrimaryKeyConstraint("tournament_id", "round", "table_no"),
        sa.ForeignKeyConstraint(
            ["tournament_id", "round"], ["tournament_rounds.tournament_id", "tournament_rounds.round"]
        ),
        **NO_ROWID,
    )
    # Each player's result at a table; place points as an exact fraction (shared places split them).
    op.create_table(
        "tournament_results",
        sa.Column("tournament_id", BIG, nullable=False),
        sa.Column("round", INT, nullable=False),
        sa.Column("table_no", INT, nullable=False),
        sa.Column("user_id", BIG, nullable=False),  # who held the seat at the end
        # 1 = first; equal after the game's own tie-breaks = shared
        sa.Column("place", INT, nullable=False),
        sa.Column("points_num", BIG, nullable=False),
        sa.Column("points_den", BIG, sa.CheckConstraint("points_den > 0"), nullable=False),
        sa.Column("score", BIG, nullable=False),
        sa.Column("tickets_done", BIG, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "round", "table_no", "user_id"),
        sa.ForeignKeyConstraint(
            ["tournament_id", "round", "table_no"],
            ["tournament_tables.tournament_id", "tournament_tables.round", "tournament_tables.table_no"],
        ),
        **NO_ROWID,
    )
    op.create_table(
        "tournament_audit",
        counter(),
        sa.Column("tournament_id", BIG, sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("user_id", BIG),  # who acted; NULL: the bot itself (a table's game ended)
        sa.Column("action", TEXT, nullable=False),
        sa.Column("details", TEXT, nullable=False),  # JSON
        sa.Column("reason", TEXT, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
    )
    op.create_index("tournament_audit_tournament", "tournament_audit", ["tournament_id", "id"])
