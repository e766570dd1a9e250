"""Safe for strangers, against a real `kabes serve`: digits other than ASCII and numbers too big
for the store, over HTTP and the socket, each get a 4xx with ``{"code", "message"}`` (or an
``error`` on the socket), the table goes on, and the server's log holds no traceback.

Each request below once answered a plain-text 500, or cost the table a reload from the store.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from wsclient import Client, ServerProcess

from kabes.server.common import protocol

CODES = {code.value for code in protocol.ErrorCode}


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    """`kabes serve` on a fresh SQLite file; killed whatever happens."""
    process = ServerProcess(tmp_path, "--workers", "1")
    await process.start()
    try:
        yield process
    finally:
        process.kill()


def refused(reply: httpx.Response, *codes: str) -> None:
    """A 4xx with the protocol's JSON body and one of ``codes``."""
    assert 400 <= reply.status_code < 500, (reply.request.url, reply.status_code, reply.text)
    body = reply.json()
    assert body["code"] in codes and body["code"] in CODES, (reply.request.url, body)
    assert isinstance(body["message"], str) and body["message"], body


async def test_odd_digits_and_huge_numbers_get_a_4xx_json_and_no_traceback(
    server: ServerProcess,
) -> None:
    async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
        guest = (await http.post("/api/guests", json={"name": "Fabiola"})).json()
        token = guest["token"]
        auth = {"Authorization": f"Bearer {token}"}
        for seat in ("²", "\uff11", "٣"):
            reply = await http.post("/api/tables", headers=auth, json={
                "variant": "plaza", "players": 2, "computers": {seat: "beginner"}})
            refused(reply, "bad_level", "bad_options", "bad_message")
        for path in ("/api/players/99999999999999999999", "/api/players/²",
                     "/api/players/-1", "/api/players/1e3"):
            refused(await http.get(path), "not_found", "bad_message")
        lessons = (await http.get("/api/lessons")).json()
        lesson = lessons["paths"][0]["lessons"][0]["id"]
        for move in ("6-6@²", "²-²", "\uff16-\uff16"):
            reply = await http.post(f"/api/lessons/{lesson}/try", headers=auth,
                                    json={"step": 0, "move": move})
            if reply.status_code == 200:  # judged: a move the rules refuse
                assert reply.json()["correct"] is False, reply.text
            else:
                refused(reply, "bad_message", "illegal_move")
        refused(await http.post(f"/api/lessons/{lesson}/try", headers=auth,
                                json={"step": 99999999999999999999, "move": "6-6"}),
                "bad_message", "bad_step", "not_found")

        table = (await http.post("/api/tables", headers=auth, json={
            "variant": "plaza", "players": 2, "computers": {"1": "beginner"}})).json()
    client = Client(server.base, table["code"], token)
    await client.connect()
    await client.send({"type": "start", "id": "go"})
    assert (await client.answer("go"))["type"] == "ack"
    await client.wait(lambda m: m["type"] == "update" and m["view"]["turn"] == client.seat)
    for n, move in enumerate(("²-²", "6-6@²", "\uff16-\uff16@L", "1-2@٣")):
        await client.send({"type": "play", "id": f"odd{n}", "move": move})
        answer = await client.answer(f"odd{n}")
        assert answer["type"] == "error" and answer["code"] == "illegal_move", answer
    await client.send({"type": "sync", "id": "after"})
    assert (await client.answer("after"))["type"] == "ack"
    await client.drop()
    await asyncio.sleep(0.2)
    log = (server.folder / f"serve-{server.starts}.err").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert "reload" not in log.lower(), log[-3000:]
