"""The baseline: the schema as the numbered migrations left it at 0016 (held_messages).

Revision ID: 0016_baseline
Revises:

Nothing to do here: when the history runs, every database already has this
schema. The numbered migrations before it (bot/store/migrations/, SQLite's
SQL files and their PostgreSQL twins, frozen: nothing is added there any more)
make it in a new database, or bring an older one up to it, just before
(`bot.store.revisions.upgrade_sqlite` / `upgrade_postgres`). A database made
by the bot before this history existed is at 0016 and gets this revision
recorded (stamped) at its first start, with nothing else changed.
"""

from __future__ import annotations

revision = "0016_baseline"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass
