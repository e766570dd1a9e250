"""Counting events in a sliding window: the one place that does it, for every limit that
says "at most N within any S seconds" (the HTTP rate limits of kabes.server.common.limits, a
socket's and a seat's messages a second of kabes.server.table.seat_limits).

A window keeps the moments of the events it let through within the last ``seconds``, at
most ``most`` of them, so "100 a second" holds over every second and not only within
calendar seconds (a fixed window lets twice as many through across its edge). An event
refused is not counted: a client that slows down is served again as soon as it is under.
The moments are whatever clock the caller counts by: a message is counted at the moment it
*arrived* (its ``received`` stamp), so a backlog handled late does not look like a burst.
"""

from __future__ import annotations

from collections import deque


class Window:
    """At most ``most`` events within any ``seconds``."""

    __slots__ = ("_marks", "_times", "most", "seconds")

    def __init__(self, most: int, seconds: float = 1.0) -> None:
        self.most = most
        self.seconds = seconds
        self._times: deque[float] = deque()
        self._marks: deque[str] = deque()
        """Each counted event's mark, beside its moment: what :meth:`unhit` takes back."""

    def wait(self, now: float) -> float:
        """Seconds from ``now`` until one more event fits (0: it fits now)."""
        times = self._times
        while times and now - times[0] >= self.seconds:
            times.popleft()
            self._marks.popleft()
        if len(times) < self.most:
            return 0.0
        return times[0] + self.seconds - now

    def hit(self, now: float, mark: str = "") -> bool:
        """Count one event at ``now`` if it fits; whether it did. ``mark``: a name for it,
        by which :meth:`unhit` may take it back (a link code's try that linked)."""
        if self.wait(now) > 0:
            return False
        self._times.append(now)
        self._marks.append(mark)
        return True

    def unhit(self, mark: str) -> None:
        """Take back the event counted with ``mark`` (nothing if it is gone)."""
        try:
            at = self._marks.index(mark)
        except ValueError:
            return
        del self._marks[at]
        del self._times[at]

    def quiet_at(self, now: float) -> bool:
        """Whether every event counted is older than the window (it may be forgotten)."""
        return not self._times or now - self._times[-1] >= self.seconds
