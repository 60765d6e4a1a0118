"""What the Discord front end keeps: the fingerprint of the slash commands as last synced (per target), and the
users who refuse direct messages.

Revision ID: 0003_discord
Revises: 0002_timers_and_messages
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions.types import BIG, TEXT, TIME, key

revision = "0003_discord"
down_revision = "0002_timers_and_messages"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "command_syncs",
        key("target", TEXT),  # 'global' or 'guild:<id>'
        sa.Column("digest", TEXT, nullable=False),  # sha256 of the command definitions synced
        sa.Column("synced_at", TIME, nullable=False),
    )
    op.create_table(
        "dm_refusals",
        key("user_id", BIG),  # Discord answered 50007: cannot send messages to this user
        sa.Column("refused_at", TIME, nullable=False),
    )
