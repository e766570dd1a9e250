"""Writing a table socket's messages straight to uvicorn's transport, framed here.

A message through the ASGI send goes down five layers of Python (Starlette's WebSocket, its
exception wrapper, uvicorn's send, websockets' protocol and frame) and is decoded to text to
be encoded again, for what is, on a socket without extensions, two to ten bytes of header in
front of the bytes msgspec wrote (RFC 6455, 5.2: a server's frames are not masked). A table
sends four or five messages a move: these layers were a fair part of the server's CPU per
move. So on uvicorn's websockets-sansio protocol (``kabes serve``'s), with no extension
negotiated (``kabes serve`` offers none) and the socket open, :class:`DirectWriter` frames
each message itself and writes the messages of one turn of the event loop in one system call
(a move's update and its ack to the mover were two).

Everywhere else (another server, the test client, a socket closing or whose transport's
buffer is full) it answers False and the message goes the ASGI way
(``kabes.server.http.socket_api.Socket``), which this never overtakes: a writer holds no
message once the ASGI way has one (``Socket.send``), and writes what it holds before the
ASGI way writes anything (:meth:`DirectWriter.flush`).
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send
from websockets.protocol import State

SEND_KEY = "kabes.send"
"""Where :class:`KeepSend` leaves the server's own ASGI send in a socket's scope."""

_HEAD_16 = struct.Struct("!BBH")
_HEAD_64 = struct.Struct("!BBQ")
_FIN_TEXT = 0x81
"""FIN and the text opcode: a whole message in one frame."""


class KeepSend:
    """ASGI middleware, outermost: keeps the server's send in a socket's scope, so that the
    socket can find the protocol under every other middleware's wrapper."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SEND_KEY] = send
        await self.app(scope, receive, send)


def text_frame(data: bytes) -> bytes:
    """``data`` (UTF-8) as one unmasked text frame (RFC 6455, 5.2)."""
    size = len(data)
    if size < 126:
        return bytes((_FIN_TEXT, size)) + data
    if size < 65536:
        return _HEAD_16.pack(_FIN_TEXT, 126, size) + data
    return _HEAD_64.pack(_FIN_TEXT, 127, size) + data


class DirectWriter:
    """Frames and writes one socket's messages on uvicorn's protocol (see the module)."""

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol
        self.pending: list[bytes] = []

    @staticmethod
    def of(scope: Scope) -> DirectWriter | None:
        """A writer for the socket of ``scope``, if it is served by uvicorn's
        websockets-sansio protocol with no extension; else None."""
        send = scope.get(SEND_KEY)
        protocol = getattr(send, "__self__", None)
        if protocol is None or getattr(send, "__name__", "") != "send":
            return None
        try:
            from uvicorn.protocols.websockets.websockets_sansio_impl import (
                WebSocketsSansIOProtocol,
            )
        except ImportError:  # pragma: no cover - uvicorn is a dependency of the server
            return None
        if type(protocol) is not WebSocketsSansIOProtocol or protocol.conn.extensions:
            return None
        return DirectWriter(protocol)

    def _open(self) -> bool:
        """Whether uvicorn's own send would write at once now (see its ``send``)."""
        p = self.protocol
        return (p.handshake_complete and not p.close_sent and not p.disconnected
                and p.initial_response is None and p.conn.state is State.OPEN
                and not p.transport.is_closing())

    def send(self, data: bytes) -> bool:
        """Take ``data`` to be written at the end of this turn of the loop; False if the
        socket cannot take it that way now (nothing taken)."""
        if not self.protocol.writable.is_set() or not self._open():
            return False
        if not self.pending:
            asyncio.get_running_loop().call_soon(self.flush)
        self.pending.append(text_frame(data))
        return True

    def flush(self) -> None:
        """Write what is held, in one write (dropped if the socket closed meanwhile, as
        uvicorn drops a send to a closed socket)."""
        if not self.pending:
            return
        frames, self.pending = self.pending, []
        if self._open():
            self.protocol.transport.write(b"".join(frames))
