"""Public tables, the lobby and quick seats (PROTOCOL.md, "Public tables, watching and
phrases"), tested from outside over HTTP and the table socket of an in-process server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from harness import Server, auth, running, sqlite_url

from kabes.server.common.config import Edge
from kabes.server.lobby.lobby import FRESH_SECONDS, Listing, Lobby


async def quick(server: Server, token: str, **body: Any) -> dict[str, Any]:
    """A quick seat for ``token``; the answer (``seat``, ``table``)."""
    reply = await server.http.post("/api/quick", json=body, headers=auth(token))
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    return answer


async def lobby(server: Server, variant: str | None = None) -> dict[str, Any]:
    """The lobby now."""
    reply = await server.http.get("/api/lobby", params={"variant": variant} if variant else {})
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()
    return found


async def guests(server: Server, count: int) -> list[str]:
    """``count`` new guests' tokens."""
    return [(await server.guest(f"Moun {n}"))[1] for n in range(count)]


async def test_a_table_is_private_and_unwatchable_unless_the_host_says(server: Server) -> None:
    (token,) = await guests(server, 1)
    private = await server.open_table(token, variant="partnership")
    assert (private["public"], private["watch"], private["watchers"]) == (False, False, 0)
    public = await server.open_table(token, variant="partnership", public=True)
    assert (public["public"], public["watch"], public["watchers"]) == (True, True, 0)
    unwatched = await server.open_table(token, variant="partnership", public=True, watch=False)
    assert (unwatched["public"], unwatched["watch"]) == (True, False)
    watched = await server.open_table(token, variant="partnership", watch=True)
    assert (watched["public"], watched["watch"]) == (False, True)


async def test_public_and_watch_of_the_wrong_type_are_bad_options(server: Server) -> None:
    (token,) = await guests(server, 1)
    bodies: list[dict[str, Any]] = [
        {"public": "yes"}, {"public": 1}, {"watch": None, "public": []}, {"watch": "no"}
    ]
    for body in bodies:
        reply = await server.http.post("/api/tables", headers=auth(token),
                                       json={"variant": "haitian", **body})
        assert reply.status_code == 422, (body, reply.text)
        assert reply.json()["code"] == "bad_options", body


async def test_a_public_table_is_never_open_ended_unless_the_host_says(server: Server) -> None:
    (token,) = await guests(server, 1)
    private = await server.open_table(token, variant="haitian")
    assert private["options"]["open_ended"] is True
    public = await server.open_table(token, variant="haitian", public=True)
    assert public["options"]["open_ended"] is False
    asked = await server.open_table(token, variant="haitian", public=True,
                                    options={"open_ended": True})
    assert asked["options"]["open_ended"] is True
    seated = await quick(server, token, variant="haitian-partners")
    assert seated["table"]["options"]["open_ended"] is False


async def test_quick_seats_fill_one_table_in_arrival_order(server: Server) -> None:
    tokens = await guests(server, 4)
    answers = [await quick(server, t, variant="partnership") for t in tokens]
    assert [a["seat"] for a in answers] == [0, 1, 2, 3]
    assert len({a["table"]["code"] for a in answers}) == 1
    first = answers[0]["table"]
    assert first["public"] and first["watch"] and first["host"] == 0
    assert all(s is None or s["kind"] == "person" for s in answers[-1]["table"]["seats"])


async def test_a_quick_seat_asked_again_is_the_same_seat(server: Server) -> None:
    tokens = await guests(server, 2)
    first = await quick(server, tokens[0], variant="partnership")
    second = await quick(server, tokens[1], variant="partnership")
    again = [await quick(server, t, variant="partnership") for t in tokens]
    assert [a["seat"] for a in again] == [first["seat"], second["seat"]] == [0, 1]
    assert {a["table"]["code"] for a in again} == {first["table"]["code"]}
    seats = again[-1]["table"]["seats"]
    assert sum(s is not None for s in seats) == 2


async def test_quick_seats_go_where_seat_count_and_stated_options_fit(server: Server) -> None:
    tokens = await guests(server, 5)
    three = await quick(server, tokens[0], variant="haitian", players=3,
                        options={"hands": 7})
    four = await quick(server, tokens[1], variant="haitian", players=4)
    other = await quick(server, tokens[2], variant="haitian", players=3,
                        options={"hands": 3})
    codes = {three["table"]["code"], four["table"]["code"], other["table"]["code"]}
    assert len(codes) == 3 and three["table"]["options"]["hands"] == 7
    same = await quick(server, tokens[3], variant="haitian", players=3,
                       options={"hands": 7})
    assert (same["table"]["code"], same["seat"]) == (three["table"]["code"], 1)
    # Nothing stated: the fullest table of that seat count fits, whatever its options.
    anything = await quick(server, tokens[4], variant="haitian", players=3)
    assert (anything["table"]["code"], anything["seat"]) == (three["table"]["code"], 2)


async def test_quick_seats_go_to_the_fullest_table_then_the_oldest(server: Server) -> None:
    tokens = await guests(server, 6)
    older = await server.open_table(tokens[0], variant="partnership", public=True)
    await server.advance(1)  # "oldest" is by the moment of opening
    fuller = await server.open_table(tokens[1], variant="partnership", public=True)
    await server.join(tokens[2], fuller["code"])
    await server.advance(1)
    newer = await server.open_table(tokens[3], variant="partnership", public=True)
    assert (await quick(server, tokens[4], variant="partnership"))["table"]["code"] \
        == fuller["code"]
    await server.join(tokens[5], newer["code"])
    # fuller holds three, newer two, older one: fuller again, then newer.
    tokens += await guests(server, 2)
    assert (await quick(server, tokens[6], variant="partnership"))["table"]["code"] \
        == fuller["code"]
    assert (await quick(server, tokens[7], variant="partnership"))["table"]["code"] \
        == newer["code"]
    assert older["code"] not in {fuller["code"], newer["code"]}


async def test_quick_seats_never_add_computers_nor_sit_at_private_tables(
    server: Server,
) -> None:
    tokens = await guests(server, 2)
    private = await server.open_table(tokens[0], variant="haitian", players=2)
    seated = await quick(server, tokens[1], variant="haitian", players=2)
    assert seated["table"]["code"] != private["code"] and seated["seat"] == 0
    assert [s is None for s in seated["table"]["seats"]] == [False, True]


async def test_a_bad_quick_seat_is_refused_with_the_protocols_codes(server: Server) -> None:
    (token,) = await guests(server, 1)
    for body, code in (({"variant": "chess"}, "bad_variant"), ({}, "bad_variant"),
                       ({"variant": "haitian", "players": 9}, "bad_options"),
                       ({"variant": "haitian", "players": True}, "bad_options"),
                       ({"variant": "haitian", "options": {"target": -3}}, "bad_options"),
                       ({"variant": "haitian", "options": []}, "bad_options")):
        reply = await server.http.post("/api/quick", json=body, headers=auth(token))
        assert reply.status_code == 422 and reply.json()["code"] == code, (body, reply.text)
    reply = await server.http.post("/api/quick", json={"variant": "haitian"})
    assert reply.status_code == 401 and reply.json()["code"] == "bad_token"


async def test_a_public_table_starts_by_itself_once_full_with_everyone_here(
    server: Server,
) -> None:
    tokens = await guests(server, 4)
    table = await server.open_table(tokens[0], variant="partnership", public=True)
    host, _ = await server.connect(table["code"], tokens[0])
    for token in tokens[1:3]:
        await server.join(token, table["code"])
    reply = await server.http.post(f"/api/tables/{table['code']}/join",
                                   headers=auth(tokens[3]))
    # Full, but seats 1 to 3 have no socket open yet: it waits for its people.
    assert reply.status_code == 200 and reply.json()["table"]["status"] == "waiting"
    for token in tokens[1:3]:
        _, welcome = await server.connect(table["code"], token)
        assert welcome["table"]["status"] == "waiting"
    last = server.socket(table["code"])
    last.send({"type": "hello", "token": tokens[3]})
    await last.until("welcome")
    started = await host.until("update", timeout=5)
    while not any(e.get("kind") == "started" for e in started["events"]):
        started = await host.until("update", timeout=5)
    assert started["table"]["status"] == "playing" and started["view"]["hand"]
    assert all(s["connected"] for s in started["table"]["seats"])
    assert started["view"]["clock"]["away"] is False


async def test_a_private_table_waits_for_its_host_when_full(server: Server) -> None:
    tokens = await guests(server, 2)
    table = await server.open_table(tokens[0], variant="haitian", players=2)
    await server.join(tokens[1], table["code"])
    summary = (await server.http.get(f"/api/tables/{table['code']}")).json()
    assert summary["status"] == "waiting"


async def test_the_lobby_lists_waiting_tables_fullest_first_then_the_oldest(
    server: Server,
) -> None:
    tokens = await guests(server, 7)
    one = await server.open_table(tokens[0], variant="partnership", public=True)
    await server.advance(1)  # "oldest" is by the moment of opening
    two = await server.open_table(tokens[1], variant="partnership", public=True)
    await server.join(tokens[2], two["code"])
    await server.advance(1)
    later = await server.open_table(tokens[3], variant="partnership", public=True)
    full = await server.open_table(tokens[4], variant="haitian", players=2, public=True)
    await server.join(tokens[5], full["code"])
    for token in tokens[4:6]:  # it starts once its people are here
        sock, _ = await server.connect(full["code"], token)
    while (await sock.until("update"))["table"]["status"] != "playing":
        pass
    found = await lobby(server)
    assert [t["code"] for t in found["waiting"]] == [two["code"], one["code"], later["code"]]
    assert [t["code"] for t in found["playing"]] == [full["code"]]
    assert found["playing"][0]["status"] == "playing"
    assert all(t["public"] and "watchers" in t for t in found["waiting"] + found["playing"])
    only = await lobby(server, "haitian")
    assert (only["waiting"], [t["code"] for t in only["playing"]]) == ([], [full["code"]])


async def test_the_lobby_counts_people_online_once_each(server: Server) -> None:
    tokens = await guests(server, 3)
    assert (await lobby(server))["people_online"] == 0
    first = await server.open_table(tokens[0], variant="partnership", public=True)
    second = await server.open_table(tokens[0], variant="partnership")
    await server.join(tokens[1], first["code"])
    await server.connect(first["code"], tokens[0])
    await server.connect(first["code"], tokens[0])  # a second tab
    await server.connect(second["code"], tokens[0])  # another table
    await server.connect(first["code"], tokens[1])
    assert (await lobby(server))["people_online"] == 2


async def test_private_tables_never_appear_in_the_lobby(server: Server) -> None:
    tokens = await guests(server, 3)
    private = await server.open_table(tokens[0], variant="partnership")
    await server.open_table(tokens[1], variant="haitian", players=2, watch=True)
    public = await server.open_table(tokens[2], variant="partnership", public=True)
    found = await lobby(server)
    listed = {t["code"] for t in found["waiting"] + found["playing"]}
    assert listed == {public["code"]} and private["code"] not in str(found)


async def test_the_lobby_lists_at_most_fifty_of_each(server: Server) -> None:
    (token,) = await guests(server, 1)
    for _ in range(52):
        await server.open_table(token, variant="partnership", public=True)
    found = await lobby(server)
    assert len(found["waiting"]) == 50


async def test_the_lobby_of_an_unknown_variant_is_404_bad_variant(server: Server) -> None:
    reply = await server.http.get("/api/lobby", params={"variant": "chess"})
    assert reply.status_code == 404 and reply.json()["code"] == "bad_variant"


async def test_a_quick_seat_counts_as_a_table_only_when_it_opens_one(tmp_path: Path) -> None:
    edge = Edge(rate_limits=True, guests_per_minute=100, tables_per_minute=1)
    async with running(sqlite_url(tmp_path), edge=edge) as server:
        tokens = await guests(server, 3)
        await quick(server, tokens[0], variant="partnership")
        await quick(server, tokens[0], variant="partnership")  # the same seat: no table
        await quick(server, tokens[1], variant="partnership")
        reply = await server.http.post("/api/quick", headers=auth(tokens[0]),
                                       json={"variant": "haitian"})
        assert reply.status_code == 429 and reply.json()["code"] == "slow_down"
        await quick(server, tokens[2], variant="haitian")


async def test_simultaneous_quick_seats_in_one_process_land_at_one_table(
    server: Server,
) -> None:
    tokens = await guests(server, 4)
    answers = await asyncio.gather(*(quick(server, t, variant="partnership") for t in tokens))
    assert len({a["table"]["code"] for a in answers}) == 1
    assert sorted(a["seat"] for a in answers) == [0, 1, 2, 3]


async def test_a_restart_keeps_public_and_watch(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    async with running(url) as server:
        tokens = await guests(server, 2)
        public = await server.open_table(tokens[0], variant="partnership", public=True,
                                         watch=False)
        private = await server.open_table(tokens[1], variant="haitian", watch=True)
        seated = await quick(server, tokens[1], variant="partnership")
    async with running(url) as server:
        again = (await server.http.get(f"/api/tables/{public['code']}")).json()
        assert (again["public"], again["watch"]) == (True, False)
        other = (await server.http.get(f"/api/tables/{private['code']}")).json()
        assert (other["public"], other["watch"]) == (False, True)
        assert [t["code"] for t in (await lobby(server))["waiting"]] == [public["code"]]
        assert seated["table"]["code"] == public["code"]


async def test_the_lobby_is_read_once_a_second_however_many_ask(
    server: Server, monkeypatch: Any
) -> None:
    # GET /api/lobby needs no token: a stranger asking without end must not cost a walk of
    # every table each time (docs/server.md, "The lobby and quick seats").
    kept: Lobby = server.app.state.lobby
    reads: list[str | None] = []
    real = kept.listings

    async def counted(variant: str | None, waiting_only: bool = False) -> list[Listing]:
        reads.append(variant)
        return await real(variant, waiting_only)

    monkeypatch.setattr(kept, "listings", counted)
    for _ in range(30):
        await lobby(server)
    await lobby(server, "plaza")
    assert reads == [None, "plaza"]
    await server.advance(FRESH_SECONDS)
    await lobby(server)
    assert reads == [None, "plaza", None]
    # A public table opened here drops the kept answers: it is listed at once.
    (token,) = await guests(server, 1)
    table = await server.open_table(token, variant="plaza", public=True)
    assert [t["code"] for t in (await lobby(server, "plaza"))["waiting"]] == [table["code"]]
    assert reads == [None, "plaza", None, "plaza"]


async def test_a_public_table_opened_or_joined_is_in_the_lobby_at_once(server: Server) -> None:
    (host, other) = await guests(server, 2)
    assert (await lobby(server))["waiting"] == []
    table = await server.open_table(host, variant="partnership", public=True)
    waiting = (await lobby(server))["waiting"]
    assert [(t["code"], sum(s is not None for s in t["seats"])) for t in waiting] == [
        (table["code"], 1)]
    await server.join(other, table["code"])
    waiting = (await lobby(server))["waiting"]
    assert [sum(s is not None for s in t["seats"]) for t in waiting] == [2]
