"""Seats held at once (PROTOCOL.md, "Safe for strangers"): a player holds at most 3 seats at
tables waiting to start, opened or joined; the 4th ``POST /api/tables``, ``join`` or
``quick`` is 409 ``too_many_tables``. Tested over HTTP on both stores, with joins made at the
same moment (the check and the seat it guards taken in one statement of the store), on two
``--redis`` processes at once, and the store's count checked directly under many
simultaneous takes (hypothesis)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from clusters import RedisSpace, nodes, redis_fixture  # noqa: F401 (the fixture)
from harness import Server, auth, running
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from stores import Backend, backend_fixture, db_url_fixture, store_fixture  # noqa: F401
from wsclient import guest

from kabes.server.common.config import Edge
from kabes.server.store.store import Store
from kabes.server.table.seat_holds import MOST_WAITING, SeatHolds

CAPPED = Edge(rate_limits=False)
"""The harness's edge with the cap on waiting seats as ``kabes serve`` has it."""


@pytest.fixture
async def server(db_url: str) -> AsyncIterator[Server]:
    """The real app on a fresh store (SQLite and PostgreSQL), with the cap on."""
    async with running(db_url, edge=CAPPED) as srv:
        yield srv


async def hosts(server: Server, count: int) -> list[str]:
    """``count`` new guests, each having opened a public three-seat table: its code."""
    codes = []
    for n in range(count):
        _, token = await server.guest(f"Hôte {n}")
        codes.append((await server.open_table(token, variant="haitian", players=3,
                                              public=True))["code"])
    return codes


def refused(reply: httpx.Response) -> bool:
    """Whether ``reply`` is the protocol's refusal of a seat too many."""
    return reply.status_code == 409 and reply.json()["code"] == "too_many_tables"


async def test_a_fourth_waiting_seat_is_refused_however_asked(server: Server) -> None:
    _, token = await server.guest("Jean")
    codes = await hosts(server, 4)
    for code in codes[:2]:
        assert await server.join(token, code) == 1
    mine = await server.open_table(token, variant="partnership")  # a private one counts too
    for code in codes[:2]:  # joining again where one sits takes no further seat
        assert await server.join(token, code) == 1
    join = await server.http.post(f"/api/tables/{codes[3]}/join", headers=auth(token))
    assert refused(join), join.text
    opened = await server.http.post("/api/tables", headers=auth(token),
                                    json={"variant": "haitian"})
    assert refused(opened), opened.text
    quick = await server.http.post("/api/quick", headers=auth(token),
                                   json={"variant": "plaza"})
    assert refused(quick), quick.text
    # Nothing of the refusals stayed: the table refused still has its seat free.
    found = (await server.http.get(f"/api/tables/{codes[3]}")).json()
    assert found["seats"][1] is None and found["seats"][2] is None
    # Leaving one frees a seat to hold (and the table closed by its host's leaving too).
    sock, _ = await server.connect(mine["code"], token)
    sock.send({"type": "leave", "id": "bye"})
    await sock.until("ack", id="bye")
    assert await server.join(token, codes[3]) == 1


async def test_seats_at_tables_that_started_no_longer_count(server: Server) -> None:
    _, token = await server.guest("Jean")
    _, host = await server.guest("Roselène")
    _, third = await server.guest("Mireille")
    first = (await server.open_table(host, variant="haitian", players=3, public=True))["code"]
    codes = await hosts(server, 3)
    for code in [first, *codes[:2]]:
        await server.join(token, code)
    assert refused(await server.http.post(f"/api/tables/{codes[2]}/join",
                                          headers=auth(token)))
    await server.join(third, first)
    for who in (host, token, third):  # everyone here: it starts, no longer waiting
        sock, _ = await server.connect(first, who)
    while (await sock.until("update"))["table"]["status"] != "playing":
        pass
    assert await server.join(token, codes[2]) == 1
    assert refused(await server.http.post("/api/tables", headers=auth(token),
                                          json={"variant": "haitian"}))


async def test_two_joins_at_once_from_one_player_take_one_seat(server: Server) -> None:
    _, token = await server.guest("Jean")
    codes = await hosts(server, 6)
    for code in codes[:2]:
        await server.join(token, code)
    replies = await asyncio.gather(*(
        server.http.post(f"/api/tables/{code}/join", headers=auth(token))
        for code in codes[2:]))
    assert sorted(r.status_code for r in replies) == [200, 409, 409, 409], \
        [r.text for r in replies]
    assert all(r.status_code == 200 or refused(r) for r in replies)
    holds = server.hub.holds
    assert len(await holds.held(int((await server.http.get(
        "/api/me", headers=auth(token))).json()["player"]))) == MOST_WAITING


async def test_opening_and_joining_at_once_take_one_seat(server: Server) -> None:
    _, token = await server.guest("Jean")
    codes = await hosts(server, 3)
    for code in codes[:2]:
        await server.join(token, code)
    replies = await asyncio.gather(
        server.http.post(f"/api/tables/{codes[2]}/join", headers=auth(token)),
        server.http.post("/api/tables", headers=auth(token), json={"variant": "haitian"}),
        server.http.post("/api/quick", headers=auth(token), json={"variant": "plaza"}))
    assert sum(r.status_code in (200, 201) for r in replies) == 1, [r.text for r in replies]
    assert sum(refused(r) for r in replies) == 2


_players = itertools.count(1)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=st.integers(0, MOST_WAITING + 1), at_once=st.integers(1, 8),
       again=st.booleans())
async def test_simultaneous_takes_never_hold_more_than_the_most(
    store: Store, before: int, at_once: int, again: bool,
) -> None:
    holds = SeatHolds(store.engine)
    player = await store.create_guest("Jean", f"token-{next(_players)}-{before}-{at_once}")
    taken_before = 0
    for n in range(before):
        try:
            await holds.take(player, f"B{n}")
            taken_before += 1
        except Exception:
            pass
    codes = [f"T{n}" for n in range(at_once)]
    if again and taken_before:
        codes.append("B0")  # a seat held already: taking it again is no new seat

    async def take(code: str) -> bool:
        try:
            await holds.take(player, code)
        except Exception as err:
            assert getattr(err, "code", None) == "too_many_tables", err
            return False
        return True

    results = await asyncio.gather(*(take(code) for code in codes))
    held = await holds.held(player)
    assert len(held) == min(MOST_WAITING, taken_before + at_once)
    assert sum(results[:at_once]) == len(held) - taken_before
    if again and taken_before:
        assert results[-1] is True


async def test_stray_seats_of_tables_never_made_are_swept(store: Store) -> None:
    holds = SeatHolds(store.engine)
    player = await store.create_guest("Jean", "token-stray")
    for code in ("S1", "S2", "S3"):
        await holds.take(player, code)
    await holds.sweep(older_than=3600)
    assert len(await holds.held(player)) == 3
    await holds.sweep(older_than=-1)
    assert await holds.held(player) == []


async def test_joins_at_once_on_two_processes_take_one_seat(
    tmp_path: Path, redis_space: RedisSpace,
) -> None:
    async with (nodes(tmp_path, 2, redis_space) as (a, b),
                httpx.AsyncClient(base_url=a.base, trust_env=False) as on_a,
                httpx.AsyncClient(base_url=b.base, trust_env=False) as on_b):
        _, token = await guest(on_a, "Jean")
        codes = []
        for n, http in enumerate((on_a, on_a, on_a, on_b, on_b, on_b)):
            _, host = await guest(http, f"Hôte {n}")
            reply = await http.post("/api/tables", headers=auth(host), json={
                "variant": "haitian", "players": 3, "public": True})
            codes.append(reply.json()["code"])  # owned by the process that opened it
        for code in (codes[0], codes[3]):
            assert (await on_a.post(f"/api/tables/{code}/join",
                                    headers=auth(token))).status_code == 200
        # A table of each process at the same moment, each asked through its own owner.
        replies = await asyncio.gather(
            on_a.post(f"/api/tables/{codes[1]}/join", headers=auth(token)),
            on_b.post(f"/api/tables/{codes[4]}/join", headers=auth(token)),
            on_a.post(f"/api/tables/{codes[2]}/join", headers=auth(token)),
            on_b.post(f"/api/tables/{codes[5]}/join", headers=auth(token)))
        assert sorted(r.status_code for r in replies) == [200, 409, 409, 409], \
            [r.text for r in replies]
        assert all(r.status_code == 200 or refused(r) for r in replies)
