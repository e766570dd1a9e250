"""``kabes serve``: the table server on SQLite (default) or PostgreSQL, with uvicorn; with
``--redis``, one of many processes sharing a PostgreSQL store (docs/scaling.md)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import uvicorn

from kabes.server.app import create_app
from kabes.server.cluster import Cluster
from kabes.server.computers import warm_up, worker_pool
from kabes.server.config import ServerConfig
from kabes.server.logs import configure
from kabes.server.processes import alone_or_shared
from kabes.server.runtime import tune_runtime, uvicorn_config
from kabes.server.store import database_url
from kabes.server.workers import REVIEW_WORKERS_KEPT_FREE


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
    app = create_app(url, settings, executor=pool, cluster=cluster, edge=config.edge)
    server = uvicorn.Server(uvicorn_config(app, config.host, config.port))
    shown = "[::1]" if config.host == "::1" else config.host
    where = "SQLite file " + url.split("///", 1)[1] if url.startswith("sqlite") else "PostgreSQL"
    where += alone_or_shared(cluster).shown()
    print(f"Kabès is serving at http://{shown}:{config.port}/  (store: {where})", flush=True)
    tune_runtime()
    try:
        server.run()  # on the configured loop (uvloop); asyncio.run would ignore it
    finally:
        with contextlib.suppress(Exception):
            pool.shutdown(wait=False, cancel_futures=True)
