"""Phrases at a table (PROTOCOL.md, "Public tables, watching and phrases"), from outside.

``GET /api/phrases`` lists the fixed phrases in every language. A seat's ``say`` reaches every
socket at the table, watchers included, as ``said``, and the sayer gets an ``ack``. A phrase
is no change of the table: not in its record or log, no new ``seq``. One phrase in 3 s per
seat; an unknown phrase is ``bad_message``; a watcher's is ``not_seated``.
"""

from __future__ import annotations

from typing import Any

from harness import Server, Socket

from kabes.server.table.phrases import PHRASE_GAP_SECONDS


async def table_of_two(server: Server) -> tuple[str, list[Socket], Socket, Socket]:
    """A started haitian table of two people, watchable: its code, every seat socket (the
    host with two tabs, then seat 1), a watcher, and seat 1's socket."""
    _, host = await server.guest("Host")
    code = (await server.open_table(host, variant="haitian", players=2, watch=True))["code"]
    _, friend = await server.guest("Friend")
    await server.join(friend, code)
    tab1, _ = await server.connect(code, host)
    tab2, _ = await server.connect(code, host)
    other, _ = await server.connect(code, friend)
    tab1.send({"type": "start", "id": "go"})
    acked = await tab1.until("ack", id="go")
    watcher = server.socket(code)
    watcher.send({"type": "hello", "watch": True})
    await watcher.until("welcome")
    for sock in (tab2, other):
        await sock.until("update", seq=acked["seq"])
    for sock in (tab1, tab2, other):
        await sock.quiet()
    return code, [tab1, tab2, other], watcher, other


def said(sock: Socket) -> list[tuple[int, str]]:
    """The phrases a socket was told, in order: (seat, phrase)."""
    return [(m["seat"], m["phrase"]) for m in sock.log if m["type"] == "said"]


async def test_get_phrases_lists_every_phrase_in_six_languages(server: Server) -> None:
    reply = await server.http.get("/api/phrases")
    assert reply.status_code == 200
    body = reply.json()
    assert list(body) == ["phrases"] and len(body["phrases"]) >= 12
    for phrase in body["phrases"]:
        assert set(phrase) == {"id", "text"}
        assert set(phrase["text"]) == {"ht", "en", "fr", "es", "pt", "no"}
    assert {"id": "hello", "text": {
        "ht": "Bonjou tout moun!", "en": "Hello everyone!", "fr": "Bonjour tout le monde !",
        "es": "¡Saludos a todos!", "pt": "Olá, pessoal!", "no": "Hei, alle sammen!",
    }} in body["phrases"]


async def test_a_phrase_is_heard_by_every_socket_watchers_included_in_order(
    server: Server,
) -> None:
    _, seats, watcher, other = await table_of_two(server)
    host = seats[0]
    seq = host.log[-1]["seq"]
    host.send({"type": "say", "id": "s1", "phrase": "hello"})
    assert await host.until("ack", id="s1") == {"type": "ack", "id": "s1", "seq": seq}
    other.send({"type": "say", "id": "s2", "phrase": "thanks"})
    assert (await other.until("ack", id="s2"))["seq"] == seq
    await server.advance(PHRASE_GAP_SECONDS)
    seats[1].send({"type": "say", "id": "s3", "phrase": "again"})
    await seats[1].until("ack", id="s3")
    for sock in [*seats, watcher]:
        await sock.quiet()
        assert said(sock) == [(0, "hello"), (1, "thanks"), (0, "again")]
        heard = [m for m in sock.log if m["type"] == "said"]
        assert all(m["seq"] == seq for m in heard)
        assert heard[0]["at"] == round((server.clock.now() - PHRASE_GAP_SECONDS) * 1000)
        assert heard[2]["at"] == round(server.clock.now() * 1000)
        assert set(heard[0]) == {"type", "seq", "seat", "phrase", "at"}


async def test_a_second_phrase_within_three_seconds_is_slow_down_and_not_remembered(
    server: Server,
) -> None:
    _, seats, watcher, other = await table_of_two(server)
    host = seats[0]
    host.send({"type": "say", "id": "a", "phrase": "hurry"})
    await host.until("ack", id="a")
    await server.advance(PHRASE_GAP_SECONDS - 0.1)
    # Seat 0's two tabs share one gap: the other tab is refused too.
    for sock, action in ((host, "b"), (seats[1], "c")):
        sock.send({"type": "say", "id": action, "phrase": "sorry"})
        refused = await sock.until("error", id=action)
        assert refused["code"] == "slow_down"
    # Another seat has its own gap.
    other.send({"type": "say", "id": "d", "phrase": "sorry"})
    assert (await other.until("ack", id="d"))["type"] == "ack"
    await server.advance(0.1)
    # The refused id, sent again once the gap is over, is said: the refusal was not kept.
    host.send({"type": "say", "id": "b", "phrase": "sorry"})
    await host.until("ack", id="b")
    # A retry of an id already said is answered again, and not said twice.
    host.send({"type": "say", "id": "b", "phrase": "sorry"})
    await host.until("ack", id="b")
    await watcher.quiet()
    assert said(watcher) == [(0, "hurry"), (1, "sorry"), (0, "sorry")]


async def test_an_unknown_phrase_is_a_bad_message_and_nobody_hears_it(server: Server) -> None:
    _, seats, watcher, _ = await table_of_two(server)
    host = seats[0]
    for action, phrase in (("x", "hello world"), ("y", "6-6"), ("z", "")):
        host.send({"type": "say", "id": action, "phrase": phrase})
        assert (await host.until("error", id=action))["code"] == "bad_message"
    host.send({"type": "say", "id": "long", "phrase": "h" * 33})
    assert (await host.until("error", id="long"))["code"] == "bad_message"
    host.send({"type": "say", "id": "none"})
    assert (await host.until("error", id="none"))["code"] == "bad_message"
    # None of those counted as said: a good phrase goes through at once.
    host.send({"type": "say", "id": "ok", "phrase": "good_luck"})
    await host.until("ack", id="ok")
    await watcher.quiet()
    assert said(watcher) == [(0, "good_luck")]


async def test_a_watchers_phrase_is_not_seated(server: Server) -> None:
    _, seats, watcher, _ = await table_of_two(server)
    watcher.send({"type": "say", "id": "w", "phrase": "hello"})
    refused = await watcher.until("error", id="w")
    assert refused["code"] == "not_seated"
    for sock in seats:
        assert said(sock) == [] and not [m for m in await sock.quiet() if m["type"] == "said"]


async def test_phrases_are_not_in_the_record_nor_the_log_and_raise_no_seq(
    server: Server,
) -> None:
    code, seats, watcher, other = await table_of_two(server)
    host = seats[0]
    store = server.hub.store
    before_log = await store.load(code)
    before_record = (await server.http.get(f"/api/tables/{code}/record")).json()
    seq = before_log[-1].seq
    host.send({"type": "say", "id": "p1", "phrase": "nice_play"})
    assert (await host.until("ack", id="p1"))["seq"] == seq
    other.send({"type": "say", "id": "p2", "phrase": "bravo"})
    assert (await other.until("ack", id="p2"))["seq"] == seq
    assert len(await store.load(code)) == len(before_log)
    assert (await server.http.get(f"/api/tables/{code}/record")).json() == before_record
    # The next change of the table is the next seq: nothing was skipped.
    turn_socket = {0: host, 1: other}
    update: dict[str, Any] = [m for m in host.log if m["type"] == "update"][-1]
    turn = update["view"]["turn"]
    mover = turn_socket[turn]
    view = [m for m in mover.log if m["type"] == "update"][-1]["view"]
    mover.send({"type": "play", "id": "m1", "move": view["legal"][0]})
    assert (await mover.until("ack", id="m1"))["seq"] == seq + 1
    assert (await watcher.until("update"))["seq"] == seq + 1
