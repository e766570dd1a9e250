"""Tournaments are bounded (PROTOCOL.md, "Safe for strangers"), against a real ``kabes
serve``: at most 256 entrants, creating one counted as opening a table, a partner that is no
player not found, at most 10 new partners, an entry that changes nothing stored nowhere, and
a round of hundreds of entrants paired while ``/healthz`` keeps answering."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from wsclient import ServerProcess, auth, guest

QUIET = ("--rate-limits", "off", "--workers", "1", "--tournament-wait-seconds", "600")
HEALTHZ_LIMIT = 2.5
"""Seconds within which every /healthz must answer while a round is paired (generous for
a shared machine: before, one start held the loop for minutes)."""


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    process = ServerProcess(tmp_path, *QUIET)
    try:
        await process.start()
        yield process
    finally:
        process.kill()


def client(server: ServerProcess) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=60.0,
                             # Idle connections are dropped before uvicorn's 5 s keep-alive
                             # ends them, so none is reused as the server closes it (CI saw
                             # that race as an httpx.ReadError on a slow machine).
                             limits=httpx.Limits(max_connections=16, keepalive_expiry=2.0))


async def guests(http: httpx.AsyncClient, count: int) -> list[tuple[int, str]]:
    gate = asyncio.Semaphore(16)

    async def one(n: int) -> tuple[int, str]:
        async with gate:
            return await guest(http, f"E{n}")
    return list(await asyncio.gather(*(one(n) for n in range(count))))


async def tournament(http: httpx.AsyncClient, token: str, **body: Any) -> str:
    reply = await http.post("/api/tournaments", json=body, headers=auth(token))
    assert reply.status_code == 201, reply.text
    return str(reply.json()["id"])


async def enter(http: httpx.AsyncClient, tid: str, token: str, **body: Any) -> httpx.Response:
    return await http.post(f"/api/tournaments/{tid}/enter", json=body, headers=auth(token))


async def enter_all(http: httpx.AsyncClient, tid: str, players: list[tuple[int, str]]) -> None:
    for _, token in players:  # in order: the entrants' numbers follow
        reply = await enter(http, tid, token)
        assert reply.status_code == 200, reply.text


def log_length(server: ServerProcess, tid: str) -> int:
    """The tournament's entries in the store, read from the store's file."""
    with sqlite3.connect(server.folder / "kabes.sqlite3") as db:
        (count,), = db.execute("SELECT COUNT(*) FROM tournament_events WHERE tournament = ?",
                               (tid,))
    return int(count)


async def start_polling_healthz(
    server: ServerProcess, http: httpx.AsyncClient, tid: str, host: str
) -> tuple[dict[str, Any], list[float]]:
    """Start ``tid`` while another client asks ``/healthz`` again and again; the started
    document and how long each /healthz took to answer."""
    answers: list[float] = []
    done = asyncio.Event()

    async def poll() -> None:
        async with httpx.AsyncClient(base_url=server.base, trust_env=False,
                                     timeout=30.0) as other:
            while not done.is_set():
                asked = time.perf_counter()
                reply = await other.get("/healthz")
                assert reply.status_code == 200
                answers.append(time.perf_counter() - asked)
                await asyncio.sleep(0.01)
    poller = asyncio.create_task(poll())
    await asyncio.sleep(0.05)
    try:
        started = await asyncio.wait_for(
            http.post(f"/api/tournaments/{tid}/start", headers=auth(host)), 30.0)
    finally:
        done.set()
        await poller
    assert started.status_code == 200, started.text
    return started.json(), answers


def check_round(doc: dict[str, Any], entrants: int, sides: int) -> None:
    """Round 1 seats every entrant once, full tables, the fewest byes needed."""
    row = doc["pairings"][0]
    tables = [p["entrants"] for p in row if p["status"] != "bye"]
    byes = [p["entrants"][0] for p in row if p["status"] == "bye"]
    assert all(len(t) == sides for t in tables)
    assert len(byes) == entrants % sides
    assert sorted([e for t in tables for e in t] + byes) == list(range(1, entrants + 1))


async def test_a_tournament_takes_256_entrants_and_the_257th_is_tournament_full(
    server: ServerProcess,
) -> None:
    async with client(server) as http:
        players = await guests(http, 257)
        host = players[0][1]
        tid = await tournament(http, host, variant="haitian", players=4)
        await enter_all(http, tid, players[:256])
        full = await enter(http, tid, players[256][1])
        assert (full.status_code, full.json()["code"]) == (409, "tournament_full")
        again = await enter(http, tid, players[3][1])
        assert again.status_code == 200, "an entrant entering again changes nothing"
        doc, answers = await start_polling_healthz(server, http, tid, host)
    assert len(doc["entrants"]) == 256
    check_round(doc, 256, 4)
    assert answers and max(answers) < HEALTHZ_LIMIT, max(answers)


@pytest.mark.parametrize(("variant", "seats", "count"), [
    ("mexican-train", 8, 47),  # 7 byes: 63 million ways to choose them
    ("haitian", 4, 255),  # 3 byes: 2.7 million
])
async def test_a_big_swiss_round_is_paired_while_healthz_keeps_answering(
    server: ServerProcess, variant: str, seats: int, count: int
) -> None:
    async with client(server) as http:
        players = await guests(http, count)
        host = players[0][1]
        tid = await tournament(http, host, variant=variant, players=seats, rounds=3)
        await enter_all(http, tid, players)
        doc, answers = await start_polling_healthz(server, http, tid, host)
        check_round(doc, count, seats)
        assert answers and max(answers) < HEALTHZ_LIMIT, max(answers)
        assert (await http.get("/healthz")).status_code == 200


async def test_a_partner_that_is_no_player_is_not_found_and_nothing_is_kept(
    server: ServerProcess,
) -> None:
    async with client(server) as http:
        (me, token), = await guests(http, 1)
        for variant in ("partnership", "plaza"):
            tid = await tournament(http, token, variant=variant)
            before = log_length(server, tid)
            for partner in (10**30, -(10**30), 2**63, 2**31, 0, -1, me + 1000):
                reply = await enter(http, tid, token, partner=partner)
                assert (reply.status_code, reply.json()["code"]) == (404, "not_found"), (
                    partner, reply.text)
            assert log_length(server, tid) == before
            doc = (await http.get(f"/api/tournaments/{tid}")).json()
            assert (doc["entrants"], doc["waiting"]) == ([], [])


async def test_a_player_names_a_new_partner_at_most_ten_times(server: ServerProcess) -> None:
    async with client(server) as http:
        (mine, token), *others = await guests(http, 12)
        _, host = others[0]
        tid = await tournament(http, host, variant="partnership")
        for partner, _ in others[:10]:
            reply = await enter(http, tid, token, partner=partner)
            assert reply.status_code == 200, reply.text
        length = log_length(server, tid)
        eleventh = await enter(http, tid, token, partner=others[10][0])
        assert (eleventh.status_code, eleventh.json()["code"]) == (429, "slow_down")
        alone = await enter(http, tid, token)
        assert (alone.status_code, alone.json()["code"]) == (429, "slow_down")
        same = await enter(http, tid, token, partner=others[9][0])
        assert same.status_code == 200, "the partner named last, again: nothing new"
        assert log_length(server, tid) == length
        # The partner named last can still make the pair.
        paired = await enter(http, tid, others[9][1], partner=mine)
        assert [e["players"] for e in paired.json()["entrants"]] == [[mine, others[9][0]]]


async def test_an_entry_that_changes_nothing_stores_nothing(server: ServerProcess) -> None:
    """4,000 entries again: a pair's players, a player of a variant without teams, one
    waiting for a partner naming the same one, and one naming partners in turn. The log's
    length, read back from the store, moves only by the 10 new partners one may name."""
    async with client(server) as http:
        (a, ta), (b, tb), (c, tc), (_, td), (_, te) = await guests(http, 5)
        pairs = await tournament(http, ta, variant="partnership")
        alone = await tournament(http, ta, variant="plaza")
        for token, partner in ((ta, b), (tb, a), (tc, a), (td, a)):
            assert (await enter(http, pairs, token, partner=partner)).status_code == 200
        assert (await enter(http, alone, te)).status_code == 200
        before = (log_length(server, pairs), log_length(server, alone))
        entrants = ((await http.get(f"/api/tournaments/{pairs}")).json()["entrants"],
                    (await http.get(f"/api/tournaments/{alone}")).json()["entrants"])
        gate = asyncio.Semaphore(16)
        same = [(pairs, ta, {"partner": b}), (pairs, tb, {"partner": a}), (pairs, ta, {}),
                (pairs, tc, {"partner": a}), (alone, te, {}), (alone, te, {"partner": c})]
        turns = [(pairs, td, {"partner": b}), (pairs, td, {"partner": c}), (pairs, td, {})]
        answers: list[int] = []

        async def one(n: int) -> None:
            tid, token, body = (same + turns)[n % (len(same) + len(turns))]
            async with gate:
                reply = await enter(http, tid, token, **body)
            assert reply.status_code in ((200,) if token != td else (200, 429)), reply.text
            answers.append(reply.status_code)
        await asyncio.gather(*(one(n) for n in range(4000)))
        assert log_length(server, alone) == before[1]
        assert before[0] < log_length(server, pairs) <= before[0] + 10
        assert ((await http.get(f"/api/tournaments/{pairs}")).json()["entrants"],
                (await http.get(f"/api/tournaments/{alone}")).json()["entrants"]) == entrants
        assert answers.count(429) > 0


async def test_creating_a_tournament_counts_as_opening_a_table(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, "--workers", "1")
    await server.start()
    try:
        async with client(server) as http:
            (_, token), (_, other) = await guests(http, 2)
            for _ in range(8):
                await tournament(http, token, variant="plaza")
            for _ in range(2):  # (a player holds at most 3 waiting tables)
                reply = await http.post("/api/tables", json={"variant": "plaza"},
                                        headers=auth(token))
                assert reply.status_code == 201, reply.text
            refused = await http.post("/api/tournaments", json={"variant": "plaza"},
                                      headers=auth(token))
            assert (refused.status_code, refused.json()["code"]) == (429, "slow_down")
            assert 1 <= int(refused.headers["retry-after"]) <= 60
            table = await http.post("/api/tables", json={"variant": "plaza"},
                                    headers=auth(token))
            assert (table.status_code, table.json()["code"]) == (429, "slow_down")
            assert (await http.post("/api/tournaments", json={"variant": "plaza"},
                                    headers=auth(other))).status_code == 201
    finally:
        server.kill()
