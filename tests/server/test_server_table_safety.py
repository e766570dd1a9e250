"""Safe for strangers, at the table (PROTOCOL.md): deals come from the operating system's
random source, and a private table's rematch code reaches only that table's seats."""

from __future__ import annotations

import random

import pytest
from harness import Server


async def test_deals_are_shuffled_from_the_operating_systems_random_source(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    urandom = random._urandom  # type: ignore[attr-defined]

    def counted(n: int) -> bytes:
        drawn.append(n)
        return urandom(n)

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
