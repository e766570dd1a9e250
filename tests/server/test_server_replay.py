"""``GET /api/tables/{code}/replay?hand=N`` (docs/protocol.md, beside the record): one finished
hand, position by position, every hand face up, the positions the engine gives when the
table's record is replayed; a match in play shows its finished hands only, and nothing of the
hand in progress; no such table or hand is 404 ``not_found``, a ``hand`` that is no number 422.

A person plays against the computer over the app's socket; the replay is read over HTTP as a
stranger reads it (no token)."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

from harness import Server, Socket, fresh, running, sqlite_url

from kabes.match import Match
from kabes.records import replay
from kabes.server.http.replay_api import KEPT, KEPT_BYTES, Replays
from kabes.views import view as seat_view

_ids = itertools.count()


async def act(sock: Socket, kind: str, **fields: Any) -> dict[str, Any]:
    """Send an action; its ack or error."""
    action = f"r{next(_ids)}"
    sock.send({"type": kind, "id": action, **fields})
    while True:
        message = await sock.recv()
        if message["type"] in ("ack", "error") and message.get("id") == action:
            return message


TOKENS: dict[int, str] = {}
"""The token of each person seated by :func:`against_computer`, by player."""


async def against_computer(server: Server) -> tuple[str, Socket]:
    """A started table of haitian: a person at seat 0, the computer at seat 1."""
    player, token = await server.guest("Wilna")
    TOKENS[player] = token
    code = (await server.open_table(token, variant="haitian", players=2,
                                    computers={"1": "beginner"}))["code"]
    sock, _ = await server.connect(code, token)
    assert (await act(sock, "start"))["type"] == "ack"
    return code, sock


async def play(sock: Socket, moves: int | None = None) -> dict[str, Any]:
    """Play the first legal tile at each of our turns, ``moves`` of them or until the hand
    ends; the last update."""
    made = 0
    for _ in range(2000):
        update = await fresh(sock)
        if update["table"]["status"] != "playing" or (moves is not None and made >= moves):
            return update
        if update["view"]["turn"] == 0 and update["view"]["legal"]:
            assert (await act(sock, "play", move=update["view"]["legal"][0]))["type"] == "ack"
            made += 1
        else:
            await asyncio.sleep(0.01)
    raise AssertionError("the hand did not end")


def engine_lines(record: dict[str, Any], number: int) -> list[list[str] | None]:
    """Hand ``number``'s line after the deal and after each move, as the engine gives it
    replaying the record (seat 0's view: the line is the same for every seat)."""
    held: list[Match] = []
    lines: list[list[str] | None] = []
    started = 0

    def step(events: list[Any]) -> None:
        nonlocal started
        if any(e.kind == "hand_started" for e in events):
            started += 1
        if started == number and len(lines) <= len(record["hands"][number - 1]["moves"]):
            line = seat_view(held[0], 0).line
            lines.append(None if line is None else [f"{a}-{b}" for a, b in line])

    replay({**record, "hands": record["hands"][:number], "result": None}, step, held.append)
    return lines


async def test_a_finished_hand_replays_as_the_engine_gives_it_and_a_hand_in_play_never_shows(
    tmp_path: Path,
) -> None:
    async with running(sqlite_url(tmp_path)) as server:
        code, sock = await against_computer(server)
        ended = await play(sock)
        assert ended["table"]["status"] == "between_hands"
        record = (await server.http.get(f"/api/tables/{code}/record")).json()
        assert len(record["hands"]) == 1

        answer = await server.http.get(f"/api/tables/{code.lower()}/replay?hand=1")
        assert answer.status_code == 200, answer.text
        hand = answer.json()
        assert (hand["hands"], hand["hand"], hand["over"]) == (1, 1, False)
        assert hand["moves"] == record["hands"][0]["moves"]
        positions = hand["positions"]
        assert len(positions) == len(hand["moves"]) + 1
        assert [p["view"]["line"] for p in positions] == engine_lines(record, 1)
        assert sorted(positions[0]["hands"][0]) == sorted(record["hands"][0]["deal"][0])
        assert all(p["view"]["seat"] is None and p["view"]["hand"] == [] for p in positions)
        assert positions[-1]["view"]["last_hand"]["explanation"], "the counts, explained"
        assert all(p["view"]["last_hand"] is None for p in positions[:-1])

        # The next hand in play: the replay still holds the finished hand only.
        assert (await act(sock, "next_hand"))["type"] == "ack"
        now = await play(sock, moves=2)
        assert now["view"]["hand_number"] == 2
        again = (await server.http.get(f"/api/tables/{code}/replay?hand=1")).json()
        assert again == hand
        missing = await server.http.get(f"/api/tables/{code}/replay?hand=2")
        assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
        mine = sorted(now["view"]["hand"])
        seen = {tuple(sorted(h)) for p in again["positions"] for h in p["hands"]}
        assert tuple(mine) not in seen, "nothing of the hand in progress"


async def test_no_table_no_hand_and_a_hand_that_is_no_number_are_refused(
    tmp_path: Path,
) -> None:
    async with running(sqlite_url(tmp_path)) as server:
        for path in ("/api/tables/NOSUCH1/replay", "/api/tables/ZZZZZZ/replay?hand=1"):
            answer = await server.http.get(path)
            assert (answer.status_code, answer.json()["code"]) == (404, "not_found"), path
        code, _ = await against_computer(server)
        answer = await server.http.get(f"/api/tables/{code}/replay?hand=1")
        assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
        for bad in ("0", "x", "-1", "\u0661", "99999999"):  # \u0661: an Arabic-Indic one
            answer = await server.http.get(f"/api/tables/{code}/replay", params={"hand": bad})
            assert (answer.status_code, answer.json()["code"]) == (422, "bad_message"), bad


async def test_a_player_reviews_their_own_moves_of_a_finished_hand_and_nobody_elses(
    tmp_path: Path,
) -> None:
    async with running(sqlite_url(tmp_path)) as server:
        code, sock = await against_computer(server)
        await play(sock)
        own = next(s for s in (await server.http.get(f"/api/tables/{code}")).json()["seats"]
                   if s["kind"] == "person")
        path = f"/api/tables/{code}/review?hand=1"
        nobody = await server.http.post(path)
        assert (nobody.status_code, nobody.json()["code"]) == (401, "bad_token")
        _, stranger = await server.guest("Passant")
        other = await server.http.post(path, headers={"Authorization": f"Bearer {stranger}"})
        assert (other.status_code, other.json()["code"]) == (403, "not_seated")
        mine = {"Authorization": f"Bearer {TOKENS[own['player']]}"}
        answer = await server.http.post(path, headers=mine)
        assert answer.status_code == 200, answer.text
        review = answer.json()
        assert (review["type"], review["hand"]) == ("review", 1)
        for move in review["moves"]:
            assert move["view"]["seat"] == 0 and move["played"] != move["better"]
        assert (await server.http.post(path, headers=mine)).json() == review, "kept"
        missing = await server.http.post(f"/api/tables/{code}/review?hand=2", headers=mine)
        assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


async def test_a_match_against_people_is_reviewed_only_once_over(tmp_path: Path) -> None:
    async with running(sqlite_url(tmp_path)) as server:
        _, host = await server.guest("Host")
        _, guest = await server.guest("Guest")
        code = (await server.open_table(host, variant="haitian", players=2))["code"]
        assert await server.join(guest, code) == 1
        sock, _ = await server.connect(code, host)
        await server.connect(code, guest)
        assert (await act(sock, "start"))["type"] == "ack"
        answer = await server.http.post(f"/api/tables/{code}/review?hand=1",
                                        headers={"Authorization": f"Bearer {host}"})
        assert (answer.status_code, answer.json()["code"]) == (409, "no_hints")


def test_the_hands_kept_are_bounded_in_number_and_bytes() -> None:
    kept = Replays()
    for n in range(KEPT + 10):
        kept.keep(("digest", n), b"x" * 10)
    assert len(kept.kept) == KEPT and kept.get(("digest", 0)) is None
    assert kept.get(("digest", KEPT + 9)) == b"x" * 10
    kept.keep(("huge", 1), b"x" * (KEPT_BYTES + 1))
    assert kept.get(("huge", 1)) is None, "a body over the whole budget is never kept"
    for n in range(4):
        kept.keep(("big", n), b"y" * (KEPT_BYTES // 3))
    assert kept.size <= KEPT_BYTES and kept.get(("big", 0)) is None
    assert kept.get(("big", 3)) is not None
