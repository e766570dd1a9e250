"""``bench/load.py --mode tournament``: a Swiss of many entrants (1,000 by default: 500 plaza
tables a round, no computer seat) on a real ``kabes serve``, every move made by the bench's
own clients over WebSockets, to show that a round is paired (and its tables opened) in
under a second and that the tables keep their p99 under 100 ms meanwhile (issue 20,
"Measured").

- pairing: from the moment the last match of round r is over (its last client sees the
  result) to the moment the tournament document shows round r + 1 with every table open
  (polled every 50 ms, so up to that much is the poll's); round 1 is timed from the start
  request's answer, apart.
- latency: from a ``play`` sent to its ack (sent once the move is committed and every seat's
  update is on its way), for every move of every table.

One coordinator reads the document (the entrants would otherwise poll it by the thousand)
and hands each new table to a coroutine that seats its two clients.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect


@dataclass
class Run:
    """What one tournament measured."""

    entrants: int
    rounds: int = 0
    first_open: float = 0.0
    """Seconds from the start request's answer to round 1's tables all open."""
    pairing: list[float] = field(default_factory=list)
    """Per round after the first: seconds from the last match over to every table open."""
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    moves: int = 0
    seconds: float = 0.0
    tables: int = 0


async def seat(url: str, token: str, think: tuple[float, float], run: Run) -> None:
    """One client at a table: say hello, play the first legal move on each turn (after
    ``think`` seconds), until the match is over."""
    async with connect(url, proxy=None, ping_interval=None, open_timeout=60,
                       max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        me = -1
        sent: dict[str, float] = {}
        latest: dict[str, Any] | None = None
        moves = 0

        async def move(message: dict[str, Any]) -> None:
            nonlocal moves
            await asyncio.sleep(random.uniform(*think))
            moves += 1
            action = f"m{moves}"
            sent[action] = time.perf_counter()
            await ws.send(json.dumps({"type": "play", "id": action,
                                      "move": message["view"]["legal"][0]}))

        async for text in ws:
            message = json.loads(text)
            kind = message["type"]
            if kind == "welcome":
                me = message["seat"]
            if kind in ("welcome", "update"):
                latest = message
            elif kind == "ack" and message.get("id") in sent:
                run.latencies.append(time.perf_counter() - sent.pop(message["id"]))
                run.moves += 1
            elif kind == "error":
                sent.pop(message.get("id") or "", None)
                run.errors += 1
            if latest is None or sent:
                continue
            view, table = latest["view"], latest["table"]
            if view["result"] is not None or table["status"] == "over":
                return
            if table["status"] == "playing" and view["turn"] == me and view["legal"]:
                sent["pending"] = 0.0
                task = asyncio.get_running_loop().create_task(move(latest))
                task.add_done_callback(lambda _: sent.pop("pending", None))
                latest = None


async def table(base: str, code: str, tokens: dict[int, str], think: tuple[float, float],
                run: Run) -> float:
    """Both seats of table ``code`` played to the end; when it ended (perf_counter)."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        summary = (await http.get(f"/api/tables/{code}")).json()
    url = base.replace("http://", "ws://") + f"/api/tables/{code}/ws"
    await asyncio.gather(*(seat(url, tokens[s["player"]], think, run)
                           for s in summary["seats"]))
    return time.perf_counter()


async def tournament(base: str, entrants: int, rounds: int, target: int,
                     think: tuple[float, float]) -> Run:
    """Create, enter, start and play a Swiss of ``entrants`` plaza players."""
    run = Run(entrants)
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
        async def guest(name: str) -> tuple[int, str]:
            body = (await http.post("/api/guests", json={"name": name})).json()
            return int(body["player"]), str(body["token"])

        _, host = await guest("Host")
        auth = {"Authorization": f"Bearer {host}"}
        tid = (await http.post("/api/tournaments", headers=auth, json={
            "variant": "plaza", "options": {"target": target}, "rounds": rounds})).json()["id"]
        tokens: dict[int, str] = {}
        gate = asyncio.Semaphore(32)

        async def enter(n: int) -> None:
            async with gate:
                player, token = await guest(f"E{n}")
                tokens[player] = token
        await asyncio.gather(*(enter(n) for n in range(entrants)))
        for token in tokens.values():  # in order: one entry at a time, as people come
            reply = await http.post(f"/api/tournaments/{tid}/enter", json={},
                                    headers={"Authorization": f"Bearer {token}"})
            assert reply.status_code == 200, reply.text
        began = time.perf_counter()
        reply = await http.post(f"/api/tournaments/{tid}/start", headers=auth)
        assert reply.status_code == 200, reply.text
        answered = time.perf_counter()
        playing: dict[str, asyncio.Task[float]] = {}
        opened_round = 0
        while True:
            doc = (await http.get(f"/api/tournaments/{tid}")).json()
            if doc["status"] == "over":
                break
            number = doc["round"]
            row = doc["pairings"][number - 1]
            codes = [p["table"] for p in row if p["table"]]
            for code in codes:
                if code not in playing:
                    playing[code] = asyncio.create_task(table(base, code, tokens, think, run))
            if number > opened_round and len(codes) == sum(p["status"] != "bye" for p in row):
                now = time.perf_counter()
                if number == 1:
                    run.first_open = now - answered
                else:
                    ends = await asyncio.gather(*(playing[p["table"]]
                                                  for p in doc["pairings"][number - 2]
                                                  if p["table"]))
                    run.pairing.append(max(0.0, now - max(ends)))
                opened_round = number
            await asyncio.sleep(0.05)
        await asyncio.gather(*playing.values())
        run.rounds = len(doc["pairings"])
        run.tables = len(playing)
        run.seconds = time.perf_counter() - began
    return run
