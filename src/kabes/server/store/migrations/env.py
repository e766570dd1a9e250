"""Alembic's environment: migrations run on the connection the server hands over."""

from __future__ import annotations

from alembic import context

from kabes.server.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("kabes migrations run from the server (kabes serve), on its connection")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
