"""Taking a table socket's messages straight from uvicorn's protocol, as they are parsed.

The ASGI way, each message a client sends goes into uvicorn's queue (reading paused until it
is taken), wakes the socket's task, and comes up through uvicorn's ``receive``, Starlette's
wrapper and its ``receive``, for the task to hand it to the table and wait again: a future,
a task step and a dozen calls a move, for a message the socket handles without waiting once
it is seated. So on uvicorn's websockets-sansio protocol with no extension negotiated (where
``kabes.server.http.direct_send`` writes, and under the same test), a seated socket takes
its messages in uvicorn's own callback (:meth:`DirectReader.install`): websockets still parses
the frames (masks, fragments, control frames, the size limit), the socket's handler is called
with each whole message as uvicorn would have queued it, and the socket's task waits only for
the disconnection.

It is installed only with uvicorn's queue empty, so no message overtakes one queued before it;
the disconnection still comes through the queue. Everywhere else the ASGI way is taken.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("kabes.app")


class DirectReader:
    """Hands a socket's messages to ``handler`` in uvicorn's callback (see the module)."""

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol

    def ready(self) -> bool:
        """Whether it can be installed now: uvicorn holds no message for the ASGI way and
        the socket is open both ways."""
        p = self.protocol
        return (p.queue.empty() and not p.frames and not p.close_sent and not p.disconnected
                and not p.transport.is_closing())

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

    def stop(self, code: int) -> None:
        """Wake the socket's task as a disconnection would (the socket is being closed with
        ``code`` by its writer)."""
        self.protocol.queue.put_nowait({"type": "websocket.disconnect", "code": code})
