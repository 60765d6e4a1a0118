"""Direct messages held for later (bot/notify.py); the schema as the bot had it when its history became Alembic's.

Revision ID: 0016_baseline
Revises: 0011_stage_buttons

A member's quiet hours, or a "your turn" note the member wants only once a turn has waited some hours. Each is
sent once when due (deleted as it is taken), and a note about a wait that is over by then (`wait`: the seat's wait
key, like "turn:12") is dropped instead.

It keeps the id it had as the first revision of the Alembic history, when it changed nothing and the numbered SQL
migrations (ending with 0016, this table; 12 to 15 never existed) ran before it: databases of the bot from then
have it recorded in alembic_version, so it is the revision they are at.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions.types import BIG, TEXT, TIME, counter

revision = "0016_baseline"
down_revision = "0011_stage_buttons"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "held_messages",
        counter(),
        sa.Column("user_id", BIG, nullable=False),
        sa.Column("game_id", BIG),
        # what the message is: turn, start, reminder, played_for, seat, away
        sa.Column("kind", TEXT, nullable=False),
        sa.Column("wait", TEXT),  # the wait it is about (NULL: about no wait, always sent)
        sa.Column("text", TEXT, nullable=False),
        sa.Column("due_at", TIME, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
    )
    op.create_index("held_messages_due", "held_messages", ["due_at"])
    op.create_index("held_messages_user", "held_messages", ["user_id"])
