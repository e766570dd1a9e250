"""Safe for strangers, at the table (PROTOCOL.md): deals come from the operating system's
random source, and a private table's rematch code reaches only that table's seats."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from harness import Server, auth


async def test_deals_are_shuffled_from_the_operating_systems_random_source(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []

    def counted(n: int) -> bytes:  # in place of random's own os.urandom
        drawn.append(n)
        return os.urandom(n)

    _, token = await server.guest()
    code = (await server.open_table(token, variant="haitian", players=2,
                                    computers={"1": "beginner"}))["code"]
    table = server.hub.tables[code]
    assert isinstance(table.rng, random.SystemRandom)
    sock, _ = await server.connect(code, token)
    monkeypatch.setattr(random, "_urandom", counted)
    sock.send({"type": "start", "id": "s"})
    await sock.until("ack", id="s")
    monkeypatch.undo()
    assert sum(drawn) >= 16, "the first deal drew nothing from the operating system"


async def finished_table(server: Server, token: str) -> str:
    """A one-hand match against a computer, played to its end by ``token``; its code."""
    code: str = (await server.open_table(token, variant="haitian", players=3,
                                         options={"hands": 1},
                                         computers={"1": "casual", "2": "beginner"}))["code"]
    sock, _ = await server.connect(code, token)
    sock.send({"type": "start", "id": "s"})
    moves = 0
    while True:
        message = await sock.until("update")
        view: dict[str, Any] = message["view"]
        if view["result"] is not None:
            break
        if view["turn"] == 0 and view["legal"]:
            sock.send({"type": "play", "id": f"m{moves}", "move": view["legal"][0]})
            moves += 1
    sock.disconnect()
    return code


async def test_a_stranger_who_knows_a_private_tables_code_cannot_learn_its_rematchs(
    server: Server,
) -> None:
    _, token = await server.guest("Roselène")
    code = await finished_table(server, token)
    sock, _ = await server.connect(code, token)
    sock.send({"type": "play_again", "id": "again"})
    update = await sock.until("update")
    while not update["table"]["next_table"]:
        update = await sock.until("update")
    rematch = update["table"]["next_table"]
    assert rematch and {"kind": "next_table", "code": rematch} in update["events"]
    # The seat is told it again on every welcome; nobody else is told it anywhere.
    _, welcome = await server.connect(code, token)
    assert welcome["table"]["next_table"] == rematch
    _, stranger = await server.guest("Stranger")
    for headers in ({}, auth(stranger), auth(token)):
        public = await server.http.get(f"/api/tables/{code}", headers=headers)
        assert public.status_code == 200
        assert public.json()["next_table"] is None
        assert rematch not in public.text
    joined = await server.http.post(f"/api/tables/{code}/join", headers=auth(stranger))
    assert joined.status_code == 409 and rematch not in joined.text
    record = await server.http.get(f"/api/tables/{code}/record")
    assert rematch not in record.text
    again = await server.http.post(f"/api/tables/{code}/join", headers=auth(token))
    assert again.json()["table"]["next_table"] == rematch  # the seat's own join answer
