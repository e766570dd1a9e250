"""Link codes and a player's further tokens: one player on every phone (PROTOCOL.md).

A code made on one device (``POST /api/me/link``) gives another device a token of its own for
the same player (``POST /api/link``); the store keeps only hashes of both.

Revision ID: 0005
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0003"


def upgrade() -> None:
    """Create ``link_codes`` and ``player_tokens``."""
    op.create_table(
        "link_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player", sa.Integer, nullable=False, unique=True),
        sa.Column("expires_at", sa.Float, nullable=False, index=True),
    )
    op.create_table(
        "player_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player", sa.Integer, nullable=False, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("player_tokens")
    op.drop_table("link_codes")
