"""Every socket, a watcher's included, sends at most 100 messages a second, then ``slow_down``
(PROTOCOL.md, "Safe for strangers"), counted as the messages *arrive*: the one too many is
answered ``error`` ``slow_down`` under its id, not passed on, and the socket closed 1008
(guarantee 3), every other socket carrying on; a seat's messages sent at an honest pace are
never refused because its table handled them late, in a burst (a table busy storing, or
rebuilding after a restart)."""

from __future__ import annotations

import asyncio
from typing import Any

from harness import Server

from kabes.server.common.protocol import MAX_MESSAGES_PER_SECOND
from kabes.server.table.actor import Table


async def test_a_watchers_sync_flood_from_many_sockets_is_slowed_down_then_closed(
    server: Server,
) -> None:
    _, token = await server.guest("Roselène")
    code = (await server.open_table(token, variant="haitian", players=4, public=True))["code"]
    watchers = []
    for _ in range(16):
        sock = server.socket(code)
        sock.send({"type": "hello", "watch": True})
        assert (await sock.until("welcome"))["seat"] is None
        watchers.append(sock)
    calm = server.socket(code)  # a watcher at an honest pace, meanwhile
    calm.send({"type": "hello", "watch": True})
    await calm.until("welcome")
    sent = MAX_MESSAGES_PER_SECOND + 60
    for n, sock in enumerate(watchers):
        for i in range(sent):
            sock.send({"type": "sync", "id": f"w{n}-{i}"})
    for n, sock in enumerate(watchers):
        assert await sock.closed() == 1008, "a watcher's flood went through"
        synced = [m for m in sock.log if m["type"] == "update"]
        refused = [m for m in sock.log if m["type"] == "error"]
        # Its hello was the first of its messages within that second, if it was.
        assert len(synced) <= MAX_MESSAGES_PER_SECOND
        assert [m["code"] for m in refused] == ["slow_down"]
        assert refused[0]["id"] in {f"w{n}-{i}" for i in range(MAX_MESSAGES_PER_SECOND - 1,
                                                                 MAX_MESSAGES_PER_SECOND + 1)}
    calm.send({"type": "sync", "id": "calm"})
    assert (await calm.until("update"))["seq"] >= 0
    assert calm.close_code is None
    table = (await server.http.get(f"/api/tables/{code}")).json()
    assert table["watchers"] == 1


class HeldStore:
    """A table's store whose writes wait until the test opens it: the table's actor is held
    on one write while the seat's messages pile up in its inbox, as after a restart."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.open = asyncio.Event()

    async def append(self, code: str, entry: Any, effects: Any) -> None:
        await self.open.wait()
        await self.store.append(code, entry, effects)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


async def test_a_seats_messages_sent_at_50_a_second_then_handled_in_a_burst_are_all_accepted(
    server: Server,
) -> None:
    _, token = await server.guest("Roselène")
    code = (await server.open_table(token, variant="haitian", players=2,
                                    computers={"1": "beginner"}))["code"]
    sock, _ = await server.connect(code, token)
    table: Table = server.hub.tables[code]
    held = HeldStore(table.store)
    table.store = held
    sock.send({"type": "start", "id": "go"})
    ids = [f"s{n}" for n in range(MAX_MESSAGES_PER_SECOND * 3 // 2)]
    for action_id in ids:  # 50 a second, for 3 seconds; the table handles none meanwhile
        sock.send({"type": "sync", "id": action_id})
        await asyncio.sleep(1 / 50)
    assert not [m for m in sock.log if m.get("id") in ids]
    assert table.inbox.qsize() >= len(ids) - 5
    held.open.set()  # the backlog is handled at once
    got = await sock.answers(["go", *ids])
    refused = {i: m for i, m in got.items() if m["type"] == "error"}
    assert refused == {}, f"{len(refused)} refused: {list(refused.values())[:3]}"
    assert sock.close_code is None
