"""Each member's own settings, the same in every server (a key per setting), as JSON values. A member without a
row has the defaults.

Revision ID: 0006_member_settings
Revises: 0005_heartbeat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions.types import BIG, NO_ROWID, TEXT, TIME

revision = "0006_member_settings"
down_revision = "0005_heartbeat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "member_settings",
        sa.Column("user_id", BIG, nullable=False),
        sa.Column("key", TEXT, nullable=False),
        sa.Column("value", TEXT, nullable=False),  # JSON
        sa.Column("updated_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "key"),
        **NO_ROWID,
    )
