"""Puzzles (PROTOCOL.md, "Puzzles"): the puzzles with their proofs and ratings, each player's
first try of each, each player's puzzle rating and streak, and the puzzle of each day.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    """Create the four tables (empty: puzzles are made by ``kabes puzzles make``)."""
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("difficulty", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("made_at", sa.Float, nullable=False),
    )
    op.create_index("ix_puzzles_variant_mu", "puzzles", ["variant", "mu"])
    op.create_table(
        "puzzle_attempts",
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column("move", sa.String(32), nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzle_players",
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("tried", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzle_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("puzzle", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("puzzle_days")
    op.drop_table("puzzle_players")
    op.drop_table("puzzle_attempts")
    op.drop_index("ix_puzzles_variant_mu", "puzzles")
    op.drop_table("puzzles")
