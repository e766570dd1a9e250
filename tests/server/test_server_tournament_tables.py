"""A tournament's tables (PROTOCOL.md, "Tournaments"): each starts by itself once all its
people are connected, or ``tournament_wait_seconds`` after its round began with the absent
played for by the away clock, that moment read from the stored round (a restart does not
give a fresh wait); its summary names the tournament and the round; a pairing's table is
opened once however often its opening is done again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import Server, auth, fresh, running, settle, sqlite_url
from test_server_tournaments import create, enter, until_doc

from kabes.server.common.config import Settings
from kabes.server.table.clock import FakeClock

SETTINGS = Settings(computer_delay=0.0, expert_budget=0.02, hint_budget=0.02,
                    tournament_wait_seconds=60.0)


async def two_entrants(server: Server) -> tuple[str, dict[int, str], dict[str, Any]]:
    """A plaza tournament of two entrants, started; its id, the tokens by player, and the
    document once round 1's table is open."""
    _, host = await server.guest("Host")
    tid = (await create(server, host, variant="plaza", options={"target": 50},
                        rounds=1)).json()["id"]
    tokens: dict[int, str] = {}
    for name in ("Anne", "Bo"):
        player, token = await server.guest(name)
        tokens[player] = token
        await enter(server, token, tid)
    started = await server.http.post(f"/api/tournaments/{tid}/start", headers=auth(host))
    assert started.status_code == 200, started.text
    doc = await until_doc(server, tid, lambda d: d["pairings"][0][0]["table"])
    return tid, tokens, doc


async def table(server: Server, code: str) -> dict[str, Any]:
    reply = await server.http.get(f"/api/tables/{code}")
    assert reply.status_code == 200, reply.text
    summary: dict[str, Any] = reply.json()
    return summary


async def test_a_tournament_table_starts_when_all_its_people_are_connected(
    tmp_path: Path
) -> None:
    async with running(sqlite_url(tmp_path), SETTINGS) as server:
        tid, tokens, doc = await two_entrants(server)
        code = doc["pairings"][0][0]["table"]
        summary = await table(server, code)
        assert (summary["status"], summary["tournament"], summary["round"]) == (
            "waiting", tid, 1)
        first, second = (tokens[s["player"]] for s in summary["seats"])
        sock, welcome = await server.connect(code, first)
        assert welcome["table"]["tournament"] == tid
        sock.send({"type": "start", "id": "s"})
        refused = await sock.until("error", id="s")
        assert refused["code"] == "not_now"
        assert (await table(server, code))["status"] == "waiting"
        await server.connect(code, second)
        await settle()
        assert (await table(server, code))["status"] == "playing"


async def test_a_tournament_table_starts_after_the_wait_with_the_absent_on_the_away_clock(
    tmp_path: Path
) -> None:
    async with running(sqlite_url(tmp_path), SETTINGS) as server:
        _, tokens, doc = await two_entrants(server)
        code = doc["pairings"][0][0]["table"]
        seats = (await table(server, code))["seats"]
        sock, _ = await server.connect(code, tokens[seats[0]["player"]])
        await server.advance(59)
        assert (await table(server, code))["status"] == "waiting"
        await server.advance(2)
        assert (await table(server, code))["status"] == "playing"
        update = await fresh(sock)
        if update["view"]["turn"] == 0:  # the present seat moves; then the absent one's turn
            sock.send({"type": "play", "id": "m", "move": update["view"]["legal"][0]})
            await sock.until("ack", id="m")
            update = await fresh(sock)
        clock = update["view"]["clock"]
        assert (clock["seat"], clock["away"]) == (1, True)
        assert clock["total_ms"] == round(SETTINGS.away_seconds * 1000)


async def test_the_wait_counts_from_the_rounds_start_across_a_restart(tmp_path: Path) -> None:
    url, clock = sqlite_url(tmp_path), FakeClock()
    async with running(url, SETTINGS, clock) as server:
        _, _, doc = await two_entrants(server)
        code = doc["pairings"][0][0]["table"]
        await server.advance(40)
    async with running(url, SETTINGS, clock) as server:
        await server.advance(15)
        assert (await table(server, code))["status"] == "waiting"
        await server.advance(6)
        assert (await table(server, code))["status"] == "playing"


async def test_another_table_names_no_tournament(tmp_path: Path) -> None:
    async with running(sqlite_url(tmp_path), SETTINGS) as server:
        _, token = await server.guest()
        summary = await server.open_table(token, variant="plaza")
        assert (summary["tournament"], summary["round"]) == (None, None)


async def test_a_pairings_table_opened_again_is_the_same_table(tmp_path: Path) -> None:
    """A process that died half way through opening a round is completed by the next one:
    the table of a pairing has one code, so opening it again seats nobody twice."""
    async with running(sqlite_url(tmp_path), SETTINGS) as server:
        tid, _, doc = await two_entrants(server)
        runner = server.app.state.tournament_rounds
        state = await runner.service.state(tid)
        again = [await runner._open(state, 1, 0) for _ in range(2)]
        assert again == [doc["pairings"][0][0]["table"]] * 2
        seats = (await table(server, again[0]))["seats"]
        assert [s["player"] for s in seats] == [p for e in doc["entrants"]
                                                for p in e["players"]]


async def test_a_tournament_seat_cannot_be_left_before_the_match_starts(tmp_path: Path) -> None:
    """A freed seat would keep the table from ever starting, and the round with it."""
    async with running(sqlite_url(tmp_path), SETTINGS) as server:
        _, tokens, doc = await two_entrants(server)
        code = doc["pairings"][0][0]["table"]
        seats = (await table(server, code))["seats"]
        sock, _ = await server.connect(code, tokens[seats[0]["player"]])
        sock.send({"type": "leave", "id": "l"})
        refused = await sock.until("error", id="l")
        assert refused["code"] == "not_now"
        assert [s["player"] for s in (await table(server, code))["seats"]] == [
            s["player"] for s in seats]


async def test_a_rounds_table_opens_full_in_one_entry(tmp_path: Path) -> None:
    """A free code's table is written once, its entrants seated in its ``created`` entry
    (a round of 500 tables is 500 writes, not 1,000), and read back the same."""
    url = sqlite_url(tmp_path)
    async with running(url, SETTINGS) as server:
        _, _, doc = await two_entrants(server)
        code = doc["pairings"][0][0]["table"]
        entries = await server.app.state.services.store.load(code)
        assert [e.kind for e in entries] == ["created"]
        seated = [s["player"] for s in (await table(server, code))["seats"]]
        assert seated == [p for e in doc["entrants"] for p in e["players"]]
    async with running(url, SETTINGS) as server:
        assert [s["player"] for s in (await table(server, code))["seats"]] == seated


async def test_a_tournament_table_nobody_comes_to_starts_then_is_abandoned_and_the_round_ends(
    tmp_path: Path
) -> None:
    # With --abandon-seconds below the wait, the table must not close before its start (a
    # closed table never ends its match, and the round would wait for ever): it starts at
    # its time, is then abandoned, and the round records a match nobody won.
    settings = Settings(computer_delay=0.0, expert_budget=0.02, hint_budget=0.02,
                        tournament_wait_seconds=60.0, abandon_seconds=30.0)
    async with running(sqlite_url(tmp_path), settings) as server:
        tid, _, doc = await two_entrants(server)
        code = doc["pairings"][0][0]["table"]
        await server.advance(31)
        assert (await table(server, code))["status"] == "waiting"
        await server.advance(30)
        await settle()
        assert (await table(server, code))["status"] == "over"
        record = (await server.http.get(f"/api/tables/{code}/record")).json()
        assert record["result"]["abandoned"] is True
        done = await until_doc(server, tid, lambda d: d["status"] == "over")
        assert (done["pairings"][0][0]["status"], done["pairings"][0][0]["winner"]) == (
            "over", None)
