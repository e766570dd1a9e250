"""A queue for one reader, cheaper than ``asyncio.Queue`` (see :class:`Mailbox`)."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    """``asyncio.Queue``'s ``put_nowait``, ``get`` and ``get_nowait`` for one reader (a
    table's actor, the store's writer), without what a queue keeps for many readers and for
    ``join`` (a future per wait, a count of unfinished items, an event cleared at every put):
    an item comes and goes at every change of every table, in both."""

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        """Add ``item``, and wake the reader if it waits."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> T:
        """The oldest item, once there is one."""
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        return self._items.popleft()

    def get_nowait(self) -> T:
        """The oldest item; IndexError if there is none."""
        return self._items.popleft()

    def qsize(self) -> int:
        """How many items wait."""
        return len(self._items)

    def empty(self) -> bool:
        """Whether no item waits."""
        return not self._items
