"""What reaches a table's actor: the items of its inbox, and a socket as a table sees it.

Everything that changes a table or asks it something arrives as one of these items and is
handled one at a time (``kabes.server.table.actor``): an action from a socket, a hello, a seat taken
over HTTP, a clock running out, a computer's move or advice coming back from the workers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from kabes.server.common.protocol import Action, Refused, ReviewMove, encode


class Connection(Protocol):
    """One client socket, as a table sees it. It carries the player its hello's token named
    (None: a watcher), fixed for the socket's life, so the table can check, at every item it
    handles, that the seat the socket stands for is still that player's (PROTOCOL.md, "A
    socket acts only for its own player"); ``seat`` is set by the table when it seats it."""

    seat: int
    player: int | None

    def send(self, data: bytes) -> None:
        """Queue ``data`` for the client; never blocks."""
        ...

    def close(self, code: int) -> None:
        """Close the socket (after what is queued)."""
        ...


@dataclass(slots=True)
class ClientAction:
    """A decoded action from a seat's socket."""

    conn: Connection
    action: Action
    received: float = 0.0
    """``time.perf_counter()`` when the socket read it (for the latency histogram)."""


@dataclass(slots=True)
class Greet:
    """A socket said hello for its player (``conn.player``), here or relayed from another
    process (kabes.server.hub.relay). The table finds the player's seat itself, in this one item:
    no answer given earlier, on another loop turn, can be out of date by the time the socket
    is seated (a leave and another person's join may come between)."""

    conn: Connection
    seated: asyncio.Future[bool] | None = None
    """Set once the table has seated the socket (True) or refused it (False), for the
    socket's reader, which reads nothing more until then."""


@dataclass(slots=True)
class Watch:
    """A socket said hello to watch (kabes.server.table.watchers): no seat, no token needed."""

    conn: Connection


@dataclass(slots=True)
class Detach:
    """A socket closed (``forced``: by the servers, not by its client: the process holding
    it died, or the link between processes broke)."""

    conn: Connection
    forced: bool = False


@dataclass(slots=True)
class Join:
    """A person asks for a seat (HTTP)."""

    player: int
    name: str
    reply: asyncio.Future[int]


@dataclass(slots=True)
class Tick:
    """A clock may have run out."""


@dataclass(slots=True)
class Thought:
    """A computer seat's move, for decision ``turn_id``."""

    turn_id: int
    move: str


@dataclass(slots=True)
class Advice:
    """The expert's answer to ``seat``'s hint on turn ``turn_id`` (an empty move: the
    search failed)."""

    seat: int
    turn_id: int
    move: str
    reason: str


@dataclass(slots=True)
class Reviewed:
    """A review computed for ``seat``'s hand ``hand``: the answer's moves (None if it
    failed)."""

    seat: int
    hand: int
    moves: list[ReviewMove] | None


@dataclass(slots=True)
class Call:
    """Run a function on the table's task (tests, the hub)."""

    fn: Callable[[], Any]
    reply: asyncio.Future[Any]


InboxItem = (
    ClientAction | Greet | Watch | Detach | Join | Tick | Thought | Advice | Reviewed
    | Call
)


def turn_away(item: InboxItem, refused: Refused, close: int | None = None) -> None:
    """Answer ``item`` with ``refused`` rather than leave its asker waiting: a socket's
    action gets the error under its id, a join or a call the exception; with ``close``, a
    socket that came to attach or watch is closed with that code."""
    if isinstance(item, ClientAction):
        item.conn.send(encode(refused.to_error(item.action.id)))
    elif isinstance(item, Join | Call):
        if not item.reply.done():
            item.reply.set_exception(refused)
    elif close is not None and isinstance(item, Greet | Watch):
        item.conn.close(close)
    if isinstance(item, Greet) and item.seated is not None and not item.seated.done():
        item.seated.set_result(False)

