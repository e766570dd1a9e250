"""What one seat and each socket may hold and send, whatever number of sockets a seat opens
(PROTOCOL.md, "Safe for strangers"; docs/protocol.md, Limits).

Each socket's own limit is :class:`SocketRate` (kabes.server.http.socket_api asks it for every
frame, as the frame arrives). A seat's are: at most ``seat_sockets`` sockets at once, a new
one closing the seat's oldest (close 4409, after an ``error`` ``too_many_sockets``), and at
most :data:`MAX_MESSAGES_PER_SECOND` actions a second from all its sockets together, counted
by when they arrived, the rest refused ``slow_down`` (nothing changed, the socket stays
open). The table's actor asks both, so neither needs a lock or a shared table.
"""

from __future__ import annotations

from kabes.server.common.protocol import (
    MAX_MESSAGES_PER_SECOND,
    ErrorCode,
    Refused,
    encode,
)
from kabes.server.common.window import Window
from kabes.server.table.inbox import Connection

TOO_MANY_SOCKETS_CLOSE = 4409
"""The close code of a seat's oldest socket when a newer one goes over the seat's cap."""


def shed_oldest(conns: list[Connection], cap: int) -> None:
    """Close the oldest of a seat's sockets while it holds more than ``cap``, each told why
    first; they leave ``conns`` at once, so they speak for nobody from then on."""
    while len(conns) > cap:
        oldest = conns.pop(0)
        refused = Refused(ErrorCode.TOO_MANY_SOCKETS,
                          f"this seat opened more than {cap} sockets; the oldest is closed")
        oldest.send(encode(refused.to_error(None)))
        oldest.close(TOO_MANY_SOCKETS_CLOSE)


class SeatRate:
    """The actions each seat sent within the last second, all its sockets together, counted
    at the moment each *arrived* (its ``received`` stamp, ``time.perf_counter()``), not when
    the table got to it: a backlog (a table busy storing, a restart) handled in a burst was
    sent at the client's pace and is not refused for the table's."""

    def __init__(self, limit: int = MAX_MESSAGES_PER_SECOND) -> None:
        self.limit = limit
        self._windows: dict[int, Window] = {}
        """One per seat: bounded by the table's seats."""

    def check(self, seat: int, received: float) -> None:
        """Count one action of ``seat`` that arrived at ``received``; Refused ``slow_down``
        if it is one too many."""
        window = self._windows.get(seat)
        if window is None:
            window = self._windows[seat] = Window(self.limit)
        if not window.hit(received):
            raise Refused(ErrorCode.SLOW_DOWN, f"a seat may send at most {self.limit} "
                          "messages a second, all its sockets together")


class SocketRate:
    """One socket's messages, a watcher's included, counted as they arrive. PROTOCOL.md says
    two things of the 101st message within a second: every socket sends at most 100 a second
    "then ``slow_down``" ("Safe for strangers"), and more than 100 within one second from one
    socket "closes it (1008)" (guarantee 3). Both hold: the one too many is answered
    ``error`` ``slow_down`` under its id, not passed on, and the socket is closed 1008. A
    client pacing itself honestly never gets there (the seat's own limit, :class:`SeatRate`,
    is what several sockets of one seat meet, and it keeps them open)."""

    __slots__ = ("_passed",)

    def __init__(self) -> None:
        self._passed = Window(MAX_MESSAGES_PER_SECOND)

    def passes(self, now: float) -> bool:
        """Count a message that arrived at ``now``; False if it is one too many."""
        return self._passed.hit(now)
