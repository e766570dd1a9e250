"""Seats held at tables waiting to start, one row a (player, table): at most 3 a player
(PROTOCOL.md, "Safe for strangers": seats held at once; kabes.server.table.seat_holds).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    """Create the table of waiting seats."""
    op.create_table(
        "waiting_seats",
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("held_at", sa.Float, nullable=False),
    )
    op.create_index("ix_waiting_seats_code", "waiting_seats", ["code"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_waiting_seats_code", "waiting_seats")
    op.drop_table("waiting_seats")
