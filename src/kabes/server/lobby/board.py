"""The lobby's board: the public tables listed and the people online, as the lobby reads
them, on either side a process runs on.

Alone, every table that is not over lives in this process, so :class:`BoardHere` reads the
tables themselves at each request (never stale, nothing to publish). With many processes,
each owner publishes what it holds in Redis and any process reads everybody's
(:class:`kabes.server.lobby.published.Published`). The lobby (kabes.server.lobby.lobby)
asks this object rather than which side it runs on; the side is chosen once, by the
processes serving the store
(:meth:`kabes.server.processes.Processes.board`), as the hub's holding is.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from kabes.server.lobby.quick_locks import LocalQuickLocks
from kabes.server.table.actor import Table
from kabes.table.state import Status


@dataclass(slots=True)
class Listing:
    """A public table as the lobby lists it."""

    code: str
    variant: str
    players: int
    waiting: bool
    """A seat may be taken (else the match is in play or between hands)."""
    seated: int
    present: int
    """Seats whose occupant is here: a computer, or a person with a socket open. Waiting
    tables are listed (and quick seats made) by it first, so that a table whose seats were
    taken by people who never came (who lose them after ``--seat-wait-seconds``) is not put
    before one whose people are waiting there to play."""
    opened: float
    watchers: int
    summary: Callable[[], dict[str, Any]]
    """Its summary (built only for the tables shown)."""


def listing_of(table: Table) -> Listing | None:
    """``table`` as the lobby lists it now; None for a private table, or one that is over.
    Read between two steps of its actor, like a summary."""
    state = table.state
    if not state.public or state.status == Status.OVER or table.lost:
        return None
    seated = sum(s is not None for s in state.seats)
    present = sum(s is not None and (not s.person or table.connected(n))
                  for n, s in enumerate(state.seats))
    return Listing(table.code, state.variant, state.players, state.status == Status.WAITING,
                   seated, present, state.opened_at, table.watcher_count, table.summary)


def online_here(tables: dict[str, Table]) -> set[int]:
    """The players with a socket open at a seat of one of ``tables`` (watchers not)."""
    out: set[int] = set()
    for table in list(tables.values()):
        seats = table.state.seats
        for seat in table.sockets.seats():
            sitter = seats[seat] if 0 <= seat < len(seats) else None
            if sitter is not None and sitter.player is not None:
                out.add(sitter.player)
    return out


class Listed(Protocol):
    """What a board needs of the hub whose tables it lists."""

    @property
    def tables(self) -> dict[str, Table]:
        """The tables this process holds, by code."""
        ...

    def held(self, code: str) -> Table | None:
        """Table ``code`` if held here and not lost."""
        ...


class Board(Protocol):
    """What the lobby asks of the side it reads its board from."""

    def start(self) -> None:
        """Start whatever keeps the board current in the background."""
        ...

    async def close(self) -> None:
        """Stop it."""
        ...

    async def listings(self, variant: str | None, waiting_only: bool) -> list[Listing]:
        """Every public table listed now (of ``variant``, or of every variant)."""
        ...

    async def people_online(self) -> int:
        """People (distinct players) with a socket open at a seat of any table."""
        ...

    async def listed(self, table: Table) -> None:
        """A public table (held here) was opened, or a seat taken there: make the board
        show it as it is now, before the answer that changed it is sent."""
        ...

    def quick_seat(self, variant: str, players: int) -> AbstractAsyncContextManager[None]:
        """Held while one quick seat of (``variant``, ``players``) is made: nobody else,
        on any process, makes one of them meanwhile."""
        ...


class BoardHere:
    """Alone: the board is this process's own tables, read when asked."""

    def __init__(self, tables: Listed) -> None:
        self._tables = tables
        self._locks = LocalQuickLocks()

    def start(self) -> None:
        """Nothing to publish."""

    async def close(self) -> None:
        """Nothing runs in the background."""

    async def listings(self, variant: str | None, waiting_only: bool) -> list[Listing]:
        """Read from the tables now: never stale."""
        found = [listing_of(t) for t in list(self._tables.tables.values())]
        return [r for r in found if r is not None
                and (variant is None or r.variant == variant)
                and (r.waiting or not waiting_only)]

    async def people_online(self) -> int:
        """Counted from the tables' sockets now."""
        return len(online_here(self._tables.tables))

    async def listed(self, table: Table) -> None:
        """Nothing to write: :meth:`listings` reads the table itself."""

    def quick_seat(self, variant: str, players: int) -> AbstractAsyncContextManager[None]:
        """This process's lock: every table, hence every quick seat, is made here."""
        return self._locks.hold(variant, players)


__all__ = ["Board", "BoardHere", "Listed", "Listing", "listing_of", "online_here"]
