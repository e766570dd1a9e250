"""How ``kabes serve`` runs on uvicorn: the server's stack and the process's runtime settings.

Kept apart from the application so that ``bench/floor.py``, the bare server that measures
what this stack costs, runs on exactly the same settings while loading nothing else of Kabès.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

import uvicorn

from kabes.server.common.protocol import MAX_MESSAGE_BYTES

PING_SECONDS = 10.0
"""WebSocket pings: a phone that drops off the network is noticed within seconds."""
GC_THRESHOLDS = (1_000, 100, 50)
"""The cycle collector's thresholds. A server with thousands of sockets replaces many
medium-lived objects (a socket's pending receive, its ping timers) all the time, and every
collection walks what is young: young collections stay small and frequent (a few ms), the
middle one runs 10 times less often than Python's default (a pause of ~0.1 s at 5,000
sockets, about once a minute), and a full one only after 50 of those (under load, Python's
default ran full collections several times a minute, each up to a second at this size)."""
SWITCH_SECONDS = 0.002
"""How long the event loop may hold the GIL while another thread waits for it (Python's
default is 5 ms). The store's SQLite thread needs it for a moment at every step of a group
commit; with the default, a busy loop made every commit wait tens of milliseconds. Measured
flat out on 2 cores (bench/load.py, two to three runs each): 0.5 ms cost 0.26 ms of server
CPU a move (each hand-over of the GIL is a switch of threads), 1 to 5 ms 0.24 to 0.25 ms; at
2 ms the commits took 22 ms and human pace kept its p99 at 20 ms."""


def uvicorn_config(app: Any, host: str, port: int) -> uvicorn.Config:
    """How the server runs ``app`` on uvicorn (the bench's floor runs on exactly this).
    uvicorn's proxy headers are off: the app finds the client behind a trusted proxy itself
    (kabes.server.common.proxies says why), so the address uvicorn gives is the connection's."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        proxy_headers=False,
        ws="websockets-sansio",
        ws_max_size=MAX_MESSAGE_BYTES,
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


def tune_runtime() -> None:
    """The collector and the GIL as a server with thousands of sockets wants them, once
    start-up is done (see GC_THRESHOLDS, SWITCH_SECONDS)."""
    gc.collect()
    gc.freeze()  # what start-up built (modules, app, routes) lives as long as the process
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_SECONDS)
