"""``kabes serve``: the table server on SQLite (default) or PostgreSQL, with uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from pathlib import Path

import uvicorn

from kabes.server.app import create_app
from kabes.server.computers import warm_up, worker_pool
from kabes.server.logs import configure
from kabes.server.store import database_url
from kabes.server.table import Settings

PING_SECONDS = 10.0
"""WebSocket pings: a phone that drops off the network is noticed within seconds."""


def serve(
    host: str,
    port: int,
    db: str | None,
    settings: Settings,
    workers: int | None,
    log_level: str,
) -> None:
    """Run the server until interrupted; prints the address to open first."""
    configure(log_level)
    url = database_url(db or os.environ.get("KABES_DATABASE_URL"), Path.cwd())
    size = workers or os.cpu_count() or 1
    pool = worker_pool(size)
    warm_up(pool, size)
    app = create_app(url, settings, executor=pool)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=4096,
        ws_ping_interval=PING_SECONDS,
        ws_ping_timeout=PING_SECONDS,
        log_level="warning",
        access_log=False,
        loop="uvloop" if sys.platform != "win32" else "asyncio",
        http="httptools",
        timeout_graceful_shutdown=3,
    )
    server = uvicorn.Server(config)
    shown = "[::1]" if host == "::1" else host
    where = "SQLite file " + url.split("///", 1)[1] if url.startswith("sqlite") else "PostgreSQL"
    print(f"Kabès is serving at http://{shown}:{port}/  (store: {where})", flush=True)
    try:
        asyncio.run(server.serve())
    finally:
        with contextlib.suppress(Exception):
            pool.shutdown(wait=False, cancel_futures=True)
