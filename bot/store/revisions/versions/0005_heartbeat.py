"""When the bot was last seen running: written every minute while it runs and at a clean shutdown, so that at
start-up the time it was down is known (that time does not count on the turn clocks).

Revision ID: 0005_heartbeat
Revises: 0004_clock_and_moderation
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions.types import INT, TIME, key

revision = "0005_heartbeat"
down_revision = "0004_clock_and_moderation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "heartbeat",
        key("id", INT, sa.CheckConstraint("id = 1")),  # one row
        sa.Column("alive_at", TIME, nullable=False),
    )
