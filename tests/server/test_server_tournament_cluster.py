"""A tournament on two ``kabes serve --redis`` processes sharing one PostgreSQL database
(PROTOCOL.md, "Tournaments"; issue 20): any process answers for it (created on one, entered
and started on the other, played by clients on both), each round is paired exactly once
(one ``paired`` entry and one row per round), every pairing has one table, and the
standings are the tables' records' own."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import sqlalchemy as sa
from clusters import RedisSpace, nodes, redis_fixture  # noqa: F401 (the fixture redis_space)
from sqlalchemy.ext.asyncio import create_async_engine
from tournament_players import entrant, standings_from_records
from wsclient import auth, guest

from kabes.server.store.schema import table_events, tournament_events, tournament_rounds

FAST = ("--pause-seconds", "0", "--turn-seconds", "10", "--tournament-wait-seconds", "20")


async def test_any_process_answers_for_a_tournament_whose_rounds_are_paired_once(
    tmp_path: Path, redis_space: RedisSpace
) -> None:
    async with nodes(tmp_path, 2, redis_space, options=FAST) as group:
        one, two = (httpx.AsyncClient(base_url=n.base, trust_env=False, timeout=10.0)
                    for n in group)
        async with one, two:
            _, host = await guest(one, "Host")
            created = await one.post("/api/tournaments", headers=auth(host), json={
                "variant": "plaza", "options": {"target": 50}, "rounds": 2})
            assert created.status_code == 201, created.text
            tid = created.json()["id"]
            tokens = {}
            for n in range(4):
                http = (one, two)[n % 2]
                player, token = await guest(http, f"E{n}")
                tokens[player] = (token, group[n % 2].base)
                assert (await http.post(f"/api/tournaments/{tid}/enter", json={},
                                        headers=auth(token))).status_code == 200
            started = await two.post(f"/api/tournaments/{tid}/start", headers=auth(host))
            assert started.status_code == 200, started.text
            await asyncio.wait_for(asyncio.gather(*(
                entrant(base, tid, player, token)
                for player, (token, base) in tokens.items())), 180)
            docs = [(await http.get(f"/api/tournaments/{tid}")).json() for http in (one, two)]
            assert docs[0] == docs[1]
            doc = docs[0]
            assert doc["status"] == "over" and len(doc["pairings"]) == 2
            points, hands = await standings_from_records(two, doc)
            assert {s["entrant"]: s["points"] for s in doc["standings"]} == points
            assert {s["entrant"]: s["hands_won"] for s in doc["standings"]} == hands
        engine = create_async_engine(group[0].db)
        try:
            async with engine.connect() as conn:
                rounds = (await conn.execute(sa.select(tournament_rounds.c.round).where(
                    tournament_rounds.c.tournament == tid))).scalars().all()
                kinds = (await conn.execute(sa.select(tournament_events.c.kind).where(
                    tournament_events.c.tournament == tid))).scalars().all()
                created_rows = (await conn.execute(sa.select(table_events.c.data).where(
                    table_events.c.kind == "created"))).scalars().all()
        finally:
            await engine.dispose()
        assert sorted(rounds) == [1, 2]
        assert kinds.count("paired") == 2 and kinds.count("over") == 1
        marks = [(d.get("round"), d.get("index")) for d in map(json.loads, created_rows)
                 if d.get("tournament") == tid]
        assert sorted(marks) == [(1, 0), (1, 1), (2, 0), (2, 1)]
