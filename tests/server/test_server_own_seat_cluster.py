"""A socket acts only for its own player, across processes (PROTOCOL.md, "Safe for
strangers"): a socket relayed from another `kabes serve --redis` process to the table's owner
(kabes.server.hub.relay) carries the player its hello named, and the owner's table seats it, and
holds it, only while that player holds the seat. Two real processes on one PostgreSQL store
(``clusters.py``: skipped, saying why, when PostgreSQL or Redis cannot be reached, and failing
instead under CI)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import httpx
from clusters import RedisSpace, nodes, redis_fixture  # noqa: F401 (the fixture)
from websockets.exceptions import ConnectionClosed
from wsclient import Client, auth, guest


async def test_a_relayed_second_socket_of_a_player_who_left_never_sees_the_next_seat(
    tmp_path: Path, redis_space: RedisSpace
) -> None:
    async with nodes(tmp_path, 2, redis_space, options=("--rate-limits", "off")) as (a, b), \
            httpx.AsyncClient(base_url=a.base, trust_env=False, timeout=20) as http:
        _, x_token = await guest(http, "Xavier")
        for round_ in range(6):
            _, host = await guest(http, f"Roselène {round_}")  # 3 waiting seats each
            y_player, y_token = await guest(http, f"Yolande {round_}")
            reply = await http.post("/api/tables", headers=auth(host),
                                    json={"variant": "haitian", "players": 2})
            assert reply.status_code == 201, reply.text
            code = reply.json()["code"]  # owned by a, which opened it
            await http.post(f"/api/tables/{code}/join", headers=auth(x_token))
            first = Client(a.base, code, x_token)
            await first.connect()
            second = Client(b.base, code, x_token)  # relayed by b to a
            opening = asyncio.create_task(second.connect())
            await asyncio.sleep(0.002 * (round_ % 3))
            await first.send({"type": "leave", "id": "bye"})
            async with httpx.AsyncClient(base_url=b.base, trust_env=False,
                                         timeout=20) as other:
                join = await other.post(f"/api/tables/{code}/join", headers=auth(y_token))
            assert join.status_code == 200 and join.json()["seat"] == 1, join.text
            try:
                await opening
                welcomed = True  # before the leave: seat 1 was X's then
            except AssertionError:  # refused (not_seated, 4401): the leave came first
                welcomed = False
            left = await first.answer("bye")
            y = Client(b.base, code, y_token)
            assert (await y.connect())["seat"] == 1
            await y.send({"type": "sync", "id": "here"})
            assert (await y.answer("here"))["type"] == "ack"
            if welcomed:
                with contextlib.suppress(ConnectionClosed):  # closed already
                    await second.send({"type": "sync", "id": "peek"})
            await asyncio.sleep(0.3)
            assert second.ws is not None
            assert second.ws.close_code in (4401, 4403), second.ws.close_code
            seen = [r.message for r in second.log]
            assert all(m["seq"] < left["seq"] for m in seen if "view" in m), seen
            assert not [m for m in seen if m.get("id") == "peek" and m["type"] == "ack"]
            summary = (await http.get(f"/api/tables/{code}")).json()
            assert summary["seats"][1]["player"] == y_player
            for client in (first, second, y):
                await client.drop()
