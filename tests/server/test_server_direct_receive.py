"""A seated table socket's messages taken straight from uvicorn's protocol (direct_receive)
reach its seat as the ASGI way's do, in order, with the same limits and the same answers to
bad input; elsewhere (no direct writer, an extension negotiated) the ASGI way is taken."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import msgspec
import pytest
import uvicorn
from fastapi import FastAPI, WebSocket
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

from kabes.server.common.protocol import MAX_MESSAGE_BYTES, Action, Hello
from kabes.server.http.direct_send import KeepSend
from kabes.server.http.socket_api import Socket, read_socket
from kabes.server.runtime import uvicorn_config


@dataclass
class FakeSeat:
    """A seat that records what it is given and acks each action on the socket."""

    sock: Socket
    acted: list[str] = field(default_factory=list)
    left: int = 0

    def act(self, action: Action, text: str, received: float) -> None:
        self.acted.append(text)
        self.sock.send(b'{"type":"ack","id":"%s"}' % action.id.encode())

    def leave(self) -> None:
        self.left += 1


@dataclass
class Served:
    port: int = 0
    """The port the kernel gave the server, bound on port 0 (none picked before it is bound,
    which another process could take in between)."""
    seats: list[FakeSeat] = field(default_factory=list)
    hooked: list[bool] = field(default_factory=list)


@contextlib.asynccontextmanager
async def _server(keep_send: bool = True, deflate: bool = False) -> AsyncIterator[Served]:
    app = FastAPI()
    if keep_send:
        app.add_middleware(KeepSend)
    served = Served()

    @app.websocket("/ws")
    async def talk(ws: WebSocket) -> None:
        await ws.accept()
        sock = Socket(ws)

        async def seat(hello: Hello) -> FakeSeat | None:
            await asyncio.sleep(0.01)  # as the store's look-up: messages may queue meanwhile
            if hello.token != "good":
                sock.close(4401)
                return None
            served.seats.append(FakeSeat(sock))
            return served.seats[-1]

        try:
            await read_socket(ws, sock, seat)
        finally:
            protocol = None if sock.direct is None else sock.direct.protocol
            served.hooked.append(protocol is not None
                                 and "send_receive_event_to_app" in vars(protocol))

    config = uvicorn_config(app, "127.0.0.1", 0)
    config.ws_per_message_deflate = deflate
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        served.port = server.servers[0].sockets[0].getsockname()[1]
        yield served
    finally:
        server.should_exit = True
        await serving


async def _until(check: object, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if callable(check) and check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not in time")


async def _seated(client: ClientConnection, n: int) -> None:
    """Say hello, then play ``n`` and wait for its answer: the socket is seated and its
    messages come the direct way from then on."""
    await client.send('{"type":"hello","token":"good"}')
    await client.send(_play(n))
    await _replies(client, 1)


async def _left_after_one_play(served: Served) -> None:
    """The socket was read the direct way, its seat acted on play 1 only and was left once."""
    await _until(lambda: served.hooked)
    assert served.hooked == [True]
    assert served.seats[0].acted == [_play(1)] and served.seats[0].left == 1


async def _replies(client: ClientConnection, count: int) -> list[dict[str, object]]:
    out = []
    for _ in range(count):
        message = await asyncio.wait_for(client.recv(), 5)
        out.append(msgspec.json.decode(message))
    return out


def _play(n: int) -> str:
    return f'{{"type":"play","id":"a{n}","move":"6-6"}}'


@pytest.mark.parametrize("keep_send", [True, False])
async def test_a_seated_sockets_messages_reach_its_seat_in_order(keep_send: bool) -> None:
    async with _server(keep_send) as served:
        async with connect(f"ws://127.0.0.1:{served.port}/ws") as client:
            await client.send('{"type":"hello","token":"good"}')
            # sent at once: the first ones arrive while the hello is being seated
            for n in range(30):
                await client.send(_play(n))
            assert [r["id"] for r in await _replies(client, 30)] == [f"a{n}" for n in range(30)]
            await client.send('{"type":"hello","token":"good"}')
            [again] = await _replies(client, 1)
            assert again["code"] == "bad_message" and "already said hello" in str(again["message"])
            await client.send(_play(30).encode())  # a binary frame is read as its text
            assert (await _replies(client, 1))[0]["id"] == "a30"
        await _until(lambda: served.hooked)
        [seat] = served.seats
        assert seat.acted == [_play(n) for n in range(31)]
        assert seat.left == 1
        assert served.hooked == [keep_send]  # without the server's send: the ASGI way


async def test_with_an_extension_the_asgi_way_is_taken() -> None:
    async with _server(deflate=True) as served:
        async with connect(f"ws://127.0.0.1:{served.port}/ws", compression="deflate") as client:
            assert client.protocol.extensions
            await client.send('{"type":"hello","token":"good"}')
            await client.send(_play(1))
            assert (await _replies(client, 1))[0]["id"] == "a1"
        await _until(lambda: served.hooked)
        assert served.hooked == [False]
        assert served.seats[0].acted == [_play(1)] and served.seats[0].left == 1


@pytest.mark.parametrize("keep_send", [True, False])
async def test_bad_input_is_answered_and_changes_nothing(keep_send: bool) -> None:
    async with _server(keep_send) as served:
        async with connect(f"ws://127.0.0.1:{served.port}/ws") as client:
            await _seated(client, 1)
            await client.send("not json")
            await client.send('{"type":"play","id":"a2","move":7}')
            await client.send('{"type":"dance","id":"a3"}')
            bad = await _replies(client, 3)
            assert [b["type"] for b in bad] == ["error"] * 3
            assert bad[1]["id"] == "a2" and "move" in str(bad[1]["message"])  # names the field
            await client.send(_play(4))
            assert (await _replies(client, 1))[0]["id"] == "a4"
        await _until(lambda: served.hooked)
        assert served.hooked == [keep_send]
        assert served.seats[0].acted == [_play(1), _play(4)]


async def _closed_with(client: ClientConnection) -> int:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(client.recv(), 5)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


@pytest.mark.parametrize("keep_send", [True, False])
async def test_too_fast_is_told_then_closed_and_the_seat_left(keep_send: bool) -> None:
    async with _server(keep_send) as served:
        async with connect(f"ws://127.0.0.1:{served.port}/ws") as client:
            await client.send('{"type":"hello","token":"good"}')
            await client.send('{"type":"sync","id":"s"}')
            await _replies(client, 1)  # seated (all sent at once, they would all be queued)
            for n in range(120):
                await client.send(f'{{"type":"sync","id":"s{n}"}}')
            replies = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    replies.append(msgspec.json.decode(await asyncio.wait_for(client.recv(), 5)))
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert replies[-1]["code"] == "slow_down"
        await _until(lambda: served.hooked)
        assert served.hooked == [keep_send]
        seat = served.seats[0]
        assert len(seat.acted) == len(replies) <= 100  # 99 when all in one second
        assert seat.left == 1


async def test_a_message_too_long_closes_1009() -> None:
    async with _server() as served:
        async with connect(f"ws://127.0.0.1:{served.port}/ws", max_size=None) as client:
            await _seated(client, 1)
            await client.send("x" * (MAX_MESSAGE_BYTES + 1))
            assert await _closed_with(client) == 1009
        await _left_after_one_play(served)


async def test_a_text_frame_not_utf8_closes_1007() -> None:
    async with _server() as served:
        async with connect(f"ws://127.0.0.1:{served.port}/ws") as client:
            await _seated(client, 1)
            # websockets' client checks what it sends: the frame is written by hand
            client.protocol.send_frame(Frame(Opcode.TEXT, b'{"type":"sync","id":"\xff"}'))
            client.send_data()
            assert await _closed_with(client) == 1007
        await _left_after_one_play(served)


async def test_a_refused_hello_closes_before_any_seat() -> None:
    async with _server() as served:
        async with connect(f"ws://127.0.0.1:{served.port}/ws") as client:
            await client.send(_play(0))
            [first] = await _replies(client, 1)
            assert "say hello first" in str(first["message"])
            await client.send('{"type":"hello","token":"bad"}')
            assert await _closed_with(client) == 4401
        await _until(lambda: served.hooked)
        assert served.hooked == [False] and served.seats == []


async def test_frames_together_cut_or_fragmented_arrive_whole_and_in_order() -> None:
    async with _server() as served:
        async with connect(f"ws://127.0.0.1:{served.port}/ws") as client:
            await _seated(client, 0)

            def raw(frame: Frame) -> bytes:
                return frame.serialize(mask=True)

            long = '{"type":"play","id":"a3","move":"%s"}' % ("6" * 30)
            together = b"".join([
                raw(Frame(Opcode.TEXT, _play(1).encode())),
                raw(Frame(Opcode.PING, b"p")),
                raw(Frame(Opcode.BINARY, _play(2).encode())),
                raw(Frame(Opcode.TEXT, long.encode() + b" " * 200)),  # 16-bit length
                raw(Frame(Opcode.TEXT, b'{"type":"play",', fin=False)),
                raw(Frame(Opcode.CONT, b'"id":"a4","move":"6-6"}')),
                raw(Frame(Opcode.TEXT, _play(5).encode())),
            ])
            cut = raw(Frame(Opcode.TEXT, _play(6).encode()))
            assert client.transport is not None
            client.transport.write(together + cut[:3])
            await asyncio.sleep(0.05)
            client.transport.write(cut[3:] + raw(Frame(Opcode.TEXT, _play(7).encode()))[:1])
            await asyncio.sleep(0.05)
            client.transport.write(raw(Frame(Opcode.TEXT, _play(7).encode()))[1:])
            replies = await _replies(client, 7)  # the pong is not a message
            assert [r["id"] for r in replies] == [f"a{n}" for n in range(1, 8)]
        await _until(lambda: served.hooked)
        assert served.hooked == [True]
        assert served.seats[0].acted[3] == long + " " * 200
        assert served.seats[0].acted[4] == _play(4)


async def test_an_unmasked_frame_is_refused_as_websockets_refuses_it() -> None:
    async with _server() as served:
        async with connect(f"ws://127.0.0.1:{served.port}/ws") as client:
            await _seated(client, 0)
            assert client.transport is not None
            client.transport.write(Frame(Opcode.TEXT, _play(1).encode()).serialize(mask=False))
            assert await _closed_with(client) == 1002
        await _until(lambda: served.hooked)
        assert served.seats[0].acted == [_play(0)] and served.seats[0].left == 1
