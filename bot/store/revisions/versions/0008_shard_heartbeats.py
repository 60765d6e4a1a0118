"""One heartbeat per shard: the heartbeat's table loses its one-row check.

Revision ID: 0008_shard_heartbeats
Revises: 0007_ratings

Several bot processes (shards) each note that they run, so that a process restarted after an outage forgives its
own shards' time down, not the others'. Row 1 stays the unsharded bot's; a shard's row is 1000 * shard count +
shard id (bot/store/shards.py).

PostgreSQL drops the check (its name is PostgreSQL's own); SQLite cannot drop a constraint, so Alembic's batch
mode copies the table into one without it. The table as 0005 left it is given (SQLite does not name the
check, so reading it back would not find the one to drop).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions.types import INT, TIME, key

revision = "0008_shard_heartbeats"
down_revision = "0007_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    before = sa.Table(
        "heartbeat",
        sa.MetaData(),
        key("id", INT),
        sa.Column("alive_at", TIME, nullable=False),
        sa.CheckConstraint("id = 1", name="heartbeat_id_check"),
    )
    with op.batch_alter_table("heartbeat", copy_from=before) as batch:
        batch.drop_constraint("heartbeat_id_check", type_="check")
