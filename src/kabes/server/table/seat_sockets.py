"""The sockets a table's seats hold, and since when no person (or a seat) has held one.

The table's actor owns one :class:`SeatSockets` and is the only task that touches it, so it
needs no lock. A seat may hold several sockets (two tabs, a phone and a laptop), at most the
configured cap (kabes.server.table.seat_limits). Whether anybody is here is what the abandonment
clock reads (PROTOCOL.md, "Safe for strangers": a table nobody has a socket at for
``abandon_seconds`` is abandoned), so that clock lives beside the sockets it counts; so does
since when each seat has had none (a waiting public table frees a seat whose person has not
been here for ``seat_wait_seconds``: kabes.server.table.seat_wait).

Every socket carries the player its hello named, and is held only while that player holds
its seat (PROTOCOL.md, "A socket acts only for its own player"): whenever the log changes who
sits where (a leave, a removal, a seat freed for another), :meth:`SeatSockets.evict` takes
out the sockets of anyone who no longer holds their seat before the change is told, so they
are sent nothing more of that seat, and :meth:`SeatSockets.send_off` then tells them why and
closes them (4403) once the action in hand has been answered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from kabes.server.common.protocol import ErrorCode, Refused, encode
from kabes.server.table.inbox import Connection
from kabes.server.table.seat_limits import shed_oldest
from kabes.table.state import TableState

GONE_CLOSE = 4403
"""The close code of a socket whose player no longer holds its seat (left or removed)."""


def holder(state: TableState, seat: int) -> int | None:
    """The player who holds ``seat`` now (None: free, a computer's, or given up)."""
    sitter = state.seats[seat] if 0 <= seat < len(state.seats) else None
    if sitter is None or not sitter.person or sitter.left:
        return None
    return sitter.player


class SeatSockets:
    """Each seat's open sockets at one table."""

    def __init__(self, cap: int, now: Callable[[], float]) -> None:
        self.cap = cap
        self._now = now
        self._by_seat: dict[int, list[Connection]] = {}
        self._leaving: list[Connection] = []
        """Sockets taken out by :meth:`evict`, to be told why and closed (:meth:`send_off`)."""
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

    def holds(self, conn: Connection, state: TableState) -> bool:
        """Whether ``conn`` speaks for its seat here: it is held, and its player holds the
        seat now (a seat given up or removed has had its sockets taken away: they speak for
        nobody). Asked by the actor for each action, in the item that handles it, so nothing
        can change the seat between this answer and the action."""
        return conn in self._by_seat.get(conn.seat, ()) and \
            conn.player is not None and holder(state, conn.seat) == conn.player

    def seat_for(self, conn: Connection, state: TableState) -> int | None:
        """The seat ``conn``'s player holds in ``state``, now set on it; None if it holds
        none (``conn`` is then told ``not_seated`` and closed 4401, as PROTOCOL.md says of a
        hello whose token holds no seat)."""
        seat = None if conn.player is None else state.seat_of(conn.player)
        if seat is None:
            refused = Refused(ErrorCode.NOT_SEATED, "you hold no seat at this table")
            conn.send(encode(refused.to_error(None)))
            conn.close(4401)
            return None
        conn.seat = seat
        return seat

    def evict(self, state: TableState) -> None:
        """Take out every socket whose player no longer holds its seat in ``state`` (called
        after an entry is applied, before it is told): they get no update of a seat that
        is not theirs, and :meth:`send_off` closes them."""
        for seat, conns in list(self._by_seat.items()):
            player = holder(state, seat)
            gone = [conn for conn in conns if conn.player != player]
            for conn in gone:
                conns.remove(conn)
                self._leaving.append(conn)
        if self._leaving:
            self._mark_if_empty()

    def send_off(self, state: TableState) -> None:
        """Tell each socket :meth:`evict` took out why, and close it (4403): after the action
        that made it go was answered (a leaver first gets the ack of its leave)."""
        leaving, self._leaving = self._leaving, []
        for conn in leaving:
            if conn.player in state.removed:
                why = Refused(ErrorCode.REMOVED, "the host removed you from this table")
            else:
                why = Refused(ErrorCode.NOT_SEATED, "you no longer hold this seat")
            conn.send(encode(why.to_error(None)))
            conn.close(GONE_CLOSE)

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

    def refuse(self, conn: Connection) -> None:
        """Forget ``conn``, which acted for a seat its player does not hold: it is closed
        (4403) and never attached again."""
        conns = self._by_seat.get(conn.seat, [])
        if conn in conns:
            conns.remove(conn)
            self._mark_if_empty()
        conn.close(GONE_CLOSE)

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
