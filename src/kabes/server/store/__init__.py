"""The store (SQLAlchemy 2 on SQLite or PostgreSQL): the schema and its Alembic migrations,
each table's append-only log and what one group commit writes, players, matches, ratings and
link codes.

May import: ``kabes.table`` (the log's entry types), the engine, and the server's shared
modules at its root. Nothing that runs tables, sockets or routes.
"""
