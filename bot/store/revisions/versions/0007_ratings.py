"""Per-server OpenSkill ratings (bot/service/ratings.py).

Revision ID: 0007_ratings
Revises: 0006_member_settings

`map` is '' for the overall rating, else the map's key: every rated game updates both the overall and its map's
rating.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.store.revisions.types import BIG, INT, NO_ROWID, REAL, TEXT, TIME, key

revision = "0007_ratings"
down_revision = "0006_member_settings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("guild_id", BIG, nullable=False),
        sa.Column("map", TEXT, nullable=False),  # '' = all maps
        sa.Column("user_id", BIG, nullable=False),
        sa.Column("mu", REAL, nullable=False),
        sa.Column("sigma", REAL, nullable=False),
        sa.Column("games", BIG, nullable=False),
        sa.Column("wins", BIG, nullable=False),
        sa.Column("display_name", TEXT, nullable=False),  # as at the member's last rated game
        sa.Column("updated_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "map", "user_id"),
        **NO_ROWID,
    )
    op.create_index("ratings_member", "ratings", ["guild_id", "user_id"])
    # One row per game the ratings have taken into account: its key makes rating a game happen once.
    # `rated` 0: considered and left out (fewer than two members at the end).
    op.create_table(
        "rated_games",
        key("game_id", BIG, sa.ForeignKey("games.id")),
        sa.Column("guild_id", BIG, nullable=False),
        sa.Column("map", TEXT, nullable=False),
        sa.Column("kind", TEXT, nullable=False),  # 'casual' or 'tournament'
        sa.Column("rated", INT, nullable=False),
        sa.Column("rated_at", TIME, nullable=False),
    )
    # Each member's result in a rated game, and the overall rating before and after it.
    op.create_table(
        "rating_results",
        sa.Column("game_id", BIG, sa.ForeignKey("rated_games.game_id"), nullable=False),
        sa.Column("user_id", BIG, nullable=False),
        sa.Column("place", BIG, nullable=False),  # 1 = first; tied members share a place
        sa.Column("score", BIG, nullable=False),
        sa.Column("tickets_done", BIG, nullable=False),
        sa.Column("tickets_total", BIG, nullable=False),
        sa.Column("mu_before", REAL, nullable=False),
        sa.Column("sigma_before", REAL, nullable=False),
        sa.Column("mu_after", REAL, nullable=False),
        sa.Column("sigma_after", REAL, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
        **NO_ROWID,
    )
    op.create_index("rating_results_member", "rating_results", ["user_id"])
