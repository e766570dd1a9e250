"""The lane that hints and reviews take to the workers, so that they never hold up a move.

The worker pool serves its searches first come, first served: a hint sent before a computer
seat's move is searched before it. So every search that is not a computer move (a hint, a
review's positions) waits here for one of the lane's few slots (the workers less those kept
for the computer seats) before it goes to the pool, and however many are asked, no more than
that many are ever in the pool at once: a computer seat's move finds a worker free, or
waits only for other moves. Among those waiting, hints come before review positions (a
person waits on a hint at their turn; a review is read between hands), then first come
first served. A full lane refuses new work (``slow_down``) rather than queueing it for ever.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from enum import IntEnum


class Priority(IntEnum):
    """Who goes first among the searches waiting for a slot (lower first)."""

    HINT = 0
    REVIEW = 1


class Lane:
    """At most ``slots`` searches at once through here, hints first; of each priority, at
    most ``limit`` requests waiting or running (:meth:`full`)."""

    def __init__(self, slots: int, limit: int) -> None:
        self.slots = max(1, slots)
        self.limit = limit
        self.running = 0
        """Searches holding a slot (sent to the pool)."""
        self._requests = dict.fromkeys(Priority, 0)
        """Requests admitted and not done, by priority (a hint is one, a review is one)."""
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        """Searches waiting for a slot, as a heap: (priority, arrival, their turn)."""
        self._order = itertools.count()

    @property
    def waiting(self) -> int:
        """Searches waiting for a slot."""
        return len(self._waiting)

    def full(self, priority: Priority) -> bool:
        """Whether a new request of ``priority`` would be refused: ``limit`` of them are
        already waiting or running."""
        return self._requests[priority] >= self.limit

    def admit(self, priority: Priority) -> bool:
        """Take a new request (a hint, a review) unless the lane is full; said at once, when
        it is asked, so that requests asked together cannot all slip in. Each one admitted
        ends with :meth:`leave`."""
        if self.full(priority):
            return False
        self._requests[priority] += 1
        return True

    def leave(self, priority: Priority) -> None:
        """A request admitted is done (answered, failed or dropped)."""
        self._requests[priority] -= 1

    @asynccontextmanager
    async def slot(self, priority: Priority) -> AsyncIterator[None]:
        """One search's turn in the pool: waits for a free slot, holds it while inside."""
        await self._acquire(priority)
        try:
            yield
        finally:
            self._release()

    async def _acquire(self, priority: Priority) -> None:
        if self.running < self.slots and not self._waiting:
            self.running += 1
            return
        entry = (int(priority), next(self._order), asyncio.get_running_loop().create_future())
        heapq.heappush(self._waiting, entry)
        try:
            await entry[2]
        except asyncio.CancelledError:
            turn = entry[2]
            if turn.done() and not turn.cancelled():  # given the slot just as it was cancelled
                self._release()
            elif entry in self._waiting:
                self._waiting.remove(entry)
                heapq.heapify(self._waiting)
            raise

    def _release(self) -> None:
        self.running -= 1
        while self._waiting and self.running < self.slots:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():
                self.running += 1
                turn.set_result(None)
