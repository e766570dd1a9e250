"""The locks that make quick seats one at a time per (variant, seat count): in this process
(:class:`LocalQuickLocks`), or across every process sharing Redis (:class:`RedisQuickLocks`).

A quick seat is a check-then-act: read the waiting listings, then take a seat at the first
that fits or open a table. Two people asking at once must sit at one table, so the holder of
the lock does both before the next one reads. Alone, every quick seat runs on this event loop,
and an ``asyncio.Lock`` held across the awaits is enough. Shared, a quick seat on another
process reads the same listings in Redis, so the lock is also ``SET NX PX`` on
``{prefix}quick:{variant}:{players}``: its expiry frees it should its holder die, and it is
released only by the token that took it (a holder slower than the expiry must not free a
later holder's lock). A holder stalled past the expiry may let a second quick seat in: at
worst two tables open where one would do, never a seat given twice (each table's owner gives
its seats). The lock is per seat count and not per stated options, because requests
stating different options can fit the same table (one that states none fits any).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import Any, Final

from redis.asyncio import Redis
from redis.exceptions import RedisError

from kabes.server.common.protocol import ErrorCode, Refused

QUICK_LOCK_SECONDS: Final = 10.0
"""The Redis lock of quick seats expires after this, should its holder die holding it."""
QUICK_WAIT_SECONDS: Final = 5.0
"""A quick seat waits this long for the Redis lock, then is answered ``unavailable``."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class LocalQuickLocks:
    """One ``asyncio.Lock`` per (variant, seat count), in this process."""

    def __init__(self) -> None:
        self._locks: dict[tuple[str, int], asyncio.Lock] = {}

    def hold(self, variant: str, players: int) -> AbstractAsyncContextManager[None]:
        """Quick seats of (``variant``, ``players``) one at a time in this process."""
        return self._locks.setdefault((variant, players), asyncio.Lock())


class RedisQuickLocks:
    """This process's locks, then the one in Redis that every process shares."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self._redis = redis
        self._prefix = prefix
        self._local = LocalQuickLocks()
        self._release: Any = redis.register_script(_RELEASE)

    @contextlib.asynccontextmanager
    async def hold(self, variant: str, players: int) -> AsyncIterator[None]:
        """Quick seats of (``variant``, ``players``) one at a time across processes; this
        process's own askers queue on the local lock first, so only one of them at a time
        polls Redis."""
        async with self._local.hold(variant, players):
            key = f"{self._prefix}quick:{variant}:{players}"
            token = secrets.token_hex(8)
            deadline = time.monotonic() + QUICK_WAIT_SECONDS
            while not await self._redis.set(key, token, nx=True,
                                            px=round(QUICK_LOCK_SECONDS * 1000)):
                if time.monotonic() > deadline:
                    raise Refused(ErrorCode.UNAVAILABLE, "quick seats are busy; try again")
                await asyncio.sleep(0.02)
            try:
                yield
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await self._release(keys=[key], args=[token])


__all__ = ["QUICK_LOCK_SECONDS", "QUICK_WAIT_SECONDS", "LocalQuickLocks", "RedisQuickLocks"]
