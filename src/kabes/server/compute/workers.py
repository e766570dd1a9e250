"""The worker processes as one process's tables share them: computer moves, hints, reviews.

One :class:`Workers` per server process (the hub makes it) keeps the account of the searches
every table has sent and not had back (``computers.Searches``), gives a computer move the
budget that follows the load, and sends hints and reviews through its lane
(:class:`~kabes.server.compute.lane.Lane`), which lets them use all workers but
REVIEW_WORKERS_KEPT_FREE, so that they never hold up a computer seat's move. Tables ask it for
searches; none of them touches the pool or the account directly.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from kabes.ai.review import Decision, seeds
from kabes.server.common.metrics import Metrics
from kabes.server.common.protocol import ReviewMove
from kabes.server.compute import computers
from kabes.server.compute.lane import Lane, Priority
from kabes.views import View

REVIEW_WORKERS_KEPT_FREE = 1
"""Workers that hints and reviews leave to the computer seats: every table's hints and review
positions together are at most (workers - 1) searches in the pool at once (at least one), so
that a computer seat's move does not wait for a worker behind them. A review of n positions
takes about n / (workers - 1) times the review budget. With one worker, a move may wait for
the one hint or position running, and its budget (which follows the load) is shortened by
that wait: docs/server.md, "Hints and reviews"."""
LANE_REQUESTS_PER_SLOT = 16
"""By default (``--searches-waiting``), hints (and, apart, reviews) a process takes at once
per slot of the lane, waiting or being searched, every table together; one more is refused
``slow_down``. A seat's hint is searched
once per turn, so this is that many seats asking at the same moment: with the one slot of a
2-worker server and 0.5 s hints, the last of them waits about 8 s."""

T = TypeVar("T")


class Workers:
    """The computer's searches of one process's tables, and their account."""

    def __init__(
        self,
        executor: Executor | None,
        workers: int,
        review_searches: int,
        metrics: Metrics | None = None,
        searches_waiting: int = LANE_REQUESTS_PER_SLOT,
    ) -> None:
        self.executor = executor
        self.searches = computers.Searches(workers)
        self.metrics = metrics
        self.lane = Lane(review_searches, searches_waiting * max(1, review_searches))
        """Hints and reviews go to the pool through it (``review_searches`` at once)."""

    def _run(self, work: float, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Run ``fn(*args)`` in a worker, counted as ``work`` seconds until it is back."""
        loop = asyncio.get_running_loop()
        ticket = self.searches.started(work, time.monotonic())
        self._count()
        future = loop.run_in_executor(self.executor, fn, *args)

        def ended(_: asyncio.Future[T]) -> None:
            self.searches.ended(ticket)
            self._count()

        future.add_done_callback(ended)
        return future

    def _count(self) -> None:
        if self.metrics is not None:
            self.metrics.searches.set(self.searches.in_flight)

    def think(
        self, level: str, seen: View, seed: int, full: float, follow_load: bool
    ) -> asyncio.Future[tuple[str, float]]:
        """A computer seat's move (record notation) and the seconds it took: the expert gets
        ``full`` seconds, or less while the workers are busy when ``follow_load``."""
        budget = self.searches.budget(full, time.monotonic()) if follow_load else full
        searching = level == "expert"
        if searching and self.metrics is not None:
            self.metrics.budget.observe(budget)
        work = budget if searching else computers.QUICK_WORK
        return self._run(work, computers.think, level, seen, seed, budget)

    def admit(self, priority: Priority) -> bool:
        """Take a new hint (or review), unless the lane holds as many as it takes (then it is
        refused ``slow_down``); one admitted ends with :meth:`leave`."""
        return self.lane.admit(priority)

    def leave(self, priority: Priority) -> None:
        """A hint (or review) admitted is done."""
        self.lane.leave(priority)

    async def advise(self, seen: View, seed: int, budget: float) -> tuple[str, str]:
        """The expert's move for ``seen`` and its reason (a hint), once the lane lets it in."""
        async with self.lane.slot(Priority.HINT):
            return await self._run(budget, computers.advise, seen, seed, budget)

    async def review(
        self, record: dict[str, Any], seat: int, hand: int, seed: int, budget: float
    ) -> list[ReviewMove]:
        """The moves of ``seat`` in hand ``hand`` of ``record`` where the expert would have
        played otherwise, each position searched ``budget`` seconds, a few at a time (in the
        lane, after any hint waiting)."""
        lane = self.lane
        loop = asyncio.get_running_loop()

        async def search(decision: Decision, own: int) -> ReviewMove | None:
            async with lane.slot(Priority.REVIEW):
                answer: Awaitable[ReviewMove | None] = self._run(
                    budget, computers.second_opinion, decision, own, budget)
                return await answer

        async with lane.slot(Priority.REVIEW):
            found = await loop.run_in_executor(
                self.executor, computers.review_positions, record, seat, hand
            )
        answers = await asyncio.gather(
            *(search(d, own) for d, own in zip(found, seeds(seed, len(found)), strict=True))
        )
        return [a for a in answers if a is not None]
