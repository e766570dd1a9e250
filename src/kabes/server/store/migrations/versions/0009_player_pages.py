"""A player's page (PROTOCOL.md, "Players, replays and rankings"): each match keeps whether
it was at a public table, whether it was abandoned, its scores and who sat where, and each
of its players its start (a player's newest matches read from one index); each
tournament its variant and host's name; and who entered which tournament, with their place
once it is over.

The matches and tournaments kept before are filled in from what the store already holds: a
table's ``created`` entry says whether it was public, a record's result whether it was
abandoned and its scores, a tournament's ``created`` entry its variant and host, its
``entered`` entries who entered. (Places of tournaments over before this are not worked out:
they show without one; who sat where is read from the match's players instead.)

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"

AT_ONCE = 1000
"""Matches read, and updated in one statement, at a time while filling in."""


def upgrade() -> None:
    """Add the columns and the table, then fill them in from the logs and records."""
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("abandoned", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("scores", sa.Text, nullable=True))
        batch.add_column(sa.Column("seats", sa.Text, nullable=True))
    with op.batch_alter_table("match_players") as batch:
        batch.add_column(sa.Column("started_at", sa.Float, nullable=False,
                                   server_default="0"))
    op.create_index("ix_match_players_player_started", "match_players",
                    ["player", "started_at"])
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("variant", sa.String(32), nullable=True))
        batch.add_column(sa.Column("host_name", sa.String(64), nullable=True))
    op.create_table(
        "tournament_players",
        sa.Column("tournament", sa.String(16), primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("place", sa.Integer, nullable=True),
        sa.Column("entrants", sa.Integer, nullable=True),
    )
    op.create_index("ix_tournament_players_player", "tournament_players", ["player"])
    _fill(op.get_bind())


def _fill(conn: sa.Connection) -> None:
    conn.execute(sa.text(
        "UPDATE match_players SET started_at = (SELECT matches.started_at FROM matches "
        "WHERE matches.code = match_players.code) "
        "WHERE EXISTS (SELECT 1 FROM matches WHERE matches.code = match_players.code)"))
    matches = sa.table("matches", sa.column("code"), sa.column("record"),
                       sa.column("public"), sa.column("abandoned"), sa.column("scores"))
    events = sa.table("table_events", sa.column("code"), sa.column("seq"), sa.column("data"))
    # Page by code, a thousand matches at a time: a store of millions of matches is filled
    # in without holding their records (or even their codes) all at once.
    last = ""
    while True:
        rows = conn.execute(
            sa.select(matches.c.code, matches.c.record, events.c.data)
            .select_from(matches.outerjoin(
                events, sa.and_(events.c.code == matches.c.code, events.c.seq == 1)))
            .where(matches.c.code > last).order_by(matches.c.code).limit(AT_ONCE)).all()
        if not rows:
            break
        last = str(rows[-1][0])
        filled = []
        for code, record, created in rows:
            result = _json(record).get("result") if record is not None else None
            result = result if isinstance(result, dict) else {}
            scores = result.get("scores")
            filled.append({
                "key": code, "public": _json(created).get("public") is True,
                "abandoned": result.get("abandoned") is True,
                "scores": json.dumps(scores) if isinstance(scores, list) else None})
        conn.execute(matches.update().where(matches.c.code == sa.bindparam("key"))
                     .values(public=sa.bindparam("public"),
                             abandoned=sa.bindparam("abandoned"),
                             scores=sa.bindparam("scores")), filled)
    tournaments = sa.table("tournaments", sa.column("id"), sa.column("variant"),
                           sa.column("host_name"))
    logs = sa.table("tournament_events", sa.column("tournament"), sa.column("seq"),
                    sa.column("kind"), sa.column("data"))
    made = []
    entered: dict[tuple[str, int], dict[str, Any]] = {}
    for tid, kind, data in conn.execute(
            sa.select(logs.c.tournament, logs.c.kind, logs.c.data)
            .where(logs.c.kind.in_(("created", "entered")))):
        found = _json(data)
        if kind == "created":
            made.append({"key": tid, "variant": found.get("variant"),
                         "host_name": found.get("name")})
        elif isinstance(found.get("player"), int):
            entered[tid, found["player"]] = {"tournament": tid, "player": found["player"]}
    if made:
        conn.execute(tournaments.update().where(tournaments.c.id == sa.bindparam("key"))
                     .values(variant=sa.bindparam("variant"),
                             host_name=sa.bindparam("host_name")), made)
    if entered:
        players = sa.table("tournament_players", sa.column("tournament"), sa.column("player"))
        conn.execute(players.insert(), list(entered.values()))


def _json(text: Any) -> dict[str, Any]:
    try:
        found = json.loads(text)
    except (TypeError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def downgrade() -> None:
    """Drop them (what they held is in the logs and records still)."""
    op.drop_index("ix_tournament_players_player", "tournament_players")
    op.drop_table("tournament_players")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("host_name")
        batch.drop_column("variant")
    op.drop_index("ix_match_players_player_started", "match_players")
    with op.batch_alter_table("match_players") as batch:
        batch.drop_column("started_at")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("seats")
        batch.drop_column("scores")
        batch.drop_column("abandoned")
        batch.drop_column("public")
