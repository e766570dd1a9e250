"""PROTOCOL.md from the outside, in process: every HTTP endpoint and its errors, every socket
message, every host action, bad input of every kind, retried action ids, several sockets for a
seat, oversized and flooding sockets, and the added ``leave`` action.

Each test states one rule of the protocol. A test that sends something refused checks that the
refusal names the problem and that nothing changed: the next ``sync`` shows the same ``seq``,
summary and view as the one before.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Server, Socket, auth, fresh, running, sqlite_url

from kabes.errors import KabesError
from kabes.match import Match
from kabes.records import replay
from kabes.rules import VARIANTS
from kabes.server.common.config import Settings

NAMES = ["Roselène", "Jacmel", "Ti Jak", "Manno", "Fritz"]

VIEW_FIELDS = {
    "variant", "players", "seat", "hand_number", "hand", "counts", "stock", "turn", "legal",
    "line", "ends", "trains", "engine", "open_double", "passes", "draws", "scores",
    "hands_played", "clock", "pause", "last_hand", "result",
}
"""The VIEW fields PROTOCOL.md requires."""

SUMMARY_FIELDS = {"code", "variant", "players", "options", "host", "status", "seats"}
SEAT_FIELDS = {"seat", "name", "player", "kind", "level", "connected"}

_ids = itertools.count()


# Helpers -----------------------------------------------------------------------------------


def new_id() -> str:
    """A fresh action id (ids are never reused by accident: a reused id is a retry)."""
    return f"a{next(_ids)}"


async def answer(sock: Socket, action_id: str) -> dict[str, Any]:
    """The ack, error or hint that answers ``action_id``."""
    while True:
        message = await sock.recv()
        if message["type"] in ("ack", "error", "hint") and message.get("id") == action_id:
            return message


async def act(
    sock: Socket, kind: str, action_id: str | None = None, **fields: Any
) -> dict[str, Any]:
    """Send an action; its answer."""
    action_id = action_id or new_id()
    sock.send({"type": kind, "id": action_id, **fields})
    return await answer(sock, action_id)


def same_state(before: dict[str, Any], after: dict[str, Any]) -> None:
    """Two syncs show the same table: nothing changed in between."""
    assert after["seq"] == before["seq"]
    assert after["table"] == before["table"]
    assert after["view"] == before["view"]


def http_error(reply: httpx.Response, status: int, code: str) -> str:
    """Check an HTTP error: its status, and a body of exactly code and message; the message."""
    assert reply.status_code == status, reply.text
    body = reply.json()
    assert set(body) == {"code", "message"}, body
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    return str(body["message"])


@dataclass
class Seated:
    """A table of people, each with one socket."""

    code: str
    players: list[int]
    tokens: list[str]
    socks: list[Socket]
    welcomes: list[dict[str, Any]]


async def seat_people(
    server: Server, count: int = 2, variant: str = "haitian", start: bool = False, **body: Any
) -> Seated:
    """A table of ``count`` people (the first is host), every seat taken and connected."""
    players, tokens = [], []
    for n in range(count):
        player, token = await server.guest(NAMES[n])
        players.append(player)
        tokens.append(token)
    summary = await server.open_table(tokens[0], variant=variant, players=count, **body)
    code = summary["code"]
    for token in tokens[1:]:
        await server.join(token, code)
    socks, welcomes = [], []
    for token in tokens:
        sock, welcome = await server.connect(code, token)
        socks.append(sock)
        welcomes.append(welcome)
    if start:
        started = await act(socks[0], "start")
        assert started["type"] == "ack", started
    return Seated(code, players, tokens, socks, welcomes)


async def at_seq(sock: Socket, seq: int) -> dict[str, Any]:
    """The socket's update for change ``seq`` (already received, or read on until it comes)."""
    message: dict[str, Any]
    for message in reversed(sock.log):
        if message["type"] == "update" and message["seq"] == seq:
            return message
    return await sock.until("update", seq=seq)


async def play_turn(socks: list[Socket], seq: int | None = None) -> dict[str, Any]:
    """The seat to move (after change ``seq``, else now) plays its first legal move; the ack.
    Views are read from the updates every seat is sent, so a whole hand costs each socket
    only its own plays (a socket may send at most 100 messages a second)."""
    if seq is None:
        seq = (await fresh(socks[0]))["seq"]
    turn = (await at_seq(socks[0], seq))["view"]["turn"]
    assert turn is not None, "nobody is to move"
    mine = await at_seq(socks[turn], seq)
    acked = await act(socks[turn], "play", move=mine["view"]["legal"][0])
    assert acked["type"] == "ack", acked
    return acked


async def play_out_hand(socks: list[Socket]) -> dict[str, Any]:
    """Every person plays its first legal move until the hand ends; the update after it."""
    seq = (await fresh(socks[0]))["seq"]
    while True:
        update = await at_seq(socks[0], seq)
        if update["table"]["status"] != "playing":
            return update
        seq = (await play_turn(socks, seq))["seq"]


async def until_view(sock: Socket, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first update, from now on, for which ``done(update)`` holds (computer seats move
    on their own; every change after the sync comes as an update)."""
    update = await fresh(sock)
    while not done(update):
        update = await sock.until("update")
    return update


async def sockets_open(server: Server, count: int) -> None:
    """Wait until the server holds ``count`` sockets: a socket's end has then reached its
    table, so a sync sent after this is handled after it."""
    for _ in range(1000):
        if (await server.http.get("/healthz")).json()["connections"] == count:
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"the server never came down to {count} sockets")


# Identity ----------------------------------------------------------------------------------


async def test_new_guest_gets_201_with_trimmed_name_id_and_long_token(server: Server) -> None:
    reply = await server.http.post("/api/guests", json={"name": "  Roselène \t"})
    assert reply.status_code == 201
    body = reply.json()
    assert set(body) == {"player", "name", "token"}
    assert body["name"] == "Roselène"
    assert isinstance(body["player"], int)
    assert len(body["token"]) >= 22  # 128 bits in URL-safe base64
    other = (await server.http.post("/api/guests", json={"name": "Roselène"})).json()
    assert other["player"] != body["player"] and other["token"] != body["token"]


async def test_names_of_1_and_24_characters_are_accepted(server: Server) -> None:
    for name in ("R", "x" * 24, "Ti Jak 🎲"):
        reply = await server.http.post("/api/guests", json={"name": name})
        assert reply.status_code == 201, name
        assert reply.json()["name"] == name


@pytest.mark.parametrize(
    "body",
    [
        {"name": ""},
        {"name": "   "},
        {"name": "x" * 25},
        {"name": "Ros\x00elène"},
        {"name": "Ros\x07"},
        {"name": "Ros\nelène"},
        {"name": "Ros\u0085e"},
        {"name": 5},
        {"name": None},
        {},
    ],
    ids=["empty", "spaces", "25-chars", "nul", "bell", "newline", "c1-control", "number",
         "null", "missing"],
)
async def test_bad_names_are_refused_with_bad_name(server: Server, body: dict[str, Any]) -> None:
    reply = await server.http.post("/api/guests", json=body)
    http_error(reply, 422, "bad_name")


@pytest.mark.parametrize("raw", [b"not json", b'{"name": "Ros"', b'["Ros"]', b'"Ros"'])
async def test_guest_body_that_is_not_a_json_object_is_bad_message(
    server: Server, raw: bytes
) -> None:
    reply = await server.http.post(
        "/api/guests", content=raw, headers={"Content-Type": "application/json"}
    )
    http_error(reply, 422, "bad_message")


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer not-a-token"}, {"Authorization": "Bearer "},
     {"Authorization": "Basic cm9zOmVsZW5l"}],
    ids=["missing", "unknown", "empty", "basic"],
)
async def test_me_without_a_known_token_is_401_bad_token(
    server: Server, headers: dict[str, str]
) -> None:
    await server.guest()
    reply = await server.http.get("/api/me", headers=headers)
    http_error(reply, 401, "bad_token")


# Opening tables ----------------------------------------------------------------------------


async def test_a_new_table_fills_in_defaults_and_lists_every_option(server: Server) -> None:
    player, token = await server.guest("Roselène")
    for variant in ("plaza", "mexican-train", "partnership"):
        rules = VARIANTS[variant]
        summary = await server.open_table(token, variant=variant)
        assert set(summary) >= SUMMARY_FIELDS
        assert summary["variant"] == variant
        assert summary["players"] == rules.default_players
        specs = rules.option_specs(rules.default_players)
        assert set(summary["options"]) == set(specs)
        for name, spec in specs.items():
            assert summary["options"][name] == spec.default, (variant, name)
        assert summary["host"] == 0
        assert summary["status"] == "waiting"
        assert len(summary["seats"]) == rules.default_players
        host = summary["seats"][0]
        assert set(host) >= SEAT_FIELDS
        assert (host["seat"], host["name"], host["player"], host["kind"], host["level"]) == (
            0, "Roselène", player, "person", None)
        assert summary["seats"][1:] == [None] * (rules.default_players - 1)
        assert len(summary["code"]) >= 7
        again = (await server.http.get(f"/api/tables/{summary['code']}")).json()
        assert again == summary


async def test_a_table_code_is_seven_symbols_or_more_and_read_in_any_case(server: Server) -> None:
    _, token = await server.guest()
    code = (await server.open_table(token, variant="plaza"))["code"]
    assert code.isalnum() and code == code.upper()
    assert len(code) >= 7  # 7 symbols of an alphabet of 20 or more: over 30 bits
    _, friend = await server.guest("Jacmel")
    reply = await server.http.post(f"/api/tables/{code.lower()}/join", headers=auth(friend))
    assert reply.status_code == 200 and reply.json()["seat"] == 1
    assert (await server.http.get(f"/api/tables/{code.lower()}")).json()["code"] == code


async def test_given_options_are_kept_and_the_rest_defaulted(server: Server) -> None:
    _, token = await server.guest()
    summary = await server.open_table(
        token, variant="plaza", players=2, options={"target": 200, "capicu_bonus": 25}
    )
    specs = VARIANTS["plaza"].option_specs(2)
    assert summary["options"] == {
        **{name: spec.default for name, spec in specs.items()}, "target": 200, "capicu_bonus": 25,
    }


@pytest.mark.parametrize(
    ("body", "open_ended"),
    [
        ({"variant": "haitian", "players": 2}, True),
        ({"variant": "haitian", "players": 4}, True),
        ({"variant": "haitian-partners"}, True),
        ({"variant": "haitian", "players": 2, "computers": {"1": "expert"}}, False),
        ({"variant": "haitian-partners", "computers": {"2": "casual"}}, False),
        ({"variant": "haitian", "players": 2, "options": {"open_ended": False}}, False),
        ({"variant": "haitian", "players": 2, "options": {"open_ended": True},
          "computers": {"1": "beginner"}}, True),
    ],
    ids=["haitian-people", "haitian-4-people", "partners-people", "haitian-computer",
         "partners-computer", "host-says-closed", "host-says-open-with-computer"],
)
async def test_haitian_tables_of_people_are_open_ended_unless_the_host_says_otherwise(
    server: Server, body: dict[str, Any], open_ended: bool
) -> None:
    _, token = await server.guest()
    summary = await server.open_table(token, **body)
    assert summary["options"]["open_ended"] is open_ended


@pytest.mark.parametrize("variant", ["chess", "Haitian", "", 5, None])
async def test_an_unknown_variant_is_bad_variant(server: Server, variant: Any) -> None:
    _, token = await server.guest()
    body: dict[str, Any] = {"players": 2}
    if variant is not None:
        body["variant"] = variant
    reply = await server.http.post("/api/tables", json=body, headers=auth(token))
    message = http_error(reply, 422, "bad_variant")
    assert "haitian" in message  # names the variants there are


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("plaza", 2, {"target": 7}),
        ("plaza", 2, {"colour": "blue"}),
        ("plaza", 5, {}),
        ("haitian", 2, {"open_ended": "yes"}),
        ("mexican-train", 9, {}),
    ],
    ids=["bad-target", "unknown-option", "bad-seat-count", "bad-type", "too-many"],
)
async def test_bad_options_are_refused_with_the_engines_reason(
    server: Server, variant: str, players: int, options: dict[str, Any]
) -> None:
    _, token = await server.guest()
    with pytest.raises(KabesError) as engine:
        Match(variant, players, options)
    reply = await server.http.post(
        "/api/tables", json={"variant": variant, "players": players, "options": options},
        headers=auth(token),
    )
    assert http_error(reply, 422, "bad_options") == engine.value.message


@pytest.mark.parametrize(
    "body",
    [{"variant": "plaza", "players": "two"}, {"variant": "plaza", "players": True},
     {"variant": "plaza", "options": [1, 2]}],
    ids=["players-text", "players-bool", "options-list"],
)
async def test_malformed_players_or_options_are_bad_options(
    server: Server, body: dict[str, Any]
) -> None:
    _, token = await server.guest()
    reply = await server.http.post("/api/tables", json=body, headers=auth(token))
    http_error(reply, 422, "bad_options")


@pytest.mark.parametrize(
    "computers",
    [
        {"1": "grandmaster"},
        {"1": 3},
        {"0": "expert"},
        {"4": "expert"},
        {"x": "expert"},
        {"-1": "expert"},
        {" 1": "expert"},
        {"\u00b2": "expert"},
        ["expert"],
    ],
    ids=["unknown-level", "level-number", "seat-0", "seat-too-high", "seat-word",
         "seat-negative", "seat-spaced", "seat-superscript-digit", "not-a-map"],
)
async def test_bad_computer_levels_or_seats_are_bad_level(
    server: Server, computers: Any
) -> None:
    _, token = await server.guest()
    reply = await server.http.post(
        "/api/tables", json={"variant": "haitian", "players": 4, "computers": computers},
        headers=auth(token),
    )
    http_error(reply, 422, "bad_level")


async def test_computers_at_a_partnership_table_are_people_only(server: Server) -> None:
    _, token = await server.guest()
    reply = await server.http.post(
        "/api/tables", json={"variant": "partnership", "computers": {"1": "expert"}},
        headers=auth(token),
    )
    http_error(reply, 422, "people_only")


async def test_computer_seats_show_in_the_summary(server: Server) -> None:
    _, token = await server.guest()
    summary = await server.open_table(
        token, variant="haitian", players=3, computers={"2": "expert"}
    )
    seat = summary["seats"][2]
    assert (seat["seat"], seat["kind"], seat["level"], seat["player"]) == (
        2, "computer", "expert", None)
    assert summary["seats"][1] is None


async def test_opening_a_table_needs_a_known_token(server: Server) -> None:
    for headers in ({}, auth("forged")):
        reply = await server.http.post("/api/tables", json={"variant": "plaza"}, headers=headers)
        http_error(reply, 401, "bad_token")


@pytest.mark.parametrize("code", ["ZZZZZZZ", "nope", "A" * 40])
async def test_an_unknown_table_is_404_not_found(server: Server, code: str) -> None:
    _, token = await server.guest()
    http_error(await server.http.get(f"/api/tables/{code}"), 404, "not_found")
    http_error(await server.http.get(f"/api/tables/{code}/record"), 404, "not_found")
    reply = await server.http.post(f"/api/tables/{code}/join", headers=auth(token))
    http_error(reply, 404, "not_found")


# Joining -----------------------------------------------------------------------------------


async def test_people_take_the_lowest_free_seat_in_order_of_arrival(server: Server) -> None:
    _, host = await server.guest("Roselène")
    summary = await server.open_table(
        host, variant="haitian", players=4, computers={"2": "casual"}
    )
    code = summary["code"]
    b_player, b = await server.guest("Jacmel")
    c_player, c = await server.guest("Ti Jak")
    reply = await server.http.post(f"/api/tables/{code}/join", headers=auth(b))
    assert reply.status_code == 200
    body = reply.json()
    assert body["seat"] == 1
    assert body["table"]["seats"][1]["player"] == b_player
    assert await server.join(c, code) == 3
    table = (await server.http.get(f"/api/tables/{code}")).json()
    assert [s["kind"] for s in table["seats"]] == ["person", "person", "computer", "person"]
    assert [s["player"] for s in table["seats"]][3] == c_player


async def test_joining_again_returns_the_same_seat(server: Server) -> None:
    _, host = await server.guest()
    code = (await server.open_table(host, variant="haitian", players=3))["code"]
    _, b = await server.guest("Jacmel")
    assert await server.join(b, code) == 1
    assert await server.join(b, code) == 1
    assert await server.join(host, code) == 0
    table = (await server.http.get(f"/api/tables/{code}")).json()
    assert table["seats"][2] is None


async def test_a_full_table_refuses_with_409_table_full(server: Server) -> None:
    _, host = await server.guest()
    code = (await server.open_table(host, variant="plaza"))["code"]
    _, b = await server.guest("Jacmel")
    _, c = await server.guest("Ti Jak")
    await server.join(b, code)
    reply = await server.http.post(f"/api/tables/{code}/join", headers=auth(c))
    http_error(reply, 409, "table_full")


async def test_joining_after_the_start_is_409_started_but_a_seated_player_keeps_its_seat(
    server: Server,
) -> None:
    table = await seat_people(server, 2, start=True)
    _, late = await server.guest("Fritz")
    reply = await server.http.post(f"/api/tables/{table.code}/join", headers=auth(late))
    http_error(reply, 409, "started")
    assert await server.join(table.tokens[1], table.code) == 1


async def test_joining_needs_a_known_token(server: Server) -> None:
    _, host = await server.guest()
    code = (await server.open_table(host, variant="plaza"))["code"]
    reply = await server.http.post(f"/api/tables/{code}/join", headers=auth("forged"))
    http_error(reply, 401, "bad_token")
    reply = await server.http.post(f"/api/tables/{code}/join")
    http_error(reply, 401, "bad_token")


# Records and rankings ----------------------------------------------------------------------


async def test_the_record_never_holds_the_hand_in_progress(server: Server) -> None:
    table = await seat_people(server, 2, start=True)
    url = f"/api/tables/{table.code}/record"
    record = (await server.http.get(url)).json()
    assert record["hands"] == []
    await play_turn(table.socks)
    assert (await server.http.get(url)).json()["hands"] == []
    ended = await play_out_hand(table.socks)
    assert ended["table"]["status"] == "between_hands"
    record = (await server.http.get(url)).json()
    assert len(record["hands"]) == 1
    shown = ended["view"]["last_hand"]["result"]
    assert record["hands"][0]["result"] == shown
    assert (await act(table.socks[0], "next_hand"))["type"] == "ack"
    await play_turn(table.socks)
    record = (await server.http.get(url)).json()
    assert len(record["hands"]) == 1


async def test_after_the_match_the_record_is_the_whole_match_and_replays(server: Server) -> None:
    table = await seat_people(server, 2, start=True)
    await play_out_hand(table.socks)
    assert (await act(table.socks[0], "next_hand"))["type"] == "ack"
    await play_out_hand(table.socks)
    assert (await act(table.socks[0], "finish"))["type"] == "ack"
    over = await fresh(table.socks[1])
    assert over["table"]["status"] == "over"
    record = (await server.http.get(f"/api/tables/{table.code}/record")).json()
    assert len(record["hands"]) == 2
    assert all(hand["result"] is not None for hand in record["hands"])
    assert record["result"]["finished"] is True
    assert record["result"] == over["view"]["result"]
    match = replay(record)
    assert match.current_result().to_json() == record["result"]
    for hand, log in zip(record["hands"], match.log, strict=True):
        assert log.result is not None
        assert log.result.to_json() == {k: hand["result"][k] for k in log.result.to_json()}


async def every_rated(server: Server, variant: str) -> list[dict[str, Any]]:
    """The rankings' rows of every player with a rated hand of ``variant`` (the page lists
    only those with 10 or more: store.rankings)."""
    rows: list[dict[str, Any]] = await server.app.state.services.store.rankings(
        variant, least_hands=1)
    return rows


async def play_one_hand_and_finish(server: Server, table: Seated) -> dict[str, Any]:
    """Play a hand at an open-ended table, then the host finishes the match; the last update."""
    ended = await play_out_hand(table.socks)
    assert ended["table"]["status"] == "between_hands"
    assert (await act(table.socks[0], "finish"))["type"] == "ack"
    return await fresh(table.socks[0])


async def test_hands_at_a_table_of_people_move_ratings_and_count_hands_and_matches(
    server: Server,
) -> None:
    table = await seat_people(server, 2, start=True)
    over = await play_one_hand_and_finish(server, table)
    winner = over["view"]["last_hand"]["result"]["winner"]
    assert winner in (0, 1)
    loser = 1 - winner
    assert over["view"]["result"]["winners"] == [winner]
    ranking = (await server.http.get("/api/rankings/haitian")).json()
    assert ranking == {"variant": "haitian", "rows": []}, "ranked only after 10 rated hands"
    ranking["rows"] = await every_rated(server, "haitian")
    rows = {row["player"]: row for row in ranking["rows"]}
    assert set(rows) == set(table.players)
    for row in ranking["rows"]:
        assert {"player", "name", "rating", "hands", "hands_won", "matches",
                "matches_won"} <= set(row)
    won, lost = rows[table.players[winner]], rows[table.players[loser]]
    assert ranking["rows"][0]["player"] == table.players[winner]  # best first
    assert won["rating"] > lost["rating"]
    assert won["rating"] != 0.0 and lost["rating"] != 0.0  # a fresh rating shows as 0
    assert (won["hands"], won["hands_won"], won["matches"], won["matches_won"]) == (1, 1, 1, 1)
    assert (lost["hands"], lost["hands_won"], lost["matches"], lost["matches_won"]) == (1, 0, 1, 0)
    assert won["name"] == NAMES[winner]
    page = (await server.http.get(f"/api/players/{table.players[winner]}",
                                  headers=auth(table.tokens[winner]))).json()
    assert page["player"] == table.players[winner]
    assert page["name"] == NAMES[winner]
    assert page["ratings"] == {"haitian": won["rating"]}
    ((at, rating),) = page["history"]["haitian"]  # [[time_ms, rating]], one rated hand
    assert list(page["history"]) == ["haitian"]
    assert isinstance(at, int) and abs(at - time.time() * 1000) < 600_000, "time in ms"
    assert rating == won["rating"], "each point is the rating after the hand, as in rankings"
    assert [(m["code"], m["variant"], m["finished"], m["won"]) for m in page["matches"]] == [
        (table.code, "haitian", True, True)]
    other = (await server.http.get(f"/api/players/{table.players[loser]}",
                                   headers=auth(table.tokens[loser]))).json()
    assert [(m["code"], m["won"]) for m in other["matches"]] == [(table.code, False)]


async def test_every_finished_hand_counts_even_before_the_match_ends(server: Server) -> None:
    table = await seat_people(server, 2, start=True)
    await play_out_hand(table.socks)
    rows = await every_rated(server, "haitian")
    assert sorted((r["hands"], r["matches"]) for r in rows) == [(1, 0), (1, 0)]
    assert sum(r["hands_won"] for r in rows) == 1


async def test_a_partnership_hand_rates_both_partners_of_each_team_alike(server: Server) -> None:
    table = await seat_people(server, 4, variant="partnership", start=True)
    ended = await play_out_hand(table.socks)
    assert ended["table"]["status"] == "between_hands"
    team = ended["view"]["last_hand"]["result"]["winner"]
    assert team in (0, 1)
    rows = {r["player"]: r for r in await every_rated(server, "partnership")}
    assert set(rows) == set(table.players)
    winners = [rows[table.players[team]], rows[table.players[team + 2]]]
    losers = [rows[table.players[1 - team]], rows[table.players[3 - team]]]
    assert [(r["hands"], r["hands_won"]) for r in winners] == [(1, 1), (1, 1)]
    assert [(r["hands"], r["hands_won"]) for r in losers] == [(1, 0), (1, 0)]
    assert winners[0]["rating"] == winners[1]["rating"] > losers[0]["rating"] == losers[1][
        "rating"]


async def test_players_pages_list_matches_newest_first(server: Server) -> None:
    table = await seat_people(server, 2, start=True)
    await play_one_hand_and_finish(server, table)
    second = await server.open_table(table.tokens[0], variant="plaza")
    await server.join(table.tokens[1], second["code"])
    sock, _ = await server.connect(second["code"], table.tokens[0])
    assert (await act(sock, "start"))["type"] == "ack"
    page = (await server.http.get(f"/api/players/{table.players[0]}",
                                  headers=auth(table.tokens[0]))).json()
    assert [(m["code"], m["finished"]) for m in page["matches"]] == [
        (second["code"], False), (table.code, True)]


async def test_hands_at_a_table_with_a_computer_seat_never_count(server: Server) -> None:
    player, token = await server.guest()
    summary = await server.open_table(
        token, variant="haitian", players=2, options={"open_ended": True},
        computers={"1": "beginner"},
    )
    sock, _ = await server.connect(summary["code"], token)
    assert (await act(sock, "start"))["type"] == "ack"
    while True:
        update = await until_view(
            sock, lambda u: u["table"]["status"] != "playing" or u["view"]["turn"] == 0
        )
        if update["table"]["status"] != "playing":
            break
        assert (await act(sock, "play", move=update["view"]["legal"][0]))["type"] == "ack"
    assert (await act(sock, "finish"))["type"] == "ack"
    assert (await fresh(sock))["view"]["result"]["finished"] is True
    assert (await server.http.get("/api/rankings/haitian")).json()["rows"] == []
    page = (await server.http.get(f"/api/players/{player}")).json()
    assert page["ratings"] == {}
    assert page["history"] == {}


async def test_rankings_of_an_unknown_variant_and_an_unknown_player_are_refused(
    server: Server,
) -> None:
    http_error(await server.http.get("/api/rankings/chess"), 404, "bad_variant")
    http_error(await server.http.get("/api/players/99999"), 404, "not_found")
    http_error(await server.http.get("/api/players/abc"), 404, "not_found")  # no such id


# Operations --------------------------------------------------------------------------------


async def test_healthz_says_ok_with_tables_and_connections(server: Server) -> None:
    table = await seat_people(server, 2)
    reply = await server.http.get("/healthz")
    assert reply.status_code == 200
    body = reply.json()
    assert body["ok"] is True
    assert body["tables"] == 1
    assert body["connections"] == len(table.socks)


def metric(text: str, name: str) -> float:
    """The value of the sample ``name`` (with its labels) in a Prometheus text page."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    raise AssertionError(f"no sample {name} in /metrics")


async def test_metrics_show_tables_connections_moves_latency_and_think_time(
    server: Server,
) -> None:
    table = await seat_people(server, 2, start=True)
    await play_turn(table.socks)
    _, token = await server.guest()
    await server.open_table(token, variant="plaza")
    reply = await server.http.get("/metrics")
    assert reply.status_code == 200
    text = reply.text
    assert metric(text, 'kabes_tables{status="playing"}') == 1.0
    assert metric(text, 'kabes_tables{status="waiting"}') == 1.0
    assert metric(text, "kabes_connections") == 2.0
    assert metric(text, "kabes_moves_total") == 1.0
    assert metric(text, 'kabes_action_seconds_count{type="play"}') == 1.0
    assert "# TYPE kabes_computer_think_seconds histogram" in text


async def test_metrics_count_computer_think_time(server: Server) -> None:
    _, token = await server.guest()
    summary = await server.open_table(
        token, variant="haitian", players=3, computers={"1": "casual", "2": "beginner"}
    )
    sock, _ = await server.connect(summary["code"], token)
    assert (await act(sock, "start"))["type"] == "ack"
    update = await fresh(sock)
    if update["view"]["turn"] == 0:  # we hold the highest double: we lead, then they move
        assert (await act(sock, "play", move=update["view"]["legal"][0]))["type"] == "ack"
    await until_view(sock, lambda u: any(seat != 0 for seat, _ in u["view"]["played"]))
    text = (await server.http.get("/metrics")).text
    assert metric(text, "kabes_computer_think_seconds_count") >= 1.0


async def test_openapi_document_lists_the_api(server: Server) -> None:
    reply = await server.http.get("/openapi.json")
    assert reply.status_code == 200
    paths = reply.json()["paths"]
    for path in ("/api/guests", "/api/me", "/api/tables", "/api/tables/{code}",
                 "/api/tables/{code}/join", "/api/tables/{code}/record",
                 "/api/rankings/{variant}", "/api/players/{player}"):
        assert path in paths, path


async def test_every_operation_in_the_openapi_document_has_its_own_id(server: Server) -> None:
    """A client generator names its functions by operation id: two alike collide."""
    reply = await server.http.get("/openapi.json")
    ids = [op["operationId"] for methods in reply.json()["paths"].values()
           for op in methods.values()]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    card = await server.http.head("/api/previews/kabes.png")
    assert card.status_code == 200 and card.headers["content-type"] == "image/png"


async def test_every_http_error_body_is_exactly_code_and_message(server: Server) -> None:
    http_error(await server.http.get("/api/no-such-thing"), 404, "not_found")
    http_error(await server.http.delete("/api/guests"), 405, "bad_message")
    http_error(await server.http.post("/api/guests", content=b"x" * 20000), 413, "bad_message")


# The socket: hello -------------------------------------------------------------------------


async def test_hello_with_an_unknown_token_is_bad_token_then_closed_4401(server: Server) -> None:
    table = await seat_people(server, 2)
    sock = server.socket(table.code)
    sock.send({"type": "hello", "token": "forged"})
    refused = await sock.recv()
    assert refused["type"] == "error" and refused["code"] == "bad_token"
    assert refused["id"] is None and refused["message"]
    assert await sock.closed() == 4401


async def test_hello_from_a_player_not_seated_here_is_not_seated_then_closed_4401(
    server: Server,
) -> None:
    table = await seat_people(server, 2)
    other = await seat_people(server, 2)
    _, stranger = await server.guest("Fritz")
    for token in (stranger, other.tokens[1]):
        sock = server.socket(table.code)
        sock.send({"type": "hello", "token": token})
        refused = await sock.recv()
        assert refused["type"] == "error" and refused["code"] == "not_seated"
        assert await sock.closed() == 4401
    before = await fresh(table.socks[0])
    assert before["seq"] == table.welcomes[1]["seq"]  # a waiting table logs no connecting


async def test_actions_before_hello_are_bad_message_and_the_socket_stays(server: Server) -> None:
    table = await seat_people(server, 2)
    sock = server.socket(table.code)
    sock.send({"type": "start", "id": "early"})
    refused = await sock.recv()
    assert (refused["type"], refused["id"], refused["code"]) == ("error", "early", "bad_message")
    sock.send({"type": "hello", "token": table.tokens[0]})
    welcome = await sock.recv()
    assert welcome["type"] == "welcome"


async def test_hello_for_an_unknown_table_is_not_found_and_closed(server: Server) -> None:
    _, token = await server.guest()
    sock = server.socket("ZZZZZZZ")
    sock.send({"type": "hello", "token": token})
    refused = await sock.recv()
    assert refused["type"] == "error" and refused["code"] == "not_found"
    assert await sock.closed() == 4404


async def test_welcome_is_the_first_answer_and_carries_seq_seat_summary_and_view(
    server: Server,
) -> None:
    table = await seat_people(server, 2, start=True)
    sock = server.socket(table.code)
    sock.send({"type": "hello", "token": table.tokens[1]})
    welcome = await sock.recv()
    assert welcome["type"] == "welcome"
    assert welcome["seat"] == 1
    current = await fresh(table.socks[1])
    assert welcome["seq"] == current["seq"]
    assert welcome["table"] == current["table"]
    assert welcome["view"] == current["view"]
    assert set(welcome["table"]) >= SUMMARY_FIELDS
    view = welcome["view"]
    assert set(view) >= VIEW_FIELDS, VIEW_FIELDS - set(view)
    assert view["seat"] == 1 and view["variant"] == "haitian" and view["players"] == 2
    assert view["hand_number"] == 1 and len(view["hand"]) == 7
    assert view["counts"] == [7, 7] and view["stock"] == 14
    assert view["clock"] is not None and view["clock"]["seat"] == view["turn"]
    assert view["pause"] is None and view["last_hand"] is None and view["result"] is None
    assert view["trains"] == [] and view["engine"] is None
    assert (view["legal"] != []) == (view["turn"] == 1)


async def test_a_seat_coming_back_gets_its_welcome_first_then_the_update_of_its_return(
    server: Server,
) -> None:
    table = await seat_people(server, 2, start=True)
    table.socks[1].disconnect()
    gone = await until_event(table.socks[0], {"kind": "disconnected", "seat": 1})
    sock = server.socket(table.code)
    sock.send({"type": "hello", "token": table.tokens[1]})
    welcome = await sock.recv()
    assert welcome["type"] == "welcome" and welcome["seq"] == gone["seq"]
    back = await sock.recv()
    # Its going was logged; its return, so soon after, is told at once but held from the
    # log for the rest of the seat's 10 s (docs/protocol.md): the update repeats the seq.
    assert back["type"] == "update" and back["seq"] == welcome["seq"]
    assert back["events"] == [{"kind": "connected", "seat": 1}]
    assert back["table"]["seats"][1]["connected"] is True
    seen = await until_event(table.socks[0], {"kind": "connected", "seat": 1})
    assert seen["seq"] == back["seq"]


async def test_welcome_before_the_start_has_every_view_field(server: Server) -> None:
    table = await seat_people(server, 2)
    for welcome in table.welcomes:
        assert set(welcome["view"]) >= VIEW_FIELDS
        assert welcome["view"]["turn"] is None and welcome["view"]["legal"] == []
        assert welcome["view"]["clock"] is None and welcome["view"]["pause"] is None


async def test_welcome_at_mexican_train_shows_trains_and_engine(server: Server) -> None:
    _, token = await server.guest()
    summary = await server.open_table(
        token, variant="mexican-train", players=3, computers={"1": "casual", "2": "casual"}
    )
    sock, _ = await server.connect(summary["code"], token)
    assert (await act(sock, "start"))["type"] == "ack"
    again = server.socket(summary["code"])
    again.send({"type": "hello", "token": token})
    view = (await again.until("welcome"))["view"]
    assert set(view) >= VIEW_FIELDS
    assert view["line"] is None and view["ends"] is None
    assert view["engine"] is not None
    assert len(view["trains"]) >= 3
    for train in view["trains"]:
        assert {"owner", "tiles", "end", "marked"} <= set(train)


# The socket: updates and seq ---------------------------------------------------------------


async def test_every_change_raises_seq_by_one_with_the_same_seq_for_every_seat(
    server: Server,
) -> None:
    table = await seat_people(server, 2)
    a, b = table.socks
    await act(a, "start")
    for _ in range(4):
        await play_turn(table.socks)
    await server.advance(45)  # a clock running out is a change too
    await b.quiet()  # read what b was sent before it goes
    b.disconnect()  # and so is a seat going away (seen by the others)
    gone = await until_event(a, {"kind": "disconnected", "seat": 1})

    first_a, first_b = table.welcomes[0]["seq"], table.welcomes[1]["seq"]

    def changes(sock: Socket, first: int) -> dict[int, dict[str, Any]]:
        # Every change brings events; the answer to a sync has none. A connection change
        # that is not logged (docs/protocol.md) is told at the seq the table is at.
        out: dict[int, dict[str, Any]] = {}
        for m in sock.log:
            if m["type"] == "update" and m["events"]:
                if m["seq"] <= max(out, default=first):
                    assert all(e["kind"] in ("connected", "disconnected")
                               for e in m["events"]), m
                    continue
                out[m["seq"]] = m
        return out

    seen_a, seen_b = changes(a, first_a), changes(b, first_b)
    assert list(seen_a) == list(range(first_a + 1, gone["seq"] + 1))
    assert list(seen_b) == list(range(first_b + 1, gone["seq"]))
    for seq, update in seen_b.items():
        assert seen_a[seq]["table"] == update["table"]  # the same change for both seats
    syncs = [m for m in a.log if m["type"] == "update" and not m["events"]]
    assert syncs and all(m["seq"] in seen_a for m in syncs)  # a sync changes nothing


async def until_event(sock: Socket, event: dict[str, Any]) -> dict[str, Any]:
    """The next update whose events include ``event``."""
    while True:
        update = await sock.until("update")
        if event in update["events"]:
            return update


async def test_an_ack_names_the_seq_of_the_update_that_showed_the_move(server: Server) -> None:
    table = await seat_people(server, 2, start=True)
    turn = (await fresh(table.socks[0]))["view"]["turn"]
    mine = await fresh(table.socks[turn])
    move = mine["view"]["legal"][0]
    action_id = new_id()
    table.socks[turn].send({"type": "play", "id": action_id, "move": move})
    shown = await table.socks[turn].until("update")
    acked = await answer(table.socks[turn], action_id)
    assert acked == {"type": "ack", "id": action_id, "seq": shown["seq"]}
    assert shown["seq"] == mine["seq"] + 1
    assert shown["view"]["played"][-1] == [turn, move]
    assert any(e["kind"] == "played" and e["seat"] == turn for e in shown["events"])
    other = await table.socks[1 - turn].until("update", seq=shown["seq"])
    assert other["view"]["played"] == shown["view"]["played"]


async def test_sync_answers_a_fresh_update_then_an_ack(server: Server) -> None:
    table = await seat_people(server, 2, start=True)
    sock = table.socks[1]
    await sock.quiet()
    await table.socks[0].quiet()
    sock.send({"type": "sync", "id": "s1"})
    update = await sock.recv()
    acked = await sock.recv()
    assert update["type"] == "update" and update["events"] == []
    assert acked == {"type": "ack", "id": "s1", "seq": update["seq"]}
    assert set(update["view"]) >= VIEW_FIELDS
    assert update["view"]["seat"] == 1
    assert await table.socks[0].quiet() == []  # nobody else hears of it


# The socket: bad input ---------------------------------------------------------------------


BAD_MESSAGES = {
    "not-json": ("{'type': 'sync'", None),
    "empty": ("", None),
    "array": ('["sync"]', None),
    "string": ('"sync"', None),
    "no-type": ('{"id": "b1"}', "b1"),
    "unknown-type": ('{"type": "dance", "id": "b2"}', "b2"),
    "type-number": ('{"type": 5, "id": "b3"}', "b3"),
    "id-number": ('{"type": "sync", "id": 5}', None),
    "id-missing": ('{"type": "sync"}', None),
    "move-number": ('{"type": "play", "id": "b4", "move": 44}', "b4"),
    "move-missing": ('{"type": "play", "id": "b5"}', "b5"),
    "id-65-chars": (json.dumps({"type": "sync", "id": "i" * 65}), None),
    "hello-again": ('{"type": "hello", "token": "x"}', None),
}


@pytest.mark.parametrize("name", list(BAD_MESSAGES))
async def test_bad_messages_get_bad_message_and_change_nothing(
    server: Server, name: str
) -> None:
    text, action_id = BAD_MESSAGES[name]
    table = await seat_people(server, 2, start=True)
    sock = table.socks[0]
    before = await fresh(sock)
    await table.socks[1].quiet()
    sock.send_text(text)
    refused = await sock.recv()
    assert refused["type"] == "error"
    assert refused["code"] == "bad_message"
    assert refused["id"] == action_id
    assert refused["message"]
    same_state(before, await fresh(sock))
    assert await table.socks[1].quiet() == []


async def test_an_id_of_64_characters_is_accepted(server: Server) -> None:
    table = await seat_people(server, 2)
    acked = await act(table.socks[0], "sync", "i" * 64)
    assert acked["type"] == "ack"


async def test_playing_out_of_turn_is_not_your_turn(server: Server) -> None:
    table = await seat_people(server, 2, start=True)
    turn = (await fresh(table.socks[0]))["view"]["turn"]
    idle = table.socks[1 - turn]
    before = await fresh(idle)
    await table.socks[turn].quiet()
    tile = before["view"]["hand"][0]
    refused = await act(idle, "play", move=tile)
    assert refused["type"] == "error" and refused["code"] == "not_your_turn"
    same_state(before, await fresh(idle))
    assert await table.socks[turn].quiet() == []


@pytest.mark.parametrize("kind", ["timeout", "not-held", "no-such-tile", "garbage", "bad-side"])
async def test_illegal_moves_are_illegal_move_and_change_nothing(
    server: Server, kind: str
) -> None:
    table = await seat_people(server, 2, start=True)
    await play_turn(table.socks)  # past the lead, so a move needs an end
    turn = (await fresh(table.socks[0]))["view"]["turn"]
    sock = table.socks[turn]
    before = await fresh(sock)
    hand = before["view"]["hand"]
    every = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
    not_held = next(t for t in every if t not in hand and t not in before["view"]["line"])
    move = {
        "timeout": "timeout",
        "not-held": f"{not_held}@R",
        "no-such-tile": "7-9@L",
        "garbage": "hello",
        "bad-side": f"{hand[0]}@Q",
    }[kind]
    refused = await act(sock, "play", move=move)
    assert refused["type"] == "error" and refused["code"] == "illegal_move", refused
    assert refused["message"]
    same_state(before, await fresh(sock))


async def test_host_actions_from_another_seat_are_not_host(server: Server) -> None:
    table = await seat_people(server, 2)
    guest = table.socks[1]
    for moment in ("waiting", "playing", "between_hands"):
        if moment == "playing":
            assert (await act(table.socks[0], "start"))["type"] == "ack"
        if moment == "between_hands":
            await play_out_hand(table.socks)
        before = await fresh(guest)
        assert before["table"]["status"] == moment
        for kind in ("start", "next_hand", "finish"):
            refused = await act(guest, kind)
            assert refused["type"] == "error" and refused["code"] == "not_host", (moment, kind)
        same_state(before, await fresh(guest))


async def test_starting_with_a_free_seat_is_not_now(server: Server) -> None:
    _, token = await server.guest()
    code = (await server.open_table(token, variant="haitian", players=3))["code"]
    sock, _ = await server.connect(code, token)
    before = await fresh(sock)
    refused = await act(sock, "start")
    assert refused["type"] == "error" and refused["code"] == "not_now"
    assert "1" in refused["message"]  # names the free seat
    same_state(before, await fresh(sock))


async def test_starting_twice_is_not_now(server: Server) -> None:
    table = await seat_people(server, 2, start=True)
    before = await fresh(table.socks[0])
    refused = await act(table.socks[0], "start")
    assert refused["type"] == "error" and refused["code"] == "not_now"
    same_state(before, await fresh(table.socks[0]))


async def test_next_hand_during_a_hand_or_before_the_start_is_not_now(server: Server) -> None:
    table = await seat_people(server, 2)
    host = table.socks[0]
    for _ in range(2):
        before = await fresh(host)
        refused = await act(host, "next_hand")
        assert refused["type"] == "error" and refused["code"] == "not_now"
        same_state(before, await fresh(host))
        if before["table"]["status"] == "waiting":
            assert (await act(host, "start"))["type"] == "ack"


async def test_finish_during_a_hand_is_not_now(server: Server) -> None:
    table = await seat_people(server, 2, start=True)
    host = table.socks[0]
    before = await fresh(host)
    assert before["table"]["options"]["open_ended"] is True
    refused = await act(host, "finish")
    assert refused["type"] == "error" and refused["code"] == "not_now"
    same_state(before, await fresh(host))


async def test_finish_at_a_table_that_is_not_open_ended_is_not_now(server: Server) -> None:
    table = await seat_people(server, 2, options={"open_ended": False}, start=True)
    host = table.socks[0]
    await play_out_hand(table.socks)
    before = await fresh(host)
    assert before["table"]["status"] == "between_hands"
    refused = await act(host, "finish")
    assert refused["type"] == "error" and refused["code"] == "not_now"
    same_state(before, await fresh(host))


async def test_playing_before_the_start_is_not_now(server: Server) -> None:
    table = await seat_people(server, 2)
    before = await fresh(table.socks[0])
    refused = await act(table.socks[0], "play", move="6-6")
    assert refused["type"] == "error" and refused["code"] == "not_now"
    same_state(before, await fresh(table.socks[0]))


# Hints -------------------------------------------------------------------------------------


async def test_hints_at_a_table_with_another_person_are_no_hints(server: Server) -> None:
    table = await seat_people(server, 2, start=True)
    for sock in table.socks:  # the seat to move, and the other
        before = await fresh(sock)
        refused = await act(sock, "hint")
        assert refused["type"] == "error" and refused["code"] == "no_hints"
        same_state(before, await fresh(sock))


async def test_hints_at_a_table_with_a_computer_and_a_free_seat_are_no_hints(
    server: Server,
) -> None:
    _, token = await server.guest()
    code = (await server.open_table(
        token, variant="haitian", players=3, computers={"1": "casual"}))["code"]
    sock, _ = await server.connect(code, token)
    refused = await act(sock, "hint")
    assert refused["type"] == "error" and refused["code"] == "no_hints"


async def test_a_hint_against_computers_is_a_legal_move_with_a_reason(tmp_path: Path) -> None:
    settings = Settings(computer_delay=1.0, expert_budget=0.02, hint_budget=0.02)
    async with running(sqlite_url(tmp_path), settings) as server:
        _, token = await server.guest()
        code = (await server.open_table(
            token, variant="haitian", players=2, computers={"1": "expert"}))["code"]
        sock, _ = await server.connect(code, token)
        assert (await act(sock, "start"))["type"] == "ack"
        update = await fresh(sock)
        if update["view"]["turn"] == 1:  # the computer leads: it waits a (fake) second
            await server.advance(1)
            update = await until_view(sock, lambda u: u["view"]["turn"] == 0)
        hint = await act(sock, "hint", "h1")
        assert set(hint) == {"type", "id", "move", "reason"}
        assert hint["type"] == "hint" and hint["id"] == "h1"
        assert hint["move"] in update["view"]["legal"]
        assert isinstance(hint["reason"], str) and hint["reason"]
        same_state(update, await fresh(sock))  # a hint plays nothing
        assert (await act(sock, "play", move=hint["move"]))["type"] == "ack"
        waiting = await fresh(sock)
        assert waiting["view"]["turn"] == 1  # the computer waits a (fake) second to move
        refused = await act(sock, "hint")
        assert refused["type"] == "error" and refused["code"] == "not_your_turn"
        same_state(waiting, await fresh(sock))


# Retries -----------------------------------------------------------------------------------


async def test_a_retried_action_id_gets_the_first_answer_and_is_applied_once(
    server: Server,
) -> None:
    table = await seat_people(server, 2, start=True)
    turn = (await fresh(table.socks[0]))["view"]["turn"]
    sock = table.socks[turn]
    view = (await fresh(sock))["view"]
    first = await act(sock, "play", "m-1", move=view["legal"][0])
    assert first["type"] == "ack"
    after = await fresh(sock)
    again = await act(sock, "play", "m-1", move=view["legal"][0])
    assert again == first
    same_state(after, await fresh(sock))
    # Even a different move under the same id is the same action, already done.
    other = await fresh(table.socks[1 - turn])
    retried = await act(table.socks[1 - turn], "play", "m-1", move=other["view"]["legal"][0])
    assert retried["type"] == "ack" and retried["seq"] == other["seq"] + 1
    # ...but the same id from the other seat is that seat's own action.
    assert retried != first


async def test_a_retry_from_another_socket_of_the_same_seat_is_answered_not_applied(
    server: Server,
) -> None:
    table = await seat_people(server, 2)
    first = await act(table.socks[0], "start", "go")
    assert first["type"] == "ack"
    second, _ = await server.connect(table.code, table.tokens[0])
    before = await fresh(second)
    assert await act(second, "start", "go") == first
    same_state(before, await fresh(second))


async def test_a_retried_refused_action_gets_the_same_error_and_is_never_applied(
    server: Server,
) -> None:
    table = await seat_people(server, 2, start=True)
    turn = (await fresh(table.socks[0]))["view"]["turn"]
    idle = table.socks[1 - turn]
    tile = (await fresh(idle))["view"]["hand"][0]
    refused = await act(idle, "play", "early", move=tile)
    assert refused["code"] == "not_your_turn"
    await play_turn(table.socks)  # now it is the idle seat's turn
    now = await fresh(idle)
    assert now["view"]["turn"] == 1 - turn and now["view"]["legal"]
    again = await act(idle, "play", "early", move=now["view"]["legal"][0])
    assert again == refused
    same_state(now, await fresh(idle))


# Several sockets for one seat --------------------------------------------------------------


async def test_two_sockets_of_a_seat_both_get_every_update_and_errors_go_only_to_the_sender(
    server: Server,
) -> None:
    table = await seat_people(server, 2)
    first = table.socks[0]
    second, welcome = await server.connect(table.code, table.tokens[0])
    assert welcome["seat"] == 0
    await first.quiet()
    assert (await act(first, "start"))["type"] == "ack"
    for _ in range(3):
        await play_turn(table.socks)
    refused = await act(second, "next_hand")
    assert refused["code"] == "not_now"
    await server.advance(45)
    final = await fresh(table.socks[1])
    await first.quiet()
    await second.quiet()

    def changes(sock: Socket) -> list[tuple[int, Any]]:
        return [(m["seq"], m["view"]) for m in sock.log
                if m["type"] == "update" and m["events"] and m["seq"] > welcome["seq"]]

    assert changes(first) == changes(second)
    assert changes(first)[-1][0] == final["seq"]
    assert [m for m in first.log if m["type"] == "error"] == []
    assert [m for m in second.log if m["type"] == "error"] == [refused]


async def test_one_of_two_sockets_closing_leaves_the_seat_connected(server: Server) -> None:
    table = await seat_people(server, 2)
    second, _ = await server.connect(table.code, table.tokens[0])
    before = await fresh(table.socks[1])
    second.disconnect()
    await sockets_open(server, 2)
    after = await fresh(table.socks[1])
    same_state(before, after)
    assert after["table"]["seats"][0]["connected"] is True


# Oversized and flooding sockets ------------------------------------------------------------


async def test_a_message_over_4_kib_closes_that_socket_1009_and_the_table_carries_on(
    server: Server,
) -> None:
    table = await seat_people(server, 2, start=True)
    spare, _ = await server.connect(table.code, table.tokens[0])
    before = await fresh(table.socks[1])
    await table.socks[0].quiet()
    at_limit = json.dumps({"type": "sync", "id": "fits"})
    at_limit = at_limit[:-1] + " " * (4096 - len(at_limit)) + "}"
    assert len(at_limit.encode()) == 4096
    spare.send_text(at_limit)
    assert (await answer(spare, "fits"))["type"] == "ack"
    over = json.dumps({"type": "sync", "id": "big", "pad": "é" * 2100}, ensure_ascii=False)
    assert len(over.encode()) > 4096 and len(over) < 4096
    spare.send_text(over)
    assert await spare.closed() == 1009
    await sockets_open(server, 2)
    same_state(before, await fresh(table.socks[1]))
    assert await table.socks[0].quiet() == []
    acked = await play_turn(table.socks)
    for sock in table.socks:
        assert (await at_seq(sock, acked["seq"]))["view"]["played"]


async def test_the_101st_message_in_a_second_is_slow_down_then_close_1008_the_table_carries_on(
    server: Server,
) -> None:
    table = await seat_people(server, 2, start=True)
    spare, _ = await server.connect(table.code, table.tokens[0])  # its hello is message 1
    before = await fresh(table.socks[1])
    await table.socks[0].quiet()
    for n in range(100):
        spare.send({"type": "sync", "id": f"flood{n}"})
    assert await spare.closed() == 1008
    slowed = [m for m in spare.log if m.get("id") == "flood99"]  # the 101st
    assert [(m["type"], m.get("code")) for m in slowed] == [("error", "slow_down")]
    await sockets_open(server, 2)
    same_state(before, await fresh(table.socks[1]))
    assert await table.socks[0].quiet() == []
    # Seat 0's sockets together have just sent 100 actions (its start and the 99 read):
    # within this second its other socket would be refused slow_down (test_server_seat_sockets).
    await asyncio.sleep(1.05)
    acked = await play_turn(table.socks)
    for sock in table.socks:
        assert (await at_seq(sock, acked["seq"]))["view"]["played"]


async def test_100_messages_in_a_second_are_allowed(server: Server) -> None:
    table = await seat_people(server, 2)
    sock, _ = await server.connect(table.code, table.tokens[0])  # its hello is message 1
    for n in range(99):
        sock.send({"type": "sync", "id": f"many{n}"})
    assert (await answer(sock, "many98"))["type"] == "ack"
    assert await sock.quiet() == []
    assert sock.close_code is None


# Leaving -----------------------------------------------------------------------------------


async def test_leaving_before_the_start_frees_the_seat_for_the_next_arrival(
    server: Server,
) -> None:
    table = await seat_people(server, 3)
    leaver = table.socks[1]
    acked = await act(leaver, "leave")
    assert acked["type"] == "ack"
    assert await leaver.closed() == 4403  # PROTOCOL.md: left, closed 4403
    update = await table.socks[0].until("update", seq=acked["seq"])
    assert {"kind": "seat_left", "seat": 1} in update["events"]
    assert update["table"]["seats"][1] is None
    _, newcomer = await server.guest("Fritz")
    assert await server.join(newcomer, table.code) == 1
    sock = server.socket(table.code)
    sock.send({"type": "hello", "token": table.tokens[1]})
    refused = await sock.recv()
    assert refused["code"] == "not_seated"
    assert await sock.closed() == 4401


async def test_the_host_leaving_hands_the_table_to_the_person_who_sat_down_next(
    server: Server,
) -> None:
    table = await seat_people(server, 3)
    assert (await act(table.socks[1], "leave"))["type"] == "ack"
    _, late = await server.guest("Fritz")
    assert await server.join(late, table.code) == 1  # seat 1 again, but arrived after seat 2
    acked = await act(table.socks[0], "leave")
    assert acked["type"] == "ack"
    update = await table.socks[2].until("update", seq=acked["seq"])
    assert update["table"]["host"] == 2
    assert {"kind": "host_changed", "seat": 2} in update["events"]
    assert update["table"]["seats"][0] is None
    refused = await act(table.socks[2], "start")  # the new host may start, once seat 0 is taken
    assert refused["code"] == "not_now"
    _, last = await server.guest("Manno")
    assert await server.join(last, table.code) == 0
    late_sock, _ = await server.connect(table.code, late)
    assert (await act(late_sock, "start"))["code"] == "not_host"
    assert (await act(table.socks[2], "start"))["type"] == "ack"


async def test_the_host_leaving_after_the_start_hands_on_the_host_actions(server: Server) -> None:
    table = await seat_people(server, 3, start=True)
    acked = await act(table.socks[0], "leave")
    assert acked["type"] == "ack"
    update = await table.socks[1].until("update", seq=acked["seq"])
    assert update["table"]["host"] == 1
    assert update["table"]["seats"][0]["left"] is True
    assert update["table"]["status"] == "playing"
    refused = await act(table.socks[2], "next_hand")
    assert refused["code"] == "not_host"
    refused = await act(table.socks[1], "next_hand")
    assert refused["code"] == "not_now"  # the host now, but not between hands


async def test_a_seat_left_after_the_start_is_played_for_by_the_clock_rule(
    server: Server,
) -> None:
    table = await seat_people(server, 2, start=True)
    turn = (await fresh(table.socks[0]))["view"]["turn"]
    stayer = table.socks[turn]
    leaver = table.socks[1 - turn]
    acked = await act(leaver, "leave")
    assert acked["type"] == "ack"
    assert await leaver.closed() == 4403  # PROTOCOL.md: left, closed 4403
    mine = await fresh(stayer)
    assert (await act(stayer, "play", move=mine["view"]["legal"][0]))["type"] == "ack"
    now = await fresh(stayer)
    assert now["view"]["turn"] == 1 - turn
    ticking = now["view"]["clock"]
    assert (ticking["seat"], ticking["remaining_ms"], ticking["away"]) == (1 - turn, 5000, True)
    await server.advance(5)
    played = await fresh(stayer)
    assert played["seq"] == now["seq"] + 1
    assert played["view"]["played"][-1][0] == 1 - turn
    assert played["view"]["turn"] == turn
    sock = server.socket(table.code)
    sock.send({"type": "hello", "token": table.tokens[1 - turn]})
    assert (await sock.recv())["code"] == "not_seated"
