"""What one seat may hold and send, whatever number of sockets it opens (PROTOCOL.md, "Safe
for strangers"; docs/protocol.md, Limits).

A socket's own flood limit is app.py's (a socket over it is closed 1008). Here are the seat's:
at most ``seat_sockets`` sockets at once, a new one closing the seat's oldest (close 4409,
after an ``error`` ``too_many_sockets``), and at most :data:`MAX_MESSAGES_PER_SECOND` actions
a second from all its sockets together, the rest refused ``slow_down`` (nothing changed, the
socket stays open). The table's actor asks both, so neither needs a lock or a shared table.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from kabes.server.inbox import Connection
from kabes.server.protocol import MAX_MESSAGES_PER_SECOND, ErrorCode, Refused, encode

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
    """The actions each seat sent within the last second, all its sockets together."""

    def __init__(self, limit: int = MAX_MESSAGES_PER_SECOND,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.now = now
        self._times: dict[int, deque[float]] = {}

    def check(self, seat: int) -> None:
        """Count one action of ``seat``; Refused ``slow_down`` if it is one too many."""
        now = self.now()
        times = self._times.get(seat)
        if times is None:
            times = self._times[seat] = deque()
        while times and now - times[0] > 1.0:
            times.popleft()
        if len(times) >= self.limit:
            raise Refused(ErrorCode.SLOW_DOWN, f"a seat may send at most {self.limit} "
                          "messages a second, all its sockets together")
        times.append(now)
