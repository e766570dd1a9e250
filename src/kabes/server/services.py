"""What the server application runs on, shared by its routes: the store, the hub of tables,
the clock, the settings, the metrics, the other processes and the limits on strangers.

Built once by :func:`kabes.server.http.app.create_app` and handed to each group of routes (the
HTTP API there, the table socket in kabes.server.http.socket_api), so no route module imports
another.
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from kabes.server.common.config import Edge, Settings
from kabes.server.common.limits import Limits
from kabes.server.common.metrics import Metrics
from kabes.server.hub.hub import Hub
from kabes.server.processes import Alone, Processes
from kabes.server.store.store import Store, StoreError
from kabes.server.table.clock import Clock

STORE_DOWN = (StoreError, SQLAlchemyError, ConnectionError, TimeoutError, RedisError)
"""What a request meets when the database (or Redis) cannot be reached: answered
``unavailable``."""


@dataclass
class Services:
    """What the app runs on; built by :func:`create_app`, opened by its lifespan."""

    store: Store
    clock: Clock
    settings: Settings
    executor: Executor | None
    metrics: Metrics
    hub: Hub
    processes: Processes = field(default_factory=Alone)
    """This process alone, or one of many through Redis (kabes.server.processes)."""
    edge: Edge = field(default_factory=Edge)
    limits: Limits = field(default_factory=lambda: Limits(None))
    connections: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def patience(services: Services) -> float:
    """Seconds a request or a hello waits for a table's owner (another process's lease may
    have to expire first)."""
    return services.processes.patience
