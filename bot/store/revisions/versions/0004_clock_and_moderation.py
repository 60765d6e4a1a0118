"""Turn clocks, autopilot seats, moderation with its audit trail, and undo.

Revision ID: 0004_clock_and_moderation
Revises: 0003_discord

A game's clock settings live in games.options (JSON, key "clock"); what changes while it runs lives here. Every
table below is written in the same transaction as the move or moderator action that changes it, together with
the game's timers (0002).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions import triggers
from bot.store.revisions.types import BIG, INT, NO_ROWID, REAL, TEXT, TIME, counter, key, zero

revision = "0004_clock_and_moderation"
down_revision = "0003_discord"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A seat the autopilot plays (handed over by a moderator). Seats of autopilot players that filled empty
    # places have negative user ids and are always played by the autopilot, whatever this says.
    op.add_column("seats", sa.Column("autopilot", INT, nullable=False, server_default=zero()))
    # Who made a move: the player ('player'), the autopilot for an autopilot seat ('autopilot'), or the
    # autopilot because the player's time ran out ('timeout').
    op.add_column("moves", sa.Column("actor", TEXT, nullable=False, server_default="player"))
    # The clock of a running game: set while a moderator has paused it.
    op.create_table(
        "game_clocks",
        key("game_id", BIG, sa.ForeignKey("games.id")),
        sa.Column("paused_at", TIME),  # NULL when running
        sa.Column("paused_by", BIG),  # the moderator who paused it
    )
    # Each seat's clock: the wait it is in (if it must act), time used, timeouts.
    op.create_table(
        "seat_clocks",
        sa.Column("game_id", BIG, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", BIG, nullable=False),
        sa.Column("wait", TEXT),  # which wait the seat is in; NULL when it need not act
        sa.Column("since", TIME),  # when that wait began (moved on by pauses)
        sa.Column("extra_seconds", REAL, nullable=False, server_default=zero()),  # moderator extensions of this wait
        sa.Column("reminded", BIG, nullable=False, server_default=zero()),  # reminders already sent in this wait
        sa.Column("timed_out", INT, nullable=False, server_default=zero()),  # this wait ran out of time
        sa.Column("reserve_used", REAL, nullable=False, server_default=zero()),  # reserve seconds used in the game
        sa.Column("timeouts", BIG, nullable=False, server_default=zero()),  # waits that ran out of time in the game
        sa.PrimaryKeyConstraint("game_id", "seat"),
        **NO_ROWID,
    )
    # Moderator actions, and what the bot did on its own authority (timeouts: moderator_user_id NULL).
    # Never changed once written.
    op.create_table(
        "audit_log",
        counter(),
        sa.Column("game_id", BIG, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("moderator_user_id", BIG),
        sa.Column("action", TEXT, nullable=False),
        sa.Column("details", TEXT, nullable=False, server_default="{}"),  # JSON
        sa.Column("reason", TEXT, nullable=False, server_default=""),
        sa.Column("created_at", TIME, nullable=False),
    )
    op.create_index("audit_log_game", "audit_log", ["game_id", "id"])
    # Moves a moderator took back, kept for the audit under the undo that took them.
    op.create_table(
        "undone_moves",
        sa.Column("audit_id", BIG, sa.ForeignKey("audit_log.id"), nullable=False),
        sa.Column("game_id", BIG, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("idx", BIG, nullable=False),
        sa.Column("move", TEXT, nullable=False),
        sa.Column("user_id", BIG),
        sa.Column("actor", TEXT, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("audit_id", "idx"),
        **NO_ROWID,
    )
    op.create_index("undone_moves_game", "undone_moves", ["game_id", "idx"])
    # The audit log is append-only; the move log loses moves only to an undo, which keeps them in undone_moves.
    triggers.install(revision)
