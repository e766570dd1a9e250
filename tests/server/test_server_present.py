"""Public tables start with their people present (PROTOCOL.md, "Safe for strangers"): a full
public table starts by itself only when every person seated has a socket open, and a person
who has had no socket open at a waiting public table for ``--seat-wait-seconds`` loses the
seat, as by ``leave``, through the log. Tested over HTTP and the table socket of an
in-process server with a fake clock (tests/server/test_server_squatter.py does the same
against a real ``kabes serve``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import Server, auth, running, settle, sqlite_url

from kabes.server.common.config import Settings
from kabes.server.table.clock import FakeClock

WAIT = Settings().seat_wait_seconds
EXPERTS = {"1": "expert", "2": "expert", "3": "expert"}


async def summary(server: Server, code: str) -> dict[str, Any]:
    """The table's public summary."""
    reply = await server.http.get(f"/api/tables/{code}")
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()
    return found


async def entries(server: Server, code: str) -> list[tuple[str, dict[str, Any]]]:
    """The table's log as the store keeps it: (kind, data) of each entry."""
    return [(e.kind, e.data) for e in await server.app.state.services.store.load(code)]


async def test_a_public_table_of_computers_does_not_start_with_its_person_absent(
    server: Server,
) -> None:
    _, host = await server.guest("Roselène")
    code = (await server.open_table(host, variant="haitian", players=4, public=True,
                                    computers=EXPERTS))["code"]
    assert (await summary(server, code))["status"] == "waiting"
    await server.advance(WAIT - 1)
    assert (await summary(server, code))["status"] == "waiting"
    await server.advance(1)
    # Its one person never came: the seat is freed as by leave, and with nobody left the
    # waiting table closes. No hand was ever dealt.
    found = await summary(server, code)
    assert found["status"] == "over"
    kinds = [kind for kind, _ in await entries(server, code)]
    assert "started" not in kinds and kinds[-1] == "left"
    record = (await server.http.get(f"/api/tables/{code}/record")).json()
    assert record["hands"] == []


async def test_a_public_table_of_computers_starts_when_its_person_comes(
    server: Server,
) -> None:
    _, host = await server.guest("Roselène")
    code = (await server.open_table(host, variant="haitian", players=4, public=True,
                                    computers=EXPERTS))["code"]
    await server.advance(WAIT / 2)
    sock, welcome = await server.connect(code, host)
    assert welcome["table"]["status"] == "waiting"
    started = await sock.until("update")
    while started["table"]["status"] != "playing":
        started = await sock.until("update")
    assert started["view"]["hand"] and started["view"]["clock"]["away"] is False


async def test_a_seat_nobody_came_to_is_freed_after_seat_wait_seconds(server: Server) -> None:
    _, host = await server.guest("Roselène")
    squatter_id, squatter = await server.guest("Jean")
    _, late = await server.guest("Mireille")
    code = (await server.open_table(host, variant="haitian", players=2, public=True))["code"]
    sock, _ = await server.connect(code, host)
    await server.advance(5)
    assert await server.join(squatter, code) == 1
    await server.advance(WAIT - 1)  # counted from the moment the seat was taken
    found = await summary(server, code)
    assert found["status"] == "waiting" and found["seats"][1]["player"] == squatter_id
    await server.advance(1)
    found = await summary(server, code)
    assert found["status"] == "waiting" and found["seats"][1] is None and found["host"] == 0
    assert (await entries(server, code))[-1] == ("left", {"seat": 1, "player": squatter_id,
                                                          "absent": True})
    freed = await sock.until("update")
    while not any(e.get("kind") == "seat_left" for e in freed["events"]):
        freed = await sock.until("update")
    # The seat is free for whoever comes; the host, here all along, keeps theirs.
    assert await server.join(late, code) == 1
    await server.connect(code, late)
    await settle()
    assert (await summary(server, code))["status"] == "playing"


async def test_the_wait_counts_from_the_seats_last_socket_closing(server: Server) -> None:
    _, host = await server.guest("Roselène")
    guest_id, guest = await server.guest("Jean")
    _, third = await server.guest("Mireille")
    code = (await server.open_table(host, variant="haitian", players=3, public=True))["code"]
    await server.connect(code, host)
    await server.join(guest, code)
    sock, _ = await server.connect(code, guest)
    await server.advance(WAIT * 3)  # here all along: nothing is freed
    assert (await summary(server, code))["seats"][1]["player"] == guest_id
    sock.disconnect()
    await settle()
    await server.advance(WAIT - 1)
    assert (await summary(server, code))["seats"][1]["player"] == guest_id
    again, _ = await server.connect(code, guest)  # back in time: the wait starts again later
    again.disconnect()
    await settle()
    await server.advance(WAIT - 1)
    assert (await summary(server, code))["seats"][1]["player"] == guest_id
    await server.advance(1)
    assert (await summary(server, code))["seats"][1] is None
    assert await server.join(third, code) == 1


async def test_an_absent_host_hands_the_table_on(server: Server) -> None:
    _, host = await server.guest("Roselène")
    _, guest = await server.guest("Jean")
    code = (await server.open_table(host, variant="haitian", players=3, public=True))["code"]
    await server.join(guest, code)
    await server.connect(code, guest)
    await server.advance(WAIT)
    found = await summary(server, code)
    assert found["status"] == "waiting" and found["host"] == 1 and found["seats"][0] is None


async def test_private_tables_keep_their_absent_people(server: Server) -> None:
    _, host = await server.guest("Roselène")
    guest_id, guest = await server.guest("Jean")
    code = (await server.open_table(host, variant="haitian", players=3))["code"]
    await server.join(guest, code)
    await server.connect(code, host)
    await server.advance(WAIT * 3)
    assert (await summary(server, code))["seats"][1]["player"] == guest_id


async def test_the_freeing_survives_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    url = sqlite_url(tmp_path)
    async with running(url, clock=clock) as server:
        _, host = await server.guest("Roselène")
        squatter_id, squatter = await server.guest("Jean")
        code = (await server.open_table(host, variant="haitian", players=3,
                                        public=True))["code"]
        await server.join(squatter, code)
        await server.advance(WAIT - 10)
    # Down for a while, then up again: a restart drops every socket through nobody's
    # fault, so everyone seated gets the whole wait again from the rebuilding.
    clock.advance(30)
    async with running(url, clock=clock) as server:
        await server.connect(code, host)
        found = await summary(server, code)
        assert found["seats"][1]["player"] == squatter_id
        await server.advance(WAIT - 1)
        assert (await summary(server, code))["seats"][1]["player"] == squatter_id
        await server.advance(1)
        found = await summary(server, code)
        assert found["seats"][1] is None and found["status"] == "waiting"
    async with running(url, clock=clock) as server:  # the log keeps it so
        found = await summary(server, code)
        assert found["status"] == "waiting" and found["seats"][1] is None
        assert found["seats"][0] is not None
        reply = await server.http.post(f"/api/tables/{code}/join", headers=auth(squatter))
        assert reply.status_code == 200 and reply.json()["seat"] == 1


async def test_the_lobby_lists_tables_whose_people_are_here_first(server: Server) -> None:
    tokens = [(await server.guest(f"Moun {n}"))[1] for n in range(5)]
    squatted = (await server.open_table(tokens[0], variant="partnership", public=True))["code"]
    for token in tokens[1:3]:  # three seats taken over HTTP, nobody there
        await server.join(token, squatted)
    await server.advance(1)
    played = (await server.open_table(tokens[3], variant="partnership", public=True))["code"]
    await server.join(tokens[4], played)
    for token in tokens[3:5]:
        await server.connect(played, token)
    await server.advance(1.5)  # past the lobby's kept answer
    waiting = (await server.http.get("/api/lobby")).json()["waiting"]
    assert [t["code"] for t in waiting] == [played, squatted]
    quick = await server.http.post("/api/quick", headers=auth((await server.guest("Jan"))[1]),
                                   json={"variant": "partnership"})
    assert quick.json()["table"]["code"] == played
