"""Whole tournaments against a real ``kabes serve`` (PROTOCOL.md, "Tournaments"; issue 20):
every match played by clients over the protocol, the server killed with SIGKILL mid-round
and started again, and at the end the standings are those the tables' records give:
nothing entered, paired, opened or won was lost."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from itertools import combinations
from pathlib import Path

import httpx
import pytest
from tournament_players import entrant, open_tournament, patient, standings_from_records
from wsclient import ServerProcess, auth

SERVE_OPTIONS = (
    "--computer-delay", "0", "--turn-seconds", "10", "--away-seconds", "1",
    "--pause-seconds", "0", "--tournament-wait-seconds", "20", "--workers", "1",
    "--rate-limits", "off",
)
PATIENCE = 240.0
"""Seconds a whole tournament may take on a busy shared machine."""


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    process = ServerProcess(tmp_path, *SERVE_OPTIONS)
    try:
        await process.start()
        yield process
    finally:
        process.kill()


async def doc_when(http: httpx.AsyncClient, tid: str, ready: object) -> dict[str, object]:
    """The tournament document once ``ready(doc)``, the server perhaps down meanwhile."""
    assert callable(ready)
    while True:
        doc = (await patient(lambda: http.get(f"/api/tournaments/{tid}"))).json()
        if ready(doc):
            return dict(doc)
        await asyncio.sleep(0.1)


async def kill_mid_round(server: ServerProcess, http: httpx.AsyncClient, tid: str,
                         number: int) -> None:
    """Once round ``number``'s tables are open and some still in play: kill -9, restart.
    (Killed at once: four quick tables can finish a round within half a second.)"""
    await doc_when(http, tid, lambda d: d["round"] == number and all(
        p["table"] for p in d["pairings"][number - 1]) and any(
        p["status"] != "over" for p in d["pairings"][number - 1] if p["table"]))
    server.kill()
    await asyncio.sleep(0.3)
    await server.start()


async def play_out(server: ServerProcess, tid: str, host: str, tokens: dict[int, str],
                   kills: tuple[int, ...]) -> dict[str, object]:
    """Start the tournament, its entrants play it out, the server killed in each round of
    ``kills``; the final document."""
    async with httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=10.0) as http:
        started = await http.post(f"/api/tournaments/{tid}/start", headers=auth(host))
        assert started.status_code == 200, started.text
        players = [asyncio.create_task(entrant(server.base, tid, p, t))
                   for p, t in tokens.items()]
        for number in kills:
            await kill_mid_round(server, http, tid, number)
        await asyncio.wait_for(asyncio.gather(*players), PATIENCE)
        return await doc_when(http, tid, lambda d: d["status"] == "over")


async def check_standings(server: ServerProcess, doc: dict[str, object]) -> None:
    """The document's standings are the records' own; every table names its round."""
    async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
        points, hands = await standings_from_records(http, doc)
        standings = doc["standings"]
        assert isinstance(standings, list)
        assert {s["entrant"]: s["points"] for s in standings} == points
        assert {s["entrant"]: s["hands_won"] for s in standings} == hands
        pairings = doc["pairings"]
        assert isinstance(pairings, list)
        for number, row in enumerate(pairings, start=1):
            for pairing in row:
                if pairing["table"] is not None:
                    summary = (await http.get(f"/api/tables/{pairing['table']}")).json()
                    assert (summary["tournament"], summary["round"]) == (doc["id"], number)
    assert doc["winner"] == standings[0]["entrant"]


async def test_eight_players_play_a_swiss_of_three_rounds_through_two_kills(
    server: ServerProcess
) -> None:
    async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
        tid, host, tokens = await open_tournament(
            http, 8, variant="plaza", fmt="swiss", options={"target": 50}, rounds=3)
    doc = await play_out(server, tid, host, tokens, kills=(1, 2))
    assert server.starts == 3
    pairings = doc["pairings"]
    assert isinstance(pairings, list) and len(pairings) == 3
    assert all(len(row) == 4 and all(p["status"] == "over" for p in row) for row in pairings)
    met = [frozenset(p["entrants"]) for row in pairings for p in row]
    assert len(met) == len(set(met)) == 12
    codes = [p["table"] for row in pairings for p in row]
    assert len(set(codes)) == 12
    await check_standings(server, doc)


async def test_four_pairs_play_a_round_robin_of_partnership(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
        tid, host, tokens = await open_tournament(
            http, 4, variant="partnership", fmt="round_robin", options={"target": 50})
    doc = await play_out(server, tid, host, tokens, kills=())
    pairings = doc["pairings"]
    assert isinstance(pairings, list) and len(pairings) == 3
    met = sorted(tuple(sorted(p["entrants"])) for row in pairings for p in row)
    assert met == sorted(combinations(range(1, 5), 2))
    await check_standings(server, doc)
