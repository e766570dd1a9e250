"""A real `kabes serve` process and clients that speak PROTOCOL.md to it over TCP.

:class:`ServerProcess` starts the server in its own process group (so its worker processes go
with it) and kills it with SIGKILL; :class:`Client` is one seat's socket over the
``websockets`` library, keeping every message it receives with the moment it arrived.
Everything talks to 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"
WAIT = 15.0
"""Seconds a test waits for a message or for the server before failing."""
START_WAIT = 60.0
"""How long a new server may take to answer /healthz: a bound for one that hangs, not an
expectation (a fresh clone's first start compiles every module's bytecode, and CI once saw a
slow machine take more than 15 s)."""
KABES = Path(sys.executable).with_name("kabes")


def free_port() -> int:
    """A TCP port nobody listens on at the moment."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """``kabes serve`` on a SQLite file, started, killed and started again on the same store."""

    def __init__(self, folder: Path, *options: str) -> None:
        self.folder = folder
        self.port = free_port()
        self.db = f"sqlite:///{folder / 'kabes.sqlite3'}"
        self.options = list(options)
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.base = f"http://{HOST}:{self.port}"

    def argv(self) -> list[str]:
        """The command line."""
        return [str(KABES), "serve", "--host", HOST, "--port", str(self.port),
                "--db", self.db, *self.options]

    async def start(self) -> None:
        """Start the process and wait until it answers /healthz (tables restored by then)."""
        assert self.process is None, "the server is already running"
        self.starts += 1
        out = open(self.folder / f"serve-{self.starts}.out", "wb")  # noqa: SIM115
        err = open(self.folder / f"serve-{self.starts}.err", "wb")  # noqa: SIM115
        with out, err:
            self.process = subprocess.Popen(
                self.argv(), stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                cwd=self.folder, start_new_session=True,
            )
        deadline = time.monotonic() + START_WAIT
        async with httpx.AsyncClient(base_url=self.base, trust_env=False) as http:
            while True:
                if self.process.poll() is not None:
                    raise AssertionError(f"kabes serve exited with {self.process.returncode}: "
                                         f"{self.log_tail()}")
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get("/healthz", timeout=1.0)).status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise AssertionError(f"kabes serve did not answer in {START_WAIT} s: "
                                         f"{self.log_tail()}")
                await asyncio.sleep(0.02)

    def log_tail(self) -> str:
        """The end of the last run's stderr (for failure messages)."""
        path = self.folder / f"serve-{self.starts}.err"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def signal(self, number: int) -> None:
        """Send ``number`` to the server's whole process group (it and its workers)."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, number)

    def freeze(self) -> None:
        """Stop the server dead (SIGSTOP): it reads nothing and writes nothing more."""
        self.signal(signal.SIGSTOP)

    def kill(self) -> None:
        """``kill -9`` of the server and its workers; returns once the server is gone."""
        if self.process is None:
            return
        self.signal(signal.SIGKILL)
        self.process.wait(WAIT)
        self.process = None


SEND_GAP = 0.012
"""Seconds between two messages from one socket (under the server's 100 per second)."""


@dataclass
class Received:
    """One message and when it arrived (``time.monotonic()``)."""

    message: dict[str, Any]
    at: float
    epoch: int
    """Which connection of the client it came on (1 for the first)."""


@dataclass
class Client:
    """One person's seat at one table, over a real socket."""

    base: str
    code: str
    token: str
    seat: int = -1
    watch: bool = False
    """A watcher: says ``{"type": "hello", "watch": true}`` (its token is not sent)."""
    log: list[Received] = field(default_factory=list)
    epoch: int = 0
    ws: ClientConnection | None = None
    reader: asyncio.Task[None] | None = None
    _news: asyncio.Event = field(default_factory=asyncio.Event)
    _next_send: float = 0.0

    @property
    def url(self) -> str:
        """The table's socket address."""
        return self.base.replace("http://", "ws://") + f"/api/tables/{self.code}/ws"

    async def connect(self) -> dict[str, Any]:
        """Open a socket, say hello; the welcome."""
        await self.drop()
        self.epoch += 1
        self.ws = await connect(self.url, proxy=None, ping_interval=None, open_timeout=WAIT)
        start = len(self.log)
        self.reader = asyncio.get_running_loop().create_task(self._read(self.ws, self.epoch))
        hello = {"watch": True} if self.watch else {"token": self.token}
        await self.ws.send(json.dumps({"type": "hello", **hello}))
        welcome = await self.wait(lambda m: m["type"] in ("welcome", "error"), start)
        assert welcome["type"] == "welcome", welcome
        self.seat = welcome["seat"]
        return welcome

    async def _read(self, ws: ClientConnection, epoch: int) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            async for text in ws:
                self.log.append(Received(json.loads(text), time.monotonic(), epoch))
                self._news.set()
        self._news.set()

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message on the open socket, at most one per 12 ms: the server closes a
        socket that sends over 100 messages within a second (1008), and a table of scripted
        players moves faster than that."""
        assert self.ws is not None, "not connected"
        now = time.monotonic()
        if self._next_send > now:
            await asyncio.sleep(self._next_send - now)
        self._next_send = max(now, self._next_send) + SEND_GAP
        await self.ws.send(json.dumps(message))

    async def wait(
        self, test: Callable[[dict[str, Any]], bool], start: int = 0, timeout: float = WAIT
    ) -> dict[str, Any]:
        """The first message from ``log[start:]`` that passes ``test``, waiting for it."""
        deadline = time.monotonic() + timeout
        seen = start
        while True:
            while seen < len(self.log):
                message = self.log[seen].message
                seen += 1
                if test(message):
                    return message
            if self.reader is None or self.reader.done():
                closed = None if self.ws is None else (self.ws.close_code, self.ws.close_reason)
                raise AssertionError(f"seat {self.seat} at {self.code}: the socket is closed "
                                     f"(code, reason: {closed}); last: {self.log[-3:]}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"seat {self.seat} at {self.code}: no such message within "
                                     f"{timeout} s; last: {self.log[-3:]}")
            self._news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), left)

    async def answer(self, action_id: str, start: int = 0) -> dict[str, Any]:
        """The ack or error for ``action_id``."""
        return await self.wait(
            lambda m: m["type"] in ("ack", "error") and m.get("id") == action_id, start
        )

    def latest(self) -> Received | None:
        """The newest welcome or update received on the current connection."""
        for item in reversed(self.log):
            if item.epoch != self.epoch:
                return None
            if item.message["type"] in ("welcome", "update"):
                return item
        return None

    async def drop(self) -> None:
        """Close this client's socket, if open, and wait for its reader to end."""
        ws, reader = self.ws, self.reader
        self.ws = self.reader = None
        if ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 1.0)
        if reader is not None:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader


async def guest(http: httpx.AsyncClient, name: str) -> tuple[int, str]:
    """A new guest's (player id, token)."""
    reply = await http.post("/api/guests", json={"name": name})
    assert reply.status_code == 201, reply.text
    body = reply.json()
    return body["player"], body["token"]


def auth(token: str) -> dict[str, str]:
    """The Authorization header for ``token``."""
    return {"Authorization": f"Bearer {token}"}
