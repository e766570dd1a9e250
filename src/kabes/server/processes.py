"""The processes serving one store, as the server's assembly and routes see them: this one
alone (:class:`Alone`, SQLite or PostgreSQL without Redis), or one of many through Redis
(:class:`~kabes.server.hub.cluster.Cluster`, ``kabes serve --redis``).

Both sides answer the same questions (who this process is, how long a request waits for a
table's owner, where rate limits are counted, what health and logs say of it), so that code
which only asks them never branches on which side it runs: the choice is made once, in
:func:`alone_or_shared`, as :mod:`kabes.server.common.limits` chooses its counter.
"""

from __future__ import annotations

from typing import Any, Protocol

from kabes.server.common.limits import Counter, LocalCounter
from kabes.server.hub.cluster import Cluster
from kabes.server.hub.holding import HeldAlone, Holding, Tables
from kabes.server.lobby.board import Board, BoardHere, Listed
from kabes.server.lobby.published import Published
from kabes.server.store.store import SERVER_ID


class Processes(Protocol):
    """What the server's assembly and routes ask of the processes serving the store."""

    @property
    def me(self) -> str:
        """This process's id: the store records it as the owner of the tables it claims."""
        ...

    @property
    def patience(self) -> float:
        """Seconds a request or a hello waits for a table's owner (another process's lease
        may have to expire first)."""
        ...

    @property
    def stalled(self) -> float | None:
        """Seconds after which the database ends a transaction of this process that stopped
        talking to it (None: never). Another process that takes one of this process's tables
        raises the table's epoch, a write that waits for the locks of this process's open
        transactions: were this process frozen or cut off halfway through one, the table could
        not move until it woke."""
        ...

    def counter(self) -> Counter:
        """Where the limits on strangers count (every process's counts, when there are
        many: a stranger must not get a limit per process)."""
        ...

    async def start(self) -> None:
        """Join the others (before the hub opens its tables)."""
        ...

    async def close(self) -> None:
        """Leave them (after the hub let its tables go)."""
        ...

    def described(self) -> dict[str, Any]:
        """What the "ready" log line says of this process among the others."""
        ...

    def health(self) -> dict[str, Any]:
        """What ``/healthz`` tells a trusted client of this process among the others."""
        ...

    def shown(self) -> str:
        """What ``kabes serve`` prints after the store, when it starts."""
        ...

    def hold(self, tables: Tables) -> Holding:
        """How the hub holds ``tables`` on this side (kabes.server.hub.holding)."""
        ...

    def board(self, tables: Listed) -> Board:
        """Where the lobby reads its listings and people online, and locks its quick seats,
        on this side (kabes.server.lobby.board)."""
        ...


class Alone:
    """This process serves the store alone: it owns every table, nobody else counts."""

    me = SERVER_ID
    patience = 0.0
    """Nobody else can hold a table: a request never waits for another owner."""
    stalled = None
    """Nobody else takes this process's tables: no transaction of its is ended for them."""

    def counter(self) -> Counter:
        """Counted in memory."""
        return LocalCounter()

    async def start(self) -> None:
        """Nobody to join."""

    async def close(self) -> None:
        """Nobody to leave."""

    def described(self) -> dict[str, Any]:
        """Nothing: one process needs no name."""
        return {}

    def health(self) -> dict[str, Any]:
        """Nothing: one process needs no name."""
        return {}

    def shown(self) -> str:
        """Nothing."""
        return ""

    def hold(self, tables: Tables) -> Holding:
        """Every table is this process's: nothing to lease."""
        return HeldAlone(tables)

    def board(self, tables: Listed) -> Board:
        """The lobby reads this process's own tables: they are every table."""
        return BoardHere(tables)


class Shared:
    """This process is one of many through Redis: ``cluster`` answers for it, and the
    lobby's board is published there. The board is chosen here, not by the cluster, so
    that the cluster (a part of the hub) knows nothing of the lobby above it."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    @property
    def me(self) -> str:
        """The cluster's id for this process."""
        return self.cluster.me

    @property
    def patience(self) -> float:
        """As long as a dead owner's lease takes to expire and be adopted."""
        return self.cluster.patience

    @property
    def stalled(self) -> float | None:
        """As long as a lease (at least a second): a process that cannot talk for that long
        loses its tables anyway, and whoever takes one then waits for its locks at most
        another lease."""
        return max(1.0, self.cluster.lease)

    def counter(self) -> Counter:
        """Counted in Redis, every process's together."""
        return self.cluster.counter()

    async def start(self) -> None:
        """Join the others."""
        await self.cluster.start()

    async def close(self) -> None:
        """Leave them."""
        await self.cluster.close()

    def described(self) -> dict[str, Any]:
        """This process's id and address."""
        return self.cluster.described()

    def health(self) -> dict[str, Any]:
        """This process's id, address, and whether its subscription is up."""
        return self.cluster.health()

    def shown(self) -> str:
        """One of many, as which process."""
        return self.cluster.shown()

    def hold(self, tables: Tables) -> Holding:
        """Under leases in Redis (kabes.server.hub.leases)."""
        return self.cluster.hold(tables)

    def board(self, tables: Listed) -> Board:
        """The lobby's board published in Redis by every process (kabes.server.lobby.published)."""
        return Published(self.cluster.redis, self.cluster.prefix, tables)


def alone_or_shared(cluster: Cluster | None) -> Processes:
    """The one place that asks which side this process runs on: ``cluster`` (given by
    ``kabes serve --redis`` or a test) when there is one."""
    return Shared(cluster) if cluster is not None else Alone()


__all__ = ["Alone", "Processes", "Shared", "alone_or_shared"]
