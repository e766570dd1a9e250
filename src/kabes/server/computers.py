"""Computer seats think here, in worker processes, never on the event loop.

The functions are module-level so a process pool can run them; each builds a fresh level from
a seed, so a worker keeps nothing between tables.

A computer seat's budget follows the load (:func:`load_budget`): when more searches are in
flight than there are workers, each new one gets a share of the full budget, never less than
EXPERT_FLOOR, so that a busy pool answers on time instead of queueing (docs/server.md).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from random import Random
from typing import Any

from kabes import review
from kabes.ai import make_player
from kabes.ai.expert import Expert
from kabes.server import wire
from kabes.views import View

PR_SET_PDEATHSIG = 1

EXPERT_FLOOR = 0.05
"""The least a search is given when the workers are busy, in seconds: the budget at which
the expert's strength is measured and promised (docs/levels.md, issue 10's targets)."""

LATE_MARGIN = 0.25
"""Seconds past ``computer_delay + expert_budget`` after which a computer's move is late:
room for the worker round trip and the store's commit."""


def load_budget(full: float, workers: int, in_flight: int) -> float:
    """The seconds a new search gets when ``in_flight`` searches (running or queued) are
    already with ``workers`` processes: ``full`` while a worker is free, else the share that
    lets the pool drain everything in about ``full`` seconds, never below EXPERT_FLOOR (nor
    above ``full``)."""
    if full <= EXPERT_FLOOR:
        return full
    workers = max(1, workers)
    share = full * workers / max(workers, in_flight + 1)
    return max(EXPERT_FLOOR, share)


def late(waited: float, delay: float, budget: float) -> bool:
    """Whether a computer's move that came ``waited`` seconds after its turn began is late:
    after the table's ``computer_delay`` and full ``expert_budget`` plus LATE_MARGIN."""
    return waited > delay + budget + LATE_MARGIN


class Searches:
    """The searches one event loop's tables have sent to the workers and not had back:
    what :func:`load_budget` reads."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self.in_flight = 0

    def budget(self, full: float) -> float:
        """The budget a search started now gets (see :func:`load_budget`)."""
        return load_budget(full, self.workers, self.in_flight)

    def started(self) -> None:
        """One more search is with the workers."""
        self.in_flight += 1

    def ended(self) -> None:
        """A search came back (answered, failed or cancelled)."""
        self.in_flight = max(0, self.in_flight - 1)


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
    ``review`` searches (kabes.review.decisions)."""
    return review.decisions(record, seat, hand)


def second_opinion(
    decision: review.Decision, seed: int, budget: float
) -> dict[str, Any] | None:
    """One position of a ``review``: the expert's other move there, as the answer lists it,
    or None when it would have played the same."""
    alternative = review.reconsider(decision, seed, budget)
    return None if alternative is None else wire.alternative_json(alternative)


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
