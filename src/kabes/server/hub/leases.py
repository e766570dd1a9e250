"""Tables held under leases in Redis, shared with other processes (``kabes serve --redis``).

A table is held here only under its lease (taken before the store's claim, renewed while
held, released when the table is let go); asking for a table another process owns names that
process, and requests and sockets about it are relayed there (kabes.server.hub.relay). A task
adopts the tables in play whose lease has expired (their owner died): their clocks resume from
the dead owner's last heartbeat. Nothing is rebuilt at start: the adopter does it. A lease
says who should own a table; it is the store's epoch that makes a split impossible, so every
check-then-act below may lose a race to another process and is safe for it (the store refuses
the loser's entries, and the hub drops a table it lost).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Sequence
from typing import Any

from kabes.server.hub.cluster import Cluster, RedisError
from kabes.server.hub.holding import Tables
from kabes.server.hub.relay import Relay
from kabes.server.table.actor import Table
from kabes.server.table.table_requests import TableRequest

log = logging.getLogger("kabes.hub")

ADOPTING = 8
"""Orphaned tables a process rebuilds at once."""


class Leases:
    """The tables this process holds among many, by their leases in Redis."""

    sole_writer = False
    """Another process may create any table at any moment."""

    def __init__(self, cluster: Cluster, tables: Tables) -> None:
        self.cluster = cluster
        self._tables = tables
        self.relay: Relay | None = Relay(cluster, tables)
        """Sockets and requests relayed to and from other processes."""
        self.adopted = 0
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def answer_within(self) -> float:
        """A third of a lease (at least half a second): an owner that died is replaced
        within a lease."""
        return max(0.5, self.cluster.lease / 3)

    async def open(self) -> int:
        """Forget which process held which table (the store's owners are stale), then renew
        leases and adopt orphans in the background; nothing is rebuilt now."""
        loop = asyncio.get_running_loop()
        await self._tables.store.forget_servers()
        self._tasks = [loop.create_task(self._keep_leases(), name="leases"),
                       loop.create_task(self._adopt_orphans(), name="adopter")]
        return 0

    async def stop(self) -> None:
        """Stop renewing and adopting."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    async def give_up(self, tables: Sequence[Table]) -> None:
        """Mark ``tables`` unowned in the store (those not lost: another owns those) and
        release their leases, so that other processes adopt them at once."""
        with contextlib.suppress(Exception):
            await self._tables.store.disown([t.code for t in tables if not t.lost])
        for table in tables:
            with contextlib.suppress(RedisError, OSError):
                await self.cluster.release(table.code)

    async def take(self, code: str) -> bool:
        """Take table ``code``'s lease (an atomic set-if-absent in Redis)."""
        return await self.cluster.take(code)

    async def locate(self, code: str) -> Table | str | None:
        """Table ``code``, taking its lease and rebuilding it if nobody holds it; else the
        id of the process that does; None if there is no such table. Raises RedisError
        when Redis cannot be reached."""
        loading = self._tables.loading.get(code)
        if loading is not None:
            return await loading
        grace = time.monotonic() + self.cluster.lease
        while True:
            owner = await self.cluster.owner(code)
            if owner is not None and owner != self.cluster.me:
                return owner
            if owner is None and time.monotonic() < grace and await self._alive_holder(code):
                # No lease, but its owner is alive (Redis lost its keys): it takes its
                # lease back at its next renewal; give it that long.
                await asyncio.sleep(0.1)
                continue
            if owner is None and not await self._tables.exists(code):
                return None  # no lease taken, nothing kept (see Hub.exists)
            # The owner read above may be stale: take() is the atomic step, and a lost
            # race only loops to read the new owner.
            if owner == self.cluster.me or await self.cluster.take(code):
                break
        found = await self._tables.load(code)
        if found is None:
            await self.cluster.release(code)
        return found

    async def call(self, owner: str, code: str, request: TableRequest,
                   timeout: float) -> Any:
        """Relay ``request`` to process ``owner`` (kabes.server.hub.relay)."""
        assert self.relay is not None
        return await self.relay.call(owner, code, request, timeout)

    async def _keep_leases(self) -> None:
        """Renew this process's leases a few times per lease; drop the tables whose lease
        another process holds now; check the relayed sockets' owners and origins."""
        assert self.relay is not None
        while True:
            await asyncio.sleep(self.cluster.lease / 3)
            try:
                held = self._tables.tables
                lost = await self.cluster.renew([*held, *self._tables.loading])
                for code in lost:
                    table = held.get(code)
                    if table is not None:
                        log.warning("table %s: its lease is another process's now", code)
                        table.lose()
                await self.relay.check()
            except (RedisError, OSError) as err:
                log.warning("could not renew leases: %r", err)

    async def _adopt_orphans(self) -> None:
        """Take the tables in play whose lease has expired (their owner is gone), and
        rebuild them here: a few at a time, every lease or so (at random, so that
        processes take turns)."""
        gate = asyncio.Semaphore(ADOPTING)

        async def adopt(code: str) -> None:
            async with gate:
                try:
                    # Not held here, and the lease taken atomically: only one process
                    # rebuilds an orphan (and the store's claim fences a late one).
                    if (code not in self._tables.tables and await self.cluster.take(code)
                            and await self._tables.load(code) is not None):
                        self.adopted += 1
                        log.info("adopted", extra={"fields": {"event": "adopted",
                                                              "table": code}})
                except Exception:
                    log.exception("table %s could not be adopted", code)

        while True:
            try:
                now = time.time()
                codes = [c for c, owner, beat in await self._tables.store.in_play()
                         if c not in self._tables.tables and c not in self._tables.loading
                         and not self._fresh(owner, beat, now)]
                owners = await self.cluster.owners(codes)
                orphans = [c for c, o in zip(codes, owners, strict=True) if o is None]
                random.shuffle(orphans)
                if orphans:
                    await asyncio.gather(*(adopt(code) for code in orphans))
            except Exception as err:
                log.warning("could not look for orphaned tables: %r", err)
            await asyncio.sleep(self.cluster.lease * random.uniform(0.3, 0.6))

    def _fresh(self, owner: str | None, beat: float | None, now: float) -> bool:
        """Whether ``owner`` (another process) said it was alive within a lease."""
        return (owner is not None and owner != self.cluster.me and beat is not None
                and now - beat < self.cluster.lease)

    async def _alive_holder(self, code: str) -> bool:
        """Whether the process that claimed ``code`` last is alive (by its heartbeats)."""
        owner, beat = await self._tables.store.holder(code)
        return self._fresh(owner, beat, time.time())


__all__ = ["Leases"]
