"""A computer seat's budget follows the load: it shrinks while the workers are busy, never
below the floor, and comes back when they drain (kabes.server.compute.computers.load_budget)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from harness import Server, Socket, running, sqlite_url
from test_server_protocol import metric

from kabes.server.common.config import Settings
from kabes.server.compute.computers import (
    EXPERT_FLOOR,
    LATE_MARGIN,
    Searches,
    late,
    load_budget,
    warm_up,
    worker_pool,
)

EXPERTS = {"1": "expert", "2": "expert", "3": "expert"}


def test_a_search_gets_the_whole_budget_while_a_worker_is_free() -> None:
    searches = Searches(workers=2)
    assert searches.budget(1.0, now=0.0) == 1.0
    searches.started(1.0, now=0.0)
    assert searches.budget(1.0, now=0.0) == 1.0  # the second worker is free


def test_the_budget_shrinks_as_searches_pile_up() -> None:
    searches = Searches(workers=2)
    searches.started(1.0, now=0.0)
    searches.started(1.0, now=0.5)
    given = []
    for _ in range(3):  # three more at 0.6 s, while both workers are busy
        budget = searches.budget(1.0, now=0.6)
        given.append(budget)
        searches.started(budget, now=0.6)
    # The first waits 0.4 s for a worker (free at 1.0): 0.6 s are left of its second. The
    # next waits for the other (free at 1.5), and the last would wait a whole second.
    assert [round(b, 9) for b in given] == [0.6, 0.1, EXPERT_FLOOR]
    assert abs(searches.wait(0.6) - (1.6 - 0.6)) < 1e-9  # both workers booked to 1.6 s


def test_the_budget_never_falls_below_the_floor() -> None:
    searches = Searches(workers=2)
    for _ in range(20):
        searches.started(1.0, now=0.0)
    assert searches.wait(0.0) == 10.0
    assert searches.budget(1.0, now=0.0) == EXPERT_FLOOR
    assert load_budget(1.0, wait=0.99) == EXPERT_FLOOR  # 0.01 s left is under the floor


def test_a_budget_already_at_the_floor_or_under_it_is_not_shrunk() -> None:
    assert load_budget(EXPERT_FLOOR, wait=5.0) == EXPERT_FLOOR
    assert load_budget(0.02, wait=5.0) == 0.02


def test_the_budget_comes_back_when_the_searches_drain() -> None:
    searches = Searches(workers=1)
    tickets = [searches.started(1.0, now=0.0) for _ in range(4)]
    assert searches.budget(1.0, now=0.0) == EXPERT_FLOOR
    for ticket in tickets:
        searches.ended(ticket)
    assert searches.in_flight == 0
    assert searches.budget(1.0, now=0.1) == 1.0


def test_a_search_past_its_budget_frees_its_worker_in_the_reckoning() -> None:
    searches = Searches(workers=1)
    searches.started(1.0, now=0.0)
    assert searches.budget(1.0, now=0.75) == 0.75  # the worker is free at 1.0
    assert searches.budget(1.0, now=3.0) == 1.0  # overdue: counted as ending now


def test_a_computer_move_is_late_only_after_its_delay_budget_and_margin() -> None:
    assert not late(waited=1.0 + 0.5 + LATE_MARGIN, delay=1.0, budget=0.5)
    assert late(waited=1.0 + 0.5 + LATE_MARGIN + 0.01, delay=1.0, budget=0.5)


# With real worker processes ---------------------------------------------------------------


async def _play_person(sock: Socket, resume: bool = False) -> None:
    """Play seat 0 (first legal move, next hand when due) until cancelled; ``resume``: from
    the table as it is now (asked by a ``sync``)."""
    ids = 0
    if resume:
        sock.send({"type": "sync", "id": "again"})
    while True:
        message = await sock.recv(timeout=60)
        if message["type"] != "update":
            continue
        view = message["view"]
        if view["result"] is not None:
            return
        ids += 1
        if message["table"]["status"] == "between_hands":
            sock.send({"type": "next_hand", "id": f"n{ids}"})
        elif view["turn"] == 0 and view["legal"]:
            sock.send({"type": "play", "id": f"m{ids}", "move": view["legal"][0]})


async def _metrics(server: Server) -> str:
    return (await server.http.get("/metrics")).text


async def _until(server: Server, name: str, test: Any, seconds: float = 60.0) -> str:
    """The metrics page once the sample ``name`` passes ``test`` (real time)."""
    end = time.monotonic() + seconds
    while True:
        text = await _metrics(server)
        if test(metric(text, name)):
            return text
        assert time.monotonic() < end, f"{name} never came right"
        await asyncio.sleep(0.05)


async def _tables_against_experts(server: Server, count: int) -> list[Socket]:
    socks = []
    for _ in range(count):
        _, token = await server.guest()
        code = (await server.open_table(token, variant="haitian", players=4,
                                        computers=EXPERTS))["code"]
        sock, _ = await server.connect(code, token)
        socks.append(sock)
    for sock in socks:
        sock.send({"type": "start", "id": "s"})
    return socks


@contextlib.asynccontextmanager
async def _people_playing(socks: list[Socket], resume: bool = False) -> AsyncIterator[None]:
    """The person at each of these tables plays every turn until the block ends."""
    people = [asyncio.create_task(_play_person(s, resume=resume)) for s in socks]
    try:
        yield
    finally:
        for person in people:
            person.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*people, return_exceptions=True)


@contextlib.asynccontextmanager
async def _busy(
    settings: Settings, tmp_path: Path, tables: int
) -> AsyncIterator[tuple[Server, list[Socket], str]]:
    """``tables`` tables of one person against three experts on one worker process, played
    until 24 computer moves are made: the server, the people's sockets, and the metrics page
    once the searches drained."""
    with worker_pool(1) as pool:
        warm_up(pool, 1)
        async with running(sqlite_url(tmp_path), settings, executor=pool) as server:
            socks = await _tables_against_experts(server, tables)
            async with _people_playing(socks):
                await _until(server, "kabes_computer_moves_total", lambda v: v >= 24)
            yield server, socks, await _drained(server)


async def _drained(server: Server, quiet: float = 0.5, seconds: float = 60.0) -> str:
    """The metrics page once no search runs and none has started for ``quiet`` seconds: a
    person's last move, sent just before the people stopped, may still set a table's computer
    seats thinking after a first moment with no search running."""
    end = time.monotonic() + seconds
    last = ""
    while True:
        text = await _metrics(server)
        settled = (last and metric(text, "kabes_computer_searches") == 0
                   and metric(text, "kabes_computer_budget_seconds_count")
                   == metric(last, "kabes_computer_budget_seconds_count"))
        if settled:
            return text
        assert time.monotonic() < end, "the computer seats never stopped thinking"
        last = text if metric(text, "kabes_computer_searches") == 0 else ""
        await asyncio.sleep(quiet)


async def _budgets_while_busy(settings: Settings, tmp_path: Path, tables: int) -> str:
    """The metrics page after :func:`_busy`."""
    async with _busy(settings, tmp_path, tables) as (_, _, text):
        return text


async def test_busy_workers_give_smaller_budgets_never_below_the_floor(tmp_path: Path) -> None:
    settings = Settings(computer_delay=0.0, expert_budget=0.3, workers=1)
    text = await _budgets_while_busy(settings, tmp_path, tables=8)
    count = metric(text, "kabes_computer_budget_seconds_count")
    assert count >= 24
    shrunk = metric(text, 'kabes_computer_budget_seconds_bucket{le="0.2"}')
    assert shrunk > 0  # eight tables on one worker: searches got what was left after waiting
    assert metric(text, 'kabes_computer_budget_seconds_bucket{le="0.05"}') > 0  # the floor
    assert metric(text, 'kabes_computer_budget_seconds_bucket{le="0.025"}') == 0
    assert metric(text, 'kabes_computer_budget_seconds_bucket{le="0.3"}') == count


async def test_with_a_fixed_budget_every_search_gets_it_all(tmp_path: Path) -> None:
    settings = Settings(computer_delay=0.0, expert_budget=0.1, workers=1,
                        budget_follows_load=False)
    text = await _budgets_while_busy(settings, tmp_path, tables=8)
    count = metric(text, "kabes_computer_budget_seconds_count")
    assert count >= 24
    assert metric(text, 'kabes_computer_budget_seconds_bucket{le="0.075"}') == 0


async def test_a_table_alone_gets_the_whole_budget_back(tmp_path: Path) -> None:
    settings = Settings(computer_delay=0.0, expert_budget=0.3, workers=1)
    async with _busy(settings, tmp_path, 8) as (server, socks, busy):
        assert metric(busy, 'kabes_computer_budget_seconds_bucket{le="0.2"}') > 0
        # The searches drained; now only the first table plays on, so its experts think
        # alone, each with the whole budget.
        drained = busy
        async with _people_playing([socks[0]], resume=True):
            after = await _until(
                server, "kabes_computer_budget_seconds_count",
                lambda v: v >= metric(drained, "kabes_computer_budget_seconds_count") + 4,
            )
        added = (metric(after, "kabes_computer_budget_seconds_count")
                 - metric(drained, "kabes_computer_budget_seconds_count"))
        spent = (metric(after, "kabes_computer_budget_seconds_sum")
                 - metric(drained, "kabes_computer_budget_seconds_sum"))
        assert abs(spent - 0.3 * added) < 1e-6
