"""The sockets a table's seats hold, and since when no person (or a seat) has held one.

The table's actor owns one :class:`SeatSockets` and is the only task that touches it, so it
needs no lock. A seat may hold several sockets (two tabs, a phone and a laptop), at most the
configured cap (kabes.server.seat_limits). Whether anybody is here is what the abandonment
clock reads (PROTOCOL.md, "Safe for strangers": a table nobody has a socket at for
``abandon_seconds`` is abandoned), so that clock lives beside the sockets it counts; so does
since when each seat has had none (a waiting public table frees a seat whose person has not
been here for ``seat_wait_seconds``: kabes.server.seat_wait).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from kabes.server.inbox import Connection
from kabes.server.seat_limits import shed_oldest


class SeatSockets:
    """Each seat's open sockets at one table."""

    def __init__(self, cap: int, now: Callable[[], float]) -> None:
        self.cap = cap
        self._now = now
        self._by_seat: dict[int, list[Connection]] = {}
        self.empty_since: float | None = now()
        """Since when no seat has had a socket here (None while one has): from the table's
        opening or rebuilding (a restart leaves everyone disconnected), or from the last
        socket's closing."""
        self._opened = self.empty_since
        self._gone_at: dict[int, float] = {}
        """Per seat, when its last socket closed (at most one entry a seat)."""

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has a socket open here."""
        return bool(self._by_seat.get(seat))

    def absent_since(self, seat: int) -> float | None:
        """Since when ``seat`` has had no socket here (None while it has one): from its last
        socket's closing, or from the table's opening or rebuilding in this process (a
        restart drops everyone's sockets through no fault of theirs)."""
        if self.connected(seat):
            return None
        return self._gone_at.get(seat, self._opened)

    def holds(self, conn: Connection) -> bool:
        """Whether ``conn`` speaks for its seat here (a seat given up or removed has had its
        sockets taken away: they speak for nobody)."""
        return conn in self._by_seat.get(conn.seat, ())

    def seats(self) -> list[int]:
        """The seats with a socket open, in seat order of arrival."""
        return [seat for seat, conns in self._by_seat.items() if conns]

    def __bool__(self) -> bool:
        return any(self._by_seat.values())

    def add(self, conn: Connection) -> bool:
        """Hold ``conn`` for its seat; past the cap the seat's oldest socket is told why and
        closed. True if the seat had no socket before."""
        conns = self._by_seat.setdefault(conn.seat, [])
        first = not conns
        conns.append(conn)
        shed_oldest(conns, self.cap)
        self.empty_since = None
        return first

    def drop(self, conn: Connection) -> bool:
        """Forget ``conn`` (it closed). True if it was held and its seat now has none."""
        conns = self._by_seat.get(conn.seat, [])
        if conn not in conns:
            return False
        conns.remove(conn)
        self._mark_if_empty()
        if not conns:
            self._gone_at[conn.seat] = self._now()
        return not conns

    def take(self, seat: int) -> list[Connection]:
        """Forget every socket of ``seat`` and return them (to be told and closed)."""
        conns = self._by_seat.pop(seat, [])
        self._mark_if_empty()
        if conns:
            self._gone_at[seat] = self._now()
        return conns

    def send(self, seat: int, data: bytes) -> None:
        """Send ``data`` to each socket of ``seat``."""
        for conn in list(self._by_seat.get(seat, ())):
            conn.send(data)

    def send_all(self, data: bytes) -> None:
        """Send ``data`` to every socket of every seat."""
        for conn in list(self):
            conn.send(data)

    def close_all(self, code: int) -> None:
        """Close every socket here with ``code`` (the table moved to another process)."""
        for conn in list(self):
            conn.close(code)

    def __iter__(self) -> Iterator[Connection]:
        for conns in self._by_seat.values():
            yield from conns

    def _mark_if_empty(self) -> None:
        if self.empty_since is None and not self:
            self.empty_since = self._now()
