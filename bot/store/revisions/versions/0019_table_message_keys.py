"""One message under several stage keys: the live table (bot/table/live_table.py) is one message edited for
every placement and turn, each recorded under its own key.

Revision ID: 0019_table_message_keys
Revises: 0018_plans

Written once for both stores (SQLite and PostgreSQL) with `op`. The unique
index on `messages.message_id` refused (silently: the records are inserted
or ignored) every key after a message's first, so the table's later stages
looked unshown after a restart. A row stays unique by its key (game, kind,
message); the message id keeps a plain index, by which a message's buttons
mark is cleared and its records deleted.
"""

from __future__ import annotations

from alembic import op

revision = "0019_table_message_keys"
down_revision = "0018_plans"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("messages_id", table_name="messages")
    op.create_index("messages_message", "messages", ["message_id"])
