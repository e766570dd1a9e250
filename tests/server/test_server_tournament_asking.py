"""Asking costs nothing, for tournaments (PROTOCOL.md, "Safe for strangers"): a request for a
tournament that does not exist stores nothing, writes nothing and keeps nothing in memory,
and a tournament's lock lives only while someone holds or awaits it. The real app over
HTTP (in process: what it keeps in memory is looked at directly)."""

from __future__ import annotations

import asyncio
import secrets

import sqlalchemy as sa
from harness import Server, auth

from kabes.server.common.protocol import ErrorCode, Refused
from kabes.server.hub.hub import CODE_ALPHABET
from kabes.server.store.schema import tournament_events, tournaments
from kabes.server.tournaments.service import Tournaments


def service(server: Server) -> Tournaments:
    found: Tournaments = server.app.state.tournament_rounds.service
    return found


async def rows(server: Server) -> tuple[int, int]:
    """The tournaments and tournament entries in the store."""
    store = server.app.state.services.store
    async with store.engine.connect() as conn:
        made = (await conn.execute(sa.select(sa.func.count()).select_from(tournaments))
                ).scalar_one()
        entries = (await conn.execute(
            sa.select(sa.func.count()).select_from(tournament_events))).scalar_one()
    return int(made), int(entries)


def unknown() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(10))


async def test_unknown_tournaments_asked_20000_times_keep_nothing(server: Server) -> None:
    """1,000 asked over HTTP (reads, enters, starts), and 19,000 more of the service that
    answers them (what the route calls: the same reads, without HTTP's cost)."""
    _, token = await server.guest("Host")
    known = (await server.http.post("/api/tournaments", json={"variant": "plaza"},
                                    headers=auth(token))).json()["id"]
    before = await rows(server)
    gate = asyncio.Semaphore(8)

    async def ask(n: int) -> None:
        tid = unknown()
        async with gate:
            if n >= 1000:
                try:
                    await service(server).state(tid)
                except Refused as err:
                    assert err.code == ErrorCode.NOT_FOUND
                    return
                raise AssertionError(f"{tid} found")
            if n % 10 == 0:
                reply = await server.http.post(f"/api/tournaments/{tid}/enter", json={},
                                               headers=auth(token))
            elif n % 10 == 1:
                reply = await server.http.post(f"/api/tournaments/{tid}/start",
                                               headers=auth(token))
            else:
                reply = await server.http.get(f"/api/tournaments/{tid}")
        assert (reply.status_code, reply.json()["code"]) == (404, "not_found")
    await asyncio.gather(*(ask(n) for n in range(20_000)))
    kept = service(server)
    assert len(kept._locks) == 0
    assert set(kept._folded) <= {known}
    assert await rows(server) == before


async def test_a_tournaments_lock_lives_only_while_it_is_used(server: Server) -> None:
    _, token = await server.guest("Host")
    tid = (await server.http.post("/api/tournaments", json={"variant": "plaza"},
                                  headers=auth(token))).json()["id"]
    players = [await server.guest(f"P{n}") for n in range(8)]
    replies = await asyncio.gather(*(
        server.http.post(f"/api/tournaments/{tid}/enter", json={}, headers=auth(t))
        for _, t in players), *(server.http.get(f"/api/tournaments/{tid}") for _ in range(8)))
    assert all(r.status_code == 200 for r in replies)
    doc = (await server.http.get(f"/api/tournaments/{tid}")).json()
    assert sorted(e["players"][0] for e in doc["entrants"]) == sorted(p for p, _ in players)
    assert len(service(server)._locks) == 0
