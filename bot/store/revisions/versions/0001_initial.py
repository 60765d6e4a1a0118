"""The first schema: guild settings, games, seats, the move log and snapshots.

Revision ID: 0001_initial
Revises:

Times are UTC ISO-8601 texts with microseconds, so they sort as texts; JSON is text (types.py).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions import triggers
from bot.store.revisions.types import BIG, NO_ROWID, TEXT, TIME, counter, key, zero

revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None

ACTIVE = "status IN ('lobby', 'setup', 'playing')"


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", BIG, nullable=False),
        sa.Column("key", TEXT, nullable=False),
        sa.Column("value", TEXT, nullable=False),  # JSON
        sa.Column("updated_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "key"),
        **NO_ROWID,
    )
    op.create_table(
        "games",
        counter(),
        sa.Column("guild_id", BIG, nullable=False),
        sa.Column("channel_id", BIG, nullable=False),
        sa.Column("host_user_id", BIG, nullable=False),
        sa.Column("map", TEXT, nullable=False),
        sa.Column("options", TEXT, nullable=False, server_default="{}"),  # JSON: max_players, trains
        sa.Column("seed", TEXT),  # set when the game starts
        sa.Column("cards", TEXT),  # JSON: the card deck as dealt, top first
        sa.Column("tickets", TEXT),  # JSON: the ticket ids as dealt, top first
        sa.Column(
            "status",
            TEXT,
            sa.CheckConstraint("status IN ('lobby', 'setup', 'playing', 'finished', 'cancelled')"),
            nullable=False,
        ),
        # bumped by every change; stale buttons carry an old one
        sa.Column("version", BIG, nullable=False, server_default=zero()),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.CheckConstraint("(status = 'lobby') = (seed IS NULL) OR status = 'cancelled'"),
    )
    # One active game per channel, enforced here so that two simultaneous
    # "new game" commands (in one process or two) cannot both succeed.
    op.create_index(
        "games_active_channel",
        "games",
        ["channel_id"],
        unique=True,
        sqlite_where=sa.text(ACTIVE),
        postgresql_where=sa.text(ACTIVE),
    )
    op.create_index("games_status", "games", ["status"])
    op.create_table(
        "seats",
        sa.Column("game_id", BIG, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("user_id", BIG, nullable=False),
        sa.Column("display_name", TEXT, nullable=False),
        sa.Column("joined", BIG, nullable=False),  # join order, for the lobby and the next host
        sa.Column("seat", BIG),  # seat order, set when the game starts
        sa.Column("player", TEXT),  # the unique name the engine and the record use
        sa.Column("joined_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
        sa.UniqueConstraint("game_id", "seat"),
        sa.UniqueConstraint("game_id", "player"),
        **NO_ROWID,
    )
    op.create_index("seats_user", "seats", ["user_id"])
    op.create_table(
        "moves",
        sa.Column("game_id", BIG, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("idx", BIG, nullable=False),  # 0-based position in the game record's moves
        sa.Column("move", TEXT, nullable=False),  # JSON, as in the game record
        sa.Column("user_id", BIG),
        sa.Column("created_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "idx"),
        **NO_ROWID,
    )
    # The move log is the game: it only grows, one index after the other.
    triggers.install(revision)
    # The latest snapshot of each game; only a cache of the move log.
    op.create_table(
        "snapshots",
        key("game_id", BIG, sa.ForeignKey("games.id")),
        sa.Column("move_count", BIG, nullable=False),
        sa.Column("data", TEXT, nullable=False),  # JSON, engine/snapshot.py
        sa.Column("updated_at", TIME, nullable=False),
    )
