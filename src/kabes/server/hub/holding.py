"""How this process holds its live tables: alone (:class:`HeldAlone`), or under leases
shared with other processes through Redis (:class:`kabes.server.hub.leases.Leases`).

The hub (kabes.server.hub.hub) opens, finds and forgets tables the same way on either side; what
differs is whether holding a table needs anyone's leave. Alone, this process owns every table
of its store: nothing to take or give back, nobody to relay to, and on start it rebuilds every
table that was not over. Shared, a table is held only under its lease, another process may
own the one asked for, and orphans are adopted instead of rebuilt at start. The hub asks this
object rather than which side it runs on; the side is chosen once, by the processes serving
the store (:meth:`kabes.server.processes.Processes.hold`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Protocol

from kabes.server.hub.relay import Relay
from kabes.server.store.store import Store
from kabes.server.table.actor import Table
from kabes.server.table.table_requests import TableRequest

ANSWER_WITHIN_ALONE = 1.0
"""Seconds before looking again for a table's owner, when this process is alone (it never
waits for another: kept only so that callers have one figure to read)."""


class Tables(Protocol):
    """What a holding needs of the hub whose tables it holds."""

    @property
    def store(self) -> Store:
        """The store the tables' logs are in."""
        ...

    @property
    def tables(self) -> dict[str, Table]:
        """The tables held here, by code."""
        ...

    @property
    def loading(self) -> dict[str, asyncio.Future[Table | None]]:
        """The tables being rebuilt here now, by code."""
        ...

    def held(self, code: str) -> Table | None:
        """Table ``code`` if held here and not lost."""
        ...

    async def get(self, code: str) -> Table | None:
        """Table ``code`` held here, rebuilt from the store if need be; None if none."""
        ...

    async def exists(self, code: str) -> bool:
        """Whether the store holds a table ``code`` (a read, nothing written)."""
        ...

    async def load(self, code: str) -> Table | None:
        """Rebuild table ``code`` here, once however many ask."""
        ...

    async def rebuild_all(self) -> int:
        """Rebuild every table that was not over; how many."""
        ...

    async def answer(self, table: Table, request: TableRequest) -> Any:
        """Answer a request about a table held here."""
        ...


class Holding(Protocol):
    """What the hub asks of the side it holds its tables on."""

    relay: Relay | None
    """Sockets and requests relayed to and from other processes (None: there are none)."""
    adopted: int
    """Orphaned tables this process has adopted since it started."""
    fenced: bool
    """This process cannot renew its leases (cut off from Redis): it holds no table, seats
    nobody and should be passed over (its handshakes and ``/healthz`` answer 503)."""

    @property
    def sole_writer(self) -> bool:
        """Whether nobody but this process can create a table in the store: then a read
        that found no table ``code`` stays true until this process writes one."""
        ...

    @property
    def answer_within(self) -> float:
        """Seconds a process waits for another to answer before it looks again for the
        table's owner."""
        ...

    def current(self) -> bool:
        """Whether this process may act for its tables now (among many: its leases are
        surely still its own)."""
        ...

    async def renewed(self) -> None:
        """Wait until :meth:`current` may have changed."""
        ...

    async def open(self) -> int:
        """Start holding (rebuilding or adopting tables); how many were rebuilt now."""
        ...

    async def stop(self) -> None:
        """Stop the background work started by :meth:`open` (before the tables stop)."""
        ...

    async def give_up(self, tables: Sequence[Table]) -> None:
        """Give back ``tables`` (stopped) so that others may take them at once."""
        ...

    async def take(self, code: str) -> bool:
        """Take table ``code`` for this process; False if another holds it."""
        ...

    async def locate(self, code: str) -> Table | str | None:
        """Table ``code``, not held here yet: the table once rebuilt here, the id of the
        process that owns it, or None if there is no such table."""
        ...

    async def call(self, owner: str, code: str, request: TableRequest,
                   timeout: float) -> Any:
        """Ask process ``owner`` ``request`` about its table ``code``."""
        ...


class HeldAlone:
    """This process alone holds every table of its store: nobody to ask, nothing leased."""

    relay: Relay | None = None
    adopted = 0
    fenced = False
    sole_writer = True
    answer_within = ANSWER_WITHIN_ALONE

    def __init__(self, tables: Tables) -> None:
        self._tables = tables

    def current(self) -> bool:
        """Always: nobody else can take a table."""
        return True

    async def renewed(self) -> None:
        """Nothing to renew."""

    async def open(self) -> int:
        """Rebuild every table that was not over when the server stopped."""
        return await self._tables.rebuild_all()

    async def stop(self) -> None:
        """Nothing runs in the background."""

    async def give_up(self, tables: Sequence[Table]) -> None:
        """Nobody else will take them: nothing to give back."""

    async def take(self, code: str) -> bool:
        """Always: nobody else holds a table."""
        return True

    async def locate(self, code: str) -> Table | str | None:
        """Here or nowhere: rebuilt from the store if need be."""
        return await self._tables.get(code)

    async def call(self, owner: str, code: str, request: TableRequest,
                   timeout: float) -> Any:
        """Never asked: :meth:`locate` never names another process."""
        raise AssertionError(f"alone, yet table {code} is said to be held by {owner}")


__all__ = ["HeldAlone", "Holding", "Tables"]
