"""Several real `kabes serve --redis` processes on one PostgreSQL database, and the clients
of one table spread over them, following it wherever it goes.

- :func:`redis_fixture` gives a test the shared Redis at 127.0.0.1:6379 under a key prefix of
  its own (``kabes-test-<random>:``), whose keys are deleted afterwards; when Redis cannot be
  reached the test is skipped, saying why, except under CI (``CI`` set), where it fails.
  :class:`OwnRedis` is a ``redis-server`` of the test's own, on a free port, for a test that
  stops and starts Redis; :class:`RedisProxy` stands between one process and Redis, for a
  test that cuts that process off.
- :func:`nodes` starts processes on a fresh PostgreSQL database (``stores.postgres_backend``)
  and kills every one of them, with its workers, whatever happens.
- :class:`Game` plays one partnership table whose four clients sit on given processes: each
  move is the first legal one, sent by the seat to move, retried with the same id after any
  closed socket (the client reconnects, as the web client does), and every acknowledged move
  is kept with its seq, to be found again in the table's record.

Everything talks to 127.0.0.1 only and every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import shutil
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis
from redis.exceptions import RedisError
from stores import postgres_backend, under_ci
from wsclient import HOST, Client, ServerProcess, auth, free_port, guest

from kabes.events import Event, Played
from kabes.records import filled, replay

REDIS_PORT = 6379
LEASE = 2.0
"""Seconds a lease lives in these tests (renewed every 2/3 s)."""
NODE_OPTIONS = ("--computer-delay", "0", "--turn-seconds", "45", "--pause-seconds", "30",
                "--workers", "1", "--lease-seconds", str(LEASE), "--log-level", "warning")
PATIENCE = 20.0
"""Seconds a client keeps trying to get back to its table before the test fails."""


async def _reachable(port: int) -> str | None:
    """None if Redis answers on ``port``, else why not."""
    client = Redis(host=HOST, port=port, socket_connect_timeout=2, socket_timeout=2)
    try:
        await client.ping()
    except (RedisError, OSError) as err:
        return repr(err)
    finally:
        await client.aclose()
    return None


@dataclass
class RedisSpace:
    """A Redis and the key prefix of one test."""

    url: str
    prefix: str

    def client(self) -> Redis:
        """A client of this Redis (close it after use)."""
        return Redis.from_url(self.url, socket_timeout=2, socket_connect_timeout=2)

    async def owner(self, code: str) -> str | None:
        """The process holding table ``code``'s lease, if any."""
        client = self.client()
        try:
            value = await client.get(f"{self.prefix}lease:{code}")
        finally:
            await client.aclose()
        # The lease holds ``{process}/{token}`` (kabes.server.hub.cluster).
        if value is None:
            return None
        held = value if isinstance(value, str) else value.decode()
        return held.split("/", 1)[0]

    async def clean(self) -> None:
        """Delete every key of this prefix."""
        client = self.client()
        try:
            keys = [key async for key in client.scan_iter(match=f"{self.prefix}*")]
            if keys:
                await client.delete(*keys)
        finally:
            await client.aclose()


@pytest.fixture(name="redis_space")
async def redis_fixture() -> AsyncIterator[RedisSpace]:
    """The shared Redis under a prefix of this test's own, emptied afterwards."""
    why = await _reachable(REDIS_PORT)
    if why is not None:
        reason = f"Redis not reachable at {HOST}:{REDIS_PORT}: {why}"
        if under_ci():
            pytest.fail(f"{reason} (CI is set: the Redis tests must run, not skip)")
        pytest.skip(reason)
    space = RedisSpace(f"redis://{HOST}:{REDIS_PORT}/0", f"kabes-test-{secrets.token_hex(6)}:")
    try:
        yield space
    finally:
        with contextlib.suppress(RedisError, OSError):
            await space.clean()


class OwnRedis:
    """A ``redis-server`` of the test's own on a free port, keeping nothing on disk; stopped
    and started again at will, always killed at the end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"redis://{HOST}:{self.port}/0"

    async def start(self) -> None:
        """Start it; returns once it answers."""
        server = shutil.which("redis-server")
        if server is None:
            reason = "redis-server is not installed"
            if under_ci():
                pytest.fail(f"{reason} (CI is set: the Redis tests must run, not skip)")
            pytest.skip(reason)
        self.process = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", HOST, "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.monotonic() + 10
        while await _reachable(self.port) is not None:
            assert self.process.poll() is None, "redis-server exited"
            assert time.monotonic() < deadline, "redis-server did not answer"
            await asyncio.sleep(0.05)

    def kill(self) -> None:
        """Kill it (everything it held is gone)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


class RedisProxy:
    """A TCP proxy between a process and Redis, on the test's event loop: :meth:`cut`
    makes Redis unreachable for that process as a network partition would (every
    connection through it, open or new, goes silent: nothing passes, nothing is closed);
    :meth:`mend` closes those connections (the process connects again) and forwards again."""

    def __init__(self, target_port: int = REDIS_PORT) -> None:
        self.target = target_port
        self.port = free_port()
        self.url = f"redis://{HOST}:{self.port}/0"
        self.cut_off = False
        self._server: asyncio.Server | None = None
        self._links: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Listen."""
        self._server = await asyncio.start_server(self._serve, HOST, self.port)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._links.add(writer)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            if self.cut_off:
                await reader.read()  # silent until the other side gives up
                return
            up_reader, up_writer = await asyncio.open_connection(HOST, self.target)
            self._links.add(up_writer)
            await asyncio.gather(self._pump(reader, up_writer, writer),
                                 self._pump(up_reader, writer, writer))
        with contextlib.suppress(Exception):
            writer.close()

    async def _pump(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter,
                    client: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            while data := await src.read(65536):
                while self.cut_off:  # held: nothing passes, nothing closes
                    await asyncio.sleep(0.05)
                    if client.is_closing():
                        return
                dst.write(data)
                await dst.drain()
        with contextlib.suppress(Exception):
            dst.close()

    def cut(self) -> None:
        """Redis unreachable through this proxy from now on."""
        self.cut_off = True

    def mend(self) -> None:
        """Reachable again: the silent connections are closed, new ones forwarded."""
        self.cut_off = False
        for link in list(self._links):
            with contextlib.suppress(Exception):
                link.close()
        self._links.clear()

    async def close(self) -> None:
        """Stop listening; close every connection."""
        self.mend()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)


class Node(ServerProcess):
    """One `kabes serve --redis` process on the test's PostgreSQL database."""

    def __init__(self, folder: Path, db: str, redis: RedisSpace | str, prefix: str,
                 *options: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        url = redis.url if isinstance(redis, RedisSpace) else redis
        super().__init__(folder, *NODE_OPTIONS, "--redis", url, "--redis-prefix", prefix,
                         *options)
        self.db = db
        self.id = ""
        """The process id it holds leases under (read from /healthz once started)."""

    async def start(self) -> None:
        """Start and learn the process id."""
        await super().start()
        async with httpx.AsyncClient(base_url=self.base, trust_env=False) as http:
            self.id = (await http.get("/healthz")).json()["process"]

    def wake(self) -> None:
        """Wake a frozen process (SIGCONT)."""
        self.signal(signal.SIGCONT)


@asynccontextmanager
async def nodes(
    folder: Path, count: int, redis: RedisSpace | str, prefix: str = "",
    options: tuple[str, ...] = (), through: dict[int, str] | None = None,
) -> AsyncIterator[list[Node]]:
    """``count`` processes on a fresh PostgreSQL database, started together (with
    ``options`` after the usual ones: the last of a flag given twice counts); every one
    killed (with its workers) at the end, whatever happens. ``through``: the Redis URL some
    of them use instead (by index: a :class:`RedisProxy`'s)."""
    if isinstance(redis, RedisSpace):
        prefix = redis.prefix
    through = through or {}
    async for backend in postgres_backend():
        started = [Node(folder / f"node-{n}", backend.url, through.get(n, redis), prefix,
                        *options)
                   for n in range(count)]
        try:
            await asyncio.gather(*(node.start() for node in started))
            yield started
        finally:
            for node in started:
                node.kill()  # SIGKILL ends a frozen (SIGSTOP) process too


def by_id(group: list[Node], process: str | None) -> Node:
    """The node whose process id is ``process``."""
    found = [n for n in group if n.id == process]
    assert found, f"no node is process {process!r}: {[n.id for n in group]}"
    return found[0]


# A table played across processes -------------------------------------------------------------


@dataclass
class Acked:
    """A move acknowledged: by which seat, the move, its seq."""

    seat: int
    move: str
    seq: int
    at: float
    """``time.monotonic()`` when the ack arrived."""


@dataclass
class Game:
    """A partnership table of four people; seat n's client talks to ``homes[n]``."""

    code: str
    clients: dict[int, Client]
    acked: list[Acked] = field(default_factory=list)
    actions: int = 0

    @classmethod
    async def open(cls, homes: list[ServerProcess], target: int, **flags: Any) -> Game:
        """Open the table through ``homes[0]`` (which owns it then), seat everyone through
        their own process, connect them, and start the match (``flags``: the table's
        ``public``, ``watch``)."""
        tokens = []
        for n, home in enumerate(homes):
            async with httpx.AsyncClient(base_url=home.base, trust_env=False) as http:
                tokens.append((await guest(http, f"Joueur {n}"))[1])
        async with httpx.AsyncClient(base_url=homes[0].base, trust_env=False) as http:
            reply = await http.post("/api/tables", headers=auth(tokens[0]), json={
                "variant": "partnership", "options": {"target": target}, **flags})
            assert reply.status_code == 201, reply.text
            code = reply.json()["code"]
        for token, home in zip(tokens[1:], homes[1:], strict=True):
            async with httpx.AsyncClient(base_url=home.base, trust_env=False) as http:
                joined = await http.post(f"/api/tables/{code}/join", headers=auth(token))
                assert joined.status_code == 200, joined.text
        game = cls(code, {})
        for token, home in zip(tokens, homes, strict=True):
            client = Client(home.base, code, token)
            await client.connect()
            game.clients[client.seat] = client
        await game.act(0, "start")
        return game

    def next_id(self, kind: str) -> str:
        """A fresh action id."""
        self.actions += 1
        return f"{self.code}-{kind}-{self.actions}"

    async def back(self, client: Client, base: str | None = None) -> dict[str, Any]:
        """Reconnect ``client`` (to ``base`` if given) until welcomed; the welcome."""
        if base is not None:
            client.base = base
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                return await client.connect()
            except Exception as err:
                if time.monotonic() > deadline:
                    raise AssertionError(f"seat {client.seat} could not get back to "
                                         f"{self.code} through {client.base}: {err!r}") from err
                await asyncio.sleep(0.1)

    def connected(self, client: Client) -> bool:
        """Whether ``client``'s socket is open."""
        return client.reader is not None and not client.reader.done()

    async def act(
        self, seat: int, kind: str, move: str | None = None, action: str | None = None
    ) -> dict[str, Any]:
        """Send an action from ``seat`` until it is acknowledged, reconnecting and sending
        the same id again after a closed socket or ``unavailable``; the ack."""
        client = self.clients[seat]
        action = action or self.next_id(kind)
        message: dict[str, Any] = {"type": kind, "id": action}
        if move is not None:
            message["move"] = move
        deadline = time.monotonic() + PATIENCE
        while True:
            assert time.monotonic() < deadline, f"{action} was never acknowledged"
            if not self.connected(client):
                await self.back(client)
            start = len(client.log)
            try:
                await client.send(message)
                answer = await client.answer(action, start)
            except Exception:
                continue  # closed under us: back, and the same id again
            if answer["type"] == "ack":
                if move is not None:
                    self.acked.append(Acked(seat, move, answer["seq"], time.monotonic()))
                return answer
            assert answer["code"] == "unavailable", answer
            await asyncio.sleep(0.1)

    async def state(self) -> dict[str, Any]:
        """The table as its newest message shows it, once every connected client has it:
        reconnects any client whose socket closed."""
        deadline = time.monotonic() + PATIENCE
        while True:
            for client in self.clients.values():
                if not self.connected(client):
                    await self.back(client)
            latest = [c.latest() for c in self.clients.values()]
            seqs = {r.message["seq"] for r in latest if r is not None}
            if None not in latest and len(seqs) == 1:
                newest = next(r for r in latest if r is not None).message
                return newest
            assert time.monotonic() < deadline, f"{self.code}: clients out of step at {seqs}"
            await asyncio.sleep(0.01)

    async def step(self) -> str:
        """Move the table on by one action (a play, or the host's next hand); the status
        it was in."""
        state = await self.state()
        status: str = state["table"]["status"]
        if status == "between_hands":
            await self.act(0, "next_hand")
        elif status == "playing":
            seat = state["view"]["turn"]
            mine = self.clients[seat].latest()
            assert mine is not None
            await self.act(seat, "play", mine.message["view"]["legal"][0])
        return status

    async def turn(self) -> int:
        """Play until it is a hand's turn; the seat to move."""
        while (state := await self.state())["table"]["status"] != "playing":
            assert state["table"]["status"] != "over", "the match ended"
            await self.step()
        seat: int = state["view"]["turn"]
        return seat

    async def to_the_end(self) -> None:
        """Play until the match is over."""
        while await self.step() != "over":
            pass

    async def close(self) -> None:
        """Close every client's socket."""
        for client in self.clients.values():
            await client.drop()

    async def check_record(self, base: str) -> dict[str, Any]:
        """The table's record (asked of ``base``): over, replaying to the results the table
        announced, and holding every acknowledged move in order, each once."""
        async with httpx.AsyncClient(base_url=base, trust_env=False) as http:
            reply = await http.get(f"/api/tables/{self.code}/record")
        assert reply.status_code == 200, reply.text
        record: dict[str, Any] = reply.json()
        assert record["result"] is not None and record["result"]["finished"], record["result"]
        assert filled(record)["result"] == record["result"]
        assert [h["result"] for h in filled(record)["hands"]] == [
            h["result"] for h in record["hands"]]
        played: list[list[Any]] = []
        timeouts: list[list[Any]] = []

        def collect(events: list[Event]) -> None:
            played.extend([e.seat, e.move] for e in events if isinstance(e, Played))
            timeouts.extend([e.seat, e.move] for e in events
                            if isinstance(e, Played) and e.timeout)

        replay(record, collect)
        acked = sorted(self.acked, key=lambda a: a.seq)
        assert len({a.seq for a in acked}) == len(acked), "two acks share a seq"
        wanted = [[a.seat, a.move] for a in acked]
        first = next((n for n, (p, w) in enumerate(zip(played, wanted, strict=False))
                      if p != w), min(len(played), len(wanted)))
        assert played == wanted, (
            f"the record's moves are not exactly the acknowledged moves: {len(played)} played "
            f"(timeouts: {timeouts}), "
            f"{len(wanted)} acked; from move {first}: played {played[first:first + 3]}, "
            f"acked {[(a.seat, a.move, a.seq) for a in acked[first:first + 3]]}")
        return record


async def until(test: Callable[[], Any], what: str, timeout: float = PATIENCE) -> Any:
    """Poll ``test`` (a coroutine function) until it returns something true; that."""
    deadline = time.monotonic() + timeout
    while True:
        found = await test()
        if found:
            return found
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        await asyncio.sleep(0.05)
