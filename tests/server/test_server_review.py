"""The ``review`` action (docs/server.md): the hand just ended, reviewed for the asking seat
by the expert in the worker processes, while the tables go on.

A person plays against computer seats, choosing its lightest legal tile every time (holding
its heavy tiles, which the expert seldom agrees with); the review's moves are checked against
the table's own record, and each position against the view the person was sent at that move.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from harness import Server, Socket, fresh, running, sqlite_url

from kabes.ai.review import decisions
from kabes.match import Match
from kabes.records import replay, to_record
from kabes.server.common.config import Settings
from kabes.server.compute import computers
from kabes.server.table.actor import Table
from kabes.table import wire
from kabes.views import view

FAST = Settings(computer_delay=0.0, expert_budget=0.02, hint_budget=0.02, review_budget=0.02)
"""Computers answer at once and the expert thinks briefly: the review's shape, not its skill."""

_ids = itertools.count()
_sent: dict[int, deque[float]] = {}
"""When each socket sent its last messages, to keep under 100 messages a second."""
RATE = 90
"""Messages a test socket sends within any second at most."""


def new_id() -> str:
    """A fresh action id."""
    return f"r{next(_ids)}"


async def send(sock: Socket, message: dict[str, Any]) -> None:
    """Send ``message``, waiting first if the socket would go over RATE messages a second
    (the server closes a socket that sends over 100)."""
    sent = _sent.setdefault(id(sock), deque())
    now = time.monotonic()
    while sent and now - sent[0] > 1.0:
        sent.popleft()
    if len(sent) >= RATE:
        await asyncio.sleep(1.0 - (now - sent[0]) + 0.01)
    sent.append(time.monotonic())
    sock.send(message)


async def answer(sock: Socket, action_id: str, timeout: float = 30.0) -> dict[str, Any]:
    """The ack, error, hint or review that answers ``action_id``."""
    while True:
        message = await sock.recv(timeout)
        if message["type"] in ("ack", "error", "hint", "review") and message.get("id") == action_id:
            return message


async def act(
    sock: Socket, kind: str, action_id: str | None = None, **fields: Any
) -> dict[str, Any]:
    """Send an action; its answer."""
    action_id = action_id or new_id()
    await send(sock, {"type": kind, "id": action_id, **fields})
    return await answer(sock, action_id)


async def until_view(sock: Socket, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first update, from now on, for which ``done(update)`` holds."""
    update = await fresh(sock, send)
    while not done(update):
        update = await sock.until("update")
    return update


async def against_computers(
    server: Server,
    variant: str = "haitian",
    players: int = 2,
    level: str = "casual",
    options: dict[str, Any] | None = None,
) -> tuple[str, Socket]:
    """A started table of one person (seat 0) against computer seats; its code and socket."""
    _, token = await server.guest()
    computers_ = {str(n): level for n in range(1, players)}
    code = (await server.open_table(
        token, variant=variant, players=players, computers=computers_, options=options or {}
    ))["code"]
    sock, _ = await server.connect(code, token)
    assert (await act(sock, "start"))["type"] == "ack"
    return code, sock


async def my_turn(sock: Socket, update: dict[str, Any]) -> dict[str, Any]:
    """From ``update`` (the last one the socket got) on, the first update where it is seat
    0's turn or the hand is over: read as the table sends them, no ``sync`` asked (a socket
    may send only 100 messages a second)."""
    while update["table"]["status"] == "playing" and update["view"]["turn"] != 0:
        update = await sock.until("update")
    return update


async def play_lightest(sock: Socket, update: dict[str, Any]) -> dict[str, Any]:
    """Play seat 0's lightest legal tile in ``update`` (its turn); the last update received
    by the time the move is acknowledged."""
    action_id = new_id()
    await send(sock, {"type": "play", "id": action_id, "move": update["view"]["legal"][0]})
    while True:
        message = await sock.recv()
        if message["type"] == "update":
            update = message
        elif message.get("id") == action_id:
            assert message["type"] == "ack", message
            return update


async def play_hand(sock: Socket) -> dict[int, dict[str, Any]]:
    """Play the hand in progress for the socket's seat, lightest legal tile first, until it
    ends; the view the seat was sent before each of its moves, by the move's index."""
    seen: dict[int, dict[str, Any]] = {}
    update = await my_turn(sock, await fresh(sock, send))
    while update["table"]["status"] == "playing":
        seen[len(update["view"]["played"])] = update["view"]
        update = await my_turn(sock, await play_lightest(sock, update))
    return seen


async def record_of(server: Server, code: str) -> dict[str, Any]:
    """The table's match as a game record, read on the table's own task."""
    table: Table = server.hub.tables[code]
    record: dict[str, Any] = await table.call(lambda: to_record(_match(table)))
    return record


def _match(table: Table) -> Match:
    assert table.match is not None
    return table.match


def before_move(record: dict[str, Any], number: int, index: int) -> Match:
    """The match just before move ``index`` of hand ``number``."""
    hands = record["hands"]
    hand = {**hands[number - 1], "moves": hands[number - 1]["moves"][:index], "result": None}
    return replay({**record, "hands": [*hands[: number - 1], hand], "result": None})


# The answer ---------------------------------------------------------------------------------


async def test_a_review_lists_moves_the_seat_played_with_the_experts_and_its_view(
    tmp_path: Path,
) -> None:
    async with running(sqlite_url(tmp_path), FAST) as server:
        code, sock = await against_computers(server)
        listed = 0
        for number in range(1, 6):  # hands until the expert disagrees with at least one move
            seen = await play_hand(sock)
            reply = await act(sock, "review", f"rv{number}")
            assert set(reply) == {"type", "id", "hand", "moves"}, reply
            assert reply["type"] == "review" and reply["id"] == f"rv{number}"
            assert reply["hand"] == number
            record = await record_of(server, code)
            moves = record["hands"][number - 1]["moves"]
            indexes = [m["index"] for m in reply["moves"]]
            assert indexes == sorted(set(indexes))
            for item in reply["moves"]:
                assert set(item) == {"index", "played", "better", "reason", "view"}
                index = item["index"]
                before = before_move(record, number, index)
                assert before.turn == 0, f"move {index} was not seat 0's"
                assert moves[index] != "timeout"
                after = before_move(record, number, index + 1)
                assert after.hand is not None
                mover, played = after.hand.played[-1]
                assert mover == 0 and wire.move_text(played) == item["played"]
                position = item["view"]
                assert position == wire.view_json(view(before, 0), None, None)
                assert position == {**seen[index], "clock": None, "pause": None}
                assert item["played"] in position["legal"] and item["better"] in position["legal"]
                assert item["better"] != item["played"]
                assert isinstance(item["reason"], str) and item["reason"]
            listed += len(reply["moves"])
            if listed:
                break
            update = await fresh(sock, send)
            if update["table"]["status"] == "over":
                break
            assert (await act(sock, "next_hand"))["type"] == "ack"
        assert listed, "in five hands of lightest-first play the expert never disagreed"


async def test_a_review_after_the_match_is_of_its_last_hand(tmp_path: Path) -> None:
    async with running(sqlite_url(tmp_path), FAST) as server:
        _, token = await server.guest()
        code = (await server.open_table(
            token, variant="plaza", players=2, computers={"1": "casual"},
            options={"target": 50}))["code"]
        sock, _ = await server.connect(code, token)
        assert (await act(sock, "start"))["type"] == "ack"
        while True:
            await play_hand(sock)
            update = await fresh(sock, send)
            if update["table"]["status"] == "over":
                break
            assert (await act(sock, "next_hand"))["type"] == "ack"
        reply = await act(sock, "review")
        assert reply["type"] == "review" and reply["hand"] == update["view"]["hand_number"]


# Refusals -----------------------------------------------------------------------------------


async def test_a_review_at_a_table_with_another_person_is_no_hints(server: Server) -> None:
    _, host_token = await server.guest("Roselène")
    _, guest_token = await server.guest("Jacmel")
    code = (await server.open_table(host_token, variant="plaza", players=2))["code"]
    await server.join(guest_token, code)
    socks = [(await server.connect(code, t))[0] for t in (host_token, guest_token)]
    assert (await act(socks[0], "start"))["type"] == "ack"
    while True:  # both play their first legal move until the hand ends
        update = await fresh(socks[0])
        if update["table"]["status"] != "playing":
            break
        turn = update["view"]["turn"]
        legal = (await fresh(socks[turn]))["view"]["legal"]
        assert (await act(socks[turn], "play", move=legal[0]))["type"] == "ack"
    assert update["table"]["status"] in ("between_hands", "over")
    for sock in socks:
        before = await fresh(sock, send)
        refused = await act(sock, "review")
        assert refused["type"] == "error" and refused["code"] == "no_hints", refused
        assert (await fresh(sock, send))["seq"] == before["seq"]


async def test_a_review_during_a_hand_or_before_it_is_not_now(tmp_path: Path) -> None:
    async with running(sqlite_url(tmp_path), FAST) as server:
        _, token = await server.guest()
        code = (await server.open_table(
            token, variant="haitian", players=2, computers={"1": "casual"}))["code"]
        sock, _ = await server.connect(code, token)
        refused = await act(sock, "review")
        assert refused["type"] == "error" and refused["code"] == "not_now", refused
        assert (await act(sock, "start"))["type"] == "ack"
        before = await until_view(sock, lambda u: u["view"]["turn"] == 0)
        refused = await act(sock, "review")
        assert refused["type"] == "error" and refused["code"] == "not_now", refused
        after = await fresh(sock, send)
        assert after["seq"] == before["seq"] and after["view"] == before["view"]


# Retries ------------------------------------------------------------------------------------


async def test_a_repeated_review_id_is_answered_once_and_then_from_memory(
    tmp_path: Path,
) -> None:
    settings = Settings(computer_delay=0.0, expert_budget=0.02, hint_budget=0.02,
                        review_budget=0.2)
    async with running(sqlite_url(tmp_path), settings) as server:
        _, sock = await against_computers(server)
        await play_hand(sock)
        await send(sock, {"type": "review", "id": "same"})
        await send(sock, {"type": "review", "id": "same"})  # a retry while the expert searches
        first = await answer(sock, "same")
        assert first["type"] == "review"
        later = await sock.quiet(0.5)
        assert not [m for m in later if m.get("id") == "same"], later
        again = await act(sock, "review", "same")
        assert again == first
        other = await act(sock, "review", "another")  # the same hand: not searched again
        assert other["type"] == "review" and other["moves"] == first["moves"]


# The tables go on ---------------------------------------------------------------------------


@asynccontextmanager
async def with_workers(db_url: str, settings: Settings) -> AsyncIterator[Server]:
    """The app with two real worker processes (the harness uses threads), so that whether a
    search holds the event loop can be measured."""
    pool = computers.worker_pool(2)
    try:
        computers.warm_up(pool, 2)
        async with running(db_url, settings, executor=pool) as server:
            yield server
    finally:
        pool.shutdown(cancel_futures=True)


async def test_other_tables_move_on_while_a_review_is_searched(tmp_path: Path) -> None:
    """With two real workers and 2 s per position, another table makes several moves (a
    person's ack, then its computer seat's answer, thought in a worker) and the reviewing
    table answers a sync, all while the review is still searching: a search on the event
    loop would hold the first of them for its 2 s, and a computer seat queued behind review
    searches would wait as long, so only one move would fit. Told by order and count, not by
    a time limit, so a busy test machine does not make it fail."""
    budget = 2.0
    settings = Settings(computer_delay=0.0, expert_budget=0.02, hint_budget=0.02,
                        review_budget=budget)
    async with with_workers(sqlite_url(tmp_path), settings) as server:
        code, reviewer = await against_computers(server, options={"open_ended": True})
        for number in range(1, 31):  # a hand with two or three positions to search
            await play_hand(reviewer)
            searched = len(decisions(await record_of(server, code), 0, number))
            if 2 <= searched <= 3:
                break
            assert (await act(reviewer, "next_hand"))["type"] == "ack"
        assert 2 <= searched <= 3, "thirty hands without two or three choices to review"
        _, other = await against_computers(server, variant="plaza", level="casual")
        await send(reviewer, {"type": "review", "id": "slow"})
        asked = time.perf_counter()
        waits: list[float] = []
        update = await my_turn(other, await fresh(other, send))
        while time.perf_counter() - asked < budget * 0.8 and update["view"]["legal"]:
            started = time.perf_counter()
            # the move acknowledged, and the computer's answer made by a worker
            update = await my_turn(other, await play_lightest(other, update))
            waits.append(time.perf_counter() - started)
        synced = await fresh(reviewer, send)  # the reviewing table serves its seat meanwhile
        assert not [m for m in reviewer.log if m.get("id") == "slow"], "the review was too quick"
        review = await answer(reviewer, "slow", timeout=searched * budget + 30)
        took = time.perf_counter() - asked
        assert review["type"] == "review" and synced["table"]["status"] == "between_hands"
        assert len(waits) >= 2, f"one move while the review searched, after {waits[0]:.2f} s"
        assert took >= budget * 0.9  # the review did search: at least one position
