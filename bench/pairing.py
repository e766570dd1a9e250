"""Pairing: how long a tournament round takes to pair, and whether the server keeps
answering meanwhile (PROTOCOL.md, "Tournaments are bounded"; issue 24).

1. The pairing alone (kabes.tournaments, in this process): a Swiss of 256 entrants at every
   variant's every seat count, round 1 and the worst of rounds 2 to ``--rounds`` (results
   drawn at random), with the repeated meetings the worst round has; 47 entrants at 8-seat
   Mexican Train (7 byes); round robin and knockout of 256 (the worst round); and folding
   a tournament's log back (256 entrants, 512 players of a team variant naming partners
   10 times each; 1,000 entrants of a variant without teams).
2. A real ``kabes serve``: 256 entrants at 4-seat haitian and 47 at 8-seat Mexican Train,
   each started (round 1 paired) while another client asks ``/healthz`` without pause: the
   start's answer time, the longest ``/healthz`` answer meanwhile, the server's resident
   memory (RSS) before the tournaments and after both started.
3. ``bench/playout.py``'s fastline rate (random partnership hands per CPU-second), so that
   the figures can be read against the machine's speed that moment.

Run: .venv/bin/python bench/pairing.py [--rounds 5] [--fastline-seconds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path
from typing import Any

import httpx

from kabes.rules import VARIANTS
from kabes.tournaments import (
    Pairing,
    Result,
    Round,
    knockout_round,
    knockout_rounds,
    round_robin_round,
    round_robin_rounds,
    sides_per_table,
    swiss_round,
)
from kabes.tournaments.knockout import still_in
from kabes.tournaments.state import TournamentState
from kabes.tournaments.swiss import points_and_meetings

HOST = "127.0.0.1"


def finish(round_: Round, rng: random.Random) -> Round:
    """Every table of ``round_`` won by one of its entrants at random."""
    return Round(tuple(
        Pairing(t.entrants, Result((rng.choice(t.entrants),),
                                   tuple(rng.randrange(100) for _ in t.entrants),
                                   tuple(rng.randrange(4) for _ in t.entrants)))
        for t in round_.tables), round_.byes)


def repeats(round_: Round, played: list[Round]) -> int:
    """Pairs of ``round_`` that met before."""
    _, _, met = points_and_meetings(played)
    return sum(frozenset(p) in met for t in round_.tables for p in combinations(t.entrants, 2))


def swiss_times(count: int, sides: int, rounds: int) -> tuple[float, float, int]:
    """Round 1's pairing time, the slowest of rounds 2..``rounds``, and its repeats."""
    rng = random.Random(count * 10 + sides)
    entrants = list(range(1, count + 1))
    played: list[Round] = []
    first = worst = 0.0
    worst_repeats = 0
    for number in range(1, rounds + 1):
        began = time.perf_counter()
        nxt = swiss_round(entrants, played, sides)
        took = time.perf_counter() - began
        if number == 1:
            first = took
        elif took >= worst:
            worst, worst_repeats = took, repeats(nxt, played)
        played.append(finish(nxt, rng))
    return first, worst, worst_repeats


def head_to_head(count: int) -> tuple[float, float]:
    """The slowest round of a round robin and of a knockout of ``count``."""
    entrants = list(range(1, count + 1))
    robin = 0.0
    for number in range(1, round_robin_rounds(count) + 1):
        began = time.perf_counter()
        round_robin_round(entrants, number)
        robin = max(robin, time.perf_counter() - began)
    rng = random.Random(count)
    played: list[Round] = []
    knockout = 0.0
    for _ in range(knockout_rounds(count)):
        began = time.perf_counter()
        nxt = knockout_round(entrants, played)
        knockout = max(knockout, time.perf_counter() - began)
        played.append(finish(nxt, rng))
    assert len(still_in(entrants, played)) == 1
    return robin, knockout


def fold_time(entries: list[tuple[str, dict[str, Any]]]) -> float:
    """Seconds to read a tournament back from ``entries`` (every one folded)."""
    began = time.perf_counter()
    TournamentState.replay("BENCH", entries)
    return time.perf_counter() - began


def logs() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Tournament logs to fold: the largest a default server keeps, and bigger."""
    def created(variant: str, players: int) -> tuple[str, dict[str, Any]]:
        return ("created", {"variant": variant, "players": players, "options": {},
                            "format": "swiss", "rounds": 3, "host": 1, "name": "H"})

    teams = [created("partnership", 4)]
    for player in range(1, 513):  # each names 10 partners in turn, then the one it pairs with
        mate = player + 1 if player % 2 else player - 1
        for n in range(10):
            teams.append(("entered", {"player": player, "name": "P",
                                      "partner": (player + n * 7) % 512 + 1}))
        teams.append(("entered", {"player": player, "name": "P", "partner": mate}))
    single = [created("plaza", 2)] + [("entered", {"player": p, "name": "P", "partner": None})
                                      for p in range(1, 1001)]
    return {"512 players naming 11 partners each (5,633 entries)": teams,
            "1,000 entrants without teams": single}


# The server ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def rss_mib(pid: int) -> float:
    """The resident memory of process ``pid`` (its workers not counted)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def started_while_polled(base: str, http: httpx.AsyncClient, variant: str, seats: int,
                               tokens: list[str]) -> tuple[float, float, int]:
    """A Swiss of ``tokens`` at ``variant``/``seats`` started while /healthz is asked
    again and again: the start's answer time, the longest /healthz answer, how many."""
    host = {"Authorization": f"Bearer {tokens[0]}"}
    tid = (await http.post("/api/tournaments", headers=host, json={
        "variant": variant, "players": seats, "rounds": 3})).json()["id"]
    for token in tokens:
        reply = await http.post(f"/api/tournaments/{tid}/enter", json={},
                                headers={"Authorization": f"Bearer {token}"})
        assert reply.status_code == 200, reply.text
    answers: list[float] = []
    done = asyncio.Event()

    async def poll() -> None:
        async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=120) as other:
            while not done.is_set():
                asked = time.perf_counter()
                await other.get("/healthz")
                answers.append(time.perf_counter() - asked)
    poller = asyncio.create_task(poll())
    await asyncio.sleep(0.1)
    began = time.perf_counter()
    reply = await http.post(f"/api/tournaments/{tid}/start", headers=host)
    took = time.perf_counter() - began
    done.set()
    await poller
    assert reply.status_code == 200, reply.text
    return took, max(answers), len(answers)


async def served(folder: Path) -> list[str]:
    """The real server's figures."""
    port = free_port()
    base = f"http://{HOST}:{port}"
    kabes = Path(sys.executable).with_name("kabes")
    log = open(folder / "serve.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(
        [str(kabes), "serve", "--host", HOST, "--port", str(port), "--workers", "1",
         "--db", f"sqlite:///{folder / 'kabes.sqlite3'}", "--rate-limits", "off",
         "--tournament-wait-seconds", "600"],
        cwd=folder, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    lines: list[str] = []
    try:
        async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=120) as http:
            for _ in range(600):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/healthz")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            tokens = []
            for n in range(256):
                body = (await http.post("/api/guests", json={"name": f"E{n}"})).json()
                tokens.append(str(body["token"]))
            before = rss_mib(process.pid)
            for variant, seats, count in (("haitian", 4, 256), ("mexican-train", 8, 47)):
                took, longest, asked = await started_while_polled(
                    base, http, variant, seats, tokens[:count])
                lines.append(f"  served {count} at {seats}-seat {variant}: start answered in "
                             f"{took * 1000:.0f} ms; longest /healthz meanwhile "
                             f"{longest * 1000:.0f} ms ({asked} asked)")
            await asyncio.sleep(1.0)  # the round's tables opened
            after = rss_mib(process.pid)
            lines.append(f"  server RSS {before:.1f} MiB before the tournaments, "
                         f"{after:.1f} MiB after both started")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return lines


def fastline(seconds: float) -> float:
    """bench/playout.py's kabes figure: random partnership hands per CPU-second."""
    spec = importlib.util.spec_from_file_location(
        "playout", Path(__file__).with_name("playout.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rate: float = module.kabes_hands(seconds)
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="Swiss rounds paired per case")
    parser.add_argument("--fastline-seconds", type=float, default=3.0)
    parser.add_argument("--no-server", action="store_true", help="the pure figures only")
    args = parser.parse_args()

    print(f"Swiss pairing (round 1; slowest of rounds 2-{args.rounds}, its repeats):")
    cases = [("mexican-train", 8, 47), ("haitian", 4, 256)]
    for rules in VARIANTS.values():
        for seats in rules.seat_counts:
            cases.append((rules.id, seats, 256))
    slowest = 0.0
    for variant, seats, count in cases:
        sides = sides_per_table(VARIANTS[variant], seats)
        first, worst, worst_repeats = swiss_times(count, sides, args.rounds)
        slowest = max(slowest, first, worst)
        print(f"  {count:3d} at {seats}-seat {variant:16s} ({sides} sides): "
              f"{first * 1000:6.1f} ms; {worst * 1000:6.1f} ms, {worst_repeats} repeats")
    print(f"  slowest round of all: {slowest * 1000:.1f} ms")
    robin, knockout = head_to_head(256)
    print(f"Round robin of 256, slowest round: {robin * 1000:.2f} ms; "
          f"knockout of 256: {knockout * 1000:.2f} ms")
    for name, entries in logs().items():
        print(f"Fold of {name}: {fold_time(entries) * 1000:.1f} ms")
    if not args.no_server:
        print("A real kabes serve (SQLite, 1 worker):")
        with tempfile.TemporaryDirectory(prefix="kabes-pairing-") as folder:
            for line in asyncio.run(served(Path(folder))):
                print(line)
    print(f"fastline {fastline(args.fastline_seconds):.0f} hands per CPU-second "
          "(bench/playout.py)")


if __name__ == "__main__":
    main()
