"""Rating history: a player's rating in a variant after each rated hand, thinned to one a day
past the latest 100 (PROTOCOL.md, "Players, replays and rankings"; kabes.server.store.history).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    """Create the table of rating points and its index by (player, variant, id)."""
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("day", sa.Integer, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_player_variant_id", "rating_history",
                    ["player", "variant", "id"])


def downgrade() -> None:
    """Drop it (the ratings themselves stay in ``ratings``)."""
    op.drop_index("ix_rating_history_player_variant_id", "rating_history")
    op.drop_table("rating_history")
