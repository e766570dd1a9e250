"""A player's page (PROTOCOL.md, "Rankings over HTTP" and "Players, replays and rankings";
issue 27): ``GET /api/players/{id}`` keeps its fields and adds each variant's counts
(``stats``, from rated hands and matches), each match's ``result`` in a word (won, lost,
abandoned, playing: a match in play never reads abandoned), its ``public`` flag, the others
at the table and the score; a public match's code is shown to anyone, a private one's only on
the player's own page; and the tournaments the player entered with their places. Matches are
played through the protocol on a real server, on SQLite and PostgreSQL; the migration that
adds what the page needs fills it in on a database kept before it."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from harness import Server, Socket, auth, running, settle
from sqlalchemy.ext.asyncio import create_async_engine
from stores import Backend, backend_fixture, store_fixture  # noqa: F401
from tournament_players import entrant, open_tournament
from wsclient import ServerProcess

from kabes.server.common.config import Settings
from kabes.server.store.store import MIGRATIONS, Store
from kabes.server.tournaments.store import TournamentStore
from kabes.table.effects import HandRated, MatchFinished, MatchStarted, TableStatus
from kabes.table.entries import Entry

ABANDON = Settings().abandon_seconds


@pytest.fixture
async def server(backend: Backend) -> AsyncIterator[Server]:
    """The real app on the test's store (SQLite, then PostgreSQL), with a fake clock."""
    async with running(backend.url) as srv:
        yield srv


async def page(server: Server, player: int, token: str | None = None) -> dict[str, Any]:
    reply = await server.http.get(f"/api/players/{player}",
                                  headers=auth(token) if token else {})
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()
    return found


async def record(server: Server, code: str) -> dict[str, Any]:
    found: dict[str, Any] = (await server.http.get(f"/api/tables/{code}/record")).json()
    return found


async def play_hand(server: Server, code: str, socks: dict[int, Socket]) -> None:
    """Every seat plays its first legal move until the hand is over."""
    table = server.hub.tables[code]
    for n in itertools.count():
        if table.state.status != "playing":
            return
        seat = table.state.turn
        sock = socks[seat]
        sock.send({"type": "play", "id": f"p{n}", "move": table.view_json(seat)["legal"][0]})
        await sock.until("ack", id=f"p{n}")


async def two_at_a_table(server: Server, public: bool = False
                         ) -> tuple[str, tuple[int, str], tuple[int, str], dict[int, Socket]]:
    """Roselène's 2-seat haitian table, Mireille at it, both connected, the match begun."""
    host = await server.guest("Roselène")
    friend = await server.guest("Mireille")
    code = (await server.open_table(host[1], variant="haitian", players=2, public=public,
                                    **({} if public else {"options": {"open_ended": True}}))
            )["code"]
    await server.join(friend[1], code)
    socks = {0: (await server.connect(code, host[1]))[0],
             1: (await server.connect(code, friend[1]))[0]}
    if not public:  # a public table starts by itself once everyone is here
        socks[0].send({"type": "start", "id": "s"})
        await socks[0].until("ack", id="s")
    for _ in range(100):
        if server.hub.tables[code].state.status == "playing":
            break
        await settle()
    assert server.hub.tables[code].state.status == "playing"
    return code, host, friend, socks


def row(found: dict[str, Any], variant: str = "haitian") -> dict[str, Any]:
    (match,) = [m for m in found["matches"] if m["variant"] == variant]
    return dict(match)


async def test_a_match_in_play_reads_playing_and_one_everyone_left_reads_abandoned(
    server: Server,
) -> None:
    code, (host, host_token), (friend, _), socks = await two_at_a_table(server)
    await play_hand(server, code, socks)
    hand = (await record(server, code))["hands"][0]["result"]
    mine = await page(server, host, host_token)
    match = row(mine)
    assert (match["result"], match["finished"], match["won"]) == ("playing", False, False)
    assert match["code"] == code and match["public"] is False
    assert match["opponents"] == [{"player": friend, "name": "Mireille", "computer": False}]
    assert match["partners"] == []
    assert match["score"] == {"own": hand["scores"][0], "others": [hand["scores"][1]]}, (
        "the score after the hand that ended")
    won = int(hand["winner"] == 0)
    assert mine["stats"] == {"haitian": {"hands": 1, "hands_won": won, "matches": 0,
                                         "matches_won": 0}}
    theirs = await page(server, friend)
    assert theirs["stats"]["haitian"]["hands_won"] == 1 - won
    assert row(theirs)["score"] == {"own": hand["scores"][1], "others": [hand["scores"][0]]}

    for sock in socks.values():
        sock.disconnect()
        await settle()
    await server.advance(ABANDON - 1)
    assert row(await page(server, host))["result"] == "playing", "not abandoned before its time"
    await server.advance(1)
    # The abandonment is written by the store's thread, which a busy machine may hold past
    # settle()'s moment: the page is asked again, for up to 5 s, until the row has moved on.
    for _ in range(500):
        if row(await page(server, host))["result"] != "playing":
            break
        await asyncio.sleep(0.01)
    for who in (host, friend):
        match = row(await page(server, who))
        assert (match["result"], match["finished"], match["won"]) == ("abandoned", True, False)
        assert match["score"] is not None
    assert (await page(server, host))["stats"]["haitian"]["matches"] == 0, (
        "an abandoned match counts in nobody's matches")


async def test_a_finished_match_reads_won_for_its_winner_and_lost_for_the_other(
    server: Server,
) -> None:
    code, (host, host_token), (friend, _), socks = await two_at_a_table(server)
    await play_hand(server, code, socks)
    socks[0].send({"type": "finish", "id": "f"})
    await socks[0].until("ack", id="f")
    result = (await record(server, code))["result"]
    assert result["finished"] is True and len(result["winners"]) == 1
    winner = result["winners"][0]
    pages = {0: await page(server, host, host_token), 1: await page(server, friend)}
    for seat, found in pages.items():
        match = row(found)
        word = "won" if seat == winner else "lost"
        assert (match["result"], match["won"], match["finished"]) == (word, seat == winner, True)
        assert match["score"] == {"own": result["scores"][seat],
                                  "others": [result["scores"][1 - seat]]}
        assert found["stats"]["haitian"]["matches"] == 1
        assert found["stats"]["haitian"]["matches_won"] == int(seat == winner)
        assert found["stats"]["haitian"]["hands"] == 1
    assert set(pages[0]) >= {"player", "name", "ratings", "history", "matches"}, (
        "every field of before is kept")


async def test_a_public_matchs_code_is_shown_to_anyone_a_private_ones_only_on_its_own_page(
    server: Server,
) -> None:
    public, (host, host_token), (friend, friend_token), _ = await two_at_a_table(
        server, public=True)
    private = (await server.open_table(host_token, variant="haitian", players=2))["code"]
    await server.join(friend_token, private)
    socks = {0: (await server.connect(private, host_token))[0],
             1: (await server.connect(private, friend_token))[0]}
    socks[0].send({"type": "start", "id": "s"})
    await socks[0].until("ack", id="s")
    lonely = (await server.open_table(host_token, variant="haitian", players=2,
                                      computers={"1": "beginner"}))["code"]
    solo, _ = await server.connect(lonely, host_token)
    solo.send({"type": "start", "id": "s"})
    await solo.until("ack", id="s")

    def codes(found: dict[str, Any]) -> dict[str, Any]:
        return {m["code"]: m["public"] for m in found["matches"]}

    stranger = await page(server, host)
    assert sorted(m["public"] for m in stranger["matches"]) == [False, False, True]
    assert {m["code"] for m in stranger["matches"] if m["public"]} == {public}
    assert all(m["code"] is None for m in stranger["matches"] if not m["public"])
    assert codes(await page(server, host, friend_token)) == codes(stranger), (
        "another player's token reads the public page")
    own = await page(server, host, host_token)
    assert codes(own) == {public: True, private: False, lonely: False}
    against = next(m for m in own["matches"] if m["code"] == lonely)
    assert against["opponents"] == [{"player": None, "name": None, "computer": True}]
    assert codes(await page(server, friend, friend_token)) == {public: True, private: False}
    reply = await server.http.get(f"/api/players/{friend}",
                                  headers=auth("an-unknown-token"))
    assert {m["code"] for m in reply.json()["matches"]} == {public, None}


# Tournaments --------------------------------------------------------------------------------


async def test_a_tournament_played_out_lists_each_entrants_place_and_hides_a_private_id(
    tmp_path: Path, backend: Backend,
) -> None:
    server = ServerProcess(tmp_path, "--computer-delay", "0", "--turn-seconds", "10",
                           "--pause-seconds", "0", "--tournament-wait-seconds", "20",
                           "--workers", "1", "--rate-limits", "off")
    server.db = backend.url
    await server.start()
    try:
        async with httpx.AsyncClient(base_url=server.base, trust_env=False,
                                     timeout=10.0) as http:
            tid, host, tokens = await open_tournament(
                http, 4, variant="plaza", fmt="knockout", options={"target": 50})
            for player, token in tokens.items():  # entered, not begun: no place yet
                found = (await http.get(f"/api/players/{player}", headers=auth(token))).json()
                assert [(t["id"], t["status"], t["place"], t["of"])
                        for t in found["tournaments"]] == [(tid, "open", None, None)]
            started = await http.post(f"/api/tournaments/{tid}/start", headers=auth(host))
            assert started.status_code == 200, started.text
            await asyncio.wait_for(asyncio.gather(*(
                entrant(server.base, tid, p, t) for p, t in tokens.items())), 240)
            doc = (await http.get(f"/api/tournaments/{tid}")).json()
            assert doc["status"] == "over"
            members = {e["entrant"]: e["players"] for e in doc["entrants"]}
            places = {}
            for player, token in tokens.items():
                own = (await http.get(f"/api/players/{player}", headers=auth(token))).json()
                (tour,) = own["tournaments"]
                assert (tour["id"], tour["variant"], tour["status"], tour["of"]) == (
                    tid, "plaza", "over", 4)
                assert tour["host_name"] == "Host" and tour["public"] is False
                places[player] = tour["place"]
                other = (await http.get(f"/api/players/{player}")).json()["tournaments"]
                assert [(t["id"], t["place"]) for t in other] == [(None, tour["place"])], (
                    "a private tournament's id only on one's own page; the place for all")
            assert sorted(places.values()) == [1, 2, 3, 4]
            winner = members[doc["winner"]][0]
            assert places[winner] == 1, "the knockout's winner is first"
            final = next(p for p in doc["pairings"][-1] if p["table"])
            loser = next(n for n in final["entrants"] if n != doc["winner"])
            assert places[members[loser][0]] == 2, "the final's loser second"
            host_page = (await http.get(f"/api/players/{doc['host']}",
                                        headers=auth(host))).json()
            assert host_page["tournaments"] == [], "hosting is not entering"
    finally:
        server.kill()


# The migration ------------------------------------------------------------------------------


def _migrate(connection: sa.Connection, target: str, up: bool) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    (command.upgrade if up else command.downgrade)(config, target)


def _entry(seq: int, kind: str = "move", data: dict[str, Any] | None = None) -> Entry:
    return Entry(seq, kind, data or {"seq": seq}, 1_700_000_000.0 + seq, 0, f"a{seq}")


async def test_the_migration_fills_in_a_database_kept_before_it(backend: Backend) -> None:
    store = Store(backend.url)
    await store.open()
    try:
        a = await store.create_guest("Anne", "token-anne")
        b = await store.create_guest("Bòs", "token-bos")
        for code, public, abandoned in (("PUBLICM", True, False), ("PRIVATM", False, True)):
            await store.append(code, _entry(1, "created", {"public": public}),
                               [TableStatus(code, "waiting")])
            await store.append(code, _entry(2), [
                MatchStarted(code, "haitian", 2, [(0, a), (1, b)], True, public,
                             [(a, "Anne"), (b, "Bòs")])])
            await store.append(code, _entry(3), [
                HandRated("haitian", [[a], [b]], [1, 2], [a])])
            result: dict[str, Any] = {"finished": not abandoned,
                                      "winners": [] if abandoned else [0],
                                      "scores": [40, 12], "kochon": False}
            if abandoned:
                result["abandoned"] = True
            await store.append(code, _entry(4), [MatchFinished(
                code, "haitian", [] if abandoned else [a], {"result": result}, True, [a, b])])
        tournaments = TournamentStore(store)
        await tournaments.create("TOURNEY", a, True, {"variant": "plaza", "name": "Anne"})
        await tournaments.append("TOURNEY", 1, [
            ("entered", {"player": b, "name": "Bòs", "partner": None})], "open")
        before = await store.player(a, own=True)
    finally:
        await store.close()
    assert before is not None
    engine = create_async_engine(backend.url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_migrate, "0008", False)
        async with engine.begin() as conn:
            columns = await conn.run_sync(
                lambda c: {col["name"] for col in sa.inspect(c).get_columns("matches")})
            assert "public" not in columns and "abandoned" not in columns
            tables = await conn.run_sync(lambda c: set(sa.inspect(c).get_table_names()))
            assert "tournament_players" not in tables
    finally:
        await engine.dispose()

    again = Store(backend.url)
    await again.open()  # upgrades to the head, filling in
    try:
        after = await again.player(a, own=True)
        stranger = await again.player(a)
        bos = await again.player(b)
    finally:
        await again.close()
    assert after is not None and stranger is not None and bos is not None
    assert [m["code"] for m in after["matches"]] == [m["code"] for m in before["matches"]] == [
        "PRIVATM", "PUBLICM"], "newest first, by the start each player's row is given"
    by_code = {m["code"]: m for m in after["matches"]}
    assert by_code["PUBLICM"]["public"] is True and by_code["PRIVATM"]["public"] is False
    assert by_code["PUBLICM"]["result"] == "won"
    assert by_code["PRIVATM"]["result"] == "abandoned"
    assert by_code["PRIVATM"]["score"] == {"own": 40, "others": [12]}
    assert by_code["PUBLICM"]["opponents"] == [
        {"player": b, "name": "Bòs", "computer": False}], "read from the match's players"
    assert [m["code"] for m in stranger["matches"]].count("PUBLICM") == 1
    assert [m["code"] for m in stranger["matches"]].count(None) == 1
    assert after["stats"] == before["stats"]
    assert after["history"] == before["history"]
    assert [(t["id"], t["variant"], t["host_name"], t["place"]) for t in bos["tournaments"]] == [
        ("TOURNEY", "plaza", "Anne", None)]
