"""Link codes resist guessing (PROTOCOL.md, "Safe for strangers"; issue 24), tried from
outside: wrong codes are limited per address, per IPv6 /64 (one subscriber's 2^64 addresses)
and across the server (100 wrong codes a minute from everyone, then every try is 429
``slow_down`` with ``Retry-After``), through one process or several sharing Redis; and
``POST /api/me/logout`` with ``{"everywhere": true}`` ends every token of the caller's player,
on every phone, on SQLite and PostgreSQL.

A client's address is set with ``X-Forwarded-For``: the test's connections come from
127.0.0.1, a trusted proxy by default (kabes.server.common.proxies).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from clusters import RedisSpace, nodes, redis_fixture  # noqa: F401 (the fixture redis_space)
from harness import Server, running
from stores import backend_fixture, db_url_fixture  # noqa: F401 (the fixtures db_url, backend)
from wsclient import WAIT, ServerProcess, auth, guest

from kabes.server.common.limits import WRONG_LINK_CODES, Limit, LocalCounter

OPTIONS = ("--workers", "1", "--log-level", "warning")
_wrong = itertools.count(1)


def wrong_code() -> str:
    """A code nobody was given: the tests make no code but the ones they use."""
    return f"{next(_wrong) % 1_000_000:06d}"


def at(address: str) -> dict[str, str]:
    """Headers that make a request come from ``address``."""
    return {"X-Forwarded-For": address}


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    """``kabes serve`` with its defaults at the edge; killed whatever happens."""
    server = ServerProcess(tmp_path, *OPTIONS)
    try:
        await server.start()
        yield server
    finally:
        server.kill()


@pytest.fixture
async def http(served: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=served.base, trust_env=False, timeout=WAIT) as client:
        yield client


async def link_code(http: httpx.AsyncClient, token: str) -> str:
    reply = await http.post("/api/me/link", headers=auth(token))
    assert reply.status_code == 201, reply.text
    code: str = reply.json()["code"]
    return code


async def test_guesses_from_one_ipv6_64_with_rotating_addresses_are_refused_together(
    http: httpx.AsyncClient,
) -> None:
    for n in range(20):  # every address new, each far under its own 10
        reply = await http.post("/api/link", json={"code": wrong_code()},
                                headers=at(f"2001:db8:5:7:{n:x}::{n + 1:x}"))
        assert reply.status_code == 404, reply.text
    refused = await http.post("/api/link", json={"code": wrong_code()},
                              headers=at("2001:db8:5:7:ffff:ffff:ffff:fffe"))
    assert refused.status_code == 429, refused.text
    assert refused.json()["code"] == "slow_down" and "/64" in refused.json()["message"]
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    spelled = await http.post("/api/link", json={"code": wrong_code()},
                              headers=at("2001:DB8:5:7:0:0:0:1"))
    assert spelled.status_code == 429, "another spelling of the same /64 is the same /64"
    mapped = await http.post("/api/link", json={"code": wrong_code()},
                             headers=at("2001:db8:5:8::1"))
    assert mapped.status_code == 404, "the next /64 has a count of its own"


async def test_ipv4_addresses_are_limited_one_by_one_not_by_network(
    http: httpx.AsyncClient,
) -> None:
    for _ in range(10):
        reply = await http.post("/api/link", json={"code": wrong_code()},
                                headers=at("198.51.100.20"))
        assert reply.status_code == 404, reply.text
    for spelled in ("198.51.100.20", "::ffff:198.51.100.20", "198.51.100.20:4411"):
        refused = await http.post("/api/link", json={"code": wrong_code()},
                                  headers=at(spelled))
        assert refused.status_code == 429, (spelled, refused.text)
    for n in range(21):  # 21 neighbours of one /24: more than a /64's 20, each its own count
        reply = await http.post("/api/link", json={"code": wrong_code()},
                                headers=at(f"198.51.100.{100 + n}"))
        assert reply.status_code == 404, reply.text


async def test_wrong_codes_from_many_addresses_stop_at_100_a_minute_for_the_whole_server(
    http: httpx.AsyncClient,
) -> None:
    _, token = await guest(http, "Wilda")  # before the flood: one guest from 127.0.0.1
    code = await link_code(http, token)
    sent = 0
    for n in range(WRONG_LINK_CODES.most):  # 100 addresses, one try each
        reply = await http.post("/api/link", json={"code": wrong_code()},
                                headers=at(f"203.0.{n // 200}.{n % 200 + 1}"))
        assert reply.status_code == 404, (n, reply.text)
        sent += 1
    for where in ("192.0.2.1", "2001:db8:99::1", "198.51.100.250"):
        refused = await http.post("/api/link", json={"code": wrong_code()}, headers=at(where))
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "slow_down"
        assert "wrong link codes" in refused.json()["message"]
        assert 1 <= int(refused.headers["retry-after"]) <= 60
    right = await http.post("/api/link", json={"code": code}, headers=at("192.0.2.77"))
    assert right.status_code == 429, "past the cap every try is refused, a right one too"
    assert sent == 100


async def test_a_right_code_is_not_counted_among_the_wrong_ones(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, *OPTIONS, "--wrong-link-codes-per-minute", "3")
    try:
        await server.start()
        async with httpx.AsyncClient(base_url=server.base, trust_env=False,
                                     timeout=WAIT) as http:
            _, token = await guest(http, "Wilda")
            for n in range(4):  # four right codes: none of them a wrong one
                code = await link_code(http, token)
                reply = await http.post("/api/link", json={"code": code},
                                        headers=at(f"192.0.2.{n + 1}"))
                assert reply.status_code == 201, reply.text
            for n in range(3):
                reply = await http.post("/api/link", json={"code": wrong_code()},
                                        headers=at(f"192.0.2.{n + 10}"))
                assert reply.status_code == 404, reply.text
            refused = await http.post("/api/link", json={"code": wrong_code()},
                                      headers=at("192.0.2.20"))
            assert refused.status_code == 429, refused.text
    finally:
        server.kill()


async def test_tries_at_once_never_pass_the_servers_wrong_codes(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, *OPTIONS, "--wrong-link-codes-per-minute", "5")
    try:
        await server.start()
        async with httpx.AsyncClient(base_url=server.base, trust_env=False,
                                     timeout=WAIT) as http:
            replies = await asyncio.gather(*(
                http.post("/api/link", json={"code": wrong_code()},
                          headers=at(f"192.0.2.{n + 1}")) for n in range(40)))
            codes = sorted(reply.status_code for reply in replies)
            assert codes == [404] * 5 + [429] * 35, codes
    finally:
        server.kill()


async def test_the_servers_wrong_codes_are_counted_across_processes(
    tmp_path: Path, redis_space: RedisSpace,
) -> None:
    async with (
        nodes(tmp_path, 2, redis_space,
              options=("--wrong-link-codes-per-minute", "6")) as (a, b),
        httpx.AsyncClient(trust_env=False, timeout=WAIT) as http,
    ):
        for n in range(6):
            node = (a, b)[n % 2]
            reply = await http.post(f"{node.base}/api/link", json={"code": wrong_code()},
                                    headers=at(f"192.0.2.{n + 1}"))
            assert reply.status_code == 404, reply.text
        for node in (a, b):
            refused = await http.post(f"{node.base}/api/link",
                                      json={"code": wrong_code()}, headers=at("192.0.2.99"))
            assert refused.status_code == 429, refused.text
            assert 1 <= int(refused.headers["retry-after"]) <= 60


# Logout everywhere ----------------------------------------------------------------------


async def linked_token(server: Server, token: str) -> str:
    code = (await server.http.post("/api/me/link", headers=auth(token))).json()["code"]
    reply = await server.http.post("/api/link", json={"code": code})
    assert reply.status_code == 201, reply.text
    linked: str = reply.json()["token"]
    return linked


async def test_logout_everywhere_ends_every_phones_token(db_url: str) -> None:
    async with running(db_url) as server:
        player, first = await server.guest("Wilda")
        second = await linked_token(server, first)
        third = await linked_token(server, second)
        _, other = await server.guest("Other")
        pending = (await server.http.post("/api/me/link", headers=auth(third))).json()["code"]
        ended = await server.http.post("/api/me/logout", json={"everywhere": True},
                                       headers=auth(second))
        assert ended.status_code == 200 and ended.json() == {"ok": True}
        for token in (first, second, third):
            me = await server.http.get("/api/me", headers=auth(token))
            assert me.status_code == 401 and me.json()["code"] == "bad_token"
        late = await server.http.post("/api/link", json={"code": pending})
        assert late.status_code == 404, "the player's live code ended with its tokens"
        assert (await server.http.get("/api/me", headers=auth(other))).status_code == 200
        page = await server.http.get(f"/api/players/{player}")
        assert page.json()["name"] == "Wilda", "the player keeps everything but its tokens"
        again = await server.http.post("/api/me/logout", json={"everywhere": True},
                                       headers=auth(first))
        assert again.status_code == 401 and again.json()["code"] == "bad_token"


async def test_a_hello_with_a_token_ended_everywhere_is_bad_token(db_url: str) -> None:
    async with running(db_url) as server:
        _, first = await server.guest("Wilda")
        second = await linked_token(server, first)
        table = await server.open_table(first, variant="haitian", players=2,
                                        computers={"1": "casual"})
        await server.http.post("/api/me/logout", json={"everywhere": True}, headers=auth(first))
        sock = server.socket(table["code"])
        sock.send({"type": "hello", "token": second})
        error = await sock.until("error")
        assert error["code"] == "bad_token"


async def test_logout_without_everywhere_ends_only_the_token_presented(db_url: str) -> None:
    async with running(db_url) as server:
        player, first = await server.guest("Wilda")
        second = await linked_token(server, first)
        for body in ({}, {"everywhere": False}, None):
            third = await linked_token(server, first)
            reply = await server.http.post("/api/me/logout", json=body, headers=auth(third))
            assert reply.status_code == 200, reply.text
            assert (await server.http.get("/api/me", headers=auth(third))).status_code == 401
        for token in (first, second):
            assert (await server.http.get("/api/me", headers=auth(token))).json()["player"] \
                == player


@pytest.mark.parametrize("body", [b'{"everywhere": "yes"}', b'{"everywhere": 1}', b"[]",
                                  b"not json"])
async def test_a_bad_logout_body_is_refused_and_ends_nothing(db_url: str, body: bytes) -> None:
    async with running(db_url) as server:
        _, token = await server.guest("Wilda")
        reply = await server.http.post("/api/me/logout", content=body, headers={
            **auth(token), "Content-Type": "application/json"})
        assert reply.status_code == 422 and reply.json()["code"] == "bad_message"
        assert (await server.http.get("/api/me", headers=auth(token))).status_code == 200


async def test_logout_everywhere_and_making_or_using_a_code_at_once_leave_no_token(
    db_url: str,
) -> None:
    async with running(db_url) as server:
        for _ in range(6):
            _, first = await server.guest("Wilda")
            code = (await server.http.post("/api/me/link", headers=auth(first))).json()["code"]
            used, made, ended = await asyncio.gather(
                server.http.post("/api/link", json={"code": code}),
                server.http.post("/api/me/link", headers=auth(first)),
                server.http.post("/api/me/logout", json={"everywhere": True},
                                 headers=auth(first)))
            assert ended.status_code == 200, ended.text
            if used.status_code == 201:
                me = await server.http.get("/api/me", headers=auth(used.json()["token"]))
                assert me.status_code == 401, "a code used at the logout's moment ended too"
            if made.status_code == 201:
                late = await server.http.post("/api/link", json={"code": made.json()["code"]})
                assert late.status_code == 404, "a code made at the logout's moment ended"


# The counter's give-back ----------------------------------------------------------------


async def test_a_request_given_back_frees_its_place() -> None:
    three = Limit("three", 3, 60.0, "things a minute")
    counter = LocalCounter(lambda: 1000.0)
    for mark in "abc":
        assert await counter.hit(three, "k", mark) == 0
    assert await counter.hit(three, "k", "d") > 0
    await counter.unhit(three, "k", "b")
    await counter.unhit(three, "k", "nothing")
    assert await counter.hit(three, "k", "e") == 0
    assert await counter.hit(three, "k", "f") > 0
