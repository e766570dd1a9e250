"""``kabes serve``: the table server on SQLite (default) or PostgreSQL, with uvicorn; with
``--redis``, one of many processes sharing a PostgreSQL store (docs/scaling.md)."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from pathlib import Path

import uvicorn

from kabes.server.app import create_app
from kabes.server.cluster import Cluster
from kabes.server.computers import warm_up, worker_pool
from kabes.server.config import ServerConfig
from kabes.server.logs import configure
from kabes.server.store import database_url
from kabes.server.workers import REVIEW_WORKERS_KEPT_FREE

PING_SECONDS = 10.0
"""WebSocket pings: a phone that drops off the network is noticed within seconds."""
GC_THRESHOLDS = (1_000, 100, 50)
"""The cycle collector's thresholds. A server with thousands of sockets replaces many
medium-lived objects (a socket's pending receive, its ping timers) all the time, and every
collection walks what is young: young collections stay small and frequent (a few ms), the
middle one runs 10 times less often than Python's default (a pause of ~0.1 s at 5,000
sockets, about once a minute), and a full one only after 50 of those (under load, Python's
default ran full collections several times a minute, each up to a second at this size)."""
SWITCH_SECONDS = 0.0005
"""How long the event loop may hold the GIL while another thread waits for it (Python's
default is 5 ms). The store's SQLite thread needs it for a moment at every step of a group
commit; with the default, a busy loop made every commit wait tens of milliseconds."""


def serve(config: ServerConfig) -> None:
    """Run the server until interrupted; prints the address to open first."""
    configure(config.log_level)
    url = database_url(config.db, Path.cwd())
    cluster = None
    if config.redis is not None:
        cluster = Cluster(config.redis, config.advertised, config.redis_prefix,
                          config.lease_seconds)
    size = config.workers or os.cpu_count() or 1
    pool = worker_pool(size)
    warm_up(pool, size)
    settings = config.table(workers=size,
                            review_searches=max(1, size - REVIEW_WORKERS_KEPT_FREE))
    app = create_app(url, settings, executor=pool, cluster=cluster)
    running = uvicorn.Config(
        app,
        host=config.host,
        port=config.port,
        ws="websockets-sansio",
        ws_max_size=4096,
        # No permessage-deflate: a view is a kilobyte or two, and a zlib stream per socket
        # costs ~50 KiB of memory and more CPU than the rest of a message's sending.
        ws_per_message_deflate=False,
        ws_ping_interval=PING_SECONDS,
        ws_ping_timeout=PING_SECONDS,
        log_level="warning",
        access_log=False,
        loop="uvloop" if sys.platform != "win32" else "asyncio",
        http="httptools",
        timeout_graceful_shutdown=3,
    )
    server = uvicorn.Server(running)
    shown = "[::1]" if config.host == "::1" else config.host
    where = "SQLite file " + url.split("///", 1)[1] if url.startswith("sqlite") else "PostgreSQL"
    if cluster is not None:
        where += f"; one of many through Redis, as process {cluster.me}"
    print(f"Kabès is serving at http://{shown}:{config.port}/  (store: {where})", flush=True)
    gc.collect()
    gc.freeze()  # what start-up built (modules, app, routes) lives as long as the process
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_SECONDS)
    try:
        server.run()  # on the configured loop (uvloop); asyncio.run would ignore it
    finally:
        with contextlib.suppress(Exception):
            pool.shutdown(wait=False, cancel_futures=True)
