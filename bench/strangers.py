"""Strangers: what one careless or hostile client costs the other tables, on a real server.

Starts `kabes serve` as a subprocess on a fresh SQLite file (127.0.0.1, a free port, its real
worker processes), then, over real WebSockets from this one process:

- the *flood*: ``--flood-seats`` people, each at a table of their own against a casual
  computer seat. On every turn each sends ``--hints`` hints with new ids as fast as the
  server's 100 messages a second allows, waits for their answers (or refusals), then plays a
  legal move, so that every turn asks again;
- the *measured* table, another person against one expert seat, who plays at once on each
  turn. The time from sending that move to the update where the expert's answering move
  arrives is the measure; a computer seat is on time within ``computer_delay +
  expert_budget`` (the budget printed) plus the server's LATE_MARGIN.

After ``--warmup`` seconds it measures for ``--seconds`` and prints

    hint flood: N hints from M seats, other table's computer move p50 X ms p99 Y ms (budget Z ms)

with the hints answered and refused, the moves late, and bench/playout.py's fastline rate
(a machine-free yardstick, measured after the run), each on a line of its own. ``--kabes``
runs another checkout's `kabes` (to compare before and after a change).

Run: .venv/bin/python bench/strangers.py [--flood-seats 4] [--hints 10] [--seconds 30]
                                         [--workers 2] [--expert-budget 1.0]
                                         [--computer-delay 0.1] [--kabes PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

HOST = "127.0.0.1"
LATE_MARGIN = 0.25
"""kabes.server.compute.computers.LATE_MARGIN: seconds past delay and budget that make a
move late."""
SEND_GAP = 0.012
"""Seconds between two messages of one socket (the server closes one that sends over 100 a
second)."""
WAIT = 30.0
"""Seconds any one answer may take before the bench gives up on it."""

_ids = itertools.count()


def new_id() -> str:
    """A fresh action id."""
    return f"s{next(_ids)}"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank), 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


class Server:
    """`kabes serve` in a process group of its own, killed (with its workers) on exit."""

    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.url = f"http://{HOST}:{free_port()}"
        kabes = args.kabes or str(Path(sys.executable).with_name("kabes"))
        command = [
            kabes, "serve", "--host", HOST, "--port", self.url.rsplit(":", 1)[1],
            "--db", f"sqlite:///{folder / 'strangers.sqlite3'}",
            "--computer-delay", str(args.computer_delay), "--workers", str(args.workers),
            "--expert-budget", str(args.expert_budget), "--log-level", "warning",
        ]
        helped = subprocess.run([kabes, "serve", "--help"], capture_output=True, text=True,
                                check=False).stdout
        if "--rate-limits" in helped:  # a server with the limits: this one machine is many
            command += ["--rate-limits", "off"]
        self.log = open(folder / "strangers.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(command, cwd=folder, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)

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

    def kill(self) -> None:
        """Kill the server and everything in its process group."""
        for number in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, number)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(5)
        self.log.close()


class Seat:
    """One person at a table against computers, over a real socket."""

    def __init__(self, base: str, level: str) -> None:
        self.base = base
        self.level = level
        self.ws: ClientConnection | None = None
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.next_send = 0.0
        self.update: dict[str, Any] = {}

    async def sit(self, http: httpx.AsyncClient, name: str) -> None:
        """A guest, a table of two against one computer of ``level``, the match started."""
        guest = (await http.post("/api/guests", json={"name": name})).json()
        headers = {"Authorization": f"Bearer {guest['token']}"}
        reply = await http.post("/api/tables", headers=headers, json={
            "variant": "haitian", "players": 2, "computers": {"1": self.level}})
        code = reply.json()["code"]
        url = self.base.replace("http://", "ws://") + f"/api/tables/{code}/ws"
        self.ws = await connect(url, proxy=None, ping_interval=None, open_timeout=WAIT)
        asyncio.get_running_loop().create_task(self._read(self.ws))
        await self.send({"type": "hello", "token": guest["token"]})
        self.update = await self.until(lambda m: m["type"] == "welcome")
        start = new_id()
        await self.send({"type": "start", "id": start})
        await self.until(lambda m: m.get("id") == start)

    async def _read(self, ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for text in ws:
                message = json.loads(text)
                if message["type"] in ("update", "welcome"):
                    self.update = message
                self.queue.put_nowait(message)

    async def send(self, message: dict[str, Any]) -> None:
        """Send ``message``, at most one per SEND_GAP."""
        assert self.ws is not None
        now = time.monotonic()
        if self.next_send > now:
            await asyncio.sleep(self.next_send - now)
        self.next_send = max(now, self.next_send) + SEND_GAP
        await self.ws.send(json.dumps(message))

    async def until(self, test: Any, timeout: float = WAIT) -> dict[str, Any]:
        """The next message that passes ``test``."""
        end = time.monotonic() + timeout
        while True:
            message = await asyncio.wait_for(self.queue.get(), max(0.01, end - time.monotonic()))
            if test(message):
                return message

    async def my_turn(self) -> None:
        """Wait until it is this seat's turn, dealing the next hand when one ends."""
        while True:
            view, status = self.update["view"], self.update["table"]["status"]
            if status == "playing" and view["turn"] == 0 and view["legal"]:
                return
            if status == "between_hands":
                deal = new_id()
                await self.send({"type": "next_hand", "id": deal})
                await self.until(lambda m, deal=deal: m.get("id") == deal)
                continue
            await self.until(lambda m: m["type"] == "update")


async def flood(seat: Seat, hints: int, counts: Counter[str], stop: asyncio.Event) -> None:
    """On every turn: ``hints`` hints with new ids, their answers, then a move."""
    while not stop.is_set():
        await seat.my_turn()
        asked = [new_id() for _ in range(hints)]
        for action in asked:
            await seat.send({"type": "hint", "id": action})
        counts["sent"] += hints
        move = seat.update["view"]["legal"][0]
        waiting = set(asked)
        with contextlib.suppress(TimeoutError):
            while waiting:
                answer = await seat.until(lambda m, w=waiting: m.get("id") in w)
                waiting.discard(answer["id"])
                if answer["type"] == "hint":
                    counts["answered"] += 1
                    move = answer["move"]
                else:
                    counts[f"refused {answer.get('code')}"] += 1
        if stop.is_set():
            return
        play = new_id()
        await seat.send({"type": "play", "id": play, "move": move})
        with contextlib.suppress(TimeoutError):
            await seat.until(lambda m, play=play: m.get("id") == play)


async def measure(seat: Seat, answers: list[float], stop: asyncio.Event,
                  counting: asyncio.Event) -> None:
    """Play at once on every turn; the time until the computer seat's move arrives."""
    while not stop.is_set():
        await seat.my_turn()
        play = new_id()
        sent = time.monotonic()
        await seat.send({"type": "play", "id": play, "move": seat.update["view"]["legal"][0]})
        while True:  # the update with the computer's move, unless the turn comes back first
            message = await seat.until(lambda m: m["type"] == "update")
            if any(e.get("kind") == "played" and e.get("seat") == 1 for e in message["events"]):
                if counting.is_set() and not stop.is_set():
                    answers.append(time.monotonic() - sent)
                break
            if message["table"]["status"] != "playing" or message["view"]["turn"] == 0:
                break


async def run(args: argparse.Namespace, base: str) -> tuple[list[float], Counter[str]]:
    """The flood and the measured table, for warmup plus the window."""
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=WAIT) as http:
        measured = Seat(base, "expert")
        await measured.sit(http, "Measured")
        flooders = [Seat(base, "casual") for _ in range(args.flood_seats)]
        for n, seat in enumerate(flooders):
            await seat.sit(http, f"Flood {n}")
    stop, counting = asyncio.Event(), asyncio.Event()
    answers: list[float] = []
    counts: Counter[str] = Counter()
    tasks = [asyncio.create_task(measure(measured, answers, stop, counting))]
    tasks += [asyncio.create_task(flood(s, args.hints, counts, stop)) for s in flooders]
    await asyncio.sleep(args.warmup)
    counting.set()
    before = Counter(counts)
    await asyncio.sleep(args.seconds)
    stop.set()
    window = counts - before
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return answers, window


def main() -> None:
    """Run the flood, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flood-seats", type=int, default=4)
    parser.add_argument("--hints", type=int, default=10, help="hints per turn per seat")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--expert-budget", type=float, default=1.0)
    parser.add_argument("--computer-delay", type=float, default=0.1)
    parser.add_argument("--kabes", default="", help="the kabes executable (default: this one)")
    parser.add_argument("--fastline-seconds", type=float, default=3.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kabes-strangers-") as folder:
        server = Server(args, Path(folder))
        try:
            server.wait_ready()
            answers, counts = asyncio.run(run(args, server.url))
        finally:
            server.kill()
    budget = args.computer_delay + args.expert_budget
    late = sum(1 for a in answers if a > budget + LATE_MARGIN)
    print(f"hint flood: {counts['sent']} hints from {args.flood_seats} seats, other table's "
          f"computer move p50 {percentile(answers, 0.5) * 1000:.0f} ms "
          f"p99 {percentile(answers, 0.99) * 1000:.0f} ms (budget {budget * 1000:.0f} ms)")
    refused = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k.startswith("refused"))
    print(f"  hints answered {counts['answered']}{', ' + refused if refused else ''}; "
          f"computer moves {len(answers)}, late {late} (over budget + {LATE_MARGIN * 1000:.0f} "
          f"ms), max {max(answers, default=0) * 1000:.0f} ms; {args.workers} workers, "
          f"{args.seconds:.0f} s")
    sys.path.insert(0, str(Path(__file__).parent))
    from playout import kabes_hands

    print(f"  fastline {kabes_hands(args.fastline_seconds):.0f} hands per CPU-second, this run")


if __name__ == "__main__":
    main()
