"""Tables held under leases in Redis, shared with other processes (``kabes serve --redis``).

A table is held here only under its lease (taken before the store's claim, renewed while
held, released when the table is let go); asking for a table another process owns names that
process, and requests and sockets about it are relayed there (kabes.server.hub.relay). A task
adopts the tables in play whose lease has expired (their owner died): their clocks resume from
the dead owner's last heartbeat. Nothing is rebuilt at start: the adopter does it. A lease
says who should own a table; it is the store's epoch that makes a split impossible, so every
check-then-act below may lose a race to another process and is safe for it (the store refuses
the loser's entries, and the hub drops a table it lost).

A process acts for its tables only while its leases are surely its own: for
``ACT_FOR`` of a lease from the start of the last renewal that succeeded (:meth:`Leases.current`;
the lease cannot expire in Redis before a whole lease from that start). Past that, its tables'
actors wait for the next renewal before they handle anything (a process frozen by a pause
comes back here first, whatever its event loop runs first): the renewal says which tables
another process took meanwhile, and those are dropped (their sockets closed 1012) before they
send or write a thing. A renewal that fails past that point fences the process: it drops every
table (sockets closed 1012, the tables disowned in the store so that a process that can reach
Redis adopts them at once) and answers hellos ``unavailable`` at once until Redis answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from kabes.server.hub.cluster import Cluster, RedisError
from kabes.server.hub.holding import Tables
from kabes.server.hub.relay import Relay
from kabes.server.table.actor import Table
from kabes.server.table.table_requests import TableRequest

log = logging.getLogger("kabes.hub")

ADOPTING = 8
"""Orphaned tables a process rebuilds at once."""
ACT_FOR = 0.75
"""The part of a lease, from the start of the last renewal that succeeded, during which this
process acts for its tables (renewals come every third of a lease: one may fail or be late
without the tables stopping)."""
LOOKS_PER_LEASE = 8
"""How often, per lease, a process looks whether the owners of its relayed sockets and of the
tables in play are alive (a few Redis commands each time): a table whose owner died is
adopted, and the sockets relayed to it closed, within this fraction of a lease of the lease's
end."""
FRESH_BEAT = 0.5
"""The part of a lease within which a process's heartbeat in the store says it is alive
(a table whose lease is gone is not adopted from a process that beat since: it takes the
lease back itself, as after Redis lost its keys)."""


FENCED = "this process cannot reach the others (Redis); try another"
"""Why a process cut off from Redis refuses a socket's handshake and ``/healthz`` (503)."""


class CutOff(RedisError):
    """This process cannot renew its leases (Redis unreachable): it holds no table and
    cannot reach another's owner; the client should try another process."""


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
        self.renewed_at = time.monotonic()
        """``time.monotonic()`` when the last renewal that succeeded began."""
        self.fenced = False
        """The last renewals failed past :data:`ACT_FOR` of a lease: every table was dropped."""
        self._round: asyncio.Future[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def answer_within(self) -> float:
        """Half a lease (at least a second): an owner that died is replaced within a lease,
        and a hello waiting on it is let go sooner (:meth:`Relay.check_owners`)."""
        return max(1.0, self.cluster.lease / 2)

    def current(self) -> bool:
        """Whether this process may act for its tables now: its last renewal that
        succeeded began less than :data:`ACT_FOR` of a lease ago."""
        return time.monotonic() < self.renewed_at + self.cluster.lease * ACT_FOR

    async def renewed(self) -> None:
        """Wait for the renewal under way (or the next) to end, however it ends (a lease at
        most); then :meth:`current` says again whether to act, and a table another process
        took meanwhile has been dropped."""
        if self._round is None or self._round.done():
            self._round = asyncio.get_running_loop().create_future()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._round), self.cluster.lease)

    async def open(self) -> int:
        """Forget which process held which table (the store's owners are stale), then renew
        leases and adopt orphans in the background; nothing is rebuilt now."""
        loop = asyncio.get_running_loop()
        await self._tables.store.forget_servers()
        self.renewed_at = time.monotonic()
        self._tasks = [loop.create_task(self._keep_leases(), name="leases"),
                       loop.create_task(self._adopt_orphans(), name="adopter"),
                       loop.create_task(self._watch_relayed(), name="relay watcher")]
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
        if self.fenced:  # Redis out of reach: the leases end by themselves
            return
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
        if self.fenced:
            raise CutOff("this process cannot renew its leases in Redis")
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
            # race only loops to read the new owner. A lease still this process's (a table
            # it dropped, fenced or lost, and seats again) is taken too: with a new token,
            # so that sockets other processes relayed to the table it dropped are closed
            # there, never taken for sockets seated at this new one (kabes.server.hub.relay).
            if await self.cluster.take(code):
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
        """Renew this process's leases every third of a lease (one pipelined round trip);
        drop the tables whose lease another process holds now; fence this process when
        renewals fail past :data:`ACT_FOR` of a lease."""
        every = self.cluster.lease / 3
        while True:
            started = time.monotonic()
            # A renewal may take until the tables would stop anyway (a third of a lease at
            # least: after a pause, the first one gets its chance).
            patience = max(every, self.renewed_at + self.cluster.lease * ACT_FOR - started)
            try:
                held = self._tables.tables
                lost = await asyncio.wait_for(
                    self.cluster.renew([*held, *self._tables.loading]), patience)
            except Exception as err:  # RedisError, OSError, TimeoutError: Redis out of reach
                log.warning("could not renew leases: %r", err)
                if time.monotonic() >= self.renewed_at + self.cluster.lease * ACT_FOR:
                    await self._fence(err)
            else:
                self.renewed_at = started
                if self.fenced:
                    log.warning("leases renewed again: this process takes tables again")
                    self.fenced = False
                for code in lost:
                    table = held.get(code)
                    if table is not None:
                        log.warning("table %s: its lease is another process's now", code)
                        table.lose()
            finally:
                if self._round is not None and not self._round.done():
                    self._round.set_result(None)
            await asyncio.sleep(max(0.0, started + every - time.monotonic()))

    async def _fence(self, why: Exception) -> None:
        """Renewals failed for too long: the leases may expire elsewhere. Drop every table
        (sockets closed 1012), disown them in the store (a process that reaches Redis adopts
        them at once), close every relayed socket."""
        tables = [t for t in self._tables.tables.values() if not t.lost]
        if not self.fenced:
            log.warning("cut off from Redis (%r): dropping %d tables", why, len(tables))
        self.fenced = True
        if tables:
            # Nothing is acted on here any more (current() is false): the store's owner is
            # cleared so that adopters need not wait for this process's heartbeats to stop.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    self._tables.store.disown([t.code for t in tables]), self.cluster.lease)
        for table in tables:
            # Its lease is renewed no more (it ends, or a take gives it a new token): the
            # sockets other processes relayed to it are closed there (Relay.check_owners).
            self.cluster.tokens.pop(table.code, None)
            table.lose()
        if self.relay is not None:
            self.relay.reset()

    async def _adopt_orphans(self) -> None:
        """Take the tables in play whose lease has expired (their owner is gone), and
        rebuild them here, a few at a time. The store is read for them every lease or so
        (at random, so that processes take turns), and at once when a process that owned
        tables in play is seen gone (its key in Redis expired with its leases)."""
        gate = asyncio.Semaphore(ADOPTING)
        tick = self.cluster.lease / LOOKS_PER_LEASE
        owners: set[str] = set()
        """The other processes that owned tables in play at the last read of the store."""
        next_read = 0.0
        watch_until = 0.0

        async def adopt(code: str) -> None:
            async with gate:
                try:
                    # Not held here, and the lease taken atomically: only one process
                    # rebuilds an orphan (and the store's claim fences a late one).
                    if (not self.fenced and code not in self._tables.tables
                            and await self.cluster.take(code)
                            and await self._tables.load(code) is not None):
                        self.adopted += 1
                        log.info("adopted", extra={"fields": {"event": "adopted",
                                                              "table": code}})
                except Exception:
                    log.exception("table %s could not be adopted", code)

        while True:
            now = time.monotonic()
            try:
                if not self.fenced:
                    if owners and len(await self.cluster.alive(owners)) < len(owners):
                        watch_until = now + self.cluster.lease  # one died: its leases end
                    if now >= next_read or now < watch_until:
                        next_read = now + self.cluster.lease * random.uniform(0.3, 0.6)
                        owners = await self._adopt_round(adopt)
            except Exception as err:
                log.warning("could not look for orphaned tables: %r", err)
            await asyncio.sleep(max(0.0, now + tick - time.monotonic()))

    async def _watch_relayed(self) -> None:
        """Every :data:`LOOKS_PER_LEASE` th of a lease, close the sockets relayed to an owner
        whose lease ended (1012) and detach those relayed here from a process that died. A
        task of its own: an adoption under way (a rebuild, reads of the store) never holds
        up a socket waiting on a lost owner."""
        assert self.relay is not None
        tick = self.cluster.lease / LOOKS_PER_LEASE
        while True:
            now = time.monotonic()
            try:
                if not self.fenced:
                    await asyncio.wait_for(self.relay.check(), self.cluster.lease)
            except Exception as err:
                log.warning("could not look at the relayed sockets' owners: %r", err)
            await asyncio.sleep(max(0.0, now + tick - time.monotonic()))

    async def _adopt_round(self, adopt: Callable[[str], Awaitable[None]]) -> set[str]:
        """Adopt the orphans in play now; the other processes that own tables in play."""
        now = time.time()
        in_play = await self._tables.store.in_play()
        codes = [c for c, owner, beat in in_play
                 if c not in self._tables.tables and c not in self._tables.loading
                 and not self._fresh(owner, beat, now)]
        owners = await self.cluster.owners(codes)
        orphans = [c for c, o in zip(codes, owners, strict=True) if o is None]
        random.shuffle(orphans)
        if orphans:
            await asyncio.gather(*(adopt(code) for code in orphans))
        return {o for c, o, b in in_play if o is not None and o != self.cluster.me}

    def _fresh(self, owner: str | None, beat: float | None, now: float) -> bool:
        """Whether ``owner`` (another process) said it was alive within :data:`FRESH_BEAT`
        of a lease (a frozen or dead one has not: its lease expired a while after its last
        heartbeat, and it renewed both together)."""
        return (owner is not None and owner != self.cluster.me and beat is not None
                and now - beat < self.cluster.lease * FRESH_BEAT)

    async def _alive_holder(self, code: str) -> bool:
        """Whether the process that claimed ``code`` last is alive (by its heartbeats)."""
        owner, beat = await self._tables.store.holder(code)
        return self._fresh(owner, beat, time.time())


__all__ = ["ACT_FOR", "FENCED", "CutOff", "Leases"]
