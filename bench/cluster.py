"""Cluster: the flat-out load of bench/load.py against one `kabes serve --redis` process and
against two, on one PostgreSQL database and one Redis, then the time a table takes to move
when its owner is killed.

Starts its own `redis-server` on a free port (or uses ``--redis``), creates a fresh PostgreSQL
database on the local server (dropped at the end), and prints:

    processes: 1, N durable moves per second
    processes: 2, N durable moves per second
    failover: p50 X s, max Y s over K kills

with a line under each about latency, errors and CPU (the clients, the processes, PostgreSQL
and Redis all share this machine's cores).

- Flat out: ``--flat-tables`` partnership tables of four people who never think, opened
  through the processes in turn; each table's four sockets are spread over the processes as a
  load balancer without sticky sessions would (with two processes, half of every table's
  sockets are relayed to its owner through Redis). Durable moves per second are the acks of
  ``play`` received in the measured window (an ack is sent only once the move is committed).
- Failover: two processes and one table whose seats are spread over both, played flat out.
  ``--kills`` times, the table's owner (its lease in Redis) is killed with SIGKILL; the clients
  reconnect to the survivor, and the time from the kill to the table's next acknowledged move
  is measured; the killed process is started again before the next kill.

Everything is bounded in time, talks only to 127.0.0.1, and every process it started (servers
with their workers, redis-server, client processes) is killed at the end whatever happens.

Run: .venv/bin/python bench/cluster.py [--flat-tables 200] [--flat-seconds 20] [--kills 5]
                                       [--lease 5] [--processes 1,2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
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


class Seat:
    """One person's socket at the failover table, reconnecting wherever it can."""

    def __init__(self, code: str, token: str) -> None:
        self.code = code
        self.token = token
        self.ws: ClientConnection | None = None
        self.seat = -1
        self.latest: dict[str, Any] = {}
        self.answers: dict[str, dict[str, Any]] = {}
        self.reader: asyncio.Task[None] | None = None
        self.news = asyncio.Event()
        self.failure: Exception | None = None
        """Why the last connection failed."""

    async def connect(self, ports: list[int]) -> None:
        """Connect to the first process of ``ports`` that seats this socket."""
        while True:
            for port in ports:
                try:
                    await self._connect(port)
                    return
                except Exception as err:
                    self.failure = err
            await asyncio.sleep(0.05)

    async def _connect(self, port: int) -> None:
        await self.close()
        ws = await connect(f"ws://{HOST}:{port}/api/tables/{self.code}/ws", proxy=None,
                           ping_interval=None, open_timeout=5)
        await ws.send(json.dumps({"type": "hello", "token": self.token}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if welcome["type"] != "welcome":
            await ws.close()
            raise RuntimeError(welcome)
        self.ws, self.seat, self.latest = ws, welcome["seat"], welcome
        self.reader = asyncio.get_running_loop().create_task(self._read(ws))

    async def _read(self, ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for text in ws:
                message = json.loads(text)
                if message["type"] in ("update", "welcome"):
                    self.latest = message
                elif message["type"] in ("ack", "error"):
                    self.answers[message["id"]] = message
                self.news.set()
        self.news.set()

    @property
    def open(self) -> bool:
        """Whether the socket is up."""
        return self.reader is not None and not self.reader.done()

    async def close(self) -> None:
        """Close the socket."""
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 1)
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.reader
        self.ws = self.reader = None


class FailoverTable:
    """One partnership table played flat out by four seats spread over the processes."""

    def __init__(self, seats: list[Seat]) -> None:
        self.seats = seats
        self.ids = itertools.count()

    async def close(self) -> None:
        """Close every seat's socket."""
        for seat in self.seats:
            await seat.close()

    async def step(self, ports: list[int]) -> None:
        """The seat to move plays (or the host deals), until acknowledged, reconnecting
        any closed socket to a live process."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for seat in self.seats:
                if not seat.open:
                    await seat.connect(random.sample(ports, len(ports)))
            seqs = {s.latest["seq"] for s in self.seats}
            if len(seqs) != 1:
                await asyncio.sleep(0.002)
                continue
            state = self.seats[0].latest
            status = state["table"]["status"]
            by_seat = {s.seat: s for s in self.seats}
            if status == "over":
                raise EOFError("the match is over")
            if status == "waiting":  # the start is on its way
                await asyncio.sleep(0.005)
                continue
            if status == "between_hands":
                actor, message = by_seat[0], {"type": "next_hand"}
            else:
                actor = by_seat[state["view"]["turn"]]
                message = {"type": "play", "move": actor.latest["view"]["legal"][0]}
            action = f"a{next(self.ids)}"
            message["id"] = action
            assert actor.ws is not None
            with contextlib.suppress(Exception):
                await actor.ws.send(json.dumps(message))
                end = time.monotonic() + 10
                while action not in actor.answers and actor.open and time.monotonic() < end:
                    actor.news.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(actor.news.wait(), 0.5)
                if actor.answers.get(action, {}).get("type") == "ack":
                    return
            await asyncio.sleep(0.01)
        raise TimeoutError("no move acknowledged for 120 s")


async def open_table(nodes: list[Node]) -> FailoverTable:
    """A partnership table of four people, opened through the first process, the seats
    joined and connected through the processes in turn, the match started."""
    ports = [n.port for n in nodes]
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
        await seat.connect([ports[n % len(ports)]])
    host = next(s for s in seats if s.seat == 0)
    assert host.ws is not None
    await host.ws.send(json.dumps({"type": "start", "id": "start"}))
    return FailoverTable(seats)


async def failover(args: argparse.Namespace, folder: Path, db: str, redis_url: str) -> list[float]:
    """Kill the failover table's owner ``--kills`` times; the seconds from each kill to
    the table's next acknowledged move."""
    nodes = [Node(args, folder, f"failover-{n}", db, redis_url) for n in range(2)]
    times: list[float] = []
    table: FailoverTable | None = None
    redis = Redis.from_url(redis_url)
    try:
        wait_ready(nodes)
        ports = [n.port for n in nodes]
        table = await open_table(nodes)
        while len(times) < args.kills:
            try:
                played_until = time.monotonic() + 0.5
                while time.monotonic() < played_until:
                    await table.step(ports)
            except EOFError:  # the match is over: another table
                await table.close()
                table = await open_table(nodes)
                continue
            code = table.seats[0].code
            owner = (await redis.get(f"{PREFIX}lease:{code}") or b"").decode()
            victim = next(n for n in nodes if n.process_id() == owner)
            killed = time.monotonic()
            victim.sigkill()
            alive = [n.port for n in nodes if n is not victim]
            await table.step(alive)
            times.append(time.monotonic() - killed)
            print(f"  kill {len(times)}: the table moved on {times[-1]:.2f} s after its "
                  f"owner was killed", flush=True)
            victim.start()
            victim.wait_ready()
    finally:
        if table is not None:
            await table.close()
        await redis.aclose()
        for node in nodes:
            node.kill()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", default="1,2", help="process counts to measure")
    parser.add_argument("--flat-tables", type=int, default=200)
    parser.add_argument("--flat-seconds", type=float, default=20.0, help="the measured window")
    parser.add_argument("--settle", type=float, default=5.0)
    parser.add_argument("--target", type=int, default=500,
                        help="points a flat-out match is played to")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--kills", type=int, default=5, help="failovers measured (0: none)")
    parser.add_argument("--lease", type=float, default=5.0,
                        help="the processes' --lease-seconds")
    parser.add_argument("--redis", default="",
                        help="a Redis URL to use (default: a redis-server of the bench's own)")
    parser.add_argument("--log-level", default="warning", help="the processes' log level")
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
            if args.kills:
                url = redis if isinstance(redis, str) else redis.url
                times = sorted(asyncio.run(failover(args, folder, db, url)))
                p50 = times[(len(times) - 1) // 2]
                lines.append(f"failover: p50 {p50:.2f} s, max {times[-1]:.2f} s over "
                             f"{len(times)} kills")
                lines.append(f"  leases of {args.lease:g} s: a table moves once its "
                             "owner's lease has run out")
        finally:
            if isinstance(redis, OwnRedis):
                redis.kill()
            asyncio.run(database.drop())
    print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
