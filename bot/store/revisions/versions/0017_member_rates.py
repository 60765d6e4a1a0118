"""member_rates: each member's last admitted requests, so that every bot process counts them against one limit.

Revision ID: 0017_member_rates
Revises: 0016_baseline

Written once for both stores (SQLite and PostgreSQL) with `op`. One row per
member who sent a command, click or menu choice lately (bot/views/ratelimit.py,
`bot.store.parts.rates`): `moments` is a JSON list of the wall-clock moments
(epoch seconds) of the requests admitted in the window, `last_at` the newest
of them, by which rows whose window has emptied are swept away.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_member_rates"
down_revision = "0016_baseline"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "member_rates",
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("moments", sa.Text(), nullable=False),
        sa.Column("last_at", sa.Double(), nullable=False),
    )
    op.create_index("member_rates_last_at", "member_rates", ["last_at"])
