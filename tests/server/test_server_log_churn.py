"""A table's log holds the game (PROTOCOL.md, "Safe for strangers"): connecting and
disconnecting are told to the table but not logged while it waits; in play a seat's
connection changes reach the log at most once every 10 seconds. Reconnecting a thousand
times grows nothing that a rebuild must replay, and the table rebuilt from its log (read
back from the store) is the live table.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
from wsclient import Client, ServerProcess, auth, guest

from kabes.server.common.protocol import as_json
from kabes.table import outbox
from kabes.table.entries import Entry
from kabes.table.state import TableState, Timing, replay

TIMING = Timing(600.0, 5.0, 30.0)
"""As the server below is started: --turn-seconds 600 (no turn runs out meanwhile)."""


def entries(folder: Path, code: str) -> list[Entry]:
    """Table ``code``'s log, read back from the server's SQLite file."""
    with sqlite3.connect(folder / "kabes.sqlite3") as db:
        rows = db.execute("SELECT seq, kind, data, at, seat, action, epoch FROM table_events "
                          "WHERE code = ? ORDER BY seq", (code,)).fetchall()
    return [Entry(s, k, json.loads(d), a, seat, act, e) for s, k, d, a, seat, act, e in rows]


def as_seen(state: TableState, seat: int) -> dict[str, Any]:
    """What a rebuilt table shows a seat: its summary and view, without what is not in a
    log (who is connected now, the clocks' remaining time)."""
    summary = as_json(outbox.summary(state, lambda n: False, True))
    summary.pop("watchers", None)
    view = as_json(outbox.seat_view(state, seat, (None, None)))
    for s in summary["seats"]:
        if s is not None:
            s.pop("connected")
    return {"table": summary, "view": {k: v for k, v in view.items()
                                       if k not in ("clock", "pause")}}


def live(update: dict[str, Any]) -> dict[str, Any]:
    """The same of a live update."""
    table = {k: v for k, v in update["table"].items() if k != "watchers"}
    for s in table["seats"]:
        if s is not None:
            s.pop("connected")
    return {"table": table, "view": {k: v for k, v in update["view"].items()
                                     if k not in ("clock", "pause")}}


async def reconnect(client: Client, times: int) -> None:
    """Open a socket and close it again, ``times`` times."""
    for _ in range(times):
        await client.connect()
        await client.drop()


def gone(client: Client, start: int) -> int:
    """How many times ``client`` has been told, since ``log[start]``, that seat 1 went."""
    return sum(1 for r in client.log[start:] if r.message["type"] == "update"
               for e in r.message["events"] if e["seat"] == 1 and e["kind"] == "disconnected")


async def synced(client: Client, action_id: str) -> dict[str, Any]:
    """A fresh update for ``client``'s seat."""
    mark = len(client.log)
    await client.send({"type": "sync", "id": action_id})
    await client.answer(action_id, mark)
    return next(r.message for r in reversed(client.log[mark:])
                if r.message["type"] == "update")


async def test_a_thousand_reconnects_grow_no_log_a_rebuild_replays(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, "--workers", "1", "--computer-delay", "0",
                           "--turn-seconds", "600", "--log-level", "warning")
    await server.start()
    try:
        async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
            _, host_token = await guest(http, "Roselène")
            _, friend_token = await guest(http, "Mireille")
            reply = await http.post("/api/tables", headers=auth(host_token), json={
                "variant": "haitian", "players": 3, "computers": {"2": "beginner"}})
            code = reply.json()["code"]
            await http.post(f"/api/tables/{code}/join", headers=auth(friend_token))
            host = Client(server.base, code, host_token)
            await host.connect()
            friend = Client(server.base, code, friend_token)
            before = len(entries(tmp_path, code))
            mark = len(host.log)
            await reconnect(friend, 1000)
            # The last close reaches the server after drop() returns: wait until the host
            # has been told of the thousandth going before counting.
            await host.wait(lambda m: m["type"] == "update" and gone(host, mark) == 1000, mark)
            # Waiting: a thousand reconnects, not one entry; the host was told each one.
            assert len(entries(tmp_path, code)) == before
            told = [r.message for r in host.log[mark:] if r.message["type"] == "update"]
            kinds = [e["kind"] for m in told for e in m["events"] if e["seat"] == 1]
            assert kinds.count("connected") == 1000 and kinds.count("disconnected") == 1000
            assert {m["seq"] for m in told} == {told[0]["seq"]}  # no change of the game
            rebuilt = replay(code, TIMING, entries(tmp_path, code))
            assert as_seen(rebuilt, 0) == live(await synced(host, "w"))

            # In play: the first change reaches the log at once, the rest at most once in
            # every 10 s a seat, and the seat's state at the end if it differs.
            await friend.connect()
            await host.send({"type": "start", "id": "go"})
            await host.answer("go")
            started = len(entries(tmp_path, code))
            began = time.monotonic()
            await reconnect(friend, 300)
            took = time.monotonic() - began
            churn = entries(tmp_path, code)[started:]
            presence = [e for e in churn if e.kind in ("connected", "disconnected")]
            assert len(presence) <= 2 + int(took / 10), [(e.kind, e.at) for e in presence]
            assert all(e.kind in ("connected", "disconnected", "move") for e in churn)
            rebuilt = replay(code, TIMING, entries(tmp_path, code))
            assert rebuilt.seat(1).away_since is not None  # its going was logged first
            update = await synced(host, "p")
            assert update["seq"] == rebuilt.seq
            assert as_seen(rebuilt, 0) == live(update)
            await host.drop()
    finally:
        server.kill()
