"""Taking a table socket's messages straight from uvicorn's protocol, as they are parsed.

The ASGI way, each message a client sends goes into uvicorn's queue (reading paused until it
is taken), wakes the socket's task, and comes up through uvicorn's ``receive``, Starlette's
wrapper and its ``receive``, for the task to hand it to the table and wait again: a future,
a task step and a dozen calls a move, for a message the socket handles without waiting once
it is seated. So on uvicorn's websockets-sansio protocol with no extension negotiated (where
``kabes.server.http.direct_send`` writes, and under the same test), a seated socket takes
its messages in uvicorn's own callback (:meth:`DirectReader.install`): the socket's handler is
called with each whole message as uvicorn would have queued it, and the socket's task waits
only for the disconnection. A message in one masked frame within the size limit (every
client's ``play``) is unmasked here when websockets' parser is between frames; everything
else (control frames, fragments, a frame cut by the network, bad frames) goes through
websockets' parser, which closes the socket for a bad one as before.

It is installed only with uvicorn's queue empty, so no message overtakes one queued before it;
the disconnection still comes through the queue. Everywhere else the ASGI way is taken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from websockets.frames import apply_mask  # type: ignore[attr-defined]
from websockets.protocol import State
from websockets.streams import StreamReader

_AT_EOF = StreamReader.at_eof.__code__
"""Where websockets' parser waits between two frames."""
_TEXT, _BINARY = 0x81, 0x82
"""FIN and the text or binary opcode, no RSV bit: a whole message in one frame."""


def _between_frames(conn: Any) -> bool:
    """Whether websockets' parser holds no part of a frame or message."""
    if conn.current_size is not None or conn.state is not State.OPEN or conn.reader.buffer:
        return False
    waiting = conn.parser
    while waiting.gi_yieldfrom is not None:
        waiting = waiting.gi_yieldfrom
    return waiting.gi_code is _AT_EOF


class DirectReader:
    """Hands a socket's messages to ``handler`` in uvicorn's callback (see the module)."""

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol

    def ready(self) -> bool:
        """Whether it can be installed now: uvicorn holds no message for the ASGI way, reads
        (it pauses reading while it holds one) and the socket is open both ways."""
        p = self.protocol
        return (p.queue.empty() and not p.frames and not p.read_paused and not p.close_sent
                and not p.disconnected and not p.transport.is_closing())

    def install(self, handler: Callable[[str | bytes], None]) -> None:
        """From now on each whole message goes to ``handler`` (text as ``str``, binary as
        ``bytes``), in uvicorn's callback, instead of to its queue."""
        p = self.protocol

        def take() -> None:
            frames = p.frames
            data = frames[0] if len(frames) == 1 else b"".join(frames)
            p.frames = []
            if p.close_sent:  # past its close: dropped, as uvicorn drops it
                return
            if p.curr_msg_data_type == "text":
                try:
                    text = data.decode()
                except UnicodeDecodeError:  # as uvicorn: closed 1007
                    p.conn.send_close(1007)
                    p.handle_parser_exception()
                    return
                handler(text)
            else:
                handler(bytes(data))

        p.send_receive_event_to_app = take
        conn = p.conn
        parse = conn.receive_data

        def receive_data(data: bytes) -> None:
            # Whole, masked, unfragmented data frames within the size limit, received
            # between two frames, are unmasked here (RFC 6455, 5.2); anything else, and
            # what follows it, goes through websockets' parser.
            if _between_frames(conn):
                start, end, limit = 0, len(data), conn.max_message_size
                while end - start > 6:
                    head, size = data[start], data[start + 1] ^ 0x80
                    if (head != _TEXT and head != _BINARY) or size > 126:
                        break  # not masked (refused by the parser), a control frame, long
                    at = start + 2
                    if size == 126:
                        size = (data[at] << 8) | data[at + 1]
                        at += 2
                    if (limit is not None and size > limit) or end - at - 4 < size:
                        break
                    p.frames = [apply_mask(data[at + 4:at + 4 + size], data[at:at + 4])]
                    p.curr_msg_data_type = "text" if head == _TEXT else "bytes"
                    start = at + 4 + size
                    take()
                    if conn.state is not State.OPEN:
                        break
                if start:
                    data = data[start:]
                    if not data:
                        return
            parse(data)

        conn.receive_data = receive_data

    def stop(self, code: int) -> None:
        """Wake the socket's task as a disconnection would (the socket is being closed with
        ``code`` by its writer)."""
        self.protocol.queue.put_nowait({"type": "websocket.disconnect", "code": code})
