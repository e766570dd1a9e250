"""Lessons finished, per player: a guest's progress follows them to every device.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    """Create the table of finished lessons."""
    op.create_table(
        "lesson_progress",
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("lesson", sa.String(64), primary_key=True),
        sa.Column("finished_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("lesson_progress")
