"""Rankings count real play (PROTOCOL.md, "Safe for strangers"): a hand is rated only if
every person seated made a move of their own in it (the clock's ``timeout`` is not theirs) and
no seat had left, so that nobody climbs the rankings on hands the clock played for them.

People play over the app's socket and the clocks are run on by a fake clock; what counts is
read where a stranger reads it, on the players' pages.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from pathlib import Path
from typing import Any

from harness import Server, Socket, fresh, running, sqlite_url

from kabes.server.common.config import Settings

_ids = itertools.count()
TURN = 46.0
"""A little over the harness's turn clock (45 s): the clock plays for the seat."""


_sent: dict[int, deque[float]] = {}


async def send(sock: Socket, message: dict[str, Any]) -> None:
    """Send ``message``, under 100 messages a second per socket (the server closes one that
    sends more)."""
    sent = _sent.setdefault(id(sock), deque())
    while sent and time.monotonic() - sent[0] > 1.0:
        sent.popleft()
    if len(sent) >= 80:
        await asyncio.sleep(1.01 - (time.monotonic() - sent[0]))
    sent.append(time.monotonic())
    sock.send(message)


async def view(sock: Socket) -> dict[str, Any]:
    """A fresh update for the socket's seat."""
    return await fresh(sock, send)


async def act(sock: Socket, kind: str, **fields: Any) -> dict[str, Any]:
    """Send an action; its ack or error."""
    action = f"p{next(_ids)}"
    await send(sock, {"type": kind, "id": action, **fields})
    while True:
        message = await sock.recv()
        if message["type"] in ("ack", "error") and message.get("id") == action:
            return message


async def two_people(server: Server) -> tuple[str, list[int], list[Socket]]:
    """A started Haitian table of two people: its code, players and sockets."""
    host, host_token = await server.guest("Host")
    guest, guest_token = await server.guest("Guest")
    code = (await server.open_table(host_token, variant="haitian", players=2))["code"]
    assert await server.join(guest_token, code) == 1
    socks = [(await server.connect(code, token))[0] for token in (host_token, guest_token)]
    assert (await act(socks[0], "start"))["type"] == "ack"
    return code, [host, guest], socks


async def play_hand(server: Server, socks: list[Socket], clocked: set[int]) -> None:
    """Play the hand out: the seats in ``clocked`` leave every turn to the clock, the others
    play their first legal tile."""
    while True:
        update = await view(socks[0])
        if update["table"]["status"] != "playing":
            return
        turn = update["view"]["turn"]
        if turn in clocked:
            await server.advance(TURN)
        else:
            legal = (await view(socks[turn]))["view"]["legal"]
            assert (await act(socks[turn], "play", move=legal[0]))["type"] == "ack"


async def rated(server: Server, player: int) -> dict[str, float]:
    """The player's ratings by variant, as their page shows them."""
    page = (await server.http.get(f"/api/players/{player}")).json()
    ratings: dict[str, float] = page["ratings"]
    return ratings


async def test_a_hand_where_one_person_timed_out_on_every_turn_is_not_rated(
    tmp_path: Path,
) -> None:
    async with running(sqlite_url(tmp_path)) as server:
        _, players, socks = await two_people(server)
        await play_hand(server, socks, clocked={1})
        assert [await rated(server, p) for p in players] == [{}, {}]
        assert (await act(socks[0], "next_hand"))["type"] == "ack"
        await play_hand(server, socks, clocked=set())  # both play: this one counts
        assert ["haitian" in await rated(server, p) for p in players] == [True, True]


async def test_the_hands_of_a_table_everyone_left_are_not_rated(tmp_path: Path) -> None:
    # Long enough a wait for abandoning that the away clock plays hands first.
    unhurried = Settings(computer_delay=0.0, expert_budget=0.02, hint_budget=0.02,
                         abandon_seconds=10**6)
    async with running(sqlite_url(tmp_path), unhurried) as server:
        code, players, socks = await two_people(server)
        for _ in range(2):  # each makes a move of their own first: leaving is what counts
            turn = (await view(socks[0]))["view"]["turn"]
            legal = (await view(socks[turn]))["view"]["legal"]
            assert (await act(socks[turn], "play", move=legal[0]))["type"] == "ack"
        for sock in socks:
            assert (await act(sock, "leave"))["type"] == "ack"
        record = f"/api/tables/{code}/record"
        for _ in range(200):  # the away clock plays for both, hand after hand
            if len((await server.http.get(record)).json()["hands"]) >= 2:
                break
            await server.advance(TURN)
        assert len((await server.http.get(record)).json()["hands"]) >= 2
        assert [await rated(server, p) for p in players] == [{}, {}]
