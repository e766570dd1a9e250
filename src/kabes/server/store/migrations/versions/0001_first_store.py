"""The first store: players, tables and their logs, matches, ratings, server heartbeats.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    """Create every table of the first store."""
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "table_events",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action", sa.String(64), nullable=True),
    )
    op.create_table(
        "matches",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("record", sa.Text, nullable=True),
    )
    op.create_table(
        "match_players",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.Integer, nullable=False, index=True),
        sa.Column("won", sa.Boolean, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("hands_won", sa.Integer, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("matches_won", sa.Integer, nullable=False),
    )
    op.create_table(
        "servers",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("heartbeat_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop every table of the first store."""
    for name in ("servers", "ratings", "match_players", "matches", "table_events", "tables",
                 "players"):
        op.drop_table(name)
