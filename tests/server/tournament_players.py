"""Scripted entrants of a tournament against a real server (or several): each reads the
tournament document, finds its table in the current round, plays its seat to the match's end
(its first legal move each turn), and looks again, until the tournament is over. A server
killed under them is waited for: requests are tried again, sockets reconnected.

Also what the tests check at the end: the standings computed from the tables' own records.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from wsclient import Client, auth, guest

Doc = dict[str, Any]


async def patient(call: Callable[[], Any], seconds: float = 30.0) -> Any:
    """``call()`` (an HTTP request), tried again while the server is down or restarting."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        try:
            reply = await call()
            if reply.status_code < 500:
                return reply
        except httpx.TransportError:
            pass
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the server did not come back")
        await asyncio.sleep(0.1)


async def open_tournament(http: httpx.AsyncClient, entrants: int, *, variant: str,
                          fmt: str, options: dict[str, Any], rounds: int | None = None,
                          ) -> tuple[str, str, dict[int, str]]:
    """A tournament with ``entrants`` entrants (pairs that name each other in a team
    variant); its id, its host's token, and every player's token."""
    _, host = await guest(http, "Host")
    body: dict[str, Any] = {"variant": variant, "options": options, "format": fmt}
    if rounds is not None:
        body["rounds"] = rounds
    reply = await http.post("/api/tournaments", json=body, headers=auth(host))
    assert reply.status_code == 201, reply.text
    tid: str = reply.json()["id"]
    teams = variant == "partnership"
    tokens: dict[int, str] = {}
    for n in range(entrants):
        members = [await guest(http, f"E{n}{'ab'[k]}") for k in range(2 if teams else 1)]
        for k, (player, token) in enumerate(members):
            tokens[player] = token
            partner = {"partner": members[1 - k][0]} if teams else {}
            entered = await http.post(f"/api/tournaments/{tid}/enter", json=partner,
                                      headers=auth(token))
            assert entered.status_code == 200, entered.text
    return tid, host, tokens


async def play_match(base: str, code: str, token: str) -> None:
    """Play one seat of table ``code`` to the end of its match, through restarts."""
    client = Client(base, code, token)
    moves = 0
    try:
        while True:
            if client.reader is None or client.reader.done():
                try:
                    await client.connect()
                except (AssertionError, OSError, TimeoutError, ConnectionClosed,
                        InvalidHandshake):  # the server killed while it shook hands
                    await client.drop()
                    await asyncio.sleep(0.2)
                    continue
            item = client.latest()
            if item is not None:
                table, view = item.message["table"], item.message["view"]
                if view["result"] is not None or table["status"] == "over":
                    return
                if (table["status"] == "playing" and view["turn"] == client.seat
                        and view["legal"]):
                    moves += 1
                    start = len(client.log)
                    with contextlib.suppress(AssertionError, OSError, ConnectionClosed):
                        await client.send({"type": "play", "id": f"m{moves}",
                                           "move": view["legal"][0]})
                        await client.answer(f"m{moves}", start)
                    continue
            start = len(client.log)
            try:
                await client.wait(lambda m: m["type"] == "update", start, timeout=2.0)
            except AssertionError:
                if client.reader is not None and not client.reader.done():
                    with contextlib.suppress(Exception):
                        await client.send({"type": "sync", "id": f"s{moves}-{start}"})
    finally:
        await client.drop()


async def entrant(base: str, tid: str, player: int, token: str) -> None:
    """One player of the tournament, playing every match of theirs until it is over."""
    played: set[str] = set()
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=10.0) as http:
        while True:
            doc = (await patient(lambda: http.get(f"/api/tournaments/{tid}"))).json()
            if doc["status"] == "over":
                return
            me = next(e["entrant"] for e in doc["entrants"] if player in e["players"])
            mine = [p["table"] for p in doc["pairings"][-1]
                    if me in p["entrants"] and p["table"] and p["status"] != "over"
                    and p["table"] not in played]
            if not mine:
                await asyncio.sleep(0.1)
                continue
            await play_match(base, mine[0], token)
            played.add(mine[0])


async def standings_from_records(http: httpx.AsyncClient, doc: Doc) -> tuple[
        dict[int, int], dict[int, int]]:
    """Each entrant's points (matches won, byes) and hands won, from the tables' records."""
    points = {e["entrant"]: 0 for e in doc["entrants"]}
    hands = dict(points)
    for row in doc["pairings"]:
        for pairing in row:
            if pairing["status"] == "bye":
                points[pairing["entrants"][0]] += 1
                continue
            reply = await http.get(f"/api/tables/{pairing['table']}/record")
            assert reply.status_code == 200, reply.text
            record = reply.json()
            for i, number in enumerate(pairing["entrants"]):
                points[number] += i in record["result"]["winners"]
                hands[number] += sum(h["result"]["winner"] == i for h in record["hands"])
    return points, hands
