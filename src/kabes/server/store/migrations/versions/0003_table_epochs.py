"""Ownership epochs: each table's current epoch and owner, and the epoch of every log entry.

A process that takes a table raises its epoch; the store refuses an entry whose epoch is not
the table's (docs/scaling.md), so a process that lost a table can never write into it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    """Add the epoch and owner of each table, and the epoch of each entry."""
    op.add_column("tables", sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
    op.add_column("tables", sa.Column("owner", sa.String(128), nullable=True))
    op.add_column(
        "table_events", sa.Column("epoch", sa.Integer, nullable=False, server_default="0")
    )


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("table_events") as batch:
        batch.drop_column("epoch")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("owner")
        batch.drop_column("epoch")
