"""One player on every phone (PROTOCOL.md, "Public tables, watching and phrases"), tested from
outside: ``POST /api/me/link`` gives a 6-digit code that works once, for 5 minutes, and
``POST /api/link`` turns it into a new token for the same player; tries are limited per
address; with many processes the code made on one is used on another.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from clusters import RedisSpace, nodes, redis_fixture  # noqa: F401 (the fixture redis_space)
from harness import Server, auth, running, sqlite_url

from kabes.server.common.config import Edge


async def link_code(server: Server, token: str) -> str:
    reply = await server.http.post("/api/me/link", headers=auth(token))
    assert reply.status_code == 201, reply.text
    body = reply.json()
    assert body["expires_in"] == 300
    code: str = body["code"]
    assert len(code) == 6 and code.isascii() and code.isdigit()
    return code


async def test_a_code_gives_a_new_token_for_the_same_player_and_the_old_one_keeps_working(
    server: Server,
) -> None:
    player, token = await server.guest("Roselène")
    code = await link_code(server, token)
    reply = await server.http.post("/api/link", json={"code": code})
    assert reply.status_code == 201, reply.text
    body = reply.json()
    assert body["player"] == player and body["name"] == "Roselène"
    assert body["token"] != token and len(body["token"]) >= 22
    for each in (token, body["token"]):
        me = await server.http.get("/api/me", headers=auth(each))
        assert me.json() == {"player": player, "name": "Roselène"}
    table = await server.open_table(body["token"], variant="haitian", players=2,
                                    computers={"1": "casual"})
    assert table["seats"][0]["player"] == player
    sock, welcome = await server.connect(table["code"], token)
    assert welcome["seat"] == 0, "the first device is seated at the table the second opened"
    sock.send({"type": "start", "id": "go"})
    await sock.until("ack", id="go")
    for each in (token, body["token"]):
        page = (await server.http.get(f"/api/players/{player}", headers=auth(each))).json()
        assert [m["code"] for m in page["matches"]] == [table["code"]], \
            "both devices see the same matches, codes included (the player's own page)"


async def test_a_code_works_once(server: Server) -> None:
    _, token = await server.guest()
    code = await link_code(server, token)
    assert (await server.http.post("/api/link", json={"code": code})).status_code == 201
    again = await server.http.post("/api/link", json={"code": code})
    assert again.status_code == 404 and again.json()["code"] == "not_found"


async def test_a_code_works_once_even_when_two_tries_race(server: Server) -> None:
    _, token = await server.guest()
    for _ in range(5):
        code = await link_code(server, token)
        replies = await asyncio.gather(*(
            server.http.post("/api/link", json={"code": code}) for _ in range(4)))
        assert sorted(r.status_code for r in replies) == [201, 404, 404, 404]


async def test_a_code_expires_after_five_minutes(server: Server) -> None:
    _, token = await server.guest()
    code = await link_code(server, token)
    await server.advance(299)
    alive = await link_code(server, token)
    await server.advance(299.5)
    assert (await server.http.post("/api/link", json={"code": alive})).status_code == 201
    late = await link_code(server, token)
    await server.advance(300)
    expired = await server.http.post("/api/link", json={"code": late})
    assert expired.status_code == 404 and expired.json()["code"] == "not_found"
    assert (await server.http.post("/api/link", json={"code": code})).status_code == 404


async def test_a_new_code_replaces_the_players_previous_one(server: Server) -> None:
    _, token = await server.guest()
    first = await link_code(server, token)
    second = await link_code(server, token)
    if first != second:
        assert (await server.http.post("/api/link", json={"code": first})).status_code == 404
    assert (await server.http.post("/api/link", json={"code": second})).status_code == 201


async def test_a_wrong_code_is_not_found(server: Server) -> None:
    _, token = await server.guest()
    code = await link_code(server, token)
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    reply = await server.http.post("/api/link", json={"code": wrong})
    assert reply.status_code == 404 and reply.json()["code"] == "not_found"


async def test_making_a_code_needs_a_known_token(server: Server) -> None:
    for headers in ({}, auth("not-a-token")):
        reply = await server.http.post("/api/me/link", headers=headers)
        assert reply.status_code == 401 and reply.json()["code"] == "bad_token"


@pytest.mark.parametrize("body", [
    b"", b"not json", b"[]", b'{"code": 123456}', b'{"code": null}', b'{}',
    b'{"code": "12345"}', b'{"code": "1234567"}', "{\"code\": \"١٢٣٤٥٦\"}".encode(),
    b'{"code": "12 345"}', b'{"code": ["123456"]}',
    b'{"code": "' + b"9" * 20_000 + b'"}',
])
async def test_a_bad_body_is_a_4xx_with_code_and_message(server: Server, body: bytes) -> None:
    reply = await server.http.post("/api/link", content=body,
                                   headers={"Content-Type": "application/json"})
    assert 400 <= reply.status_code < 500, reply.text
    assert set(reply.json()) == {"code", "message"}


async def test_eleven_tries_a_minute_from_one_address_are_refused(tmp_path: Path) -> None:
    async with running(sqlite_url(tmp_path), edge=Edge()) as server:
        for n in range(10):
            reply = await server.http.post("/api/link", json={"code": f"{n:06d}"})
            assert reply.status_code == 404, reply.text
        refused = await server.http.post("/api/link", json={"code": "000010"})
        assert refused.status_code == 429 and refused.json()["code"] == "slow_down"
        assert 1 <= int(refused.headers["retry-after"]) <= 60


async def test_a_code_made_on_one_process_is_used_once_on_another(
    tmp_path: Path, redis_space: RedisSpace,
) -> None:
    async with nodes(tmp_path, 2, redis_space) as (a, b):
        address = {"X-Forwarded-For": "203.0.113.91"}
        async with httpx.AsyncClient(trust_env=False) as http:
            made = await http.post(f"{a.base}/api/guests", json={"name": "Wilda"},
                                   headers=address)
            player, token = made.json()["player"], made.json()["token"]
            code = (await http.post(f"{a.base}/api/me/link", headers=auth(token))).json()["code"]
            replies = await asyncio.gather(*(
                http.post(f"{node.base}/api/link", json={"code": code}, headers=address)
                for node in (b, a, b)))
            assert sorted(r.status_code for r in replies) == [201, 404, 404]
            linked = next(r.json() for r in replies if r.status_code == 201)
            assert linked["player"] == player and linked["name"] == "Wilda"
            for node in (a, b):
                me = await http.get(f"{node.base}/api/me", headers=auth(linked["token"]))
                assert me.json() == {"player": player, "name": "Wilda"}


async def test_logging_out_a_linked_device_ends_its_token_only(server: Server) -> None:
    player, token = await server.guest()
    code = await link_code(server, token)
    linked = (await server.http.post("/api/link", json={"code": code})).json()["token"]
    assert (await server.http.post("/api/me/logout", headers=auth(linked))).status_code == 200
    assert (await server.http.get("/api/me", headers=auth(linked))).status_code == 401
    assert (await server.http.get("/api/me", headers=auth(token))).json()["player"] == player
