"""Abandoned tables end (PROTOCOL.md, "Safe for strangers"): a table to which no person has
had a socket open for ``--abandon-seconds`` is over. A waiting table closes; a match ends with
the hands finished so far, its record's result saying ``"abandoned": true``. It is an entry
of the table's log, so a rebuilt table is the same; after a restart the clock starts again
from the rebuilding (the restart disconnected everyone, through no fault of theirs)."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
from harness import Server, Socket, auth, running, settle, sqlite_url
from wsclient import KABES, Client, ServerProcess, guest

from kabes.server.common.config import Settings
from kabes.server.table.clock import FakeClock

ABANDON = Settings().abandon_seconds


async def summary(server: Server, code: str) -> dict[str, Any]:
    """The table's public summary."""
    reply = await server.http.get(f"/api/tables/{code}")
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()
    return found


async def record(server: Server, code: str) -> dict[str, Any]:
    """The table's record of its finished hands."""
    found: dict[str, Any] = (await server.http.get(f"/api/tables/{code}/record")).json()
    return found


async def play_first_hand(server: Server, code: str, socks: dict[int, Socket]) -> None:
    """Every seat in ``socks`` plays its first legal move until the first hand is over and
    the second dealt (by the host's next_hand)."""
    table = server.hub.tables[code]
    for n in itertools.count():
        if table.state.status == "between_hands":
            break
        seat = table.state.turn
        sock = socks[seat]
        sock.send({"type": "play", "id": f"p{n}", "move": table.view_json(seat)["legal"][0]})
        await sock.until("ack", id=f"p{n}")
    socks[0].send({"type": "next_hand", "id": "next"})
    await socks[0].until("ack", id="next")


async def test_a_waiting_table_nobody_is_connected_to_closes_after_abandon_seconds(
    server: Server,
) -> None:
    _, host = await server.guest("Roselène")
    _, friend = await server.guest("Mireille")
    code = (await server.open_table(host, variant="haitian", players=3))["code"]
    await server.join(friend, code)
    first, _ = await server.connect(code, host)
    second, _ = await server.connect(code, friend)
    await server.advance(ABANDON * 2)  # someone is here: nothing ends
    assert (await summary(server, code))["status"] == "waiting"
    first.disconnect()
    await settle()
    await server.advance(ABANDON * 2)
    assert (await summary(server, code))["status"] == "waiting"
    second.disconnect()
    await settle()
    await server.advance(ABANDON - 1)
    assert (await summary(server, code))["status"] == "waiting"
    await server.advance(1)
    assert (await summary(server, code))["status"] == "over"
    _, late = await server.guest("Jean")
    refused = await server.http.post(f"/api/tables/{code}/join", headers=auth(late))
    assert refused.status_code == 409 and refused.json()["code"] == "started"


async def test_a_match_everyone_left_ends_with_its_finished_hands_and_abandoned_in_its_record(
    server: Server,
) -> None:
    _, host = await server.guest("Roselène")
    _, friend = await server.guest("Mireille")
    code = (await server.open_table(host, variant="haitian", players=2))["code"]
    assert (await summary(server, code))["options"]["open_ended"], "it would never end else"
    await server.join(friend, code)
    socks = {0: (await server.connect(code, host))[0], 1: (await server.connect(code, friend))[0]}
    socks[0].send({"type": "start", "id": "s"})
    await socks[0].until("ack", id="s")
    await play_first_hand(server, code, socks)
    scores = (await record(server, code))["hands"][0]["result"]["scores"]
    ranked = await server.hub.store.rankings("haitian", least_hands=1)
    assert [row["hands"] for row in ranked] == [1, 1], "the first hand was played for real"
    for sock in socks.values():
        sock.disconnect()
        await settle()
    await server.advance(ABANDON - 1)
    assert (await summary(server, code))["status"] == "playing"
    await server.advance(1)
    assert (await summary(server, code))["status"] == "over"
    kept = await record(server, code)
    assert len(kept["hands"]) == 1, "the hand in progress is not in the record"
    assert kept["result"] == {"finished": False, "winners": [], "scores": scores,
                              "kochon": False, "abandoned": True}
    # The rankings are unchanged by the abandoning: no hand more, and no match played or won.
    assert await server.hub.store.rankings("haitian", least_hands=1) == ranked
    assert all(row["matches"] == 0 for row in ranked)
    back, welcome = await server.connect(code, host)
    assert welcome["view"]["result"]["abandoned"] is True
    assert welcome["view"]["hand"] == [] and welcome["view"]["turn"] is None
    back.disconnect()
    await settle()


async def test_a_person_who_left_a_table_of_computers_abandons_it(server: Server) -> None:
    _, token = await server.guest()
    code = (await server.open_table(token, variant="haitian", players=3,
                                    computers={"1": "casual", "2": "beginner"}))["code"]
    sock, _ = await server.connect(code, token)
    sock.send({"type": "start", "id": "s"})
    await sock.until("ack", id="s")
    sock.disconnect()
    await settle()
    await server.advance(ABANDON)
    assert (await summary(server, code))["status"] == "over"
    assert (await record(server, code))["result"]["abandoned"] is True


async def test_after_a_restart_the_abandonment_clock_starts_again_from_the_rebuilding(
    tmp_path: Path,
) -> None:
    fake = FakeClock()  # the same clock carries over the restarts
    url = sqlite_url(tmp_path)
    async with running(url, clock=fake) as first:
        _, token = await first.guest()
        waiting = (await first.open_table(token, variant="haitian", players=3))["code"]
        playing = (await first.open_table(token, variant="haitian", players=2,
                                          computers={"1": "casual"}))["code"]
        sock, _ = await first.connect(playing, token)
        sock.send({"type": "start", "id": "s"})
        await sock.until("ack", id="s")
        sock.disconnect()
        await settle()
        await first.advance(ABANDON - 100)
    async with running(url, clock=fake) as second:
        await second.advance(ABANDON - 1)  # long enough since the last socket, not since load
        assert (await summary(second, waiting))["status"] == "waiting"
        assert (await summary(second, playing))["status"] != "over"
        await second.advance(1)
        assert (await summary(second, waiting))["status"] == "over"
        assert (await summary(second, playing))["status"] == "over"
        ended = await record(second, playing)
    async with running(url, clock=fake) as third:  # rebuilt from the log: the same
        assert (await summary(third, waiting))["status"] == "over"
        assert await record(third, playing) == ended
        assert ended["result"]["abandoned"] is True


async def test_a_real_server_ends_an_abandoned_match_and_its_record_replays(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path, "--abandon-seconds", "1", "--computer-delay", "0",
                           "--workers", "1", "--expert-budget", "0.05")
    try:
        await server.start()
        async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
            _, token = await guest(http, "Roselène")
            reply = await http.post("/api/tables", headers=auth(token), json={
                "variant": "haitian", "players": 2, "computers": {"1": "casual"}})
            code = reply.json()["code"]
            client = Client(server.base, code, token)
            await client.connect()
            await client.send({"type": "start", "id": "s"})
            assert (await client.answer("s"))["type"] == "ack"
            await client.drop()
            deadline = time.monotonic() + 15
            while (await http.get(f"/api/tables/{code}")).json()["status"] != "over":
                assert time.monotonic() < deadline, "the abandoned table did not end"
                await asyncio.sleep(0.1)
            kept = (await http.get(f"/api/tables/{code}/record")).json()
    finally:
        server.kill()
    assert kept["result"]["abandoned"] is True
    path = tmp_path / "abandoned.json"
    path.write_text(json.dumps(kept))
    replayed = subprocess.run([str(KABES), "replay", "--json", str(path)],
                              capture_output=True, text=True, timeout=60, check=False)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["result"] == kept["result"]
