"""Quick seats and the lobby over two real `kabes serve --redis` processes on one PostgreSQL
store (``clusters.py``: skipped, saying why, when PostgreSQL or Redis cannot be reached, and
failing instead under CI)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from clusters import RedisSpace, nodes, redis_fixture, until  # noqa: F401 (the fixture)
from wsclient import Client, auth, guest


async def _quick(base: str, token: str, variant: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=20) as http:
        reply = await http.post("/api/quick", headers=auth(token), json={"variant": variant})
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    return answer


async def _lobby(base: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, trust_env=False) as http:
        reply = await http.get("/api/lobby")
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()
    return found


async def test_simultaneous_quick_seats_on_two_processes_land_at_one_table(
    tmp_path: Path, redis_space: RedisSpace
) -> None:
    async with nodes(tmp_path, 2, redis_space) as (a, b):
        homes = [a.base, b.base, a.base, b.base]
        tokens = []
        for n, home in enumerate(homes + homes[:2]):
            async with httpx.AsyncClient(base_url=home, trust_env=False) as http:
                tokens.append((await guest(http, f"Moun {n}"))[1])

        # Two people, one on each process, at the same moment: one table of two.
        pair = await asyncio.gather(_quick(a.base, tokens[4], "plaza"),
                                    _quick(b.base, tokens[5], "plaza"))
        assert pair[0]["table"]["code"] == pair[1]["table"]["code"]
        assert sorted(p["seat"] for p in pair) == [0, 1]
        seats = [Client(a.base, pair[0]["table"]["code"], tokens[4]),
                 Client(b.base, pair[1]["table"]["code"], tokens[5])]

        # Four people over both processes at once: one partnership table, which starts
        # once they are all here (each with a socket through their own process).
        four = await asyncio.gather(*(_quick(home, token, "partnership")
                                      for home, token in zip(homes, tokens, strict=False)))
        assert len({f["table"]["code"] for f in four}) == 1
        assert sorted(f["seat"] for f in four) == [0, 1, 2, 3]
        code = four[0]["table"]["code"]
        seats += [Client(home, code, token) for home, token in zip(homes, tokens, strict=False)]
        for seat in seats:
            await seat.connect()

        async def started() -> bool:
            async with httpx.AsyncClient(base_url=b.base, trust_env=False) as http:
                return bool((await http.get(f"/api/tables/{code}")).json()["status"]
                            == "playing")
        await until(started, "the full table starts once its people are here", timeout=10)

        # Both processes list both tables in play, the same way.
        async def both_listed() -> bool:
            found = [await _lobby(a.base), await _lobby(b.base)]
            codes = [{t["code"] for t in f["playing"]} for f in found]
            return codes[0] == codes[1] == {code, pair[0]["table"]["code"]} and not any(
                f["waiting"] for f in found)
        await until(both_listed, "both processes list both tables in play", timeout=10)
        for seat in seats:
            await seat.drop()


async def test_the_lobby_and_people_online_are_the_same_on_every_process(
    tmp_path: Path, redis_space: RedisSpace
) -> None:
    async with nodes(tmp_path, 2, redis_space) as (a, b):
        async with httpx.AsyncClient(base_url=a.base, trust_env=False) as http:
            host = (await guest(http, "Lamè"))[1]
            other = (await guest(http, "Jak"))[1]
            private = (await http.post("/api/tables", headers=auth(other),
                                       json={"variant": "partnership"})).json()["code"]
        opened = await _quick(a.base, host, "partnership")
        code = opened["table"]["code"]
        assert [t["code"] for t in (await _lobby(b.base))["waiting"]] == [code]

        seat = Client(b.base, code, host)  # its socket on b, the table on a
        await seat.connect()
        try:
            async def counted() -> bool:
                found = [await _lobby(a.base), await _lobby(b.base)]
                return all(f["people_online"] == 1 for f in found)
            await until(counted, "one person online on both processes", timeout=10)
            for base in (a.base, b.base):
                assert private not in str(await _lobby(base))
        finally:
            await seat.drop()
