"""The table socket's receive path alone: server CPU per message, taken in uvicorn's callback
(kabes.server.http.direct_receive) or the ASGI way.

A uvicorn server on 127.0.0.1 (``kabes serve``'s settings) runs the socket's reading
(``socket_api.read_socket``) in a thread of its own, each seat answering every action with a
36-byte ack written straight to the transport; clients in the main thread send ``play``
messages of Kabès's length, each waiting for its ack and 15 ms more (a socket may send 100
a second). Prints the server thread's CPU per message for both ways, alternated, with the
yardstick of docs/server.md (dominoes 6.1.0's random hands per CPU-second,
bench/playout.py) measured in the same run.

Run: .venv/bin/python bench/socket_receive.py [--clients 40] [--messages 200] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import threading
import time
from pathlib import Path

import uvicorn
from fastapi import FastAPI, WebSocket
from websockets.asyncio.client import connect

from kabes.server.common.protocol import Action, Hello
from kabes.server.http import direct_receive
from kabes.server.http.direct_send import KeepSend
from kabes.server.http.socket_api import Socket, read_socket
from kabes.server.runtime import uvicorn_config

sys.path.insert(0, str(Path(__file__).parent))
from playout import dominoes_hands


class Counter:
    def __init__(self) -> None:
        self.messages = 0
        self.cpu = 0.0


def serve(port: int, counter: Counter, started: threading.Event, stop: threading.Event) -> None:
    app = FastAPI()
    app.add_middleware(KeepSend)

    class Seat:
        def __init__(self, sock: Socket) -> None:
            self.sock = sock

        def act(self, action: Action, text: str, received: float) -> None:
            counter.messages += 1
            self.sock.send(b'{"type":"ack","id":"%s","seq":1234}' % action.id.encode())

        def leave(self) -> None:
            pass

    @app.websocket("/ws")
    async def talk(ws: WebSocket) -> None:
        await ws.accept()
        sock = Socket(ws)

        async def seat(hello: Hello) -> Seat:
            return Seat(sock)

        await read_socket(ws, sock, seat)

    @app.get("/cpu")
    async def cpu() -> dict[str, float]:
        return {"cpu": time.thread_time()}

    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port))

    async def run() -> None:
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        started.set()
        while not stop.is_set():
            await asyncio.sleep(0.05)
        server.should_exit = True
        await serving

    import uvloop
    uvloop.run(run())


async def window(port: int, counter: Counter, clients: int, messages: int) -> float:
    play = '{"type":"play","id":"a1234567","move":"6-4:r"}'  # 47 bytes, as Kabès's

    async def client() -> None:
        async with connect(f"ws://127.0.0.1:{port}/ws", compression=None) as ws:
            await ws.send('{"type":"hello","token":"t"}')
            await ws.send(play)
            await ws.recv()
            for _ in range(messages):
                await ws.send(play)
                await ws.recv()
                await asyncio.sleep(0.015)  # under the 100 messages a second of a socket

    before_cpu, before_n = _server_cpu(), counter.messages
    await asyncio.gather(*(client() for _ in range(clients)))
    return (_server_cpu() - before_cpu) / (counter.messages - before_n)


_SERVER_THREAD: list[threading.Thread] = []


def _server_cpu() -> float:
    thread = _SERVER_THREAD[0]
    assert thread.native_id is not None
    clock = time.pthread_getcpuclockid(thread.ident)  # type: ignore[arg-type]
    return time.clock_gettime(clock)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    counter = Counter()
    started, stop = threading.Event(), threading.Event()
    thread = threading.Thread(target=serve, args=(port, counter, started, stop), daemon=True)
    _SERVER_THREAD.append(thread)
    thread.start()
    started.wait()
    ready = direct_receive.DirectReader.ready
    results: dict[str, list[float]] = {"direct": [], "asgi": []}
    try:
        for _ in range(args.rounds):
            for way in ("asgi", "direct"):
                direct_receive.DirectReader.ready = (  # type: ignore[method-assign]
                    ready if way == "direct" else (lambda self: False))
                per = asyncio.run(window(port, counter, args.clients, args.messages))
                results[way].append(per * 1e6)
    finally:
        direct_receive.DirectReader.ready = ready  # type: ignore[method-assign]
        stop.set()
        thread.join(10)
    rate = dominoes_hands(3.0)
    for way, figures in results.items():
        shown = ", ".join(f"{f:.1f}" for f in figures)
        hands = ", ".join(f"{f * 1e-6 * rate:.3f}" for f in figures)
        print(f"{way}: server thread CPU per message {shown} us = {hands} dominoes-hands")
    print(f"dominoes 6.1.0 {rate:.0f} hands per CPU-second (this run); "
          f"load average {Path('/proc/loadavg').read_text().split()[0]}")


if __name__ == "__main__":
    main()
