"""plans: each player's planned turn, played by the bot when their turn comes (bot/service/plans.py).

Revision ID: 0018_plans
Revises: 0017_member_rates

Written once for both stores (SQLite and PostgreSQL) with `op`. One row per seat of a running game that has a
plan: `items` is the plan as JSON (bot/service/plan_eval.py, `plan_text`), `user_id` the member who set it,
`set_at` when. The row goes in the same transaction as the first move the plan makes, as any move of the seat's
own, and as a moderator's undo or seat change (bot/store/parts/versioned.py, `apply_writes`).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions.types import BIG, NO_ROWID, TEXT, TIME

revision = "0018_plans"
down_revision = "0017_member_rates"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "plans",
        sa.Column("game_id", BIG, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", BIG, nullable=False),
        sa.Column("user_id", BIG, nullable=False),
        sa.Column("items", TEXT, nullable=False),
        sa.Column("set_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat"),
        **NO_ROWID,
    )
