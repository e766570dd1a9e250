"""Before the start, the host can remove a seated player (docs/protocol.md, ``remove``): the
seat is free again, the player's sockets are told (``error`` ``removed``, and no update of a
seat no longer theirs) and closed (4403), and that player can never take a seat at that
table again (``removed``), even after a restart: the removal is an entry of the table's
log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import Server, Socket, auth, running, sqlite_url

REMOVED = {"kind": "seat_removed", "seat": 1}


async def removal(sock: Socket) -> dict[str, Any]:
    """The update that tells ``sock`` seat 1 was removed."""
    while True:
        update = await sock.until("update")
        if REMOVED in update["events"]:
            return update


async def test_the_host_removes_a_seated_player_who_is_told_and_cannot_sit_there_again(
    server: Server,
) -> None:
    _, host = await server.guest("Roselène")
    removed_id, friend = await server.guest("Mireille")
    code = (await server.open_table(host, variant="haitian", players=3))["code"]
    assert await server.join(friend, code) == 1
    boss, _ = await server.connect(code, host)
    tabs = [(await server.connect(code, friend))[0] for _ in range(2)]
    boss.send({"type": "remove", "id": "r", "seat": 1})
    update = await removal(boss)
    assert update["table"]["seats"][1] is None
    assert (await boss.until("ack", id="r"))["seq"] == update["seq"]
    for tab in tabs:
        told = await tab.until("error")
        assert told["code"] == "removed" and told["id"] is None
        assert await tab.closed() == 4403
        assert all(m["seq"] < update["seq"] for m in tab.log if "view" in m)
    again = await server.http.post(f"/api/tables/{code}/join", headers=auth(friend))
    assert again.status_code == 403 and again.json()["code"] == "removed"
    hello = server.socket(code)
    hello.send({"type": "hello", "token": friend})
    assert (await hello.until("error"))["code"] == "not_seated"
    assert await hello.closed() == 4401
    _, other = await server.guest("Jean")
    assert await server.join(other, code) == 1  # the seat is free for anyone else
    table = (await server.http.get(f"/api/tables/{code}")).json()
    assert removed_id not in [s["player"] for s in table["seats"] if s]


async def test_only_the_host_removes_a_person_and_only_before_the_start(server: Server) -> None:
    _, host = await server.guest("Roselène")
    _, friend = await server.guest("Mireille")
    code = (await server.open_table(host, variant="haitian", players=3,
                                    computers={"2": "casual"}))["code"]
    await server.join(friend, code)
    boss, _ = await server.connect(code, host)
    guest, _ = await server.connect(code, friend)
    guest.send({"type": "remove", "id": "mutiny", "seat": 0})
    assert (await guest.until("error", id="mutiny"))["code"] == "not_host"
    refusals = {
        "self": (0, "bad_message"), "no-such": (3, "bad_message"), "negative": (-1, "bad_message"),
        "yes": (True, "bad_message"), "computer": (2, "not_seated"),
    }
    for action_id, (seat, code_) in refusals.items():
        boss.send({"type": "remove", "id": action_id, "seat": seat})
        assert (await boss.until("error", id=action_id))["code"] == code_, action_id
    boss.send({"type": "start", "id": "s"})
    await boss.until("ack", id="s")
    boss.send({"type": "remove", "id": "late", "seat": 1})
    assert (await boss.until("error", id="late"))["code"] == "started"
    guest.send({"type": "sync", "id": "still-here"})
    assert (await guest.until("ack", id="still-here"))["type"] == "ack"


async def test_an_empty_seat_cannot_be_removed(server: Server) -> None:
    _, host = await server.guest("Roselène")
    code = (await server.open_table(host, variant="haitian", players=3))["code"]
    boss, _ = await server.connect(code, host)
    boss.send({"type": "remove", "id": "empty", "seat": 2})
    assert (await boss.until("error", id="empty"))["code"] == "not_seated"


async def test_a_removal_is_kept_in_the_tables_log_across_a_restart(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    async with running(url) as first:
        _, host = await first.guest("Roselène")
        _, friend = await first.guest("Mireille")
        code = (await first.open_table(host, variant="haitian", players=3))["code"]
        await first.join(friend, code)
        boss, _ = await first.connect(code, host)
        boss.send({"type": "remove", "id": "r", "seat": 1})
        await boss.until("ack", id="r")
    async with running(url) as second:
        again = await second.http.post(f"/api/tables/{code}/join", headers=auth(friend))
        assert again.status_code == 403 and again.json()["code"] == "removed"
        table = (await second.http.get(f"/api/tables/{code}")).json()
        assert table["seats"][1] is None
