"""The sockets watching a table: people with no seat who see the match as the table does.

A watcher said ``{"type": "hello", "watch": true}`` (PROTOCOL.md, "Public tables, watching
and phrases"). It is welcomed with the VIEW from no seat (``outbox.watcher_view``: what every
seat is shown alike, no hand, no moves) and gets every update after, one message built and
encoded once per change and shared by every watcher, however many there are. It may ask for
a fresh update (``sync``); anything else it sends is refused ``not_seated`` and its socket
stays open. Watchers count toward nothing but themselves: not a seat's sockets, not the
table's abandonment, not the people online. Only the table's actor touches them.
"""

from __future__ import annotations

from kabes.server.common.protocol import Ack, Action, ErrorCode, Refused, SyncAction, encode
from kabes.server.table.inbox import Connection
from kabes.table import outbox
from kabes.table.outbox import Connected
from kabes.table.state import TableState

WATCHERS_PER_TABLE = 200
"""Sockets that may watch one table at once; the next is told ``slow_down`` and closed."""
FULL_CLOSE = 1008
"""The close code of a watcher beyond the cap (as a socket beyond an address's cap)."""
NOT_WATCHABLE_CLOSE = 4401
"""The close code of a watch hello at a table that may not be watched (PROTOCOL.md)."""


def may_watch(state: TableState) -> bool:
    """Whether anyone holding the table's code may watch it: the table's ``watch`` flag
    (PROTOCOL.md: true by default for a public table, false for a private one). The one
    place that decides it; a table that does not say (an older log) may not be watched."""
    return state.watch


class Watchers:
    """One table's watching sockets."""

    def __init__(self, cap: int = WATCHERS_PER_TABLE) -> None:
        self.cap = cap
        self._conns: list[Connection] = []

    def __len__(self) -> int:
        return len(self._conns)

    def __contains__(self, conn: object) -> bool:
        return any(c is conn for c in self._conns)

    def admit(self, conn: Connection, state: TableState, connected: Connected,
              now: float) -> bool:
        """Let ``conn`` watch and welcome it, or refuse it: ``not_seated`` and 4401 at a
        table that may not be watched, ``slow_down`` and 1008 beyond the cap."""
        refused = None
        if not may_watch(state):
            refused = Refused(ErrorCode.NOT_SEATED, "this table may not be watched")
            close = NOT_WATCHABLE_CLOSE
        elif len(self._conns) >= self.cap:
            refused = Refused(ErrorCode.SLOW_DOWN,
                              f"{self.cap} people watch this table already; try later")
            close = FULL_CLOSE
        if refused is not None:
            conn.send(encode(refused.to_error(None)))
            conn.close(close)
            return False
        self._conns.append(conn)
        conn.send(encode(outbox.watcher_welcome(state, connected, now, len(self._conns))))
        return True

    def drop(self, conn: Connection) -> bool:
        """Forget ``conn`` (its socket closed); whether it was watching."""
        for n, c in enumerate(self._conns):
            if c is conn:
                del self._conns[n]
                return True
        return False

    def send(self, data: bytes) -> None:
        """Send every watcher the same bytes (an update, a phrase said)."""
        for conn in list(self._conns):
            conn.send(data)

    def close_all(self, code: int) -> None:
        """Close every watcher (the table moved to another process: they reconnect)."""
        for conn in self._conns:
            conn.close(code)
        self._conns.clear()

    def act(self, conn: Connection, action: Action, state: TableState, connected: Connected,
            now: float) -> None:
        """Answer a watcher's action: ``sync`` gets a fresh update and its ack, anything
        else ``not_seated`` (the socket stays open; nothing is remembered)."""
        if isinstance(action, SyncAction):
            conn.send(encode(outbox.watcher_update(state, connected, now, len(self._conns))))
            conn.send(encode(Ack(action.id, state.seq)))
            return
        refused = Refused(ErrorCode.NOT_SEATED, "a watcher holds no seat at this table")
        conn.send(encode(refused.to_error(action.id)))
