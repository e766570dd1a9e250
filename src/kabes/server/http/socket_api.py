"""The table socket of PROTOCOL.md (``/api/tables/{code}/ws``): frames in, messages out.

A socket is read here and nowhere else: each frame is bounded (size, rate), decoded by
kabes.server.common.protocol, and handed to the table it is seated at, held by this process
(:class:`LocalSeat`: the table's inbox) or by another (kabes.server.hub.relay). Messages out go
through :class:`Socket`, a bounded queue per client, so no slow client holds up a table: one
too far behind is closed (1013) and resyncs on return. A socket that sends too much or too
fast is closed without its table noticing anything but a disconnection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Literal, Protocol

from fastapi import FastAPI, WebSocket
from fastapi.responses import JSONResponse
from starlette.websockets import WebSocketDisconnect, WebSocketState

from kabes.server.common.protocol import (
    MAX_MESSAGE_BYTES,
    MAX_MESSAGES_PER_SECOND,
    Action,
    BadInput,
    ErrorCode,
    Hello,
    Refused,
    decode_client,
    encode,
)
from kabes.server.http.direct_receive import DirectReader
from kabes.server.http.direct_send import DirectWriter
from kabes.server.hub.leases import FENCED, CutOff
from kabes.server.hub.relay import RemoteSeat
from kabes.server.services import STORE_DOWN, Services, patience
from kabes.server.table.actor import Table
from kabes.server.table.inbox import ClientAction, Detach, Greet, Watch
from kabes.server.table.seat_limits import SocketRate

log = logging.getLogger("kabes.app")

SEND_QUEUE = 256
"""Messages waiting for one socket; a socket further behind than this is closed (1013)."""
HELLO_SECONDS = 30.0
"""A socket that says nothing for this long after opening is closed."""


class Socket:
    """One client socket: a bounded queue of messages and the task that writes them. A
    message with nothing queued before it is written at once when the socket can take it
    (the common case: this saves a task switch per message)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.seat = -1
        self.player: int | None = None
        """The player the hello's token named (None: a watcher, or no hello yet)."""
        self.queue: asyncio.Queue[bytes | int] = asyncio.Queue(SEND_QUEUE)
        self.closing = False
        self.sending = False
        """The writer holds a message it has not finished writing."""
        self.direct = DirectWriter.of(ws.scope)
        """Frames written straight to uvicorn's transport where it can (direct_send)."""
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, data: bytes) -> None:
        """Write ``data`` now, or queue it; a socket too far behind is closed (it will resync
        on return)."""
        if self.closing:
            return
        if not self.sending and self.queue.empty():
            direct = self.direct
            if direct is not None:
                if direct.send(data):
                    return
                direct.flush()  # what it holds goes before this, the ASGI way
            if self._send_now(data):
                return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            self.close(1013)

    def _send_now(self, data: bytes) -> bool:
        """Write ``data`` if the socket takes it without waiting: the ASGI send waits only
        while the socket's buffer is full, and writes nothing before that wait. False if it
        would wait (nothing was written: the message goes to the queue)."""
        step = self.ws.send({"type": "websocket.send", "text": data.decode()})
        try:
            step.send(None)
        except StopIteration:
            return True
        except Exception:
            self.closing = True  # as when the writer fails: the socket is gone
            self.writer.cancel()
            return True
        step.close()
        return False

    def close(self, code: int) -> None:
        """Close after what is queued."""
        if self.closing:
            return
        self.closing = True
        if self.direct is not None:
            self.direct.flush()
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(code)
        if self.queue.full():
            self.writer.cancel()
            asyncio.get_running_loop().create_task(self._close_now(code))

    async def _close_now(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code)

    async def _write(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if self.direct is not None:
                    self.direct.flush()
                if isinstance(item, int):
                    await self.ws.close(item)
                    return
                self.sending = True
                await self.ws.send({"type": "websocket.send", "text": item.decode()})
                self.sending = False
        except Exception:
            self.closing = True


class LocalSeat:
    """A socket seated at a table held by this process: its actions go to the inbox."""

    def __init__(self, table: Table, sock: Socket) -> None:
        self.table = table
        self.sock = sock

    def act(self, action: Action, text: str, received: float) -> None:
        """Hand a decoded action to the table."""
        self.table.post(ClientAction(self.sock, action, received))

    def leave(self) -> None:
        """The socket closed."""
        self.table.post(Detach(self.sock))


def socket_routes(app: FastAPI, services: Services) -> None:
    """The table socket's route."""

    @app.websocket("/api/tables/{code}/ws")
    async def table_socket(ws: WebSocket, code: str) -> None:
        if services.hub.fenced:
            # Cut off from the others, this process can seat nobody: the handshake itself is
            # refused (503), so that a balancer tries another process at once (nginx:
            # proxy_next_upstream http_503) and a client reconnects without a hello's wait.
            await ws.send_denial_response(_fenced_answer())
            return
        await ws.accept()
        services.connections += 1
        sock = Socket(ws)
        try:
            await read_socket(ws, sock, lambda hello: _hello(sock, hello, code, services))
        finally:
            services.connections -= 1


async def read_socket(
    ws: WebSocket, sock: Socket, seat: Callable[[Hello], Awaitable[Seat | None]]
) -> None:
    """Read an accepted socket's messages until it closes: the ASGI way until it is seated
    (``seat`` answers its hello with a seat, or None having refused it), then, where it can,
    in uvicorn's callback (direct_receive)."""
    reading = Reading(sock)
    reader = None if sock.direct is None else DirectReader(sock.direct.protocol)
    try:
        while True:
            if reading.table is None:
                try:
                    frame = await asyncio.wait_for(ws.receive(), HELLO_SECONDS)
                except TimeoutError:
                    sock.close(1008)
                    break
            else:
                if reader is not None and reader.ready():
                    # Seated: the messages are taken in uvicorn's callback from now on
                    # (direct_receive); only the disconnection comes this way.
                    reading.reader = reader
                    reader.install(reading.direct)
                    reader = None
                frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            data = frame.get("text")
            if data is None:
                data = frame.get("bytes") or b""
            taken = reading.take(data)
            if taken is None:
                continue
            if taken is False:  # being closed
                break
            table = await seat(taken)
            if table is None:
                break
            reading.table = table
    except WebSocketDisconnect:
        pass
    finally:
        reading.leave()
        if not sock.closing:
            sock.closing = True
            sock.writer.cancel()
        elif ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sock.writer, 2.0)


class Seat(Protocol):
    """Where a seated socket's actions go: :class:`LocalSeat` or a relay's RemoteSeat."""

    def act(self, action: Action, text: str, received: float) -> None: ...

    def leave(self) -> None: ...


class Reading:
    """What a socket's messages go through, the ASGI way (:meth:`take`) or in uvicorn's
    callback (:meth:`direct`): the size and rate limits, decoding, the answers to bad input,
    and the table the socket is seated at."""

    __slots__ = ("_left", "rate", "reader", "sock", "table")

    def __init__(self, sock: Socket) -> None:
        self.sock = sock
        self.table: Seat | None = None
        self.rate = SocketRate()
        self.reader: DirectReader | None = None
        """Set once the messages are taken in uvicorn's callback."""
        self._left = False

    def take(self, data: str | bytes) -> Hello | Literal[False] | None:
        """Handle one message: None when done with it, False when the socket is to close (it
        is being closed), a hello for a socket not seated yet (to be seated by the caller)."""
        sock = self.sock
        size = len(data.encode()) if isinstance(data, str) else len(data)
        if size > MAX_MESSAGE_BYTES:
            sock.close(1009)
            return False
        received = time.perf_counter()  # counted as it arrives, not as it is handled
        try:
            message: Hello | Action | BadInput = decode_client(data)
        except BadInput as err:
            message = err
        if not self.rate.passes(received):  # told why, then closed (seat_limits.SocketRate)
            slow = Refused(ErrorCode.SLOW_DOWN, f"a socket may send at most "
                           f"{MAX_MESSAGES_PER_SECOND} messages a second")
            sock.send(encode(slow.to_error(_id_of(message))))
            sock.close(1008)
            return False
        if isinstance(message, BadInput):
            sock.send(encode(message.to_error(message.action_id)))
            return None
        table = self.table
        if isinstance(message, Hello):
            if table is not None or (message.token is None and not message.watch):
                again = Refused(ErrorCode.BAD_MESSAGE, "already said hello"
                                if table is not None else "a hello needs a token")
                sock.send(encode(again.to_error(None)))
                return None
            return message
        if table is None:
            first = Refused(ErrorCode.BAD_MESSAGE, "say hello first")
            sock.send(encode(first.to_error(message.id)))
            return None
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        table.act(message, text, received)
        return None

    def direct(self, data: str | bytes) -> None:
        """:meth:`take`, in uvicorn's callback (a seated socket: no hello to wait for)."""
        if self.sock.closing:
            return  # being closed: what comes after is not read, as the ASGI way
        try:
            taken = self.take(data)
        except Exception:
            log.exception("a socket's message could not be handled")
            self.sock.close(1011)
            taken = False
        if taken is False and self.reader is not None:
            self.leave()  # at once, as the ASGI way leaves when it stops reading
            self.reader.stop(1000)

    def leave(self) -> None:
        """Tell the table the socket is gone (once)."""
        if self.table is not None and not self._left:
            self._left = True
            self.table.leave()


async def _hello(
    sock: Socket, hello: Hello, code: str, services: Services
) -> LocalSeat | RemoteSeat | None:
    """Seat the socket, here or through the process that owns the table, or refuse it
    (closed with 4401, or 4404 for no such table; 1013, try again later, if the store, Redis
    or the table's owner cannot be reached)."""
    store, hub = services.store, services.hub
    deadline = time.monotonic() + patience(services)
    failure: Exception | None = None
    watch = hello.watch  # a watcher's token, if any, is not looked at: none is needed
    while True:
        try:
            found = None if watch or hello.token is None else \
                await store.player_by_token(hello.token)
            where = None if found is None and not watch else await hub.locate(code.upper())
            if (found is None and not watch) or where is None or isinstance(where, Table):
                break
            assert hub.relay is not None
            left = min(max(0.5, deadline - time.monotonic()), hub.answer_within())
            relayed = await hub.relay.attach(sock, code.upper(), where,
                                             None if found is None else found[0], left)
            failure = TimeoutError(f"the owner {where} did not answer")
        except STORE_DOWN as err:
            failure = err
            relayed = None
        if relayed is not None:
            return relayed
        # Cut off from Redis, this process can seat nobody: the client tries another now.
        if time.monotonic() > deadline or isinstance(failure, CutOff):
            log.warning("a hello for %s could not be seated: %r", code, failure)
            _refuse(sock, ErrorCode.UNAVAILABLE, "the table's server cannot be reached", 1013)
            return None
        await asyncio.sleep(0.1)
    if found is None and not watch:
        _refuse(sock, ErrorCode.BAD_TOKEN, "this token is unknown", 4401)
        return None
    if where is None:
        _refuse(sock, ErrorCode.NOT_FOUND, f"no table {code!r}", 4404)
        return None
    table = where
    assert isinstance(table, Table)
    if found is None:  # the table lets the watcher in, or refuses it (kabes.server.table.watchers)
        table.post(Watch(sock))
        return LocalSeat(table, sock)
    # The table finds the player's seat and seats the socket in one item (or refuses it,
    # 4401): no seat number looked up here could be another player's by the time it is used.
    sock.player = found[0]
    seated: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
    table.post(Greet(sock, seated))
    try:
        if not await asyncio.wait_for(seated, max(1.0, deadline - time.monotonic())):
            return None  # refused (4401), or the table moved (1012)
    except TimeoutError:
        table.post(Detach(sock))  # after the Greet: the table forgets it
        _refuse(sock, ErrorCode.UNAVAILABLE, "the table did not answer in time", 1013)
        return None
    return LocalSeat(table, sock)


def _fenced_answer() -> JSONResponse:
    """503 ``unavailable``: this process is cut off from Redis (try another)."""
    refused = Refused(ErrorCode.UNAVAILABLE, FENCED)
    return JSONResponse(refused.to_body(), status_code=refused.status)


def _id_of(message: Hello | Action | BadInput) -> str | None:
    """The id an answer to ``message`` carries."""
    if isinstance(message, BadInput):
        return message.action_id
    return None if isinstance(message, Hello) else message.id


def _refuse(sock: Socket, code: ErrorCode, message: str, close: int) -> None:
    """Refuse a hello: say why, then close the socket with ``close``."""
    sock.send(encode(Refused(code, message).to_error(None)))
    sock.close(close)
