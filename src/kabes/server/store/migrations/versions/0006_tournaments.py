"""Tournaments: one row each, its append-only log, and one row per round paired.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    """Create the tournaments' tables."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("host", sa.Integer, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_events",
        sa.Column("tournament", sa.String(16), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament", sa.String(16), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("paired_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("tournament_rounds")
    op.drop_table("tournament_events")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
