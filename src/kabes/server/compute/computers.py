"""Computer seats think here, in worker processes, never on the event loop.

The functions are module-level so a process pool can run them; each builds a fresh level from
a seed, so a worker keeps nothing between tables.

A computer seat's budget follows the load (:func:`load_budget`): when the workers are busy a
new search gets what is left of the full budget after it waits for a worker, never less than
EXPERT_FLOOR, so that a busy pool answers on time instead of queueing (docs/server.md).
"""

from __future__ import annotations

import ctypes
import heapq
import itertools
import multiprocessing
import os
import signal
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from random import Random
from typing import Any

from kabes.ai import make_player, review
from kabes.ai.expert import Expert
from kabes.server.common.protocol import ReviewMove
from kabes.table import wire
from kabes.views import View

PR_SET_PDEATHSIG = 1

EXPERT_FLOOR = 0.05
"""The least a search is given when the workers are busy, in seconds: the budget at which
the expert's strength is measured and promised (docs/levels.md, issue 10's targets)."""

QUICK_WORK = 0.01
"""Seconds of work counted for a level that ignores its budget (beginner, casual, skilled)."""

LATE_MARGIN = 0.25
"""Seconds past ``computer_delay + expert_budget`` after which a computer's move is late:
room for the worker round trip and the store's commit."""


def load_budget(full: float, wait: float) -> float:
    """The seconds a new search gets when a worker will be free for it only in ``wait``
    seconds: what is left of ``full`` after the wait, so that it answers when a quiet pool
    would have, never below EXPERT_FLOOR (a budget already at or under it is kept)."""
    if full <= EXPERT_FLOOR:
        return full
    return max(EXPERT_FLOOR, min(full, full - wait))


def late(waited: float, delay: float, budget: float) -> bool:
    """Whether a computer's move that came ``waited`` seconds after its turn began is late:
    after the table's ``computer_delay`` and full ``expert_budget`` plus LATE_MARGIN."""
    return waited > delay + budget + LATE_MARGIN


class Searches:
    """The searches one event loop's tables have sent to the workers and not had back, each
    with when it was sent and the seconds of work it was given: what :func:`load_budget`
    reads."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._sent: dict[int, tuple[float, float]] = {}
        self._ids = itertools.count()

    @property
    def in_flight(self) -> int:
        """Searches sent and not back (running or queued)."""
        return len(self._sent)

    def wait(self, now: float) -> float:
        """Seconds until a worker is free for a search sent at ``now``: the pool played
        forward, first come first served, each search taking the work it was given."""
        free = [0.0] * self.workers
        for sent, work in self._sent.values():  # in the order they were sent
            begins = max(sent, heapq.heappop(free))
            heapq.heappush(free, max(now, begins + work))
        return max(0.0, free[0] - now)

    def budget(self, full: float, now: float) -> float:
        """The budget a search sent at ``now`` gets (see :func:`load_budget`)."""
        return load_budget(full, self.wait(now))

    def started(self, work: float, now: float) -> int:
        """A search given ``work`` seconds was sent at ``now``; its ticket for ended."""
        ticket = next(self._ids)
        self._sent[ticket] = (now, work)
        return ticket

    def ended(self, ticket: int) -> None:
        """The search of ``ticket`` came back (answered, failed or cancelled)."""
        self._sent.pop(ticket, None)


def think(level: str, view: View, seed: int, budget: float) -> tuple[str, float]:
    """The move ``level`` makes in ``view`` (record notation) and the seconds it took."""
    started = time.perf_counter()
    move = make_player(level, Random(seed), budget=budget).choose(view)
    return str(move), time.perf_counter() - started


def advise(view: View, seed: int, budget: float) -> tuple[str, str]:
    """The expert's move for ``view`` and its reason: the answer to a ``hint``."""
    hint = Expert(Random(seed), budget).hint(view)
    return str(hint.move), hint.reason


def review_positions(record: dict[str, Any], seat: int, hand: int) -> list[review.Decision]:
    """The seat's choices in hand ``hand`` of the match ``record``: the positions a
    ``review`` searches (kabes.ai.review.decisions)."""
    return review.decisions(record, seat, hand)


def second_opinion(
    decision: review.Decision, seed: int, budget: float
) -> ReviewMove | None:
    """One position of a ``review``: the expert's other move there, as the answer lists it,
    or None when it would have played the same."""
    alternative = review.reconsider(decision, seed, budget)
    return None if alternative is None else wire.review_move(alternative)


def warm() -> int:
    """Nothing but importing the engine and levels: run once per worker at start-up."""
    return os.getpid()


def die_with_parent() -> None:
    """Ask Linux to kill this worker when the server dies (even by SIGKILL), so no orphaned
    worker outlives it; elsewhere, nothing."""
    if sys.platform != "linux":
        return
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass
    if os.getppid() == 1:  # the server died before the call above
        os._exit(1)


def worker_pool(size: int | None = None) -> ProcessPoolExecutor:
    """Worker processes for computer seats, one per core unless told otherwise. Spawned, not
    forked: the server process has threads (the store's) that a fork would copy mid-flight."""
    workers = size or os.cpu_count() or 1
    return ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=die_with_parent
    )


def warm_up(pool: Executor, size: int) -> None:
    """Start every worker now, so the first computer move does not wait for a process."""
    for future in [pool.submit(warm) for _ in range(size)]:
        future.result()
