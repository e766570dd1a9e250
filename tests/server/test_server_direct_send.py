"""A table socket's messages written straight to uvicorn's transport (direct_send) reach a
client as the same text messages, in order, and the close after them, as the ASGI way's."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
import uvicorn
from fastapi import FastAPI, WebSocket
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

from kabes.server.http.direct_send import DirectWriter, KeepSend, text_frame
from kabes.server.http.socket_api import Socket
from kabes.server.runtime import uvicorn_config


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frame_is_the_frame_websockets_writes_for_it(size: int) -> None:
    data = ("é" * size).encode()[:size] if size % 2 == 0 else b"x" * size
    assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False)


def _bound_port(server: uvicorn.Server) -> int:
    """The port the kernel gave a server started on port 0 (no port picked before it is
    bound, which another process could take in between)."""
    port: int = server.servers[0].sockets[0].getsockname()[1]
    return port


async def test_messages_written_directly_arrive_in_order_then_the_close() -> None:
    app = FastAPI()
    app.add_middleware(KeepSend)
    direct: list[bool] = []
    messages = [b'{"n":%d,"pad":"%s"}' % (n, b"p" * (n * 97 % 3000)) for n in range(40)]

    @app.websocket("/ws")
    async def talk(ws: WebSocket) -> None:
        await ws.accept()
        sock = Socket(ws)
        direct.append(sock.direct is not None)
        await ws.receive()  # the client is ready
        for start in range(0, len(messages), 7):  # several messages in each turn of the loop
            for data in messages[start:start + 7]:
                sock.send(data)
            await asyncio.sleep(0)
        sock.close(4321)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sock.writer, 5)

    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", 0))
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        port = _bound_port(server)
        received: list[bytes] = []
        async with connect(f"ws://127.0.0.1:{port}/ws") as client:
            await client.send("ready")
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    message = await client.recv()
                    assert isinstance(message, str)
                    received.append(message.encode())
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4321
        assert direct == [True]
        assert received == messages
    finally:
        server.should_exit = True
        await serving


def test_no_direct_writer_without_the_servers_own_send() -> None:
    assert DirectWriter.of({"type": "websocket"}) is None
    assert DirectWriter.of({"type": "websocket", "kabes.send": print}) is None
