"""Sockets and requests relayed between processes: a client's socket on one process (the
*origin*), its table owned by another (the *owner*).

Contract:

- The origin says hello for the socket to the owner (``attach``, with the player); the owner
  seats a :class:`RemoteConnection` at the table, which stands for the socket there exactly as
  a local socket does: the table sends it the welcome, updates, acks and errors, and may close
  it; each goes back to the origin as the very bytes the table wrote, and the origin writes
  them to the client. The client's actions go to the owner as the text it sent, in order.
  The protocol the client sees does not change.
- HTTP requests about a table (its summary, a seat taken, its record) go to the owner as a
  ``call`` and come back as a ``reply``.
- An owner that no longer holds the table answers ``moved``; the origin then looks for the
  owner again. When a process dies, the owners detach the sockets it relayed (the seat
  is disconnected, as when any socket drops).
- The owner tells the origin, before anything else about the socket, the token of the
  table's lease it seated the socket under (kabes.server.hub.cluster: a new one each time
  the owner takes the table, and each time it may have stopped serving relayed sockets
  without their origins knowing). The origin keeps the socket only while the lease holds
  that very token; once it holds another, or none, the origin closes the socket (1012):
  its client reconnects, through any process, and gets its exact state. So a socket is
  never left open at its origin after its owner stopped serving it, whatever the owner did
  meanwhile (lost the table, was fenced and took it again, lost messages): at most until
  the owner's next renewal or the lease's end, and the origin's next look.
- Whenever messages may have been lost (Redis gone or restarted, a publish that failed),
  every relayed socket on both sides is closed or detached, and the owner asks the origins
  of the sockets it detached to close them (1012) as far as Redis carries it; what Redis
  does not carry, the token does (the owner's next renewal gives its leases new tokens):
  nothing is left half-relayed.

Frames (lists, their kind first; ``sid`` numbers a socket at its origin):

- to the owner: ``["attach", sid, origin, code, player]`` (player null: a watcher),
  ``["act", sid, origin, text]``, ``["detach", sid, origin, forced]``,
  ``["call", req, origin, code, what, args]``;
- to the origin: ``["attached", sid, token]`` (the lease's token the socket is seated under;
  before any other frame about it), ``["data", sid, bytes]``, ``["close", sid, code]``,
  ``["moved", sid]``, ``["reply", req, status, payload]`` (status ``ok``, ``error`` with
  [code, message], or ``moved``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, Protocol

from kabes.server.common.protocol import (
    Action,
    BadInput,
    ErrorCode,
    Hello,
    Refused,
    decode_client,
    encode,
    error_code,
)
from kabes.server.hub.cluster import Cluster, Frame, lease_process
from kabes.server.table.actor import Table
from kabes.server.table.inbox import ClientAction, Connection, Detach, Greet, Watch
from kabes.server.table.table_requests import TableRequest, from_wire

log = logging.getLogger("kabes.relay")

MOVED_CLOSE = 1012
"""Close code for a socket whose table went to another process: reconnect (any process)."""


class Moved(Exception):
    """The table is not (or no longer) held by the process that was asked."""


class Owner(Protocol):
    """What the relay needs of the hub on the owner's side."""

    def held(self, code: str) -> Table | None:
        """Table ``code`` if this process holds it (and has not lost it)."""
        ...

    def answer(self, table: Table, request: TableRequest) -> Awaitable[Any]:
        """Answer an HTTP request about ``table``."""
        ...


@dataclass(eq=False)
class Relayed:
    """A socket on this process whose table is owned by another."""

    sid: int
    code: str
    owner: str
    conn: Connection
    first: asyncio.Future[str]
    """Set by the first answer to the attach: ``data``, ``close`` or ``moved``."""
    token: str | None = None
    """The lease's value (``{owner}/{token}``) the owner seated the socket under; None until
    it said (or if it held no token: then the socket is closed at the next look)."""


class RemoteSeat:
    """The socket's side of a relayed socket: its actions go to the owner."""

    def __init__(self, relay: Relay, relayed: Relayed) -> None:
        self.relay = relay
        self.relayed = relayed

    def act(self, action: Action, text: str, received: float) -> None:
        """Pass a decoded action on to the owner, as the client wrote it."""
        if not self.relay.cluster.listening:
            refused = Refused(ErrorCode.UNAVAILABLE,
                              "the table's server cannot be reached; try again")
            self.relayed.conn.send(encode(refused.to_error(action.id)))
            return
        relayed = self.relayed
        self.relay.cluster.post(relayed.owner, ["act", relayed.sid, self.relay.cluster.me, text])

    def leave(self) -> None:
        """The socket closed: the owner detaches it (as forced if this process closed it
        because its table moved or Redis failed, not its client)."""
        relayed = self.relayed
        forced = self.relay.relayed.get(relayed.sid) is not relayed
        if not forced:
            del self.relay.relayed[relayed.sid]
        self.relay.cluster.post(
            relayed.owner, ["detach", relayed.sid, self.relay.cluster.me, forced])


@dataclass(eq=False)
class RemoteConnection:
    """A socket on another process, seated at a table held here."""

    relay: Relay
    origin: str
    sid: int
    table: Table
    player: int | None = None
    """The player the socket's hello named at its origin (None: a watcher)."""
    seat: int = -1
    gone: bool = False
    """Detached: nothing more is sent."""

    def send(self, data: bytes) -> None:
        """Send ``data`` to the socket, through its process."""
        if not self.gone:
            self.relay.cluster.post(self.origin, ["data", self.sid, data])

    def close(self, code: int) -> None:
        """Have the socket's process close it (after what was sent before)."""
        if not self.gone:
            self.relay.cluster.post(self.origin, ["close", self.sid, code])


@dataclass
class Relay:
    """Both sides of every socket and request relayed through this process."""

    cluster: Cluster
    owner: Owner
    relayed: dict[int, Relayed] = field(default_factory=dict)
    """Origin side: this process's sockets whose tables are elsewhere, by sid."""
    remote: dict[tuple[str, int], RemoteConnection] = field(default_factory=dict)
    """Owner side: other processes' sockets seated here, by (origin, sid)."""
    calls: dict[int, asyncio.Future[Any]] = field(default_factory=dict)
    _numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        self.cluster.deliver = self.deliver
        self.cluster.on_reset = self.reset

    # Origin side -----------------------------------------------------------------------

    async def attach(
        self, conn: Connection, code: str, owner: str, player: int | None, timeout: float
    ) -> RemoteSeat | None:
        """Seat ``conn`` (a socket whose hello named ``player``; None: a watcher) at table
        ``code`` owned by ``owner``; its seat, once the owner answered. None if the owner
        does not hold the table or did not answer within ``timeout`` seconds (look for the
        owner again)."""
        sid = next(self._numbers)
        first: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        relayed = Relayed(sid, code, owner, conn, first)
        self.relayed[sid] = relayed
        self.cluster.post(owner, ["attach", sid, self.cluster.me, code, player])
        try:
            outcome = await asyncio.wait_for(asyncio.shield(first), timeout)
        except TimeoutError:
            outcome = "timeout"
        if outcome in ("data", "close"):
            return RemoteSeat(self, relayed)
        if self.relayed.get(sid) is relayed:
            del self.relayed[sid]
        with contextlib.suppress(Exception):
            self.cluster.post(owner, ["detach", sid, self.cluster.me])
        return None

    async def call(
        self, owner: str, code: str, request: TableRequest, timeout: float
    ) -> Any:
        """Ask ``owner`` ``request`` about table ``code``; its answer. Refused for a
        refusal, Moved if it does not hold the table, TimeoutError if it did not answer in
        time."""
        number = next(self._numbers)
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.calls[number] = reply
        what, args = request.wire()
        try:
            self.cluster.post(owner, ["call", number, self.cluster.me, code, what, args])
            return await asyncio.wait_for(reply, timeout)
        finally:
            self.calls.pop(number, None)

    def _to_origin(self, frame: Frame) -> None:
        kind = frame[0]
        if kind == "attached":
            found = self.relayed.get(frame[1])
            if found is not None:
                found.token = None if frame[2] is None else str(frame[2])
            return
        if kind == "reply":
            reply = self.calls.get(frame[1])
            if reply is None or reply.done():
                return
            status, payload = frame[2], frame[3]
            if status == "ok":
                reply.set_result(payload)
            elif status == "error":
                reply.set_exception(Refused(error_code(str(payload[0])), str(payload[1])))
            else:
                reply.set_exception(Moved())
            return
        relayed = self.relayed.get(frame[1])
        if relayed is None:
            return
        if kind == "data":
            relayed.conn.send(bytes(frame[2]))
        elif kind == "close":  # the socket's leave() forgets it
            relayed.conn.close(int(frame[2]))
        elif kind == "moved":
            del self.relayed[relayed.sid]
        if not relayed.first.done():
            relayed.first.set_result(kind)

    async def check_owners(self) -> None:
        """Close (1012) every relayed socket whose table's lease no longer holds the token
        its owner seated it under (the owner died, froze or was cut off, and its lease
        expired; another process holds it now; or the owner took it again after it dropped
        the table, or may have stopped serving the socket without this process knowing):
        its client reconnects and reaches the table wherever it is. A hello still waiting
        for its owner's answer looks for the owner again if another process holds the
        lease, or none.

        Safe by construction: a token is never written twice (each names its process and a
        number that process never gave before), and whenever an owner stops serving relayed
        sockets without their origins hearing it, the lease stops holding their token: after
        a reset its next renewal gives every lease it holds a new one (Cluster.stale), a
        table it dropped is renewed no more (its lease ends) and seating it again takes a
        new one (Cluster.take). So the token read here equals this socket's only while the
        owner still serves the socket, or until that renewal or that end (a read that comes
        late only delays the close to the next look). A token that differs for any other
        reason (a renewal's answer lost) only closes sockets, which reconnect."""
        if not self.relayed:
            return
        # Judged as each socket stood before the read: one seated or told its token while
        # Redis was read is judged at the next look (else a read from before its owner's
        # take would close it for nothing), one relayed meanwhile likewise.
        before = [(r, r.first.done(), r.token) for r in self.relayed.values()]
        codes = sorted({r.code for r, _, _ in before})
        holders = dict(zip(codes, await self.cluster.holders(codes), strict=True))
        for relayed, answered, token in before:
            if self.relayed.get(relayed.sid) is not relayed:
                continue  # closed or moved meanwhile
            holder = holders[relayed.code]
            if answered:
                if token is not None and holder == token:
                    continue
            elif lease_process(holder) == relayed.owner:
                continue
            if relayed.first.done():
                self._move(relayed)
            else:  # the hello (Relay.attach) is waiting: it locates the table again
                if self.relayed.get(relayed.sid) is relayed:
                    del self.relayed[relayed.sid]
                relayed.first.set_result("moved")

    def _move(self, relayed: Relayed) -> None:
        if self.relayed.get(relayed.sid) is relayed:
            del self.relayed[relayed.sid]
        relayed.conn.close(MOVED_CLOSE)
        if not relayed.first.done():
            relayed.first.set_result("moved")

    # Owner side ------------------------------------------------------------------------

    def _to_owner(self, frame: Frame) -> None:
        kind = frame[0]
        if kind == "call":
            _, number, origin, code, what, args = frame
            asyncio.get_running_loop().create_task(
                self._answer(int(number), str(origin), str(code), str(what), list(args)))
            return
        sid, origin = int(frame[1]), str(frame[2])
        key = (origin, sid)
        if kind == "attach":
            table = self.owner.held(str(frame[3]))
            if table is None:
                self.cluster.post(origin, ["moved", sid])
                return
            player = None if frame[4] is None else int(frame[4])
            seated = RemoteConnection(self, origin, sid, table, player)
            self.remote[key] = seated
            # The token the table is held under now: held() gives only the table of this
            # process's latest take (a table dropped before is lost, or gone), and any later
            # take or reset gives the lease a token other than this one, which the origin
            # sees (Relay.check_owners). Posted before the Greet: frames to one process
            # leave in order, so the origin has it before the welcome.
            self.cluster.post(origin, ["attached", sid, self.cluster.tokens.get(table.code)])
            # The owner's table checks the player's seat itself, as for a local socket.
            table.post(Watch(seated) if player is None else Greet(seated))
        elif kind == "act":
            conn = self.remote.get(key)
            if conn is None or self.owner.held(conn.table.code) is not conn.table:
                if conn is not None:
                    self._detach(conn)
                self.cluster.post(origin, ["close", sid, MOVED_CLOSE])
                return
            try:
                action = decode_client(frame[3])
            except BadInput as err:
                conn.send(encode(err.to_error(err.action_id)))
                return
            if isinstance(action, Hello):
                again = Refused(ErrorCode.BAD_MESSAGE, "already said hello")
                conn.send(encode(again.to_error(None)))
                return
            conn.table.post(ClientAction(conn, action, time.perf_counter()))
        elif kind == "detach":
            found = self.remote.get(key)
            if found is not None:
                self._detach(found, forced=len(frame) > 3 and bool(frame[3]))

    def _detach(self, conn: RemoteConnection, forced: bool = True) -> None:
        """``conn`` is gone; ``forced`` unless its client closed it (a dead process or a
        broken link is not the person's doing: their seat keeps the normal clock)."""
        if self.remote.get((conn.origin, conn.sid)) is conn:
            del self.remote[(conn.origin, conn.sid)]
        conn.gone = True
        conn.table.post(Detach(conn, forced))

    async def _answer(
        self, number: int, origin: str, code: str, what: str, args: list[Any]
    ) -> None:
        table = self.owner.held(code)
        if table is None:
            self.cluster.post(origin, ["reply", number, "moved", None])
            return
        try:
            result = await self.owner.answer(table, from_wire(what, args))
        except Refused as err:
            if table.lost:
                self.cluster.post(origin, ["reply", number, "moved", None])
            else:
                self.cluster.post(origin, ["reply", number, "error",
                                           [str(err.code), err.message]])
            return
        except Exception:
            log.exception("table %s: a relayed %s failed", code, what)
            self.cluster.post(origin, ["reply", number, "error",
                                       ["unavailable", "the table's server failed on that"]])
            return
        self.cluster.post(origin, ["reply", number, "ok", result])

    async def check_origins(self) -> None:
        """Detach the sockets of processes that are gone (their seats disconnect)."""
        if not self.remote:
            return
        origins = {origin for origin, _ in self.remote}
        alive = await self.cluster.alive(origins)
        for conn in list(self.remote.values()):
            if conn.origin not in alive:
                self._detach(conn)

    # Both ------------------------------------------------------------------------------

    def deliver(self, frame: Frame) -> None:
        """Handle one frame from another process."""
        if frame[0] in ("attach", "act", "detach", "call"):
            self._to_owner(frame)
        else:
            self._to_origin(frame)

    def reset(self) -> None:
        """Messages may have been lost: close every relayed socket here (its client
        reconnects), detach every socket relayed to here, fail every call waiting. The
        processes of the sockets relayed here are asked to close them (1012), as far as
        Redis carries it: else such a socket, whose lease stays with this process, would stay
        open at its origin with nothing more sent to it. What Redis does not carry (this
        process cut off: its posts fail), the lease's token does: the next renewal gives
        every lease held here a new one (Cluster.stale; a table dropped meanwhile is not
        renewed, its lease ends or is taken with a new token), and the origins close the
        sockets at their next look (Relay.check_owners)."""
        self.cluster.stale = True
        for relayed in list(self.relayed.values()):
            self._move(relayed)
        for conn in list(self.remote.values()):
            conn.close(MOVED_CLOSE)
            self._detach(conn)
        for reply in self.calls.values():
            if not reply.done():
                reply.set_exception(Moved())

    async def check(self) -> None:
        """Both periodic checks (owners of relayed sockets, origins of remote ones)."""
        await self.check_owners()
        await self.check_origins()


__all__ = ["MOVED_CLOSE", "Moved", "Relay", "RemoteConnection", "RemoteSeat"]
