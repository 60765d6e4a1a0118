"""Which stage messages may still carry buttons (bot/table/stage.py).

Revision ID: 0011_stage_buttons
Revises: 0010_tournament_messages

A stage message posted with buttons is marked in the same write that records it; the mark is cleared once its
buttons are taken off, or given up on (the message was deleted or cannot be edited). A crash between posting a
new stage message and taking the buttons off the one before leaves the older one marked, and the next start takes
them off then.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions.types import INT, zero

revision = "0011_stage_buttons"
down_revision = "0010_tournament_messages"
branch_labels = None
depends_on = None

# The buttons live now: the newest stage message of every game being played, when it is not the final one.
LIVE = """UPDATE messages SET buttons = 1
WHERE (kind = 'setup' OR kind LIKE 'setup#%' OR kind LIKE 'place:%' OR kind LIKE 'turn:%')
  AND game_id IN (SELECT id FROM games WHERE status IN ('setup', 'playing'))
  AND NOT EXISTS (
      SELECT 1 FROM messages AS newer
      WHERE newer.game_id = messages.game_id
        AND (newer.kind = 'setup' OR newer.kind LIKE 'setup#%' OR newer.kind LIKE 'place:%'
             OR newer.kind LIKE 'turn:%' OR newer.kind = 'final' OR newer.kind LIKE 'final#%')
        AND (newer.created_at > messages.created_at
             OR (newer.created_at = messages.created_at AND newer.message_id > messages.message_id))
  )"""


def upgrade() -> None:
    op.add_column("messages", sa.Column("buttons", INT, nullable=False, server_default=zero()))
    op.execute(sa.text(LIVE))
    op.create_index(
        "messages_buttons",
        "messages",
        ["game_id"],
        sqlite_where=sa.text("buttons = 1"),
        postgresql_where=sa.text("buttons = 1"),
    )
