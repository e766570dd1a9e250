"""Load: a real `kabes serve` under many tables of scripted clients over WebSockets.

Starts `kabes serve` as a subprocess on a fresh SQLite file (127.0.0.1, a free port), opens
tables through the HTTP API, seats scripted clients on them over real WebSockets (the
`websockets` library's asyncio client, in client processes so the load generator can use
both cores), plays them to the end of their matches (a table whose match ends is replaced by
a new one for the same people), and prints:

    human pace: N tables, M sockets, p50 X ms, p99 Y ms, errors E, server RSS Z MiB
    flat out: N durable moves per second, p99 Y ms, errors E
    computers: N tables against the expert, think p99 X ms, moves late E
    watchers: N tables, M watchers, p99 X ms, errors E

then, on lines of their own, the CPU the clients and the server used (they share the
machine), the load average, the store's group commits, and the server's CPU a move by
thread (``server threads: event loop X ms a move, store Y, other Z``: the event loop is the
process's first thread, the store's writer is told by the name it gives itself for the
OS). After the flat-out lines (the second not with ``--no-floor``):

      server CPU per move: X ms = D dominoes-hands (dominoes 6.1.0 R hands per CPU-second,
        this run: P before, Q after) = Y fastline hands (fastline Z hands per CPU-second,
        this run)
    floor: bare server on the same stack, CPU A ms a move; kabes X ms = R times the floor

- The server's CPU per move is also given in machine-free units: the CPU time of that many
  random hands of `dominoes` 6.1.0 (bench/playout.py's yardstick, a third party's speed;
  measured before the run and after it, R their mean), and
  of random partnership hands on the engine's playout path (bench/playout.py's ``kabes
  fastline``, which compiling it moves), each measured here for ``--fastline-seconds``.
- The floor: bench/floor.py, a bare server on the same stack (uvicorn, websockets-sansio,
  uvloop, httptools, the same settings) that answers the same flat-out clients with frames as
  long as Kabès's and does nothing else (docs/server.md, "The floor"), driven for the same
  window; R is Kabès's CPU per move over the floor's.

- Latency is from a move sent to every seat of that table having the update the move's ack
  names (its ``seq``).
- human pace: every client thinks 2 to 6 s before each move (and before ``next_hand``); a
  fifth of the tables are one person against three computer seats (haitian, casual and
  skilled), the rest partnership tables of four people. ``--ramp`` adds tables step by step
  and reports the most that held p99 under 100 ms.
- flat out: 200 tables of four people that never think; durable moves per second are the
  acks of ``play`` received over a fixed window (an ack is sent only once the move is
  committed).
- computers (``--mode computers``, not part of ``both``): ``--computer-tables`` tables of one
  person (2 to 6 s a move) against three expert seats, the server's real worker processes
  thinking (``--workers``, ``--expert-budget``; ``--fixed-budget`` turns off the budget that
  follows load, to compare). A computer's answer is timed by the person's socket, from the
  update giving a computer seat its turn to the next update (its move); think is that less
  ``--computer-delay``, and a move is late when think exceeds the expert budget plus the
  server's LATE_MARGIN (docs/server.md, "Computers under load"). The server's own count of
  late moves (/metrics) is printed beside it.
- watchers (``--mode watchers``, not part of ``both``): ``--watch-tables`` partnership tables
  at human pace, each watched by ``--watchers`` sockets that said ``{"type": "hello",
  "watch": true}``; p99 is of the time from a move sent to every watcher of its table having
  the update the move's ack names. The fastline rate of the same run is printed beside it.
- tournament (``--mode tournament``, bench/tournament_load.py): a Swiss of ``--entrants``
  (1,000: 500 plaza tables a round), every move by the bench's clients; prints
  ``tournament: N entrants, R rounds, pairing p99 X ms, errors E``.

Everything is bounded in time, talks only to 127.0.0.1, and the server (with its worker
processes) is killed at the end whatever happens.

Run: .venv/bin/python bench/load.py [--mode human|flat|both|computers|watchers|tournament]
                                    [--tables N] [--entrants 1000]
                                    [--seconds S] [--ramp 500,1000,2000,...]
                                    [--flat-tables 200] [--computer-tables 40]
                                    [--expert-budget 1.0] [--fixed-budget] [--no-floor]
                                    [--fastline-seconds 3]
                                    [--watch-tables 500] [--watchers 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import multiprocessing as mp
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from array import array
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

import httpx
import msgspec
import psutil  # type: ignore[import-untyped]
from websockets.asyncio.client import ClientConnection, connect

from kabes.server.store.file_writer import THREAD_NAME as STORE_THREAD

HOST = "127.0.0.1"
TARGET_P99_MS = 100.0
SETUP_CONCURRENCY = 24
"""Tables set up at once by one client process."""
COMPUTERS = {"1": "casual", "2": "skilled", "3": "casual"}
EXPERTS = {"1": "expert", "2": "expert", "3": "expert"}
LATE_MARGIN = 0.25
"""kabes.server.compute.computers.LATE_MARGIN: seconds past delay and budget that make a
move late."""


# The server --------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """`kabes serve` in a process group of its own, killed (with its workers) on exit."""

    def __init__(self, args: argparse.Namespace, folder: Path, name: str) -> None:
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.log = open(folder / f"{name}.log", "wb")  # noqa: SIM115
        kabes = Path(sys.executable).with_name("kabes")
        command = [
            str(kabes), "serve", "--host", HOST, "--port", str(self.port),
            "--db", f"sqlite:///{folder / (name + '.sqlite3')}",
            "--computer-delay", str(args.computer_delay), "--workers", str(args.workers),
            "--expert-budget", str(args.expert_budget), "--log-level", args.log_level,
            "--rate-limits", "off",  # every client is 127.0.0.1, opening guests by the hundred
        ]
        if args.fixed_budget:
            command.append("--fixed-budget")
        command += getattr(args, "serve_extra", [])
        self.process = subprocess.Popen(
            command, cwd=folder, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.ps = psutil.Process(self.process.pid)
        self.name = name
        self.profile_to: str = args.profile
        self.samples_to: str = args.samples
        self.profiles = 0

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Wait for /healthz to answer."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise SystemExit(f"kabes serve exited with {self.process.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            time.sleep(0.2)
        raise SystemExit("kabes serve did not answer /healthz in time")

    def rss_mib(self) -> float:
        """The server process's resident memory (its computer workers not counted)."""
        return float(self.ps.memory_info().rss) / 2**20

    def cpu(self) -> float:
        """CPU seconds used by the server process so far."""
        times = self.ps.cpu_times()
        return float(times.user + times.system)

    def thread_cpu(self) -> dict[str, float]:
        """CPU seconds used so far by the server's event loop (the process's first thread)
        and its store's writer (named for the OS as
        ``kabes.server.store.file_writer.THREAD_NAME``). Empty where the threads cannot be
        read. The rest is not summed here: threads that ended (aiosqlite's readers come and
        go) are no longer listed, but their CPU is still in the process's (:meth:`cpu`)."""
        kinds = {"event loop": 0.0, "store": 0.0}
        try:
            threads = self.ps.threads()
        except psutil.Error:
            return {}
        for thread in threads:
            if thread.id == self.ps.pid:
                kinds["event loop"] += thread.user_time + thread.system_time
            elif self.os_name(thread.id) == STORE_THREAD:
                kinds["store"] += thread.user_time + thread.system_time
        return kinds

    def os_name(self, thread: int) -> str:
        """The name the OS keeps for the server's thread ``thread`` ("" if it is gone)."""
        try:
            return Path(f"/proc/{self.ps.pid}/task/{thread}/comm").read_text().strip()
        except OSError:
            return ""

    def workers_cpu(self) -> float:
        """CPU seconds used by the server's computer workers so far."""
        total = 0.0
        with contextlib.suppress(psutil.Error):
            for child in self.ps.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    times = child.cpu_times()
                    total += times.user + times.system
        return total

    def profile(self, seconds: float) -> subprocess.Popen[bytes] | None:
        """With ``--profile FOLDER``: py-spy records the server for ``seconds`` into
        FOLDER/<name>-<n>.txt (collapsed stacks, one line each with its sample count), and what
        py-spy said beside it (<name>-<n>.err: a refused ptrace, say)."""
        if not self.profile_to:
            return None
        self.profiles += 1
        Path(self.profile_to).mkdir(parents=True, exist_ok=True)
        out = Path(self.profile_to) / f"{self.name}-{self.profiles}.txt"
        spy = Path(sys.executable).with_name("py-spy")
        return subprocess.Popen(
            [str(spy), "record", "--pid", str(self.process.pid), "--duration",
             str(max(1, round(seconds))), "--rate", "200", "--format", "raw", "--nonblocking",
             "--output", str(out)],
            stdout=subprocess.DEVNULL, stderr=out.with_suffix(".err").open("wb"),
        )

    def counter(self, name: str) -> float:
        """The value of the sample ``name`` in /metrics (0 if absent)."""
        with contextlib.suppress(httpx.HTTPError):
            for line in httpx.get(self.url + "/metrics", timeout=10).text.splitlines():
                sample, _, value = line.partition(" ")
                if sample == name:
                    return float(value)
        return 0.0

    def store_counts(self) -> tuple[float, float, float]:
        """The store's group commits so far: (commits, entries, seconds committing), from
        /metrics."""
        wanted = {"kabes_store_batch_entries_count": 0.0, "kabes_store_batch_entries_sum": 0.0,
                  "kabes_store_commit_seconds_sum": 0.0}
        with contextlib.suppress(httpx.HTTPError):
            for line in httpx.get(self.url + "/metrics", timeout=10).text.splitlines():
                name, _, value = line.partition(" ")
                if name in wanted:
                    wanted[name] = float(value)
        return (wanted["kabes_store_batch_entries_count"], wanted["kabes_store_batch_entries_sum"],
                wanted["kabes_store_commit_seconds_sum"])

    def kill(self) -> None:
        """Kill the server and everything in its process group."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        self.log.close()


class FloorServer(Server):
    """bench/floor.py (the bare server on the same stack) in a process group of its own,
    answering plays ``pace_ms`` after they arrive, in groups (0: at once)."""

    def __init__(
        self, args: argparse.Namespace, folder: Path, name: str, pace_ms: float = 0.0
    ) -> None:
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.log = open(folder / f"{name}.log", "wb")  # noqa: SIM115
        command = [sys.executable, str(Path(__file__).with_name("floor.py")), "--host", HOST,
                   "--port", str(self.port), "--exit-with-parent", "--pace-ms", str(pace_ms)]
        self.process = subprocess.Popen(
            command, cwd=folder, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.ps = psutil.Process(self.process.pid)
        self.name = name
        self.profile_to = args.profile
        self.samples_to = ""
        self.profiles = 0

    def store_counts(self) -> tuple[float, float, float]:
        """No store."""
        return (0.0, 0.0, 0.0)


# What the clients read of server messages (msgspec skips the rest) ------------------------


class ViewPart(msgspec.Struct):
    turn: int | None = None
    legal: list[str] = msgspec.field(default_factory=list)


class TablePart(msgspec.Struct):
    status: str = ""
    host: int = 0


class Incoming(msgspec.Struct):
    type: str
    seq: int = 0
    id: str | None = None
    code: str | None = None
    table: TablePart | None = None
    view: ViewPart | None = None


DECODER = msgspec.json.Decoder(Incoming)
ENCODER = msgspec.json.Encoder()


# One client process ------------------------------------------------------------------------


@dataclass
class Stats:
    """What a client process measured."""

    latency: array = field(default_factory=lambda: array("d"))  # type: ignore[type-arg]
    """Seconds from a move sent to every seat having its update."""
    at: array = field(default_factory=lambda: array("d"))  # type: ignore[type-arg]
    """When each of those was complete (time.monotonic, shared by all processes)."""
    acks: array = field(default_factory=lambda: array("d"))  # type: ignore[type-arg]
    """When each ack of a play arrived."""
    answers: array = field(default_factory=lambda: array("d"))  # type: ignore[type-arg]
    """Seconds from a computer seat's turn to its move, as the person's socket saw them."""
    watched: array = field(default_factory=lambda: array("d"))  # type: ignore[type-arg]
    """Seconds from a move sent to every watcher of its table having its update."""
    watched_at: array = field(default_factory=lambda: array("d"))  # type: ignore[type-arg]
    errors: Counter[str] = field(default_factory=Counter)
    frames: int = 0
    """Messages received from the server."""
    frame_bytes: int = 0
    """Their length (characters of JSON text, bytes for the ASCII the server sends)."""


class Guest:
    """A person: a player id and token."""

    def __init__(self, player: int, token: str) -> None:
        self.player = player
        self.token = token


class TableRun:
    """One table's people, from opening the table to the end of its match, again and again
    until the run stops."""

    def __init__(self, proc: ClientProcess, computers: bool, guests: list[Guest]) -> None:
        self.proc = proc
        self.computers = computers
        self.guests = guests
        self.code = ""
        self.sockets: list[ClientConnection] = []
        self.readers: list[asyncio.Task[None]] = []
        self.turn: list[tuple[int, int | None, list[str], str]] = []
        self.busy: list[bool] = []
        self.sent: dict[str, float] = {}
        self.want: dict[int, float] = {}
        self.seen: dict[int, list[float]] = {}
        self.over = asyncio.Event()
        self.ready = asyncio.Event()
        self.go = False
        self.ids = itertools.count()
        self.matches = 0
        self.host = 0
        self.computer_turn: tuple[int, float] | None = None
        """The seq of the update that gave a computer seat its turn, and when it came."""
        self.watchers: list[ClientConnection] = []
        self.watch_readers: list[asyncio.Task[None]] = []
        self.watch_want: dict[int, float] = {}
        self.watch_seen: dict[int, list[float]] = {}

    @property
    def people(self) -> int:
        return len(self.guests)

    async def open(self) -> None:
        """Open a table, seat every person, connect every seat (welcome received)."""
        http = self.proc.http
        host = self.guests[0]
        body: dict[str, Any] = {"variant": "partnership", "players": 4,
                                "options": {"target": self.proc.target},
                                "watch": self.proc.watchers > 0}
        if self.computers:
            body = {"variant": "haitian", "players": 4,
                    "computers": EXPERTS if self.proc.experts else COMPUTERS}
        reply = await http.post("/api/tables", json=body, headers=_auth(host.token))
        reply.raise_for_status()
        self.code = reply.json()["code"]
        for guest in self.guests[1:]:
            joined = await http.post(f"/api/tables/{self.code}/join",
                                     headers=_auth(guest.token))
            joined.raise_for_status()
        await self.connect_seats([self.proc.port] * self.people, self.proc.compression)

    async def connect_seats(self, ports: list[int], compression: str | None) -> None:
        """A new match's state, and each seat connected to its port (welcome received)."""
        self.over.clear()
        self.computer_turn = None
        self.sockets = []
        self.turn = [(0, None, [], "") for _ in self.guests]
        self.busy = [False] * self.people
        self.sent.clear()
        self.want.clear()
        self.seen.clear()
        for guest, port in zip(self.guests, ports, strict=True):
            ws = await connect(
                f"ws://{HOST}:{port}/api/tables/{self.code}/ws",
                compression=compression, ping_interval=None, max_size=2**20,
                open_timeout=30,
            )
            self.sockets.append(ws)
            await ws.send(ENCODER.encode({"type": "hello", "token": guest.token}))
            welcome = DECODER.decode(await asyncio.wait_for(ws.recv(), 30))
            if welcome.type != "welcome":
                raise RuntimeError(f"hello answered with {welcome.type} {welcome.code}")
        self.readers = [
            asyncio.get_running_loop().create_task(self.read(seat, ws))
            for seat, ws in enumerate(self.sockets)
        ]
        await self.connect_watchers(ports[0], compression)

    async def connect_watchers(self, port: int, compression: str | None) -> None:
        """The table's watchers, each welcomed, then read."""
        self.watchers = []
        self.watch_want.clear()
        self.watch_seen.clear()
        for _ in range(self.proc.watchers):
            ws = await connect(
                f"ws://{HOST}:{port}/api/tables/{self.code}/ws",
                compression=compression, ping_interval=None, max_size=2**20,
                open_timeout=30,
            )
            self.watchers.append(ws)
            await ws.send(ENCODER.encode({"type": "hello", "watch": True}))
            welcome = DECODER.decode(await asyncio.wait_for(ws.recv(), 30))
            if welcome.type != "welcome":
                raise RuntimeError(f"watch hello answered with {welcome.type} {welcome.code}")
        self.watch_readers = [asyncio.get_running_loop().create_task(self.watch(ws))
                              for ws in self.watchers]

    async def watch(self, ws: ClientConnection) -> None:
        """A watcher: counts when each update reaches it."""
        try:
            async for raw in ws:
                now = time.monotonic()
                self.proc.stats.frames += 1
                self.proc.stats.frame_bytes += len(raw)
                message = DECODER.decode(raw)
                if message.type != "update":
                    self.proc.stats.errors[f"watcher {message.type} {message.code}"] += 1
                    continue
                seq = message.seq
                seen = self.watch_seen.get(seq)
                if seen is None:
                    self.watch_seen[seq] = [1.0, now]
                    if len(self.watch_seen) > 64:
                        for old in [s for s in self.watch_seen if s < seq - 32]:
                            del self.watch_seen[old]
                else:
                    seen[0] += 1
                    seen[1] = now
                self.check_watched(seq)
        except Exception as err:
            if not self.proc.stopping and not self.over.is_set():
                self.proc.stats.errors[f"watcher socket {type(err).__name__}"] += 1
        else:
            if not self.proc.stopping and not self.over.is_set():
                self.proc.stats.errors[f"watcher closed {ws.close_code}"] += 1

    def check_watched(self, seq: int) -> None:
        sent = self.watch_want.get(seq)
        seen = self.watch_seen.get(seq)
        if sent is None or seen is None or seen[0] < len(self.watchers):
            return
        del self.watch_want[seq]
        self.proc.stats.watched.append(seen[1] - sent)
        self.proc.stats.watched_at.append(seen[1])

    def start(self) -> None:
        """The host starts the match (after thinking, at human pace)."""
        self.go = True
        self.later(self.proc.think(), self.send_start)

    def send_start(self) -> None:
        if self.proc.stopping:
            return
        self.send(0, {"type": "start", "id": f"s{next(self.ids)}"})

    def later(self, delay: float, fn: Any, *args: Any) -> None:
        if delay > 0:
            asyncio.get_running_loop().call_later(delay, fn, *args)
        else:
            fn(*args)

    def send(self, seat: int, message: dict[str, Any]) -> None:
        ws = self.sockets[seat]
        task = asyncio.get_running_loop().create_task(ws.send(ENCODER.encode(message)))
        task.add_done_callback(self.proc.sent_done)

    async def read(self, seat: int, ws: ClientConnection) -> None:
        stats = self.proc.stats
        try:
            async for raw in ws:
                now = time.monotonic()
                counted = self.proc.stats
                counted.frames += 1
                counted.frame_bytes += len(raw)
                message = DECODER.decode(raw)
                kind = message.type
                if kind == "update":
                    self.on_update(seat, message, now)
                elif kind == "ack":
                    self.on_ack(seat, message, now)
                elif kind == "error":
                    stats.errors[f"error {message.code}"] += 1
                    if self.sent.pop(message.id or "", None) is not None or (
                            message.id or "").startswith("n"):
                        self.busy[seat] = False
                        self.consider(seat)
        except Exception as err:
            if not self.proc.stopping and not self.over.is_set():
                stats.errors[f"socket {type(err).__name__}"] += 1
        else:
            if not self.proc.stopping and not self.over.is_set():
                stats.errors[f"closed {ws.close_code}"] += 1

    def on_update(self, seat: int, message: Incoming, now: float) -> None:
        seq = message.seq
        seen = self.seen.get(seq)
        if seen is None:
            self.seen[seq] = [1.0, now]
            if len(self.seen) > 64:
                for old in [s for s in self.seen if s < seq - 32]:
                    del self.seen[old]
        else:
            seen[0] += 1
            seen[1] = now
        self.check(seq)
        table, view = message.table, message.view
        assert table is not None and view is not None
        status = table.status
        if self.computers and seat == 0:
            self.time_computers(seq, status, view.turn, now)
        self.turn[seat] = (seq, view.turn, view.legal, status)
        if status == "over":
            if not self.over.is_set():
                self.over.set()
            return
        self.host = table.host
        self.consider(seat)

    def time_computers(self, seq: int, status: str, turn: int | None, now: float) -> None:
        """On the person's socket: a computer seat's turn starts, or the update after it
        (its move) ends it."""
        if self.computer_turn is not None and seq > self.computer_turn[0]:
            self.proc.stats.answers.append(now - self.computer_turn[1])
            self.computer_turn = None
        if status == "playing" and turn is not None and turn != 0:
            self.computer_turn = (seq, now)

    def consider(self, seat: int) -> None:
        """Act (after thinking) if it is this seat's turn, or time for the next hand."""
        if not self.go or self.busy[seat] or self.proc.stopping:
            return
        _, turn, legal, status = self.turn[seat]
        if status == "playing" and turn == seat and legal:
            self.busy[seat] = True
            self.later(self.proc.think(), self.play, seat)
        elif status == "between_hands" and seat == self.host:
            self.busy[seat] = True
            self.later(self.proc.think(), self.next_hand, seat)

    def play(self, seat: int) -> None:
        _, turn, legal, status = self.turn[seat]
        if self.proc.stopping or status != "playing" or turn != seat or not legal:
            self.busy[seat] = False
            return
        action = f"m{next(self.ids)}"
        self.sent[action] = time.monotonic()
        self.send(seat, {"type": "play", "id": action, "move": random.choice(legal)})

    def next_hand(self, seat: int) -> None:
        if self.proc.stopping or self.turn[seat][3] != "between_hands":
            self.busy[seat] = False
            return
        self.send(seat, {"type": "next_hand", "id": f"n{next(self.ids)}"})

    def on_ack(self, seat: int, message: Incoming, now: float) -> None:
        action = message.id or ""
        sent = self.sent.pop(action, None)
        if sent is not None:
            self.proc.stats.acks.append(now)
            self.want[message.seq] = sent
            self.check(message.seq)
            if self.watchers:
                self.watch_want[message.seq] = sent
                self.check_watched(message.seq)
        elif not action.startswith("n"):
            return
        # The ack comes after the update it names, which may already be this seat's turn.
        self.busy[seat] = False
        self.consider(seat)

    def check(self, seq: int) -> None:
        sent = self.want.get(seq)
        if sent is None:
            return
        seen = self.seen.get(seq)
        if seen is None or seen[0] < self.people:
            return
        del self.want[seq]
        stats = self.proc.stats
        stats.latency.append(seen[1] - sent)
        stats.at.append(seen[1])

    async def close(self) -> None:
        for ws in [*self.sockets, *self.watchers]:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 5)
        for reader in [*self.readers, *self.watch_readers]:
            reader.cancel()
        self.sockets = []
        self.watchers = []

    async def life(self, started: asyncio.Event) -> None:
        """Play match after match until the run stops."""
        await started.wait()
        while not self.proc.stopping:
            self.start()
            await self.over.wait()
            self.matches += 1
            if self.proc.stopping:
                break
            await self.close()
            self.go = False
            try:
                async with self.proc.gate:
                    await self.open()
            except Exception as err:
                self.proc.stats.errors[f"reopen {type(err).__name__}"] += 1
                return

    def unanswered(self, older_than: float) -> int:
        return sum(1 for t in self.sent.values() if t < older_than)


class ClientProcess:
    """The tables one process plays, driven by commands from the bench's main process."""

    def __init__(self, index: int, port: int, options: dict[str, Any]) -> None:
        self.index = index
        self.port = port
        self.compression: str | None = "deflate" if options["deflate"] else None
        self.target = options["target"]
        self.experts: bool = options.get("experts", False)
        self.watchers: int = options.get("watch_each", 0)
        """Sockets watching each table (``--mode watchers``)."""
        self.think_range: tuple[float, float] = (0.0, 0.0)
        self.stats = Stats()
        self.stopping = False
        self.tables: list[TableRun] = []
        self.waiting: list[TableRun] = []
        self.lives: list[asyncio.Task[None]] = []
        self.guest_count = 0
        self.http: httpx.AsyncClient = None  # type: ignore[assignment]
        self.gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    def think(self) -> float:
        low, high = self.think_range
        return random.uniform(low, high) if high > 0 else 0.0

    def sent_done(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None and not self.stopping:
            self.stats.errors[f"send {type(task.exception()).__name__}"] += 1

    async def guest(self) -> Guest:
        self.guest_count += 1
        reply = await self.http.post("/api/guests",
                                     json={"name": f"b{self.index}-{self.guest_count}"})
        reply.raise_for_status()
        data = reply.json()
        return Guest(data["player"], data["token"])

    async def grow(self, people: int, computers: int) -> int:
        """Set up more tables (seated and connected, not started); how many failed."""
        kinds = [False] * people + [True] * computers
        random.shuffle(kinds)

        async def one(with_computers: bool) -> bool:
            async with self.gate:
                try:
                    guests = [await self.guest() for _ in range(1 if with_computers else 4)]
                    run = TableRun(self, with_computers, guests)
                    await run.open()
                except Exception as err:
                    self.stats.errors[f"setup {type(err).__name__}"] += 1
                    return False
            self.tables.append(run)
            self.waiting.append(run)
            return True

        done = await asyncio.gather(*(one(k) for k in kinds))
        return done.count(False)

    def go(self, pace: tuple[float, float]) -> None:
        """Start every table set up since the last go."""
        self.think_range = pace
        started = asyncio.Event()
        for run in self.waiting:
            self.lives.append(asyncio.get_running_loop().create_task(run.life(started)))
        self.waiting = []
        started.set()

    def collect(self) -> dict[str, Any]:
        stats = self.stats
        self.stats = Stats(errors=stats.errors)
        return {
            "latency": stats.latency.tobytes(), "at": stats.at.tobytes(),
            "acks": stats.acks.tobytes(), "answers": stats.answers.tobytes(),
            "watched": stats.watched.tobytes(), "watched_at": stats.watched_at.tobytes(),
            "errors": dict(stats.errors),
            "frames": stats.frames, "frame_bytes": stats.frame_bytes,
            "cpu": time.process_time(),
            "sockets": sum(len(t.sockets) + len(t.watchers) for t in self.tables),
            "tables": len(self.tables),
            "unanswered": sum(t.unanswered(time.monotonic() - 10) for t in self.tables),
        }

    async def stop(self) -> None:
        self.stopping = True
        for life in self.lives:
            life.cancel()
        await asyncio.gather(*(t.close() for t in self.tables), return_exceptions=True)
        await self.http.aclose()

    async def main(self, pipe: Connection) -> None:
        limits = httpx.Limits(max_connections=SETUP_CONCURRENCY * 2)
        self.http = httpx.AsyncClient(base_url=f"http://{HOST}:{self.port}", limits=limits,
                                      timeout=60)
        loop = asyncio.get_running_loop()
        while True:
            command, argument = await loop.run_in_executor(None, pipe.recv)
            if command == "grow":
                failed = await self.grow(*argument)
                pipe.send(("grown", failed))
            elif command == "go":
                self.go(argument)
                pipe.send(("going", None))
            elif command == "collect":
                pipe.send(("collected", self.collect()))
            elif command == "stop":
                await asyncio.wait_for(self.stop(), 30)
                pipe.send(("stopped", self.collect()))
                return


def client_main(index: int, port: int, options: dict[str, Any], pipe: Connection) -> None:
    """A client process's entry point."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    random.seed(index * 7919 + os.getpid())
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(ClientProcess(index, port, options).main(pipe))


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# The bench's main process ------------------------------------------------------------------


class Clients:
    """The client processes, each with its share of the tables."""

    def __init__(self, count: int, port: int, options: dict[str, Any]) -> None:
        context = mp.get_context("spawn")
        self.pipes: list[Connection] = []
        self.processes = []
        for index in range(count):
            ours, theirs = context.Pipe()
            process = context.Process(target=client_main, args=(index, port, options, theirs),
                                      daemon=True)
            process.start()
            self.pipes.append(ours)
            self.processes.append(process)
        self.cpu_mark = [0.0] * count

    def ask(self, command: str, arguments: list[Any], timeout: float) -> list[Any]:
        for pipe, argument in zip(self.pipes, arguments, strict=True):
            pipe.send((command, argument))
        answers = []
        for pipe in self.pipes:
            if not pipe.poll(timeout):
                raise SystemExit(f"a client process did not answer {command!r} in {timeout} s")
            answers.append(pipe.recv()[1])
        return answers

    def grow(self, people: int, computers: int, timeout: float) -> int:
        count = len(self.pipes)
        shares = [(people // count + (i < people % count),
                   computers // count + (i < computers % count)) for i in range(count)]
        return sum(self.ask("grow", shares, timeout))

    def go(self, pace: tuple[float, float]) -> None:
        self.ask("go", [pace] * len(self.pipes), 30)

    def collect(self, command: str = "collect") -> Window:
        answers = self.ask(command, [None] * len(self.pipes), 60)
        window = Window()
        for n, answer in enumerate(answers):
            for name in ("latency", "at", "acks", "answers", "watched", "watched_at"):
                values = array("d")
                values.frombytes(answer[name])
                getattr(window, name).extend(values)
            window.errors.update(answer["errors"])
            window.frames += answer["frames"]
            window.frame_bytes += answer["frame_bytes"]
            window.cpu.append(answer["cpu"] - self.cpu_mark[n])
            self.cpu_mark[n] = answer["cpu"]
            window.sockets += answer["sockets"]
            window.tables += answer["tables"]
            window.unanswered += answer["unanswered"]
        return window

    def kill(self) -> None:
        for process in self.processes:
            if process.is_alive():
                process.kill()
            process.join(5)


@dataclass
class Window:
    """What every client measured since the last collect."""

    latency: list[float] = field(default_factory=list)
    at: list[float] = field(default_factory=list)
    acks: list[float] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)
    watched: list[float] = field(default_factory=list)
    watched_at: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    cpu: list[float] = field(default_factory=list)
    sockets: int = 0
    tables: int = 0
    unanswered: int = 0
    frames: int = 0
    frame_bytes: int = 0


def percentile(values: list[float], q: float) -> float:
    """The q-quantile of ``values`` (nearest rank), in ms; nan for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))
    return ordered[rank] * 1000


def error_count(errors: Counter[str], unanswered: int) -> int:
    return sum(errors.values()) + unanswered


@dataclass
class Measure:
    """One measured window of a run."""

    tables: int
    sockets: int
    p50: float
    p99: float
    errors: int
    rss: float
    moves_per_second: float
    client_cpu: list[float]
    server_cpu: float
    workers_cpu: float
    seconds: float
    samples: int
    error_kinds: Counter[str]
    commits: float
    entries: float
    committing: float
    frames_per_move: float = 0.0
    """Messages the clients received from the server over the window, per durable move."""
    bytes_per_move: float = 0.0
    watch_p99: float = float("nan")
    """ms from a move sent to every watcher of its table having its update (watchers)."""
    watch_samples: int = 0
    thread_cpu: dict[str, float] = field(default_factory=dict)
    """The server's CPU seconds over the window by thread (``Server.thread_cpu``)."""


class Measured(Protocol):
    """What :func:`measure` reads of a server: one process (:class:`Server`) or several
    measured as one (``bench/cluster.py``'s ``Group``)."""

    samples_to: str

    def store_counts(self) -> tuple[float, float, float]: ...
    def cpu(self) -> float: ...
    def workers_cpu(self) -> float: ...
    def thread_cpu(self) -> dict[str, float]: ...
    def rss_mib(self) -> float: ...
    def profile(self, seconds: float) -> subprocess.Popen[bytes] | None: ...


def measure(server: Measured, clients: Clients, seconds: float, errors_before: int) -> Measure:
    """Measure for ``seconds``: latency of moves completed in the window, acks counted."""
    clients.collect()
    store0 = server.store_counts()
    cpu0, workers0 = server.cpu(), server.workers_cpu()
    threads0 = server.thread_cpu()
    spy = server.profile(seconds)
    start = time.monotonic()
    time.sleep(seconds)
    end = time.monotonic()
    if spy is not None:
        spy.wait(30)
    window = clients.collect()
    cpu, workers = server.cpu() - cpu0, server.workers_cpu() - workers0
    threads1 = server.thread_cpu()
    threads = {kind: threads1[kind] - threads0[kind] for kind in threads1 if kind in threads0}
    if threads:  # the rest as the process's CPU less these: it counts threads since ended
        threads["other"] = max(0.0, cpu - sum(threads.values()))
    commits, entries, committing = (b - a for a, b in zip(store0, server.store_counts(),
                                                          strict=True))
    timed = [(at, lat) for lat, at in zip(window.latency, window.at, strict=True)
             if start <= at < end]
    latencies = [lat for _, lat in timed]
    if server.samples_to:
        with open(server.samples_to, "a") as out:
            out.writelines(f"{at - start:.3f} {lat * 1000:.2f}\n" for at, lat in sorted(timed))
    acks = sum(1 for at in window.acks if start <= at < end)
    watched = [lat for lat, at in zip(window.watched, window.watched_at, strict=True)
               if start <= at < end]
    errors = error_count(window.errors, window.unanswered)
    return Measure(
        tables=window.tables, sockets=window.sockets,
        p50=percentile(latencies, 0.50), p99=percentile(latencies, 0.99),
        errors=errors - errors_before, rss=server.rss_mib(),
        moves_per_second=acks / (end - start), client_cpu=window.cpu, server_cpu=cpu,
        workers_cpu=workers, seconds=end - start, samples=len(latencies),
        error_kinds=window.errors, commits=commits, entries=entries, committing=committing,
        frames_per_move=window.frames / max(1, len(window.acks)),  # both since the last collect
        bytes_per_move=window.frame_bytes / max(1, len(window.acks)),
        watch_p99=percentile(watched, 0.99), watch_samples=len(watched),
        thread_cpu=threads,
    )


def cpu_per_move(m: Measure) -> float:
    """The server's CPU per durable move, in ms."""
    return m.server_cpu * 1000 / max(1.0, m.moves_per_second * m.seconds)


def cpu_line(m: Measure) -> str:
    per = ", ".join(f"{c / m.seconds:.0%}" for c in m.client_cpu)
    return (f"  CPU over the {m.seconds:.0f} s window (100% = one core of 2): "
            f"clients {sum(m.client_cpu) / m.seconds:.0%} ({per}), "
            f"server {m.server_cpu / m.seconds:.0%}, computer workers "
            f"{m.workers_cpu / m.seconds:.0%}; {m.samples} moves timed, server CPU "
            f"{cpu_per_move(m):.2f} ms a move; "
            f"load average {os.getloadavg()[0]:.2f}\n"
            f"  store: {m.commits / m.seconds:.0f} group commits a second, "
            f"{m.entries / max(1.0, m.commits):.1f} entries each, "
            f"{m.committing * 1000 / max(1.0, m.commits):.2f} ms each"
            + threads_line(m))


def threads_line(m: Measure) -> str:
    """Where the server's CPU went by thread, per durable move (empty if not read)."""
    if not m.thread_cpu:
        return ""
    moves = max(1.0, m.moves_per_second * m.seconds)
    return "\n  server threads: " + ", ".join(
        f"{kind} {seconds * 1e3 / moves:.3f} ms a move ({seconds / max(1e-9, m.server_cpu):.0%})"
        for kind, seconds in m.thread_cpu.items())


def split(tables: int, computer_share: float) -> tuple[int, int]:
    computers = round(tables * computer_share)
    return tables - computers, computers


def human_pace(args: argparse.Namespace, folder: Path) -> tuple[Measure, list[Measure]]:
    """Human pace at ``--tables`` tables, or step by step with ``--ramp``; the measure to
    report (the most tables under the p99 target, when ramping) and every step's."""
    steps = [int(s) for s in args.ramp.split(",")] if args.ramp else [args.tables]
    server = Server(args, folder, "human")
    clients: Clients | None = None
    measures: list[Measure] = []
    try:
        server.wait_ready()
        clients = Clients(args.clients, server.port, vars(args))
        held = 0
        errors_so_far = 0
        for step in steps:
            people, computers = split(step - held, args.computer_share)
            began = time.monotonic()
            failed = clients.grow(people, computers, args.setup_timeout)
            clients.go((2.0, 6.0))
            print(f"  {step} tables set up in {time.monotonic() - began:.0f} s"
                  f"{f' ({failed} failed)' if failed else ''}; settling {args.settle:.0f} s",
                  flush=True)
            held = step
            time.sleep(args.settle)
            m = measure(server, clients, args.seconds, errors_so_far)
            errors_so_far += m.errors
            measures.append(m)
            if args.ramp:
                print(f"  ramp: {m.tables} tables, {m.sockets} sockets, p50 {m.p50:.1f} ms, "
                      f"p99 {m.p99:.1f} ms, errors {m.errors}, server RSS {m.rss:.0f} MiB",
                      flush=True)
                print(cpu_line(m), flush=True)
                if not m.p99 < TARGET_P99_MS or m.errors:
                    break
        clients.collect("stop")
    finally:
        if clients is not None:
            clients.kill()
        server.kill()
    good = [m for m in measures if m.p99 < TARGET_P99_MS and not m.errors]
    best = max(good, key=lambda m: m.tables) if args.ramp and good else measures[-1]
    return best, measures


def flat_out(
    args: argparse.Namespace, folder: Path, floor: bool = False, pace_ms: float = 0.0
) -> Measure:
    """200 tables of people that never think: durable moves per second (with ``floor``, the
    same clients against bench/floor.py's bare server, answering ``pace_ms`` late)."""
    server = (FloorServer(args, folder, f"floor-{pace_ms:.0f}", pace_ms) if floor
              else Server(args, folder, "flat"))
    clients: Clients | None = None
    try:
        server.wait_ready()
        clients = Clients(args.clients, server.port, {**vars(args), "target": args.flat_target})
        failed = clients.grow(args.flat_tables, 0, args.setup_timeout)
        if failed:
            print(f"  {failed} tables failed to set up", flush=True)
        clients.go((0.0, 0.0))
        time.sleep(args.flat_settle)
        m = measure(server, clients, args.flat_seconds, 0)
        clients.collect("stop")
    finally:
        if clients is not None:
            clients.kill()
        server.kill()
    return m


def watched_tables(args: argparse.Namespace, folder: Path) -> Measure:
    """``--watch-tables`` partnership tables at human pace, each with ``--watchers``
    watchers: how long a move takes to reach every watcher."""
    server = Server(args, folder, "watchers")
    clients: Clients | None = None
    try:
        server.wait_ready()
        clients = Clients(args.clients, server.port, {**vars(args), "watch_each": args.watchers})
        began = time.monotonic()
        failed = clients.grow(args.watch_tables, 0, args.setup_timeout)
        clients.go((2.0, 6.0))
        print(f"  {args.watch_tables} tables with {args.watchers} watchers each set up in "
              f"{time.monotonic() - began:.0f} s{f' ({failed} failed)' if failed else ''}; "
              f"settling {args.settle:.0f} s", flush=True)
        time.sleep(args.settle)
        m = measure(server, clients, args.seconds, 0)
        clients.collect("stop")
    finally:
        if clients is not None:
            clients.kill()
        server.kill()
    return m


@dataclass
class AgainstExperts:
    """What ``--mode computers`` measured."""

    tables: int
    think_p50: float
    """ms, as the others"""
    think_p90: float
    think_p99: float
    think_max: float
    late: int
    moves: int
    server_late: float
    server_moves: float
    workers_cpu: float
    seconds: float
    errors: int


def against_experts(args: argparse.Namespace, folder: Path) -> AgainstExperts:
    """Tables of one person against three experts at human pace: how long the computers
    took to answer, and how many answered late."""
    server = Server(args, folder, "computers")
    clients: Clients | None = None
    try:
        server.wait_ready()
        clients = Clients(args.clients, server.port, {**vars(args), "experts": True})
        failed = clients.grow(0, args.computer_tables, args.setup_timeout)
        clients.go((2.0, 6.0))
        print(f"  {args.computer_tables} tables against the expert set up"
              f"{f' ({failed} failed)' if failed else ''}; settling {args.settle:.0f} s",
              flush=True)
        time.sleep(args.settle)
        clients.collect()
        late0 = server.counter("kabes_computer_moves_late_total")
        moves0 = server.counter("kabes_computer_moves_total")
        workers0 = server.workers_cpu()
        start = time.monotonic()
        time.sleep(args.seconds)
        seconds = time.monotonic() - start
        window = clients.collect()
        workers = server.workers_cpu() - workers0
        server_late = server.counter("kabes_computer_moves_late_total") - late0
        server_moves = server.counter("kabes_computer_moves_total") - moves0
        clients.collect("stop")
    finally:
        if clients is not None:
            clients.kill()
        server.kill()
    thinks = [max(0.0, a - args.computer_delay) for a in window.answers]
    allowed = args.expert_budget + LATE_MARGIN
    return AgainstExperts(
        tables=window.tables, think_p50=percentile(thinks, 0.5),
        think_p90=percentile(thinks, 0.9), think_p99=percentile(thinks, 0.99),
        think_max=percentile(thinks, 1.0),
        late=sum(1 for t in thinks if t > allowed), moves=len(thinks),
        server_late=server_late, server_moves=server_moves, workers_cpu=workers,
        seconds=seconds, errors=error_count(window.errors, window.unanswered),
    )


def fastline_rate(seconds: float) -> float:
    """bench/playout.py's ``kabes fastline``: random partnership hands per CPU-second."""
    from playout import kabes_hands  # bench/ is on the path, as for bench/cluster.py

    return kabes_hands(seconds)


def dominoes_rate(seconds: float) -> float:
    """bench/playout.py's yardstick: `dominoes` 6.1.0's random hands per CPU-second, a third
    party's speed that no change of ours moves."""
    from playout import dominoes_hands

    return dominoes_hands(seconds)


def floor_lines(args: argparse.Namespace, folder: Path, flat: Measure) -> list[str]:
    """Kabès's CPU per move against the floor: bench/floor.py driven by the same flat-out
    clients for the same window."""
    ms = cpu_per_move(flat)
    lines = []
    commit_ms = flat.committing * 1000 / max(1.0, flat.commits)
    try:
        bare = flat_out(args, folder, floor=True, pace_ms=commit_ms)
        at_once = flat_out(args, folder, floor=True)
    except (Exception, SystemExit) as err:  # the bench's own failures are SystemExit
        lines.append(f"floor: not measured ({type(err).__name__}: {err})")
        return lines
    floor_ms = cpu_per_move(bare)
    ratio = f"{ms / floor_ms:.1f} times" if floor_ms > 0 else "? times"
    lines.append(f"floor: bare server on the same stack, CPU {floor_ms:.3f} ms a move; "
                 f"kabes {ms:.2f} ms = {ratio} the floor")
    lines.append(
        f"  the floor answered each play after a group commit's time ({commit_ms:.1f} ms, "
        f"Kabès's mean this run), so both served the same kind of traffic; answering at "
        f"once it made {at_once.moves_per_second:.0f} moves per second at "
        f"{cpu_per_move(at_once):.3f} ms a move (kabes = "
        f"{ms / max(1e-9, cpu_per_move(at_once)):.1f} times that)")
    lines.append(
        f"  floor run: {bare.moves_per_second:.0f} moves per second, p99 {bare.p99:.1f} ms, "
        f"errors {bare.errors}; CPU over the {bare.seconds:.0f} s window: clients "
        f"{sum(bare.client_cpu) / bare.seconds:.0%}, floor server "
        f"{bare.server_cpu / bare.seconds:.0%}; {bare.samples} moves timed")
    lines.append(
        f"  frames the clients received a move: floor {bare.frames_per_move:.2f} of "
        f"{bare.bytes_per_move / max(1e-9, bare.frames_per_move):.0f} bytes on average, "
        f"kabes {flat.frames_per_move:.2f} of "
        f"{flat.bytes_per_move / max(1e-9, flat.frames_per_move):.0f} bytes")
    if bare.error_kinds:
        lines.append(f"  floor errors by kind (whole run): {dict(bare.error_kinds)}")
    return lines


def tournament_lines(args: argparse.Namespace, folder: Path) -> list[str]:
    """``--mode tournament`` (bench/tournament_load.py): a Swiss of ``--entrants`` played
    by the bench's clients on a real server; its line, details, and the fastline rate."""
    from tournament_load import tournament

    args.serve_extra = ["--pause-seconds", "0", "--tournament-wait-seconds", "60",
                        "--tournament-max-entrants", str(max(2, args.entrants))]
    low, high = (float(x) for x in args.tournament_think.split(","))
    server = Server(args, folder, "tournament")
    try:
        server.wait_ready()
        cpu_before = server.cpu()
        run = asyncio.run(tournament(server.url, args.entrants, args.tournament_rounds,
                                     args.tournament_target, (low, high)))
        cpu = server.cpu() - cpu_before
    finally:
        server.kill()
    rate = fastline_rate(args.fastline_seconds)
    return [
        f"tournament: {run.entrants} entrants, {run.rounds} rounds, pairing p99 "
        f"{percentile(run.pairing, 0.99):.0f} ms, errors {run.errors}",
        f"  {run.tables} tables ({run.entrants // 2} a round), {run.moves} moves acked, "
        f"move p50 {percentile(run.latencies, 0.5):.1f} ms, "
        f"p99 {percentile(run.latencies, 0.99):.1f} ms; "
        f"round 1 open {run.first_open * 1000:.0f} ms after the start; pairing per round "
        f"{', '.join(f'{x * 1000:.0f}' for x in run.pairing)} ms; "
        f"{run.seconds:.0f} s in all, server CPU {cpu / max(1e-9, run.seconds):.0%}; "
        f"fastline {rate:.0f} hands per CPU-second (this run)",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=["human", "flat", "both", "computers", "watchers",
                                           "tournament"],
                        default="both")
    parser.add_argument("--entrants", type=int, default=1000,
                        help="tournament: entrants of the Swiss (two a plaza table)")
    parser.add_argument("--tournament-rounds", type=int, default=3)
    parser.add_argument("--tournament-target", type=int, default=50,
                        help="tournament: points a plaza match is played to")
    parser.add_argument("--tournament-think", default="0.2,0.6",
                        help="tournament: a client's thinking before a move, MIN,MAX seconds")
    parser.add_argument("--tables", type=int, default=2000, help="human pace: tables at once")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="human pace: the measured window, per step")
    parser.add_argument("--settle", type=float, default=10.0,
                        help="human pace: seconds between the tables' start and the window")
    parser.add_argument("--ramp", default="",
                        help="human pace: table counts to step through, e.g. 500,1000,2000; "
                             "stops at the first step over the p99 target")
    parser.add_argument("--computer-share", type=float, default=0.2,
                        help="human pace: the share of tables against computer seats")
    parser.add_argument("--flat-tables", type=int, default=200)
    parser.add_argument("--flat-seconds", type=float, default=20.0,
                        help="flat out: the measured window")
    parser.add_argument("--flat-settle", type=float, default=5.0)
    parser.add_argument("--target", type=int, default=100,
                        help="human pace: points a partnership match is played to")
    parser.add_argument("--flat-target", type=int, default=500,
                        help="flat out: points a match is played to (longer matches: fewer "
                             "tables to open again while measuring)")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--workers", type=int, default=1, help="the server's computer workers")
    parser.add_argument("--computer-delay", type=float, default=0.5,
                        help="seconds a computer seat waits before moving")
    parser.add_argument("--computer-tables", type=int, default=40,
                        help="computers: tables of one person against three experts")
    parser.add_argument("--expert-budget", type=float, default=1.0,
                        help="seconds the expert searches a move (the server's full budget)")
    parser.add_argument("--fixed-budget", action="store_true",
                        help="the server gives every search the whole budget, however busy")
    parser.add_argument("--log-level", default="info", help="the server's log level")
    parser.add_argument("--no-deflate", dest="deflate", action="store_false",
                        help="clients do not offer permessage-deflate (browsers do)")
    parser.add_argument("--setup-timeout", type=float, default=900.0)
    parser.add_argument("--samples", default="",
                        help="a file: every timed move of each window, as seconds into the "
                             "window and latency in ms, one a line")
    parser.add_argument("--no-floor", dest="floor", action="store_false",
                        help="flat out: do not run the floor (bench/floor.py) after Kabès")
    parser.add_argument("--fastline-seconds", type=float, default=3.0,
                        help="flat out: CPU seconds of bench/playout.py's fastline measure")
    parser.add_argument("--watch-tables", type=int, default=500,
                        help="watchers: partnership tables at human pace, each watched")
    parser.add_argument("--watchers", type=int, default=10,
                        help="watchers: sockets watching each table")
    parser.add_argument("--profile", default="",
                        help="a folder: py-spy records the server over each measured window")
    args = parser.parse_args()

    signal.signal(signal.SIGTERM, signal.default_int_handler)  # servers killed on the way out
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    lines = []
    with tempfile.TemporaryDirectory(prefix="kabes-load-") as tmp:
        folder = Path(tmp)
        if args.mode in ("human", "both"):
            best, _ = human_pace(args, folder)
            lines.append(
                f"human pace: {best.tables} tables, {best.sockets} sockets, "
                f"p50 {best.p50:.1f} ms, p99 {best.p99:.1f} ms, errors {best.errors}, "
                f"server RSS {best.rss:.0f} MiB")
            lines.append(cpu_line(best))
            if best.error_kinds:
                lines.append(f"  errors by kind (whole run): {dict(best.error_kinds)}")
        if args.mode in ("flat", "both"):
            # The yardstick on both sides of the run: the machine's speed drifts (a shared
            # host), and the mean of the two is nearer the speed the window ran at.
            before = dominoes_rate(args.fastline_seconds)
            flat = flat_out(args, folder)
            lines.append(
                f"flat out: {flat.moves_per_second:.0f} durable moves per second, "
                f"p99 {flat.p99:.1f} ms, errors {flat.errors}")
            lines.append(cpu_line(flat))
            if flat.error_kinds:
                lines.append(f"  errors by kind (whole run): {dict(flat.error_kinds)}")
            ms = cpu_per_move(flat)
            rate = fastline_rate(args.fastline_seconds)
            after = dominoes_rate(args.fastline_seconds)
            theirs = (before + after) / 2
            lines.append(f"  server CPU per move: {ms:.2f} ms = {ms / 1000 * theirs:.2f} "
                         f"dominoes-hands (dominoes 6.1.0 {theirs:.0f} hands per CPU-second, "
                         f"this run: {before:.0f} before, {after:.0f} after) = "
                         f"{ms / 1000 * rate:.1f} fastline hands (fastline {rate:.0f} hands per "
                         f"CPU-second, this run)")
            if args.floor:
                lines.extend(floor_lines(args, folder, flat))
        if args.mode == "tournament":
            lines.extend(tournament_lines(args, folder))
        if args.mode == "computers":
            run = against_experts(args, folder)
            lines.append(
                f"computers: {run.tables} tables against the expert, "
                f"think p99 {run.think_p99:.0f} ms, moves late {run.late}")
            lines.append(
                f"  {run.moves} computer moves timed over {run.seconds:.0f} s "
                f"(budget {args.expert_budget:g} s, "
                f"{'fixed' if args.fixed_budget else 'following load'}, "
                f"{args.workers} workers at {run.workers_cpu / run.seconds:.0%} of a core); "
                f"the server counted {run.server_late:.0f} late of {run.server_moves:.0f}; "
                f"errors {run.errors}")
            lines.append(f"  think p50 {run.think_p50:.0f} ms, p90 {run.think_p90:.0f} ms, "
                         f"max {run.think_max:.0f} ms")
        if args.mode == "watchers":
            seen = watched_tables(args, folder)
            lines.append(
                f"watchers: {seen.tables} tables, {args.watchers} watchers, "
                f"p99 {seen.watch_p99:.1f} ms, errors {seen.errors}")
            lines.append(f"  {seen.watch_samples} moves timed to every watcher; to every "
                         f"seat: p50 {seen.p50:.1f} ms, p99 {seen.p99:.1f} ms; {seen.sockets} "
                         f"sockets, server RSS {seen.rss:.0f} MiB")
            lines.append(cpu_line(seen))
            if seen.error_kinds:
                lines.append(f"  errors by kind (whole run): {dict(seen.error_kinds)}")
            lines.append(f"  fastline {fastline_rate(args.fastline_seconds):.0f} hands per "
                         f"CPU-second, this run")
    print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
