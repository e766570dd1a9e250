"""Cluster: the flat-out load of bench/load.py against one `kabes serve --redis` process and
against two, on one PostgreSQL database and one Redis, what renewing leases costs Redis, then
how long a table stands still when its owner is killed, frozen or cut off from Redis.

Starts its own `redis-server` on a free port (or uses ``--redis``), creates a fresh PostgreSQL
database on the local server (dropped at the end), and prints:

    processes: 1, N durable moves per second
    processes: 2, N durable moves per second
    renewals: 10000 leases of 2 s renewed every 0.67 s in one round trip: ...
    failover (3 processes, leases of 2 s renewed every 0.67 s; ...):
      kill: stood still p50 X s, p99 Y s, max Z s over K; from the strike to the first
            move at the new owner p50 ..., p99 ..., max ...
      freeze: ...
      cutoff: ...
      this machine: Kabès fastline N, dominoes 6.1.0 M hands per CPU-second
      (bench/playout.py); load average L

with a line under each flat-out figure about latency, errors and CPU (the clients, the
processes, PostgreSQL and Redis all share this machine's cores: on a loaded machine every
figure here is noisy).

- Flat out: ``--flat-tables`` partnership tables of four people who never think, opened
  through the processes in turn; each table's four sockets are spread over the processes as a
  load balancer without sticky sessions would (with two processes, half of every table's
  sockets are relayed to its owner through Redis). Durable moves per second are the acks of
  ``play`` received in the measured window (an ack is sent only once the move is committed).
- Renewals: one process's ``--renew-tables`` leases renewed as a process renews them, for
  three leases: the round trip, Redis's commands a second and its CPU.
- Failover: ``--failover-processes`` processes (each reaching Redis through a TCP proxy of
  the bench's) and one table whose seats are spread over them, played flat out by clients
  that behave as a real client behind a load balancer: after a close, a refusal, or a second
  without an answer (``ACK_WAIT``), a client reconnects through a process picked at random
  among those that have not failed a client in the last 5 s (``FAIL_TIMEOUT``, as nginx's
  ``max_fails=1 fail_timeout=5s``; a handshake refused with 503, one not answered within
  ``OPEN_WAIT`` and a silent socket count as failing) and sends its unanswered action again
  with the same id. Each seat reconnects in a task of its own: one seat's wait never holds
  up another's, and only the seat to move is waited for.
  ``--kills``, ``--freezes`` and ``--cutoffs`` times, at a random moment, the table's owner
  (its lease in Redis) is killed with SIGKILL (started again afterwards), frozen with SIGSTOP
  (SIGCONT once the table moved on) or cut off from Redis (its proxy goes silent, as in a
  network partition; mended once the table moved on). Measured: the longest the table stood
  still (no move acknowledged), from the strike until it moves at its new owner.
  ``--trace-over SECONDS`` prints, for every failover slower than that (standing still, or
  from the strike to the first move at the new owner), its timeline: what
  each seat did and saw (sockets opened, refused, closed and their codes, actions sent and
  answered), when the lease ended and was taken, and the processes' log lines (more of them
  with ``--log-level info``), in seconds from the strike.

Everything is bounded in time, talks only to 127.0.0.1, and every process it started (servers
with their workers, redis-server, client processes) is killed at the end whatever happens.

Run: .venv/bin/python bench/cluster.py [--flat-tables 200] [--flat-seconds 20]
                                       [--kills 5] [--freezes 5] [--cutoffs 5]
                                       [--lease 2] [--processes 1,2] [--renew-tables 10000]
                                       [--trace-over 3] [--log-level info]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import multiprocessing as mp
import os
import random
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import psutil  # type: ignore[import-untyped]
from redis.asyncio import Redis
from websockets.asyncio.client import ClientConnection, connect

from kabes.server.common.config import LEASE_SECONDS
from load import (
    HOST,
    ClientProcess,
    Clients,
    Measure,
    Server,
    TableRun,
    cpu_line,
    free_port,
    measure,
)
from playout import dominoes_hands, kabes_hands

KABES = Path(sys.executable).with_name("kabes")
PG_ADMIN = "postgresql://{user}@127.0.0.1:5432/test"
PG_USERS = ("postgres", "root")
PREFIX = "kabes-bench:"


# PostgreSQL and Redis ----------------------------------------------------------------------


class Database:
    """A fresh PostgreSQL database on the local server, dropped by :meth:`drop`."""

    def __init__(self) -> None:
        self.name = f"kabes_bench_{secrets.token_hex(5)}"
        self.user = ""

    async def _admin(self) -> asyncpg.Connection:
        errors = []
        for user in PG_USERS:
            try:
                conn = await asyncpg.connect(PG_ADMIN.format(user=user), timeout=5)
            except (OSError, asyncpg.PostgresError) as err:
                errors.append(f"{user}: {err!r}")
                continue
            self.user = user
            return conn
        raise SystemExit(f"PostgreSQL not reachable at 127.0.0.1:5432 ({'; '.join(errors)})")

    async def create(self) -> str:
        """Create it; its URL."""
        conn = await self._admin()
        try:
            await conn.execute(f'CREATE DATABASE "{self.name}"')
        finally:
            await conn.close()
        return f"postgresql+asyncpg://{self.user}@127.0.0.1:5432/{self.name}"

    async def drop(self) -> None:
        """Drop it (after ending whatever is still connected)."""
        conn = await self._admin()
        try:
            await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE datname = $1 AND pid <> pg_backend_pid()", self.name)
            await conn.execute(f'DROP DATABASE IF EXISTS "{self.name}"')
        finally:
            await conn.close()


class OwnRedis:
    """A redis-server of the bench's own, on a free port, keeping nothing on disk."""

    def __init__(self, folder: Path) -> None:
        server = shutil.which("redis-server")
        if server is None:
            raise SystemExit("redis-server is not installed (or pass --redis URL)")
        self.port = free_port()
        self.url = f"redis://{HOST}:{self.port}/0"
        self.process = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", HOST, "--save", "", "--appendonly",
             "no", "--dir", str(folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.ps = psutil.Process(self.process.pid)
        time.sleep(0.3)

    def cpu(self) -> float:
        """CPU seconds used so far."""
        times = self.ps.cpu_times()
        return float(times.user + times.system)

    def kill(self) -> None:
        """Stop it."""
        self.process.kill()
        self.process.wait(10)


def postgres_cpu() -> float:
    """CPU seconds used so far by every PostgreSQL process on this machine."""
    total = 0.0
    for proc in psutil.process_iter(["name"]):
        with contextlib.suppress(psutil.Error):
            if (proc.info["name"] or "").startswith(("postgres", "postmaster")):
                times = proc.cpu_times()
                total += times.user + times.system
    return total


# The processes -----------------------------------------------------------------------------


class Node(Server):
    """`kabes serve --redis` on the bench's PostgreSQL database, in a process group of its
    own (killed with its workers)."""

    def __init__(self, args: argparse.Namespace, folder: Path, name: str, db: str,
                 redis: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.name = name
        self.profile_to = ""
        self.samples_to = ""
        self.profiles = 0
        self.command = [
            str(KABES), "serve", "--host", HOST, "--port", str(self.port), "--db", db,
            "--redis", redis, "--redis-prefix", PREFIX, "--lease-seconds", str(args.lease),
            "--computer-delay", "0", "--workers", "1", "--log-level", args.log_level,
            "--rate-limits", "off",  # every client is 127.0.0.1, opening guests by the hundred
        ]
        self.folder = folder
        self.starts = 0
        self.start()

    def start(self) -> None:
        """Start (again, on the same port)."""
        self.starts += 1
        self.log = open(self.folder / f"{self.name}-{self.starts}.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            self.command, cwd=self.folder, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)
        self.ps = psutil.Process(self.process.pid)

    def sigkill(self) -> None:
        """kill -9 of the process and its workers."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self.log.close()

    def process_id(self) -> str:
        """The id its leases hold."""
        return str(httpx.get(self.url + "/healthz", timeout=5).json()["process"])


def text(value: bytes | str | None) -> str:
    """A Redis value as text ("" for none): bytes from a client without
    ``decode_responses``, as the bench's are."""
    if value is None:
        return ""
    return value if isinstance(value, str) else value.decode()


class Group:
    """Several nodes measured as one server (for load.measure): CPU and store counts added."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes
        self.samples_to = ""

    def store_counts(self) -> tuple[float, float, float]:
        """Group commits of every node: (commits, entries, seconds committing)."""
        counts = [n.store_counts() for n in self.nodes]
        return (sum(c[0] for c in counts), sum(c[1] for c in counts), sum(c[2] for c in counts))

    def cpu(self) -> float:
        """CPU seconds of every node."""
        return sum(n.cpu() for n in self.nodes)

    def workers_cpu(self) -> float:
        """CPU seconds of every node's computer workers."""
        return sum(n.workers_cpu() for n in self.nodes)

    def thread_cpu(self) -> dict[str, float]:
        """CPU seconds of every node's event loop and store thread, added by kind; empty if
        one node's threads cannot be read (as ``Server.thread_cpu``)."""
        kinds: dict[str, float] = {}
        for node in self.nodes:
            mine = node.thread_cpu()
            if not mine:
                return {}
            for kind, seconds in mine.items():
                kinds[kind] = kinds.get(kind, 0.0) + seconds
        return kinds

    def rss_mib(self) -> float:
        """Resident memory of every node."""
        return sum(n.rss_mib() for n in self.nodes)

    def profile(self, seconds: float) -> None:
        """No profiling here."""
        return None


# Clients spread over the processes ---------------------------------------------------------


class SpreadRun(TableRun):
    """A table whose seats connect to the processes in turn, starting with the one that
    opened it (which owns it)."""

    async def open(self) -> None:
        proc = self.proc
        assert isinstance(proc, SpreadClients)
        first = next(proc.turns)
        ports = proc.ports[first:] + proc.ports[:first]
        http = proc.https[first]
        host = self.guests[0]
        reply = await http.post("/api/tables", json={
            "variant": "partnership", "players": 4, "options": {"target": proc.target}},
            headers={"Authorization": f"Bearer {host.token}"})
        reply.raise_for_status()
        self.code = reply.json()["code"]
        for n, guest in enumerate(self.guests[1:], start=1):
            joined = await proc.https[(first + n) % len(ports)].post(
                f"/api/tables/{self.code}/join",
                headers={"Authorization": f"Bearer {guest.token}"})
            joined.raise_for_status()
        await self.connect_seats([ports[n % len(ports)] for n in range(self.people)], None)


class SpreadClients(ClientProcess):
    """A client process whose tables are spread over several processes."""

    def __init__(self, index: int, ports: list[int], options: dict[str, Any]) -> None:
        super().__init__(index, ports[0], options)
        self.ports = ports
        self.turns = itertools.cycle(range(len(ports)))
        for _ in range(index):
            next(self.turns)
        self.https: list[httpx.AsyncClient] = []

    async def grow(self, people: int, computers: int) -> int:
        """Set up ``people`` tables of four people, spread over the processes."""
        async def one() -> bool:
            async with self.gate:
                try:
                    guests = [await self.guest() for _ in range(4)]
                    run = SpreadRun(self, False, guests)
                    await run.open()
                except Exception as err:
                    self.stats.errors[f"setup {type(err).__name__}"] += 1
                    return False
            self.tables.append(run)
            self.waiting.append(run)
            return True

        done = await asyncio.gather(*(one() for _ in range(people)))
        return done.count(False)

    async def main(self, pipe: Any) -> None:
        limits = httpx.Limits(max_connections=48)
        self.https = [httpx.AsyncClient(base_url=f"http://{HOST}:{p}", limits=limits,
                                        timeout=60) for p in self.ports]
        try:
            await super().main(pipe)
        finally:
            for http in self.https:
                await http.aclose()


def spread_main(index: int, ports: list[int], options: dict[str, Any], pipe: Any) -> None:
    """A client process's entry point."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    random.seed(index * 7919 + os.getpid())
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    asyncio.run(SpreadClients(index, ports, options).main(pipe))


class SpreadClientGroup(Clients):
    """The client processes, each with its share of the tables, spread over ``ports``."""

    def __init__(self, count: int, ports: list[int], options: dict[str, Any]) -> None:
        context = mp.get_context("spawn")
        self.pipes = []
        self.processes = []
        for index in range(count):
            ours, theirs = context.Pipe()
            process = context.Process(target=spread_main,
                                      args=(index, ports, options, theirs), daemon=True)
            process.start()
            self.pipes.append(ours)
            self.processes.append(process)
        self.cpu_mark = [0.0] * count


def wait_ready(nodes: list[Node], timeout: float = 60.0) -> None:
    """Wait for every node's /healthz."""
    for node in nodes:
        node.wait_ready(timeout)


def flat_out(args: argparse.Namespace, folder: Path, db: str, redis: OwnRedis | str,
             count: int) -> tuple[Measure, float, float]:
    """Flat out against ``count`` processes; the measure, and the CPU share of PostgreSQL
    and of Redis over the window."""
    url = redis if isinstance(redis, str) else redis.url
    nodes = [Node(args, folder, f"flat{count}-{n}", db, url) for n in range(count)]
    clients: SpreadClientGroup | None = None
    try:
        wait_ready(nodes)
        clients = SpreadClientGroup(args.clients, [n.port for n in nodes],
                                    {**vars(args), "deflate": False, "target": args.target})
        failed = clients.grow(args.flat_tables, 0, args.setup_timeout)
        if failed:
            print(f"  {failed} tables failed to set up", flush=True)
        clients.go((0.0, 0.0))
        time.sleep(args.settle)
        pg0 = postgres_cpu()
        redis0 = redis.cpu() if isinstance(redis, OwnRedis) else 0.0
        m = measure(Group(nodes), clients, args.flat_seconds, 0)
        pg = (postgres_cpu() - pg0) / m.seconds
        rd = ((redis.cpu() - redis0) / m.seconds) if isinstance(redis, OwnRedis) else 0.0
        clients.collect("stop")
    finally:
        if clients is not None:
            clients.kill()
        for node in nodes:
            node.kill()
    return m, pg, rd


# Failover ----------------------------------------------------------------------------------


ACK_WAIT = 1.0
"""Seconds a bench client waits for an answer to an action, or for a welcome, before it takes
the process for gone: it closes the socket and reconnects through a process picked at random
(as a client behind a load balancer would), sending the same action id again."""
OPEN_WAIT = 1.0
"""Seconds a bench client waits for a socket to open (a frozen process accepts TCP
connections in its kernel backlog but never answers the handshake)."""
FAIL_TIMEOUT = 5.0
"""Seconds a process that failed a client (refused, silent) is passed over, as a load
balancer does (nginx: ``max_fails=1 fail_timeout=5s``, ``proxy_next_upstream error
timeout``)."""
DOWN: dict[int, float] = {}
"""Ports passed over until then (``time.monotonic()``), every client's (one balancer)."""
TRACE: list[tuple[float, str]] = []
"""What the failover's clients did and saw, by wall-clock time (``--trace-over``)."""
NAMES: dict[int, str] = {}
"""Each process's name by port, for the trace."""


def note(text: str) -> None:
    """Add ``text`` to the trace (kept for the last minute or so)."""
    TRACE.append((time.time(), text))
    if len(TRACE) > 20_000:
        del TRACE[:10_000]


def pick(ports: list[int]) -> int:
    """A process at random among those not passed over (any, if all are)."""
    now = time.monotonic()
    up = [p for p in ports if DOWN.get(p, 0.0) <= now]
    return random.choice(up or ports)


def failed(port: int) -> None:
    """``port`` failed a client: passed over for a while."""
    DOWN[port] = time.monotonic() + FAIL_TIMEOUT


class RedisProxy:
    """A TCP proxy between one process and Redis, run on the bench's event loop. :meth:`cut`
    makes Redis unreachable for that process as a network partition would: every connection
    through it, open or new, goes silent (nothing forwarded, nothing closed); :meth:`mend`
    closes those silent connections (the process connects again) and forwards again."""

    def __init__(self, redis_url: str) -> None:
        target = redis_url.split("//", 1)[1].split("/", 1)[0]
        host, port = target.rsplit(":", 1)
        self.target = (host, int(port))
        self.port = free_port()
        self.url = f"redis://{HOST}:{self.port}/0"
        self.cut_off = False
        self._server: asyncio.Server | None = None
        self._links: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        """Listen."""
        self._server = await asyncio.start_server(self._serve, HOST, self.port)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._links.add(writer)
        try:
            if self.cut_off:
                await reader.read()  # silent: read and drop until the other side closes
                return
            up_reader, up_writer = await asyncio.open_connection(*self.target)
            self._links.add(up_writer)

            async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
                with contextlib.suppress(Exception):
                    while data := await src.read(65536):
                        while self.cut_off:  # hold everything: nothing passes, nothing closes
                            await asyncio.sleep(0.05)
                            if writer.is_closing():
                                return
                        dst.write(data)
                        await dst.drain()
                with contextlib.suppress(Exception):
                    dst.close()

            await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))
        except (Exception, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    def cut(self) -> None:
        """Redis unreachable from now on."""
        self.cut_off = True

    def mend(self) -> None:
        """Redis reachable again: the silent connections are closed, new ones forwarded."""
        self.cut_off = False
        for link in list(self._links):
            with contextlib.suppress(Exception):
                link.close()
        self._links.clear()

    async def close(self) -> None:
        """Stop listening and close everything."""
        self.mend()
        if self._server is not None:
            self._server.close()


class Seat:
    """One person's socket at the failover table, as a real client keeps it: reconnects
    after a close, a refusal or ``ACK_WAIT`` without an answer, through a process picked at
    random, and sends an unanswered action again with its same id. Each seat reconnects in a
    task of its own (:meth:`reconnect`), so one seat's wait never holds up another's."""

    def __init__(self, code: str, token: str) -> None:
        self.code = code
        self.token = token
        self.ws: ClientConnection | None = None
        self.seat = -1
        self.latest: dict[str, Any] = {}
        self.answers: dict[str, dict[str, Any]] = {}
        self.reader: asyncio.Task[None] | None = None
        self.joining: asyncio.Task[None] | None = None
        """The reconnection under way, if any."""
        self.news = asyncio.Event()
        self.failure: Exception | None = None
        """Why the last connection failed."""
        self.reconnects = 0
        self.port = 0
        """The process this socket goes through."""

    @property
    def name(self) -> str:
        """How the trace names this seat."""
        return f"seat {self.seat}" if self.seat >= 0 else f"seat of {self.token[:6]}"

    def reconnect(self, ports: list[int], deadline: float) -> asyncio.Task[None]:
        """Reconnect in the background (unless already under way); the task doing it."""
        if self.joining is None or self.joining.done():
            self.joining = asyncio.get_running_loop().create_task(
                self.connect(ports, deadline))
        return self.joining

    async def connect(self, ports: list[int], deadline: float) -> None:
        """Connect through the processes of ``ports`` (at random) until one seats this
        socket."""
        while time.monotonic() < deadline:
            port = pick(ports)
            try:
                await self._connect(port)
                return
            except Exception as err:
                self.failure = err
                note(f"{self.name}: {NAMES.get(port, port)} failed it: {_said(err)}")
                if not isinstance(err, RuntimeError):  # refused, silent (not a refusal)
                    failed(port)
            await asyncio.sleep(0.05)
        raise TimeoutError(f"seat {self.seat} could not reconnect: {self.failure!r}")

    async def _connect(self, port: int) -> None:
        await self.close()
        self.reconnects += 1
        note(f"{self.name}: opens a socket through {NAMES.get(port, port)}")
        ws = await connect(f"ws://{HOST}:{port}/api/tables/{self.code}/ws", proxy=None,
                           ping_interval=None, open_timeout=OPEN_WAIT, close_timeout=0.2)
        try:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            # A hello may wait for a dead owner's table to be adopted (a lease or two).
            welcome = json.loads(await asyncio.wait_for(ws.recv(), 3 * ACK_WAIT))
        except BaseException:
            await _abandon(ws)
            raise
        if welcome["type"] != "welcome":
            await _abandon(ws)
            raise RuntimeError(welcome)
        self.ws, self.seat, self.latest, self.port = ws, welcome["seat"], welcome, port
        note(f"{self.name}: welcome through {NAMES.get(port, port)} (seq {welcome['seq']})")
        self.reader = asyncio.get_running_loop().create_task(self._read(ws))

    async def _read(self, ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for text in ws:
                message = json.loads(text)
                if message["type"] in ("update", "welcome"):
                    if message["seq"] >= self.latest.get("seq", -1):
                        self.latest = message
                elif message["type"] in ("ack", "error"):
                    self.answers[message["id"]] = message
                    note(f"{self.name}: {message['type']} {message['id']}"
                         + (f" {message.get('code')}" if message["type"] == "error" else ""))
                self.news.set()
        note(f"{self.name}: socket through {NAMES.get(self.port, self.port)} closed "
             f"{ws.close_code}")
        self.news.set()

    @property
    def open(self) -> bool:
        """Whether the socket is up."""
        return self.reader is not None and not self.reader.done()

    async def close(self) -> None:
        """Close the socket (without waiting on a silent process)."""
        if self.ws is not None:
            await _abandon(self.ws)
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.reader
        self.ws = self.reader = None

    async def leave(self, why: str) -> None:
        """Close the socket as a client that gave up on its process."""
        note(f"{self.name}: leaves {NAMES.get(self.port, self.port)}: {why}")
        await self.close()

    async def stop(self) -> None:
        """Stop reconnecting and close."""
        if self.joining is not None:
            self.joining.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.joining
        await self.close()


def _said(err: BaseException) -> str:
    """A failure in a few words, for the trace."""
    if isinstance(err, RuntimeError) and err.args and isinstance(err.args[0], dict):
        return f"answered {err.args[0].get('code') or err.args[0].get('type')}"
    text = repr(err)
    return text if len(text) < 120 else text[:117] + "..."


async def _abandon(ws: ClientConnection) -> None:
    """Close ``ws`` without waiting more than a moment for the other side."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(), 0.2)
    with contextlib.suppress(Exception):
        ws.transport.abort()


class FailoverTable:
    """One partnership table played flat out by four seats spread over the processes."""

    def __init__(self, seats: list[Seat]) -> None:
        self.seats = seats
        self.ids = itertools.count()

    async def close(self) -> None:
        """Close every seat's socket."""
        for seat in self.seats:
            await seat.stop()

    async def step(self, ports: list[int]) -> None:
        """The seat to move plays (or the host deals), until acknowledged; every closed
        socket (or one silent for ``ACK_WAIT``) reconnects in its own task, through a
        process at random, and only the seat to move is waited for."""
        deadline = time.monotonic() + 120
        pending: tuple[Seat, dict[str, Any]] | None = None
        while time.monotonic() < deadline:
            for seat in self.seats:
                if not seat.open:
                    seat.reconnect(ports, deadline)
            newest = max((s.latest for s in self.seats), key=lambda m: m["seq"])
            status = newest["table"]["status"]
            by_seat = {s.seat: s for s in self.seats}
            if status == "over":
                raise EOFError("the match is over")
            if status == "waiting":  # the start is on its way
                await asyncio.sleep(0.005)
                continue
            actor = by_seat[0] if status == "between_hands" else by_seat[newest["view"]["turn"]]
            if not actor.open:
                await actor.reconnect(ports, deadline)
                continue
            if pending is not None and pending[0] is actor:
                message = pending[1]  # the same action again, with its id
            else:
                if actor.latest["seq"] < newest["seq"]:  # its update is on its way, or lost
                    actor.news.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(actor.news.wait(), ACK_WAIT)
                    if actor.open and actor.latest["seq"] < newest["seq"]:
                        failed(actor.port)
                        await actor.leave(f"no update to seq {newest['seq']} in {ACK_WAIT:g} s")
                    continue
                if status == "between_hands":
                    message = {"type": "next_hand"}
                else:
                    message = {"type": "play", "move": actor.latest["view"]["legal"][0]}
                message["id"] = f"a{next(self.ids)}"
            pending = (actor, message)
            action = message["id"]
            try:
                assert actor.ws is not None
                note(f"{actor.name}: sends {action} through {NAMES.get(actor.port, actor.port)}")
                await actor.ws.send(json.dumps(message))
            except Exception:
                await actor.leave("could not send")
                continue
            end = time.monotonic() + ACK_WAIT
            while action not in actor.answers and actor.open and time.monotonic() < end:
                actor.news.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(actor.news.wait(), end - time.monotonic())
            answer = actor.answers.get(action)
            if answer is None:  # closed, or silent: another process
                if actor.open:
                    failed(actor.port)
                    await actor.leave(f"no answer to {action} in {ACK_WAIT:g} s")
                continue
            if answer["type"] == "ack":
                return
            pending = None  # refused (unavailable, moved on): look again
            await asyncio.sleep(0.05)
        raise TimeoutError("no move acknowledged for 120 s")


async def open_table(nodes: list[Node]) -> FailoverTable:
    """A partnership table of four people, opened through the first process, the seats
    joined and connected through the processes in turn, the match started."""
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        tokens = []
        for n in range(4):
            reply = await http.post(f"{nodes[0].url}/api/guests", json={"name": f"f{n}"})
            reply.raise_for_status()
            tokens.append(reply.json()["token"])
        reply = await http.post(f"{nodes[0].url}/api/tables", json={
            "variant": "partnership", "options": {"target": 500}},
            headers={"Authorization": f"Bearer {tokens[0]}"})
        reply.raise_for_status()
        code = reply.json()["code"]
        for n, token in enumerate(tokens[1:], start=1):
            joined = await http.post(f"{nodes[n % len(nodes)].url}/api/tables/{code}/join",
                                     headers={"Authorization": f"Bearer {token}"})
            joined.raise_for_status()
    seats = [Seat(code, token) for token in tokens]
    for n, seat in enumerate(seats):
        await seat.connect([nodes[n % len(nodes)].port], time.monotonic() + 60)
    host = next(s for s in seats if s.seat == 0)
    assert host.ws is not None
    await host.ws.send(json.dumps({"type": "start", "id": "start"}))
    return FailoverTable(seats)


MODES = ("kill", "freeze", "cutoff")


async def failover(args: argparse.Namespace, folder: Path, db: str, redis_url: str,
                   mode: str, count: int) -> tuple[list[float], list[float]]:
    """``count`` times, kill (SIGKILL), freeze (SIGSTOP, SIGCONT once the table moved on) or
    cut off from Redis (its proxy goes silent, mended once the table moved on) the failover
    table's owner; for each, the longest the table stood still, and the seconds from the
    strike to its first move acknowledged at its new owner."""
    proxies = [RedisProxy(redis_url) for _ in range(args.failover_processes)]
    for proxy in proxies:
        await proxy.start()
    nodes = [Node(args, folder, f"{mode}-{n}", db, proxy.url)
             for n, proxy in enumerate(proxies)]
    times: list[float] = []
    again: list[float] = []
    table: FailoverTable | None = None
    redis = Redis.from_url(redis_url)
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(None, wait_ready, nodes)
        ports = [n.port for n in nodes]
        NAMES.update({n.port: n.name for n in nodes})
        table = await open_table(nodes)
        while len(times) < count:
            try:
                played_until = time.monotonic() + random.uniform(0.3, 1.5)
                while time.monotonic() < played_until:
                    await table.step(ports)
            except EOFError:  # the match is over: another table
                await table.close()
                table = await open_table(nodes)
                continue
            code = table.seats[0].code
            owner = text(await redis.get(f"{PREFIX}lease:{code}")).split("/")[0]
            ids = await asyncio.gather(*(loop.run_in_executor(None, n.process_id)
                                         for n in nodes))
            victim = next(n for n, i in zip(nodes, ids, strict=True) if i == owner)
            proxy = proxies[nodes.index(victim)]
            lease = loop.create_task(lease_moves(redis, code, owner))
            # The balancer starts each strike with no process passed over: a process that
            # failed a client while the table was being opened (a first event comes 0.3 to
            # 1.5 s after it) would otherwise still be passed over, and with the owner struck
            # and a relaying process left for silence, a client would be sent back to the
            # struck owner at random (seen: a freeze of 3.13 s, twice through the frozen one).
            DOWN.clear()
            struck, struck_at = time.monotonic(), time.time()
            note(f"** {mode} {victim.name}, the table's owner")
            if mode == "kill":
                victim.sigkill()
            elif mode == "freeze":
                os.killpg(victim.process.pid, signal.SIGSTOP)
            else:
                proxy.cut()
            # The longest the table stood still, from the strike until it moves at its new
            # owner (cut off, the owner may go on serving until it fences itself).
            last, still, ended = struck, 0.0, False
            while True:
                try:
                    await table.step(ports)
                except EOFError:  # the match ended first (a cut-off owner may play on)
                    ended = True
                    break
                now = time.monotonic()
                still, last = max(still, now - last), now
                if lease.done():
                    break
            if ended:
                lease.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await lease
                print(f"  {mode}: the match ended before its lease moved (not counted)",
                      flush=True)
            else:
                gone, taken = lease.result()
                times.append(still)
                again.append(last - struck)
                print(f"  {mode} {len(times)}: the table stood still {still:.2f} s (its lease "
                      f"ended {gone - struck:.2f} s after the strike, was taken at "
                      f"{taken - struck:.2f} s; moving again at {last - struck:.2f} s)",
                      flush=True)
                if args.trace_over is not None and max(still, last - struck) > args.trace_over:
                    print(timeline(folder, mode, struck_at, struck_at + last - struck + 0.2,
                                   struck, gone, taken), flush=True)
            if mode == "kill":
                victim.start()
            elif mode == "freeze":
                os.killpg(victim.process.pid, signal.SIGCONT)
            else:
                proxy.mend()
            await loop.run_in_executor(None, victim.wait_ready)
            await asyncio.sleep(args.lease)  # back among the others
            DOWN.clear()
    finally:
        if table is not None:
            await table.close()
        await redis.aclose()
        for node in nodes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(node.process.pid, signal.SIGCONT)
            node.kill()
        for proxy in proxies:
            await proxy.close()
    return times, again


def timeline(folder: Path, mode: str, start: float, end: float, struck: float, gone: float,
             taken: float) -> str:
    """What the clients did and saw between ``start`` and ``end`` (wall clock), with the
    lease's moves and the processes' log lines (``--log-level info`` shows the most), each
    in seconds from the strike."""
    events = [(at, "client", text) for at, text in TRACE if start - 0.3 <= at <= end]
    events += [(start + gone - struck, "bench", "** the lease is no longer the owner's"),
               (start + taken - struck, "bench", "** the lease is taken by another")]
    for path in sorted(folder.glob(f"{mode}-*.log")):
        for line in path.read_text(errors="replace").splitlines():
            try:
                entry = json.loads(line)
                at = float(entry["ts"])
            except (ValueError, KeyError, TypeError):
                continue
            if start - 0.3 <= at <= end and entry.get("logger") not in QUIET_LOGGERS:
                said = {k: v for k, v in entry.items() if k not in ("ts", "level", "logger")}
                events.append((at, path.stem, f"{entry.get('level')} {entry.get('logger')}: "
                                              f"{json.dumps(said)[:160]}"))
    events.sort(key=lambda e: e[0])
    return "\n".join(f"    {at - start:+7.3f} s  {who:<10} {text}" for at, who, text in events)


QUIET_LOGGERS = ("kabes.table", "uvicorn.access")
"""Log lines left out of a timeline (one a move)."""


async def lease_moves(redis: Redis, code: str, owner: str) -> tuple[float, float]:
    """When table ``code``'s lease stops being ``owner``'s, and when another takes it."""
    gone = 0.0
    key = f"{PREFIX}lease:{code}"
    while True:
        now = time.monotonic()
        held = text(await redis.get(key)).split("/")[0]  # {process}/{token}
        if held != owner and not gone:
            gone = now
        if held not in ("", owner):
            return gone, now
        await asyncio.sleep(0.01)


def distribution(times: list[float]) -> str:
    """p50, p99 and max of ``times`` (nearest rank)."""
    ordered = sorted(times)
    p50 = ordered[(len(ordered) - 1) // 2]
    p99 = ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]
    return f"p50 {p50:.2f} s, p99 {p99:.2f} s, max {ordered[-1]:.2f} s"


async def renewal_cost(redis_url: str, tables: int, lease: float) -> str:
    """What renewing ``tables`` leases costs Redis, as one process renews them (a
    pipelined round trip of one script per 500 leases, every third of a lease): the
    round trip's time, the commands and the Redis CPU a second."""
    from kabes.server.hub.cluster import Cluster

    cluster = Cluster(redis_url, "http://bench", "kabes-renew:", lease)
    codes = [f"T{n:06d}" for n in range(tables)]
    try:
        for code in codes[:: max(1, tables // 100)]:
            await cluster.take(code)
        info0 = await cluster.redis.info("cpu")
        stats0 = await cluster.redis.info("stats")
        rounds, took = 0, []
        end = time.monotonic() + 3 * lease
        while time.monotonic() < end:
            start = time.monotonic()
            await cluster.renew(codes)
            took.append(time.monotonic() - start)
            rounds += 1
            await asyncio.sleep(max(0.0, start + lease / 3 - time.monotonic()))
        info1 = await cluster.redis.info("cpu")
        stats1 = await cluster.redis.info("stats")
        seconds = 3 * lease
        cpu = (info1["used_cpu_sys"] + info1["used_cpu_user"] - info0["used_cpu_sys"]
               - info0["used_cpu_user"]) / seconds
        commands = (stats1["total_commands_processed"]
                    - stats0["total_commands_processed"]) / seconds
        keys = [cluster.lease_key(c) for c in codes]
        for start in range(0, len(keys), 1000):
            await cluster.redis.delete(*keys[start:start + 1000])
        await cluster.redis.delete(cluster.proc_key(cluster.me))
    finally:
        await cluster.redis.aclose()
        await cluster._listener.aclose()
    took.sort()
    return (f"renewals: {tables} leases of {lease:g} s renewed every {lease / 3:.2f} s in one "
            f"round trip: p50 {took[len(took) // 2] * 1000:.0f} ms, max {took[-1] * 1000:.0f} "
            f"ms; {commands:.0f} Redis commands a second (each script counted with the "
            f"commands it runs), Redis CPU {cpu:.0%} of a core")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", default="1,2", help="process counts to measure flat "
                        "out (empty: none)")
    parser.add_argument("--flat-tables", type=int, default=200)
    parser.add_argument("--flat-seconds", type=float, default=20.0, help="the measured window")
    parser.add_argument("--settle", type=float, default=5.0)
    parser.add_argument("--target", type=int, default=500,
                        help="points a flat-out match is played to")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--kills", type=int, default=5, help="owners killed (0: none)")
    parser.add_argument("--freezes", type=int, default=5, help="owners frozen (0: none)")
    parser.add_argument("--cutoffs", type=int, default=5,
                        help="owners cut off from Redis (0: none)")
    parser.add_argument("--failover-processes", type=int, default=3,
                        help="processes sharing the failover table")
    parser.add_argument("--lease", type=float, default=LEASE_SECONDS,
                        help="the processes' --lease-seconds")
    parser.add_argument("--renew-tables", type=int, default=10_000,
                        help="leases one process renews in the cost measure (0: none)")
    parser.add_argument("--playout-seconds", type=float, default=2.0,
                        help="CPU seconds of bench/playout.py's dominoes 6.1.0 rate")
    parser.add_argument("--redis", default="",
                        help="a Redis URL to use (default: a redis-server of the bench's own)")
    parser.add_argument("--log-level", default="warning", help="the processes' log level")
    parser.add_argument("--trace-over", type=float, default=None, metavar="SECONDS",
                        help="print the timeline (clients' events, the lease, the processes' "
                        "log lines) of every failover slower than this")
    parser.add_argument("--setup-timeout", type=float, default=900.0)
    args = parser.parse_args()

    def interrupted(number: int, _frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {number}")

    # SIGTERM (`timeout`, a CI runner) ends the run as Ctrl-C does: every process and the
    # database it made are cleaned up on the way out.
    signal.signal(signal.SIGTERM, interrupted)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    lines = []
    database = Database()
    with tempfile.TemporaryDirectory(prefix="kabes-cluster-") as tmp:
        folder = Path(tmp)
        redis: OwnRedis | str = args.redis or OwnRedis(folder)
        url = redis if isinstance(redis, str) else redis.url
        try:
            db = asyncio.run(database.create())
            for count in [int(c) for c in args.processes.split(",") if c]:
                m, pg, rd = flat_out(args, folder, db, redis, count)
                lines.append(f"processes: {count}, {m.moves_per_second:.0f} durable moves "
                             f"per second")
                lines.append(f"  p50 {m.p50:.1f} ms, p99 {m.p99:.1f} ms, errors {m.errors}; "
                             f"PostgreSQL {pg:.0%} of a core, Redis "
                             f"{'(not measured)' if isinstance(redis, str) else f'{rd:.0%}'}")
                lines.append(cpu_line(m))
                if m.error_kinds:
                    lines.append(f"  errors by kind: {dict(m.error_kinds)}")
                print("\n".join(lines[-3:]), flush=True)
            if args.renew_tables:
                lines.append(asyncio.run(renewal_cost(url, args.renew_tables, args.lease)))
                print(lines[-1], flush=True)
            events = {"kill": args.kills, "freeze": args.freezes, "cutoff": args.cutoffs}
            if any(events.values()):
                lines.append(f"failover ({args.failover_processes} processes, leases of "
                             f"{args.lease:g} s renewed every {args.lease / 3:.2f} s; a client "
                             f"gives a process {ACK_WAIT:g} s to answer):")
            for mode in MODES:
                if events[mode]:
                    times, again = asyncio.run(failover(args, folder, db, url, mode,
                                                        events[mode]))
                    lines.append(f"  {mode}: stood still {distribution(times)} over "
                                 f"{len(times)}; from the strike to the first move at the "
                                 f"new owner {distribution(again)}")
                    print(lines[-1], flush=True)
            if args.playout_seconds:
                ours = kabes_hands(args.playout_seconds)
                rate = dominoes_hands(args.playout_seconds)
                lines.append(f"  this machine: Kabès fastline {ours:.0f}, dominoes 6.1.0 "
                             f"{rate:.0f} hands per CPU-second (bench/playout.py); load "
                             f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        finally:
            if isinstance(redis, OwnRedis):
                redis.kill()
            asyncio.run(database.drop())
    print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
