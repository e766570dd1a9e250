"""An in-process table server for tests: the real app, store and tables, a fake clock.

HTTP goes through httpx's ASGI transport; sockets are driven by :class:`Socket`, a minimal
ASGI WebSocket peer, so everything runs on the test's own event loop and a 45 s turn passes
when the test says ``server.advance(45)``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, MutableMapping
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from kabes.server.common.config import Edge, Settings
from kabes.server.http.app import create_app
from kabes.server.table.clock import FakeClock

WAIT = 10.0
"""Seconds a test waits for a message before failing."""


class Closed(Exception):
    """The server closed the socket; ``code`` is the close code."""

    def __init__(self, code: int) -> None:
        super().__init__(f"closed with {code}")
        self.code = code


class Socket:
    """One client socket to the app, in process."""

    def __init__(self, app: FastAPI, path: str) -> None:
        self.to_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.from_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.to_app.put_nowait({"type": "websocket.connect"})
        self.close_code: int | None = None
        self.log: list[dict[str, Any]] = []
        """Every message received, in order."""
        scope = {
            "type": "websocket", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "scheme": "ws", "path": path, "raw_path": path.encode(), "query_string": b"",
            "root_path": "", "headers": [], "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000), "subprotocols": [], "state": {},
        }

        async def send(message: MutableMapping[str, Any]) -> None:
            await self.from_app.put(dict(message))

        self.task = asyncio.get_running_loop().create_task(app(scope, self.to_app.get, send))

    def send_text(self, text: str) -> None:
        """Send a text frame."""
        self.to_app.put_nowait({"type": "websocket.receive", "text": text})

    def send(self, message: dict[str, Any]) -> None:
        """Send a JSON message."""
        self.send_text(json.dumps(message))

    async def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        """The next message; Closed if the server closed the socket."""
        while True:
            if self.close_code is not None and self.from_app.empty():
                raise Closed(self.close_code)
            event = await asyncio.wait_for(self.from_app.get(), timeout)
            if event["type"] == "websocket.accept":
                continue
            if event["type"] == "websocket.close":
                self.close_code = event.get("code", 1000)
                raise Closed(self.close_code)
            message: dict[str, Any] = json.loads(event["text"])
            self.log.append(message)
            return message

    async def until(self, kind: str, timeout: float = WAIT, **match: Any) -> dict[str, Any]:
        """Skip messages until one of type ``kind`` whose fields equal ``match``."""
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message

    async def answers(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The ``ack`` or ``error`` answering each of ``ids``, by id."""
        wanted = set(ids)
        found: dict[str, dict[str, Any]] = {}
        while len(found) < len(wanted):
            message = await self.recv()
            if message["type"] in ("ack", "error") and message.get("id") in wanted:
                found[message["id"]] = message
        return found

    async def quiet(self, seconds: float = 0.05) -> list[dict[str, Any]]:
        """Whatever arrives within ``seconds``."""
        out = []
        while True:
            try:
                out.append(await self.recv(seconds))
            except TimeoutError:
                return out

    async def closed(self, timeout: float = WAIT) -> int:
        """Wait for the server to close this socket; its close code."""
        while True:
            try:
                await self.recv(timeout)
            except Closed as err:
                return err.code

    def disconnect(self) -> None:
        """Drop the connection from the client's side."""
        self.to_app.put_nowait({"type": "websocket.disconnect", "code": 1006})


class Server:
    """The app with its fake clock, and helpers that speak its API."""

    def __init__(self, app: FastAPI, clock: FakeClock, http: httpx.AsyncClient) -> None:
        self.app = app
        self.clock = clock
        self.http = http
        self.sockets: list[Socket] = []

    @property
    def hub(self) -> Any:
        """The app's hub (tables in memory)."""
        return self.app.state.services.hub

    async def guest(self, name: str = "Roselène") -> tuple[int, str]:
        """A new guest's (player id, token)."""
        reply = await self.http.post("/api/guests", json={"name": name})
        assert reply.status_code == 201, reply.text
        body = reply.json()
        return body["player"], body["token"]

    async def open_table(self, token: str, **body: Any) -> dict[str, Any]:
        """Open a table as ``token``; its summary."""
        reply = await self.http.post("/api/tables", json=body, headers=auth(token))
        assert reply.status_code == 201, reply.text
        summary: dict[str, Any] = reply.json()
        return summary

    async def join(self, token: str, code: str) -> int:
        """Take a seat at ``code``; the seat."""
        reply = await self.http.post(f"/api/tables/{code}/join", headers=auth(token))
        assert reply.status_code == 200, reply.text
        seat: int = reply.json()["seat"]
        return seat

    def socket(self, code: str) -> Socket:
        """A new socket to table ``code`` (no hello said yet)."""
        sock = Socket(self.app, f"/api/tables/{code}/ws")
        self.sockets.append(sock)
        return sock

    async def connect(self, code: str, token: str) -> tuple[Socket, dict[str, Any]]:
        """A socket that said hello; the socket and its welcome."""
        sock = self.socket(code)
        sock.send({"type": "hello", "token": token})
        welcome = await sock.until("welcome")
        return sock, welcome

    async def advance(self, seconds: float) -> None:
        """Move the fake clock on, then let the tables handle what fell due."""
        self.clock.advance(seconds)
        await settle()


class Pacer:
    """Keeps one seat under the server's flood limits (100 messages a second from a socket,
    and from all the sockets of a seat together): at most ``most`` messages in any 1.1 s of
    real time, shared by the seat's sockets. Every send paced here waits for its answer before
    the next one, so the server reads them no closer together than they were sent."""

    def __init__(self, most: int = 90) -> None:
        self.most = most
        self.sent: deque[float] = deque()

    async def wait(self) -> None:
        """Return once one more message may be sent."""
        while True:
            now = time.monotonic()
            while self.sent and now - self.sent[0] > 1.1:
                self.sent.popleft()
            if len(self.sent) < self.most:
                break
            await asyncio.sleep(1.11 - (now - self.sent[0]))
        self.sent.append(now)


async def settle(rounds: int = 20) -> None:
    """Let every task run until the loop is idle for a moment."""
    for _ in range(rounds):
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)


def auth(token: str) -> dict[str, str]:
    """The Authorization header for ``token``."""
    return {"Authorization": f"Bearer {token}"}


@asynccontextmanager
async def running(
    db_url: str, settings: Settings | None = None, clock: FakeClock | None = None,
    executor: Executor | None = None, edge: Edge | None = None, offline: Path | None = None,
    starter_puzzles: bool = False,
) -> AsyncIterator[Server]:
    """The app on ``db_url``, started and stopped around the block; computer seats think in
    ``executor`` (the caller's, left running) or else in two threads. The rate limits are
    off unless ``edge`` says otherwise: every request here comes from one address, and
    tests seat many guests (the limits are tested against a real server); so is the cap on
    the seats one player holds at waiting tables (tests open many with one guest). The
    starter puzzles are not loaded unless asked for: tests keep their own."""
    clock = clock or FakeClock()
    settings = settings or Settings(computer_delay=0.0, expert_budget=0.02, hint_budget=0.02)
    with ThreadPoolExecutor(2) as threads:
        pool = executor or threads
        app = create_app(db_url, settings, clock=clock, executor=pool, heartbeat=False,
                         edge=edge or Edge(rate_limits=False, seats_held=None), offline=offline,
                         starter_puzzles=starter_puzzles)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                server = Server(app, clock, http)
                try:
                    yield server
                finally:
                    for sock in server.sockets:
                        sock.disconnect()
                    await settle()
                    for sock in server.sockets:
                        sock.task.cancel()


def sqlite_url(folder: Path) -> str:
    """A fresh SQLite store in ``folder``."""
    return f"sqlite+aiosqlite:///{folder / 'kabes.sqlite3'}"


_fresh_ids = itertools.count()


async def fresh(
    sock: Socket,
    send: Callable[[Socket, dict[str, Any]], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """A fresh update for the socket's seat (by ``sync``); ``send``: how to send it, for a
    test that paces its messages."""
    action_id = f"sync{next(_fresh_ids)}"
    message = {"type": "sync", "id": action_id}
    if send is None:
        sock.send(message)
    else:
        await send(sock, message)
    last: dict[str, Any] | None = None
    while True:
        reply = await sock.recv()
        if reply["type"] == "update":
            last = reply
        elif reply["type"] == "ack" and reply["id"] == action_id:
            assert last is not None, "sync was acknowledged without an update"
            assert last["seq"] == reply["seq"]
            return last
