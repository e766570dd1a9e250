"""The squatter, against a real ``kabes serve`` (PROTOCOL.md, "Safe for strangers": public
tables start with their people present; seats held at once). A guest joins public tables over
HTTP and never opens a socket: its 4th waiting seat is refused 409 ``too_many_tables``, the
tables it joined do not start, and its seats are freed after ``--seat-wait-seconds``. And a
public table of three expert computers whose one person is absent never deals a hand.

The server runs with ``--rate-limits off``, as a benchmark or a checker on one machine does:
the cap on waiting seats is not a rate limit and holds all the same."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from wsclient import Client, ServerProcess, auth, guest

SEAT_WAIT = 2.0


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    """``kabes serve`` with a short seat wait."""
    proc = ServerProcess(tmp_path, "--seat-wait-seconds", str(SEAT_WAIT), "--rate-limits",
                         "off", "--computer-delay", "0", "--expert-budget", "0.01",
                         "--workers", "1")
    await proc.start()
    try:
        yield proc
    finally:
        proc.kill()


async def summary(http: httpx.AsyncClient, code: str) -> dict[str, Any]:
    """The table's public summary."""
    reply = await http.get(f"/api/tables/{code}")
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()
    return found


async def test_the_squatter_holds_three_tables_that_never_start_then_loses_them(
    server: ServerProcess,
) -> None:
    async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
        codes, hosts = [], []
        for n in range(4):
            _, token = await guest(http, f"Hôte {n}")
            reply = await http.post("/api/tables", headers=auth(token),
                                    json={"variant": "haitian", "players": 2, "public": True})
            assert reply.status_code == 201, reply.text
            codes.append(reply.json()["code"])
            host = Client(server.base, codes[-1], token)
            await host.connect()
            hosts.append(host)
        squatter_id, squatter = await guest(http, "Squatter")
        joined_at = time.monotonic()
        for code in codes[:3]:
            reply = await http.post(f"/api/tables/{code}/join", headers=auth(squatter))
            assert reply.status_code == 200, reply.text
        for attempt in (http.post(f"/api/tables/{codes[3]}/join", headers=auth(squatter)),
                        http.post("/api/tables", headers=auth(squatter),
                                  json={"variant": "haitian", "public": True}),
                        http.post("/api/quick", headers=auth(squatter),
                                  json={"variant": "plaza"})):
            reply = await attempt
            assert reply.status_code == 409, reply.text
            assert reply.json()["code"] == "too_many_tables"
        # Full, each host here, the squatter nowhere: none of them starts.
        for code in codes[:3]:
            found = await summary(http, code)
            assert found["status"] == "waiting", found
            assert found["seats"][1]["player"] == squatter_id
            assert found["seats"][1]["connected"] is False
        await asyncio.sleep(max(0.0, joined_at + SEAT_WAIT + 0.5 - time.monotonic()))
        for code, host in zip(codes[:3], hosts, strict=False):
            freed = await host.wait(lambda m: m["type"] == "update" and any(
                e.get("kind") == "seat_left" for e in m["events"]))
            assert freed["table"]["seats"][1] is None
            found = await summary(http, code)
            assert found["status"] == "waiting" and found["seats"][1] is None
        # Its seats freed, the squatter holds none: a seat anywhere is its again.
        reply = await http.post(f"/api/tables/{codes[3]}/join", headers=auth(squatter))
        assert reply.status_code == 200, reply.text
        for host in hosts:
            await host.drop()


async def test_a_public_table_of_computers_with_its_person_absent_never_starts(
    server: ServerProcess,
) -> None:
    async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
        _, token = await guest(http, "Absent")
        reply = await http.post("/api/tables", headers=auth(token), json={
            "variant": "haitian", "players": 4, "public": True,
            "computers": {"1": "expert", "2": "expert", "3": "expert"}})
        assert reply.status_code == 201, reply.text
        code = reply.json()["code"]
        assert reply.json()["status"] == "waiting"
        await asyncio.sleep(SEAT_WAIT / 2)
        assert (await summary(http, code))["status"] == "waiting"
        await asyncio.sleep(SEAT_WAIT / 2 + 0.5)
        found = await summary(http, code)
        assert found["status"] == "over" and found["seats"][0] is None
        record = (await http.get(f"/api/tables/{code}/record")).json()
        assert record["hands"] == []
