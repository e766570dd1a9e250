"""Watching a table (PROTOCOL.md, "Public tables, watching and phrases"), from outside.

A watcher says ``{"type": "hello", "watch": true}``, with no token, at a table whose ``watch``
is true, and sees the match as the table shows it to everyone: the VIEW from no seat (no hand,
no moves), every update, the hands face up between hands, never a hidden tile (guarantee 1,
checked against the match's record as for seats). It may ``sync``; any other action is
``not_seated`` and its socket stays open. Watchers count toward nothing else.
"""

from __future__ import annotations

import asyncio
from random import Random
from typing import Any

import pytest
from harness import Server, Socket, settle
from test_server_hidden import Checked, Table, check_hidden, done, person

from kabes.server.table.watchers import WATCHERS_PER_TABLE

OWN = ("seat", "hand", "legal", "forced_lead")
"""What a seat's view holds of its own; a watcher's view is a seat's without it."""
PRIVATE_EVENTS = ("dealt", "drew")
"""The events told to one seat only."""


async def watch(server: Server, code: str) -> tuple[Socket, dict[str, Any]]:
    """A socket watching table ``code``; it and its welcome."""
    sock = server.socket(code)
    sock.send({"type": "hello", "watch": True})
    return sock, await sock.until("welcome")


async def seated_table(server: Server, table: Table, **flags: Any) -> tuple[str, dict[int, str]]:
    """Open ``table`` (``flags``: public, watch) and seat its people; code, seat -> token."""
    _, host = await server.guest("Host")
    summary = await server.open_table(
        host, variant=table.variant, players=table.players, options=table.options,
        computers=table.computers, **flags)
    code = summary["code"]
    tokens = {0: host}
    for seat in range(1, table.players):
        if str(seat) not in table.computers:
            _, token = await server.guest(f"Seat {seat}")
            assert await server.join(token, code) == seat
            tokens[seat] = token
    return code, tokens


async def read_to_the_end(sock: Socket, table: Table) -> None:
    """A watcher: reads until a message shows the match over (or as far as it is played)."""
    while True:
        message = await sock.recv()
        if message["type"] in ("welcome", "update") and done(table, message):
            return


WATCHED = [
    Table("partnership", 4, {"target": 50}),
    Table("haitian", 3, {"hands": 2}, {"2": "expert"}),
    Table("mexican-train", 3, {}, {"2": "casual"}, rounds=1),
    Table("plaza", 2, {"target": 50}, {"1": "skilled"}),
]


@pytest.mark.parametrize("table", WATCHED, ids=str)
async def test_a_watcher_over_a_whole_match_never_receives_a_hidden_tile(
    server: Server, table: Table
) -> None:
    code, tokens = await seated_table(server, table, watch=True)
    early, welcome = await watch(server, code)
    assert welcome["seat"] is None and welcome["view"]["seat"] is None
    socks = {seat: (await server.connect(code, token))[0] for seat, token in tokens.items()}
    socks[0].send({"type": "start", "id": "start"})
    rng = Random(str(table))

    async def late_watcher() -> Socket:
        while len([m for m in early.log if m["type"] == "update"]) < 12:
            await asyncio.sleep(0.001)
        late, _ = await watch(server, code)
        await read_to_the_end(late, table)
        return late

    people = [person(sock, seat, table, rng) for seat, sock in socks.items()]
    *_, late = await asyncio.wait_for(asyncio.gather(
        *people, read_to_the_end(early, table), late_watcher()), 300)
    assert late is not None  # late_watcher's socket (the others return nothing)
    await settle()
    for sock in [early, late, *socks.values()]:
        await sock.quiet()
    record = (await server.http.get(f"/api/tables/{code}/record")).json()
    checked = Checked()
    for sock in (early, late):
        before = checked.in_hand_messages
        check_hidden(record, None, sock.log, checked)
        assert checked.in_hand_messages > before, "the watcher saw no hand being played"
        assert all(m["type"] in ("welcome", "update") for m in sock.log)
    assert checked.tiles_seen > 0
    assert not checked.leaks, "\n".join(checked.leaks[:20])
    # The watcher sees what every seat sees alike, at the same seq: seat 0's view without
    # its own part, its events without those told to seat 0 alone; the hands face up
    # between hands as the seats see them.
    # (A connection not logged is told at the current seq: docs/protocol.md, "Connections
    # and the log"; such updates are left out here, one update a seq.)
    def changes(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [m for m in log if m["type"] == "update" and not (m["events"] and all(
            e["kind"] in ("connected", "disconnected") for e in m["events"]))]

    seat_updates = {m["seq"]: m for m in changes(socks[0].log)}
    face_up = 0
    for message in changes(early.log[1:]):
        seen = seat_updates[message["seq"]]
        assert message["view"] == {**seen["view"], "seat": None, "hand": [], "legal": [],
                                   "forced_lead": None}
        assert message["events"] == [e for e in seen["events"]
                                     if e["kind"] not in PRIVATE_EVENTS]
        face_up += message["view"]["last_hand"] is not None
    assert face_up > 0


async def test_a_watchers_actions_are_refused_not_seated_and_its_socket_stays_open(
    server: Server,
) -> None:
    # Watchable but not public: a public table whose other seats are computers would start
    # by itself, and this one waits for its host's start.
    code, tokens = await seated_table(server, Table("haitian", 2, {}, {"1": "casual"}),
                                      watch=True)
    sock, welcome = await watch(server, code)
    view = welcome["view"]
    assert (view["seat"], view["hand"], view["legal"]) == (None, [], [])
    actions: list[dict[str, Any]] = [
               {"type": "play", "id": "p", "move": "6-6"}, {"type": "start", "id": "s"},
               {"type": "next_hand", "id": "n"}, {"type": "finish", "id": "f"},
               {"type": "hint", "id": "h"}, {"type": "review", "id": "r"},
               {"type": "leave", "id": "l"}, {"type": "play_again", "id": "a"},
               {"type": "remove", "id": "m", "seat": 1},
               {"type": "say", "id": "y", "phrase": "hello"}]
    for action in actions:
        sock.send(action)
        refused = await sock.recv()
        assert (refused["type"], refused["id"], refused["code"]) == (
            "error", action["id"], "not_seated"), refused
    # Still open, still told: the host starts, and the watcher sees the deal from no seat.
    host, _ = await server.connect(code, tokens[0])
    host.send({"type": "start", "id": "go"})
    acked = await host.until("ack", id="go")
    dealt = await sock.until("update", seq=acked["seq"])
    assert dealt["view"]["hand_number"] == 1 and dealt["view"]["hand"] == []
    assert sum(dealt["view"]["counts"]) > 0
    assert [e["kind"] for e in dealt["events"]].count("dealt") == 0


async def test_sync_gives_a_watcher_a_fresh_update_from_no_seat(server: Server) -> None:
    code, tokens = await seated_table(server, Table("haitian", 2), watch=True)
    host, _ = await server.connect(code, tokens[0])
    host.send({"type": "start", "id": "go"})
    acked = await host.until("ack", id="go")
    sock, welcome = await watch(server, code)
    assert welcome["seq"] == acked["seq"] and welcome["view"]["hand_number"] == 1
    sock.send({"type": "sync", "id": "again"})
    fresh = await sock.recv()
    assert fresh["type"] == "update" and fresh["events"] == []
    assert fresh["seq"] == welcome["seq"] and fresh["view"] == welcome["view"]
    assert fresh["table"]["next_table"] is None
    assert await sock.recv() == {"type": "ack", "id": "again", "seq": welcome["seq"]}


@pytest.mark.parametrize("flags", [{}, {"watch": False}, {"public": True, "watch": False}],
                         ids=["private", "watch-false", "public-watch-false"])
async def test_a_watch_hello_at_a_table_that_may_not_be_watched_is_not_seated_and_4401(
    server: Server, flags: dict[str, Any]
) -> None:
    code, tokens = await seated_table(server, Table("haitian", 2, {}, {"1": "casual"}), **flags)
    sock = server.socket(code)
    sock.send({"type": "hello", "watch": True})
    refused = await sock.recv()
    assert (refused["type"], refused["code"], refused["id"]) == ("error", "not_seated", None)
    assert await sock.closed() == 4401
    # A seat's own hello is as before.
    _, welcome = await server.connect(code, tokens[0])
    assert welcome["seat"] == 0


async def test_a_watch_hello_at_no_such_table_is_not_found_and_4404(server: Server) -> None:
    sock = server.socket("ZZZZZZZ")
    sock.send({"type": "hello", "watch": True})
    assert (await sock.recv())["code"] == "not_found"
    assert await sock.closed() == 4404


async def test_a_hello_with_neither_token_nor_watch_is_a_bad_message(server: Server) -> None:
    code, _ = await seated_table(server, Table("haitian", 2, {}, {"1": "casual"}), watch=True)
    sock = server.socket(code)
    sock.send({"type": "hello"})
    assert (await sock.recv())["code"] == "bad_message"
    sock.send({"type": "hello", "watch": True})
    assert (await sock.recv())["type"] == "welcome"


async def test_watchers_beyond_the_cap_are_told_slow_down_and_closed(server: Server) -> None:
    code, _ = await seated_table(server, Table("haitian", 2, {}, {"1": "casual"}), watch=True)
    assert server.hub.tables[code].watchers.cap == WATCHERS_PER_TABLE == 200
    server.hub.tables[code].watchers.cap = 2
    first, _ = await watch(server, code)
    await watch(server, code)
    over = server.socket(code)
    over.send({"type": "hello", "watch": True})
    assert (await over.recv())["code"] == "slow_down"
    assert await over.closed() == 1008
    first.disconnect()
    await settle()
    _, welcome = await watch(server, code)
    assert welcome["seat"] is None


async def test_watchers_are_no_seat_and_keep_no_table_from_being_abandoned(
    server: Server,
) -> None:
    code, tokens = await seated_table(server, Table("haitian", 2), watch=True)
    host, _ = await server.connect(code, tokens[0])
    host.send({"type": "start", "id": "go"})
    acked = await host.until("ack", id="go")
    sock, welcome = await watch(server, code)
    watcher_count = server.hub.tables[code].watcher_count
    assert watcher_count == 1
    # Coming to watch is no change of the table: no seq, no seat connected.
    assert welcome["seq"] == acked["seq"]
    assert await host.quiet() == []
    host.disconnect()
    gone = await sock.until("update", seq=acked["seq"] + 1)
    assert [e["kind"] for e in gone["events"]] == ["disconnected"]
    await server.advance(server.hub.settings.abandon_seconds + 1)
    ended = await sock.until("update")
    while "abandoned" not in [e["kind"] for e in ended["events"]]:
        ended = await sock.until("update")
    assert ended["view"]["result"]["abandoned"] is True
    sock.disconnect()
    await settle()
    assert server.hub.tables[code].watcher_count == 0
