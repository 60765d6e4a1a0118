"""Durable timers (turn deadlines, reminders) and the messages the bot posted for a game, so that both survive a
restart.

Revision ID: 0002_timers_and_messages
Revises: 0001_initial
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions.types import BIG, NO_ROWID, TEXT, TIME, counter

revision = "0002_timers_and_messages"
down_revision = "0001_initial"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "timers",
        counter(),
        sa.Column("game_id", BIG, sa.ForeignKey("games.id")),
        sa.Column("kind", TEXT, nullable=False),
        sa.Column("deadline", TIME, nullable=False),
        sa.Column("data", TEXT, nullable=False, server_default="{}"),  # JSON
        sa.Column("created_at", TIME, nullable=False),
    )
    op.create_index("timers_deadline", "timers", ["deadline"])
    op.create_index("timers_game", "timers", ["game_id", "kind"])
    op.create_table(
        "messages",
        sa.Column("game_id", BIG, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("kind", TEXT, nullable=False),  # what the message shows: lobby, turn, board, ...
        sa.Column("channel_id", BIG, nullable=False),
        sa.Column("message_id", BIG, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "kind", "message_id"),
        **NO_ROWID,
    )
    op.create_index("messages_id", "messages", ["message_id"], unique=True)
