"""The whole server built from its configuration: one function, :func:`assemble`.

``kabes serve`` calls it, and so may a test or a benchmark that wants the server exactly as
it runs in production: the store's address, the worker processes, the other processes (with
Redis), the table settings that follow from the workers, the application and the uvicorn
server on the settings the bench measures. Kept apart from the application
(kabes.server.http.app), which tests build with their own clock and a thread pool, so that
building the application never starts processes.
"""

from __future__ import annotations

import contextlib
import os
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from kabes.server.common.config import ServerConfig
from kabes.server.compute.computers import warm_up, worker_pool
from kabes.server.compute.workers import REVIEW_WORKERS_KEPT_FREE
from kabes.server.http.app import create_app
from kabes.server.hub.cluster import Cluster
from kabes.server.processes import alone_or_shared
from kabes.server.runtime import tune_runtime, uvicorn_config
from kabes.server.store.store import database_url


@dataclass(frozen=True, slots=True)
class Server:
    """A server assembled and not yet running."""

    uvicorn: uvicorn.Server
    pool: Executor
    """The computer seats' worker processes, shut down when the server stops."""
    address: str
    """Where to open it first (``http://127.0.0.1:8000/``)."""
    store: str
    """What store it serves, and among which processes, as ``kabes serve`` prints it."""

    def run(self) -> None:
        """Serve until interrupted, then stop the workers."""
        tune_runtime()
        try:
            self.uvicorn.run()  # on the configured loop (uvloop); asyncio.run would ignore it
        finally:
            with contextlib.suppress(Exception):
                self.pool.shutdown(wait=False, cancel_futures=True)


def assemble(config: ServerConfig, here: Path) -> Server:
    """The server ``config`` describes, its SQLite file (if any) found from ``here``; its
    workers are started now, so the first computer move does not wait for one."""
    url = database_url(config.db, here)
    cluster = None
    if config.redis is not None:
        cluster = Cluster(config.redis, config.advertised, config.redis_prefix,
                          config.lease_seconds)
    size = config.workers or os.cpu_count() or 1
    pool = worker_pool(size)
    warm_up(pool, size)
    settings = config.table(workers=size,
                            review_searches=max(1, size - REVIEW_WORKERS_KEPT_FREE))
    app = create_app(url, settings, executor=pool, cluster=cluster, edge=config.edge,
                     offline=None if config.offline_pack is None else Path(config.offline_pack))
    shown = "[::1]" if config.host == "::1" else config.host
    where = "SQLite file " + url.split("///", 1)[1] if url.startswith("sqlite") else "PostgreSQL"
    return Server(uvicorn.Server(uvicorn_config(app, config.host, config.port)), pool,
                  f"http://{shown}:{config.port}/", where + alone_or_shared(cluster).shown())


__all__ = ["Server", "assemble"]
