"""The store's tables (SQLAlchemy Core). Alembic's migrations under ``migrations/`` create
exactly these; a change here needs a new migration."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("epoch", sa.Integer, nullable=False, server_default="0"),
    sa.Column("owner", sa.String(128), nullable=True),
)

table_events = sa.Table(
    "table_events",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("action", sa.String(64), nullable=True),
    sa.Column("epoch", sa.Integer, nullable=False, server_default="0"),
)

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("variant", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("finished", sa.Boolean, nullable=False),
    sa.Column("record", sa.Text, nullable=True),
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("abandoned", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("scores", sa.Text, nullable=True),
    sa.Column("seats", sa.Text, nullable=True),
)
"""One row a match. ``public``: played at a public table (its code may be shown to anyone);
``abandoned``: ended by the server with nobody left (its record's result says so);
``scores``: each party's score after the last hand ended (JSON, null before one has);
``seats``: who sat where when it began (JSON ``[[player or null, name or null]...]``, a
computer's both null; null for matches begun before it was kept)."""

match_players = sa.Table(
    "match_players",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player", sa.Integer, nullable=False, index=True),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("started_at", sa.Float, nullable=False, server_default="0"),
    sa.Index("ix_match_players_player_started", "player", "started_at"),
)
"""Who sat in each match; ``started_at`` is the match's (as ``matches``'), so that a
player's newest matches are read from the index alone (kabes.server.store.players)."""

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("player", sa.Integer, primary_key=True),
    sa.Column("variant", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("hands", sa.Integer, nullable=False),
    sa.Column("hands_won", sa.Integer, nullable=False),
    sa.Column("matches", sa.Integer, nullable=False),
    sa.Column("matches_won", sa.Integer, nullable=False),
)

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player", sa.Integer, nullable=False),
    sa.Column("variant", sa.String(32), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("day", sa.Integer, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Index("ix_rating_history_player_variant_id", "player", "variant", "id"),
)
"""A player's rating in a variant after each rated hand, thinned as it is written
(kabes.server.store.history): ``day`` is the UTC day of ``at`` (seconds)."""

servers = sa.Table(
    "servers",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("heartbeat_at", sa.Float, nullable=False),
)

lesson_progress = sa.Table(
    "lesson_progress",
    metadata,
    sa.Column("player", sa.Integer, primary_key=True),
    sa.Column("lesson", sa.String(64), primary_key=True),
    sa.Column("finished_at", sa.Float, nullable=False),
)

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("host", sa.Integer, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("variant", sa.String(32), nullable=True),
    sa.Column("host_name", sa.String(64), nullable=True),
)
"""One row a tournament, for finding the public ones (and a player's, with its variant and
host's name); what it is lives in its events."""

tournament_players = sa.Table(
    "tournament_players",
    metadata,
    sa.Column("tournament", sa.String(16), primary_key=True),
    sa.Column("player", sa.Integer, primary_key=True),
    sa.Column("place", sa.Integer, nullable=True),
    sa.Column("entrants", sa.Integer, nullable=True),
    sa.Index("ix_tournament_players_player", "player"),
)
"""Who entered each tournament (a row from their first ``entered`` entry; those left without
a partner at the start are dropped) and, once it is over, their entrant's place of
``entrants`` (kabes.server.tournaments.store): a player's page lists them."""

tournament_events = sa.Table(
    "tournament_events",
    metadata,
    sa.Column("tournament", sa.String(16), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
"""Each tournament's append-only log; (tournament, seq) unique, so of two processes writing
the same next entry one is refused and reads again."""

tournament_rounds = sa.Table(
    "tournament_rounds",
    metadata,
    sa.Column("tournament", sa.String(16), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("paired_at", sa.Float, nullable=False),
)
"""One row per round paired, written with its ``paired`` entry: a round is paired once."""

link_codes = sa.Table(
    "link_codes",
    metadata,
    sa.Column("code_hash", sa.String(64), primary_key=True),
    sa.Column("player", sa.Integer, nullable=False, unique=True),
    sa.Column("expires_at", sa.Float, nullable=False, index=True),
)
"""Codes that link another device to a player (``POST /api/me/link``): one live code per
player, kept as a hash, deleted when used."""

player_tokens = sa.Table(
    "player_tokens",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("player", sa.Integer, nullable=False, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
)
"""A player's further tokens, one per linked device (the first is ``players.token_hash``)."""

waiting_seats = sa.Table(
    "waiting_seats",
    metadata,
    sa.Column("player", sa.Integer, primary_key=True),
    sa.Column("code", sa.String(16), primary_key=True, index=True),
    sa.Column("held_at", sa.Float, nullable=False),
)
"""The seats each player holds at tables waiting to start (a tournament's tables aside): one
row a (player, table), taken before the seat's entry is written and dropped in the same
transaction as the entry that frees it (kabes.server.table.seat_holds)."""

puzzles = sa.Table(
    "puzzles",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("variant", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("difficulty", sa.Integer, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("made_at", sa.Float, nullable=False),
    sa.Index("ix_puzzles_variant_mu", "variant", "mu"),
)
"""One row a puzzle (kabes.server.store.puzzles): its stable key as id, its own openskill
rating (moved by each player's first try, as a player's is) and the whole puzzle with its
proof as JSON (``kabes.puzzles.model.Puzzle.to_dict``)."""

puzzle_attempts = sa.Table(
    "puzzle_attempts",
    metadata,
    sa.Column("player", sa.Integer, primary_key=True),
    sa.Column("puzzle", sa.String(64), primary_key=True),
    sa.Column("move", sa.String(32), nullable=False),
    sa.Column("correct", sa.Boolean, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
"""A player's first try of a puzzle: one row a (player, puzzle), so only the first try counts
(a later one is answered and changes nothing)."""

puzzle_players = sa.Table(
    "puzzle_players",
    metadata,
    sa.Column("player", sa.Integer, primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("tried", sa.Integer, nullable=False),
    sa.Column("solved", sa.Integer, nullable=False),
    sa.Column("streak", sa.Integer, nullable=False),
    sa.Column("best_streak", sa.Integer, nullable=False),
)
"""A player's puzzle rating (openskill, as the tables') and counts: ``streak`` the correct
first tries in a row up to the latest."""

puzzle_days = sa.Table(
    "puzzle_days",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("variant", sa.String(32), primary_key=True),
    sa.Column("puzzle", sa.String(64), nullable=False),
)
"""The puzzle of each day (ISO date in the server's time zone) per variant (``""``: any
variant): written once, by the first ask of that day; everyone reads the same row."""
