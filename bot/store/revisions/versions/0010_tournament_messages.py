"""The tournament's message (its settings, players and buttons) in its channel: kept, so that after a restart the
bot goes on updating the same message (bot/table/tournaments.py). One per tournament.

Revision ID: 0010_tournament_messages
Revises: 0009_tournaments
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions.types import BIG, key

revision = "0010_tournament_messages"
down_revision = "0009_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_messages",
        key("tournament_id", BIG, sa.ForeignKey("tournaments.id")),
        sa.Column("channel_id", BIG, nullable=False),
        sa.Column("message_id", BIG, nullable=False),
    )
