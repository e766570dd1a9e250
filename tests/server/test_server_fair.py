"""Computer time is shared fairly (PROTOCOL.md, "Safe for strangers"): a seat's hints within
one turn are searched once, whatever their ids, and no flood of hints holds up a computer
seat's move at another table beyond its budget.

The flood is measured on a real ``kabes serve`` with its worker processes, over real sockets
(the one timed test the issue asks for: its margin is generous, and today's server, which
queued every hint before the move, missed it by seconds).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import httpx
from harness import Socket, fresh, running, sqlite_url
from wsclient import Client, ServerProcess, auth, guest

from kabes.server.common.config import Settings
from kabes.server.compute.lane import Lane, Priority
from kabes.server.compute.workers import LANE_REQUESTS_PER_SLOT

_ids = itertools.count()


def new_id() -> str:
    """A fresh action id."""
    return f"f{next(_ids)}"


class CountingPool(ThreadPoolExecutor):
    """Threads that count, by function, the searches sent to them."""

    def __init__(self) -> None:
        super().__init__(2)
        self.sent: Counter[str] = Counter()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.sent[fn.__name__] += 1
        return super().submit(fn, *args, **kwargs)


def answer_to(action: str, message: dict[str, Any]) -> bool:
    """Whether ``message`` answers the request ``action``."""
    return message.get("id") == action


async def answers(sock: Socket, ids: set[str]) -> dict[str, dict[str, Any]]:
    """The answers to every id of ``ids``, by id."""
    got: dict[str, dict[str, Any]] = {}
    while len(got) < len(ids):
        message = await sock.recv()
        if message.get("id") in ids:
            got[message["id"]] = message
    return got


async def test_a_seats_hints_within_one_turn_are_searched_once(tmp_path: Path) -> None:
    settings = Settings(computer_delay=0.0, expert_budget=0.02, hint_budget=0.05)
    with CountingPool() as pool:
        async with running(sqlite_url(tmp_path), settings, executor=pool) as server:
            _, token = await server.guest()
            code = (await server.open_table(
                token, variant="haitian", players=2, computers={"1": "casual"}))["code"]
            sock, _ = await server.connect(code, token)
            sock.send({"type": "start", "id": "go"})
            update = await fresh(sock)
            while update["view"]["turn"] != 0:  # the computer led: its move comes at once
                update = await sock.until("update")
            asked = {new_id() for _ in range(6)}
            for action in asked:  # all at once: the first is still being searched
                sock.send({"type": "hint", "id": action})
            first = await answers(sock, asked)
            again = new_id()  # after the search: answered from the turn's hint
            sock.send({"type": "hint", "id": again})
            later = await answers(sock, {again})
            given = [(m["type"], m["move"], m["reason"])
                     for m in [*first.values(), *later.values()]]
            assert len(set(given)) == 1 and given[0][0] == "hint", given
            assert pool.sent["advise"] == 1


async def test_hints_past_what_the_lane_takes_are_refused_slow_down(tmp_path: Path) -> None:
    # No pause between hands: a hand the person ends before a turn with a choice comes is
    # followed by the next deal at once, not after the 30 s pause the loop's wait would miss.
    settings = Settings(computer_delay=0.0, expert_budget=0.02, hint_budget=0.3,
                        review_searches=1, pause_seconds=0.0)
    with ThreadPoolExecutor(2) as pool:
        async with running(sqlite_url(tmp_path), settings, executor=pool) as server:
            socks = []
            for _ in range(LANE_REQUESTS_PER_SLOT + 1):
                _, token = await server.guest()
                code = (await server.open_table(
                    token, variant="haitian", players=2, computers={"1": "casual"}))["code"]
                sock, _ = await server.connect(code, token)
                sock.send({"type": "start", "id": "go"})
                while True:  # a turn the expert must search: past the lead, with a choice
                    update = await fresh(sock)
                    view = update["view"]
                    if view["turn"] == 0 and view["line"] and len(view["legal"]) > 1:
                        break
                    if view["turn"] == 0:
                        sock.send({"type": "play", "id": new_id(), "move": view["legal"][0]})
                    await sock.until("update")
                socks.append(sock)
            asked = [new_id() for _ in socks]
            for sock, action in zip(socks, asked, strict=True):
                sock.send({"type": "hint", "id": action})
            got = [(await answers(sock, {action}))[action]
                   for sock, action in zip(socks, asked, strict=True)]
            kinds = Counter(m["type"] if m["type"] == "hint" else m["code"] for m in got)
            assert kinds == {"hint": LANE_REQUESTS_PER_SLOT, "slow_down": 1}


async def test_a_hint_flood_leaves_another_tables_computer_move_within_its_budget(
    tmp_path: Path,
) -> None:
    delay, budget, margin = 0.1, 0.5, 1.5
    server = ServerProcess(tmp_path, "--workers", "2", "--expert-budget", str(budget),
                           "--computer-delay", str(delay), "--log-level", "warning")
    await server.start()
    try:
        async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
            measured = await seated(http, server.base, "expert")
            flooders = [await seated(http, server.base, "casual") for _ in range(2)]
            await my_turn(measured)
            for client in flooders:
                await searching(client)
            asked: dict[int, set[str]] = {}
            for n, client in enumerate(flooders):
                asked[n] = {new_id() for _ in range(10)}
                for action in asked[n]:
                    await client.send({"type": "hint", "id": action})
            await asyncio.sleep(0.3)  # every hint has reached the server
            took = await computer_answer(measured)
            assert took < delay + budget + margin, (
                f"the expert answered {took:.2f} s after the move, during a flood of 20 hints "
                f"(its budget: {delay + budget:.2f} s)")
            for n, client in enumerate(flooders):
                for action in asked[n]:
                    hint = await client.wait(partial(answer_to, action))
                    assert hint["type"] == "hint", hint
    finally:
        server.kill()


async def seated(http: httpx.AsyncClient, base: str, level: str) -> Client:
    """A person at a started table of two against a computer of ``level``."""
    _, token = await guest(http, "Flood")
    reply = await http.post("/api/tables", headers=auth(token), json={
        "variant": "haitian", "players": 2, "computers": {"1": level}})
    assert reply.status_code == 201, reply.text
    client = Client(base, reply.json()["code"], token)
    await client.connect()
    action = new_id()
    await client.send({"type": "start", "id": action})
    assert (await client.answer(action))["type"] == "ack"
    return client


async def my_turn(client: Client) -> dict[str, Any]:
    """The newest update once it is the client's turn."""
    while True:
        latest = client.latest()
        assert latest is not None
        message = latest.message
        if message["table"]["status"] == "playing" and message["view"]["turn"] == client.seat:
            return message
        await client.wait(lambda m: m["type"] == "update", len(client.log))


async def searching(client: Client) -> None:
    """Play until the client's turn is one the expert must search for: past the lead (which
    it answers at once), with a choice of tiles."""
    while True:
        update = await my_turn(client)
        view = update["view"]
        if view["line"] and len(view["legal"]) > 1:
            return
        action = new_id()
        await client.send({"type": "play", "id": action, "move": view["legal"][0]})
        assert (await client.answer(action))["type"] == "ack"


async def computer_answer(client: Client) -> float:
    """Play the client's first legal tile until the computer answers with a tile of its own;
    the seconds from that move to the update bringing the computer's."""

    def computer_played(message: dict[str, Any]) -> bool:
        return any(e.get("kind") == "played" and e.get("seat") != client.seat
                   for e in message["events"])

    def answered(message: dict[str, Any]) -> bool:
        return message["type"] == "update" and (
            computer_played(message) or message["view"]["turn"] == client.seat
            or message["table"]["status"] != "playing")

    for _ in range(5):
        update = await my_turn(client)
        start = len(client.log)
        sent = time.monotonic()
        await client.send({"type": "play", "id": new_id(), "move": update["view"]["legal"][0]})
        answer = await client.wait(answered, start)
        if computer_played(answer):
            return next(r.at for r in client.log[start:] if r.message is answer) - sent
    raise AssertionError("the computer never played a tile of its own")


async def test_hints_go_before_review_positions_and_a_full_lane_says_so() -> None:
    lane = Lane(slots=1, limit=2)
    order: list[str] = []

    async def search(name: str, priority: Priority) -> None:
        assert lane.admit(priority)
        try:
            async with lane.slot(priority):
                order.append(name)
                await asyncio.sleep(0.01)
        finally:
            lane.leave(priority)

    first = asyncio.create_task(search("review 1", Priority.REVIEW))
    await asyncio.sleep(0)  # it holds the one slot
    later = [asyncio.create_task(search("review 2", Priority.REVIEW)),
             asyncio.create_task(search("hint", Priority.HINT))]
    await asyncio.sleep(0)
    assert lane.full(Priority.REVIEW) and not lane.full(Priority.HINT)
    await asyncio.gather(first, *later)
    assert order == ["review 1", "hint", "review 2"]
    assert not lane.full(Priority.REVIEW) and lane.running == 0 and lane.waiting == 0


async def test_a_search_given_up_while_it_waits_leaves_the_lane_free() -> None:
    lane = Lane(slots=1, limit=8)
    holder = asyncio.Event()

    async def hold() -> None:
        async with lane.slot(Priority.HINT):
            await holder.wait()

    async def wait_turn() -> None:
        async with lane.slot(Priority.HINT):
            pass

    held = asyncio.create_task(hold())
    await asyncio.sleep(0)
    dropped = asyncio.create_task(wait_turn())
    await asyncio.sleep(0)
    dropped.cancel()
    await asyncio.gather(dropped, return_exceptions=True)
    holder.set()
    await held
    await asyncio.wait_for(wait_turn(), 1.0)  # not stuck behind the dropped one
    assert lane.running == 0 and lane.waiting == 0

