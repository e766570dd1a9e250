"""A seat's sockets (docs/protocol.md, Limits): at most ``seat_sockets`` (4) at once, a new
one closing the seat's oldest (4409, after ``error`` ``too_many_sockets``); and all the
sockets of one seat together send at most 100 actions a second, the rest refused
``slow_down`` while every socket stays open."""

from __future__ import annotations

import asyncio

from harness import Closed, Server

from kabes.server.common.config import Settings
from kabes.server.common.protocol import MAX_MESSAGES_PER_SECOND


async def two_seats(server: Server) -> tuple[str, str, str]:
    """A waiting table of three with a host and a friend; (code, host token, friend token)."""
    _, host = await server.guest("Roselène")
    _, friend = await server.guest("Mireille")
    code = (await server.open_table(host, variant="haitian", players=3))["code"]
    await server.join(friend, code)
    return code, host, friend


async def test_a_fifth_socket_of_a_seat_closes_the_oldest_after_saying_why(
    server: Server,
) -> None:
    code, host, friend = await two_seats(server)
    cap = Settings().seat_sockets
    assert cap == 4
    other, _ = await server.connect(code, friend)
    socks = [(await server.connect(code, host))[0] for _ in range(cap)]
    newest, welcome = await server.connect(code, host)
    assert welcome["seat"] == 0
    said = await socks[0].until("error")
    assert said["code"] == "too_many_sockets" and said["id"] is None
    assert await socks[0].closed() == 4409
    for n, sock in enumerate([*socks[1:], newest, other]):
        sock.send({"type": "sync", "id": f"sync-{n}"})
        assert (await sock.until("ack", id=f"sync-{n}"))["type"] == "ack"
    table = (await server.http.get(f"/api/tables/{code}")).json()
    assert table["seats"][0]["connected"] is True  # the seat never went away


async def test_all_the_sockets_of_a_seat_together_send_at_most_100_actions_a_second(
    server: Server,
) -> None:
    code, host, friend = await two_seats(server)
    first, _ = await server.connect(code, host)
    second, _ = await server.connect(code, host)
    each = MAX_MESSAGES_PER_SECOND * 6 // 10  # under one socket's own limit
    ids = {sock: {f"{n}-{i}" for i in range(each)} for n, sock in enumerate((first, second))}
    for sock, sent in ids.items():
        for action_id in sorted(sent):
            sock.send({"type": "sync", "id": action_id})
    got = {**await first.answers(ids[first]), **await second.answers(ids[second])}
    slowed = [i for i, m in got.items() if m["type"] == "error"]
    assert {got[i]["code"] for i in slowed} == {"slow_down"}
    assert 0 < len(slowed) <= 2 * each - MAX_MESSAGES_PER_SECOND  # 20 unless this was slow
    other, _ = await server.connect(code, friend)  # another seat has its own count
    other.send({"type": "sync", "id": "other"})
    assert (await other.until("ack", id="other"))["type"] == "ack"
    await asyncio.sleep(1.05)
    retry = slowed[0]  # a refused id was not remembered: sent again later, it is applied
    sock = first if retry in ids[first] else second
    sock.send({"type": "sync", "id": retry})
    assert (await sock.until("ack", id=retry))["type"] == "ack"
    for sock in (first, second):
        try:
            await sock.recv(0.05)
        except TimeoutError:
            pass
        except Closed as err:
            raise AssertionError(f"a socket was closed ({err.code})") from None
