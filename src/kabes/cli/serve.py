"""``kabes serve``: the table server on SQLite (default) or PostgreSQL, with uvicorn; with
``--redis``, one of many processes sharing a PostgreSQL store (docs/scaling.md). The server
is assembled by kabes.server.assembly; this command only configures the logs, says where it
serves and runs it."""

from __future__ import annotations

from pathlib import Path

from kabes.server.assembly import assemble
from kabes.server.common.config import ServerConfig
from kabes.server.common.logs import configure


def serve(config: ServerConfig) -> None:
    """Run the server until interrupted; prints the address to open first."""
    configure(config.log_level)
    server = assemble(config, Path.cwd())
    print(f"Kabès is serving at {server.address}  (store: {server.store})", flush=True)
    server.run()
