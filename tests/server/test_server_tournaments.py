"""Tournaments over HTTP (PROTOCOL.md, "Tournaments"): creating, entering alone or as a pair,
starting, reading; every change kept in the store before it is answered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import Server, auth, running, sqlite_url


async def create(server: Server, token: str, **body: Any) -> Any:
    return await server.http.post("/api/tournaments", json=body, headers=auth(token))


async def enter(server: Server, token: str, tid: str, **body: Any) -> Any:
    return await server.http.post(f"/api/tournaments/{tid}/enter", json=body,
                                  headers=auth(token))


async def test_a_host_creates_a_swiss_and_gets_the_tournament_document(
    server: Server
) -> None:
    host, token = await server.guest("Host")
    reply = await create(server, token, variant="plaza", options={"target": 50},
                         format="swiss", rounds=3, public=True)
    assert reply.status_code == 201, reply.text
    doc = reply.json()
    assert set(doc) >= {"id", "variant", "players", "options", "format", "rounds", "status",
                        "host", "entrants", "round", "pairings", "standings", "winner"}
    assert (doc["variant"], doc["players"], doc["format"], doc["rounds"]) == (
        "plaza", 2, "swiss", 3)
    assert (doc["status"], doc["host"], doc["round"], doc["winner"]) == ("open", host, 0, None)
    assert doc["options"]["target"] == 50
    got = await server.http.get(f"/api/tournaments/{doc['id']}")
    assert got.json() == doc
    listed = (await server.http.get("/api/tournaments")).json()["tournaments"]
    assert [t["id"] for t in listed] == [doc["id"]]


async def test_creating_is_refused_as_for_tables_and_for_a_format_the_variant_cannot_play(
    server: Server
) -> None:
    _, token = await server.guest()
    cases: list[tuple[dict[str, Any], str]] = [
        ({"variant": "chess"}, "bad_variant"),
        ({"variant": "plaza", "options": {"target": 7}}, "bad_options"),
        ({"variant": "plaza", "players": 9}, "bad_options"),
        ({"variant": "haitian", "players": 3, "format": "round_robin"}, "bad_options"),
        ({"variant": "haitian", "players": 4, "format": "knockout"}, "bad_options"),
        ({"variant": "haitian", "options": {"open_ended": True}}, "bad_options"),
        ({"variant": "plaza", "format": "league"}, "bad_options"),
        ({"variant": "plaza", "format": "knockout", "rounds": 2}, "bad_options"),
        ({"variant": "plaza", "rounds": 0}, "bad_options"),
    ]
    for body, code in cases:
        reply = await create(server, token, **body)
        assert (reply.status_code, reply.json()["code"]) == (422, code), body
    anonymous = await server.http.post("/api/tournaments", json={"variant": "plaza"})
    assert anonymous.json()["code"] == "bad_token"


async def test_a_haitian_tournament_plays_matches_that_are_never_open_ended(
    server: Server
) -> None:
    _, token = await server.guest()
    doc = (await create(server, token, variant="haitian", players=2)).json()
    assert doc["options"]["open_ended"] is False


async def test_a_pair_is_an_entrant_once_each_has_named_the_other(server: Server) -> None:
    _, host = await server.guest("Host")
    tid = (await create(server, host, variant="partnership", format="round_robin")).json()["id"]
    a, ta = await server.guest("Anne")
    b, tb = await server.guest("Bo")
    first = await enter(server, ta, tid, partner=b)
    assert first.status_code == 200, first.text
    assert first.json()["entrants"] == []
    doc = (await enter(server, tb, tid, partner=a)).json()
    assert doc["entrants"] == [{"entrant": 1, "players": [a, b], "names": ["Anne", "Bo"]}]


async def test_only_the_host_starts_and_nobody_enters_once_it_has_begun(
    server: Server
) -> None:
    _, host = await server.guest("Host")
    tid = (await create(server, host, variant="plaza", rounds=2)).json()["id"]
    tokens = [(await server.guest(f"P{i}"))[1] for i in range(5)]
    for token in tokens[:4]:
        assert (await enter(server, token, tid)).status_code == 200
    again = await enter(server, tokens[0], tid)
    assert len(again.json()["entrants"]) == 4
    not_host = await server.http.post(f"/api/tournaments/{tid}/start", headers=auth(tokens[0]))
    assert (not_host.status_code, not_host.json()["code"]) == (403, "not_host")
    started = await server.http.post(f"/api/tournaments/{tid}/start", headers=auth(host))
    assert started.status_code == 200, started.text
    doc = started.json()
    assert (doc["status"], doc["round"]) == ("running", 1)
    assert [p["entrants"] for p in doc["pairings"][0]] == [[1, 2], [3, 4]]
    late = await enter(server, tokens[4], tid)
    assert (late.status_code, late.json()["code"]) == (409, "started")
    twice = await server.http.post(f"/api/tournaments/{tid}/start", headers=auth(host))
    assert (twice.status_code, twice.json()["code"]) == (409, "started")


async def test_a_tournament_without_enough_entrants_cannot_start(server: Server) -> None:
    _, host = await server.guest("Host")
    tid = (await create(server, host, variant="plaza")).json()["id"]
    assert (await enter(server, host, tid)).status_code == 200
    reply = await server.http.post(f"/api/tournaments/{tid}/start", headers=auth(host))
    assert (reply.status_code, reply.json()["code"]) == (409, "not_now")


async def test_an_unknown_tournament_is_not_found(server: Server) -> None:
    for tid in ("NOPE234567", "x" * 40, "%20"):
        reply = await server.http.get(f"/api/tournaments/{tid}")
        assert (reply.status_code, reply.json()["code"]) == (404, "not_found")


async def test_entries_and_pairings_outlive_the_server(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    async with running(url) as server:
        _, host = await server.guest("Host")
        tid = (await create(server, host, variant="plaza", rounds=2)).json()["id"]
        for i in range(3):
            await enter(server, (await server.guest(f"P{i}"))[1], tid)
        await server.http.post(f"/api/tournaments/{tid}/start", headers=auth(host))
        before = await until_doc(server, tid, lambda d: d["pairings"][0][0]["table"])
    async with running(url) as server:
        after = (await server.http.get(f"/api/tournaments/{tid}")).json()
        table = (await server.http.get(f"/api/tables/{after['pairings'][0][0]['table']}"))
    assert after == before
    assert table.status_code == 200
    assert after["pairings"][0][-1] == {"table": None, "entrants": [3], "status": "bye",
                                        "winner": 3}


# Rounds played by clients -------------------------------------------------------------


async def play_table(server: Server, code: str, tokens: dict[int, str]) -> None:
    """Every seat of table ``code`` connected (``tokens`` by player), which starts it,
    each seat playing its first legal move, until the match is over."""
    summary = (await server.http.get(f"/api/tables/{code}")).json()
    socks = []
    for seat in summary["seats"]:
        sock, _ = await server.connect(code, tokens[seat["player"]])
        socks.append(sock)
    ids = 0
    while True:
        acted = False
        for seat, sock in enumerate(socks):
            updates = [m for m in await sock.quiet(0.01) if m["type"] == "update"]
            if not updates:
                continue
            last = updates[-1]
            if last["view"]["result"] is not None:
                return
            ids += 1
            if last["table"]["status"] == "between_hands" and seat == 0:
                sock.send({"type": "next_hand", "id": f"n{ids}"})
                acted = True
            elif last["view"]["turn"] == seat and last["view"]["legal"]:
                sock.send({"type": "play", "id": f"m{ids}", "move": last["view"]["legal"][0]})
                acted = True
        if not acted:
            for sock in socks:
                sock.send({"type": "sync", "id": f"s{ids}"})
                ids += 1


async def until_doc(server: Server, tid: str, ready: Any, seconds: float = 20.0) -> Any:
    """The tournament document once ``ready(doc)``."""
    import asyncio
    for _ in range(int(seconds / 0.05)):
        doc = (await server.http.get(f"/api/tournaments/{tid}")).json()
        if ready(doc):
            return doc
        await asyncio.sleep(0.05)
    raise AssertionError(f"tournament never ready: {doc}")


async def test_a_swiss_is_played_round_after_round_by_the_servers_tables(
    server: Server
) -> None:
    """Four players, a Swiss plaza of two rounds (target 50): each round's tables are opened
    and seated by the server, the matches played by clients, the results recorded, the next
    round paired at once, and the standings are the records' own."""
    _, host = await server.guest("Host")
    tid = (await create(server, host, variant="plaza", options={"target": 50},
                        rounds=2)).json()["id"]
    tokens: dict[int, str] = {}
    for i in range(4):
        player, token = await server.guest(f"P{i}")
        tokens[player] = token
        await enter(server, token, tid)
    await server.http.post(f"/api/tournaments/{tid}/start", headers=auth(host))
    for number in (1, 2):
        doc = await until_doc(server, tid, lambda d, n=number: d["round"] == n and all(
            p["table"] for p in d["pairings"][n - 1]))
        for pairing in doc["pairings"][number - 1]:
            summary = (await server.http.get(f"/api/tables/{pairing['table']}")).json()
            seated = [s["player"] for s in summary["seats"]]
            assert seated == [doc["entrants"][e - 1]["players"][0] for e in pairing["entrants"]]
            await play_table(server, pairing["table"], tokens)
    doc = await until_doc(server, tid, lambda d: d["status"] == "over")
    met = [frozenset(p["entrants"]) for r in doc["pairings"] for p in r]
    assert len(met) == len(set(met)) == 4
    points: dict[int, int] = {}
    hands: dict[int, int] = {}
    for row in doc["pairings"]:
        for pairing in row:
            record = (await server.http.get(f"/api/tables/{pairing['table']}/record")).json()
            for i, entrant in enumerate(pairing["entrants"]):
                points[entrant] = points.get(entrant, 0) + (i in record["result"]["winners"])
                hands[entrant] = hands.get(entrant, 0) + sum(
                    h["result"]["winner"] == i for h in record["hands"])
    assert {s["entrant"]: s["points"] for s in doc["standings"]} == points
    assert {s["entrant"]: s["hands_won"] for s in doc["standings"]} == hands
    assert doc["winner"] == doc["standings"][0]["entrant"]
    assert [s["played"] for s in doc["standings"]] == [2, 2, 2, 2]


async def test_two_starts_at_once_pair_round_one_once(server: Server) -> None:
    import asyncio
    _, host = await server.guest("Host")
    tid = (await create(server, host, variant="plaza")).json()["id"]
    for i in range(4):
        await enter(server, (await server.guest(f"P{i}"))[1], tid)
    replies = await asyncio.gather(*(
        server.http.post(f"/api/tournaments/{tid}/start", headers=auth(host))
        for _ in range(3)))
    assert sorted(r.status_code for r in replies) == [200, 409, 409]
    doc = (await server.http.get(f"/api/tournaments/{tid}")).json()
    assert len(doc["pairings"]) == 1
