"""The floor: a bare server on kabes serve's stack that costs only what the table protocol
costs at the transport.

uvicorn with the same settings as ``kabes serve`` (websockets-sansio, uvloop, httptools, no
permessage-deflate, pings every 10 s, 4 KiB messages at most) runs a raw ASGI app that
plays the protocol's shape and nothing else: no store, no engine, no views. It answers the
HTTP calls bench/load.py's clients make (guests, tables, joins, /healthz), and on the table
socket answers ``hello`` with ``welcome``, and every ``play`` (and ``start``, ``next_hand``)
with what Kabès sends: one ``update`` to each of the four seats, each with the next ``seq``,
then the ``ack`` to the asker. The moves are fake (the seat whose turn it is may play
``6-6``, the turn goes round), but hands end and matches end as often as at Kabès's
flat-out tables, and every frame is as long as Kabès's frame of that kind (measured on
``kabes serve`` flat out; the constants below), padded with a string the clients skip.

Sending takes Kabès's path too: a message is written at once when the socket's buffer takes
it (the ASGI send driven one step, as
``kabes.server.http.socket_api.Socket`` does), else queued for a
writer task. So what this process spends per move is the floor under Kabès's server CPU per
move: reading one small message and writing five frames, through the same layers.

Run: .venv/bin/python bench/floor.py [--host 127.0.0.1] [--port 8000] [--exit-with-parent]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from typing import Any

import msgspec
import uvicorn

from kabes.server.runtime import tune_runtime, uvicorn_config

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Coroutine[Any, Any, None]]


# Frame lengths in bytes, as kabes serve sends them at bench/load.py's flat-out tables
# (partnership, four people, to 500 points; the mean of each kind over about 450,000 updates,
# measured before every view carried the variant's traits, which add TRAITS bytes to each).
TRAITS = 206
"""``,"traits":{...}`` of a partnership table's view (kabes.table.wire.variant_traits)."""
MOVE_UPDATE = 1548 + TRAITS
"""An update after a move that does not end the hand (a pass folded in about one in eight)."""
HAND_END_UPDATE = 2458 + TRAITS
"""The update after the move that ends a hand (status between_hands, the hand's result)."""
OVER_UPDATE = 2608 + TRAITS
"""The update after the move that ends the match (status over)."""
DEAL_UPDATE = 1474 + TRAITS
"""The update of a deal (after start or next_hand)."""
CONNECTED_UPDATE = 1203 + TRAITS
"""The update telling a waiting table that a seat connected."""
WELCOME = 1174 + TRAITS
"""The answer to hello (the ack, about 36 bytes, is small without padding)."""
MOVES_PER_HAND = 22
"""Plays in a hand at those tables (22.4 on average)."""
HANDS_PER_MATCH = 42
"""Hands in a match to 500 points at those tables (41.7 on average)."""

PAD = "x" * 4096
LEGAL = '["6-6"]'


class Action(msgspec.Struct):
    """What the floor reads of a client message."""

    type: str
    id: str | None = None
    token: str | None = None
    move: str | None = None


DECODER = msgspec.json.Decoder(Action)
ENCODER = msgspec.json.Encoder()


def frame(kind: str, size: int, seq: int, status: str, seat: int, turn: int | None) -> str:
    """A message of ``size`` bytes with what the load clients read of it."""
    legal = LEGAL if turn == seat else "[]"
    head = (f'{{"type":"{kind}","seq":{seq},"table":{{"status":"{status}","host":0}},'
            f'"view":{{"seat":{seat},"turn":{"null" if turn is None else turn},'
            f'"legal":{legal}}},"pad":"')
    return head + PAD[:max(0, size - len(head) - 2)] + '"}'


class Socket:
    """One seat's socket: writes at once when it can, else through a queue and a task."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.backlog: deque[str] | None = None
        self.gone = False

    def put(self, text: str) -> None:
        if self.gone:
            return
        if self.backlog is not None:
            self.backlog.append(text)
            return
        step = self.send({"type": "websocket.send", "text": text})
        try:
            step.send(None)
        except StopIteration:
            return
        except Exception:
            self.gone = True
            return
        step.close()  # it waits for the buffer to drain, and wrote nothing
        self.backlog = deque([text])
        asyncio.get_running_loop().create_task(self.drain())

    async def drain(self) -> None:
        try:
            while self.backlog:
                await self.send({"type": "websocket.send", "text": self.backlog.popleft()})
        except Exception:
            self.gone = True
        self.backlog = None


class Table:
    """A table's shape: seats, seq, turn, hands; every action answered at once."""

    def __init__(self, code: str, host: int) -> None:
        self.code = code
        self.players = [host]
        self.sockets: list[Socket | None] = [None, None, None, None]
        self.seq = 0
        self.status = "waiting"
        self.turn: int | None = None
        self.leader = 0
        self.moves = 0
        self.hands = 0

    def broadcast(self, size: int) -> None:
        self.seq += 1
        seq, status, turn = self.seq, self.status, self.turn
        for seat, sock in enumerate(self.sockets):
            if sock is not None:
                sock.put(frame("update", size, seq, status, seat, turn))

    def attach(self, seat: int, sock: Socket) -> None:
        self.sockets[seat] = sock
        sock.put(frame("welcome", WELCOME, self.seq, self.status, seat, self.turn))
        if self.status == "waiting":
            self.broadcast(CONNECTED_UPDATE)

    def detach(self, seat: int, sock: Socket) -> None:
        if self.sockets[seat] is sock:
            self.sockets[seat] = None
        if self.status == "over" and not any(self.sockets):
            TABLES.pop(self.code, None)

    def act(self, seat: int, action: Action) -> None:
        if PACE[0] > 0 and action.type == "play":
            WAITING.append((self, seat, action))  # answered by the next "commit"
            if len(WAITING) == 1:
                ARRIVED.set()
            return
        self.answer(seat, action)

    def answer(self, seat: int, action: Action) -> None:
        kind = action.type
        sock = self.sockets[seat]
        assert sock is not None
        if kind == "play" and self.status == "playing" and self.turn == seat and action.move:
            self.moves += 1
            if self.moves < MOVES_PER_HAND:
                self.turn = (seat + 1) % 4
                self.broadcast(MOVE_UPDATE)
            elif self.hands < HANDS_PER_MATCH:
                self.status, self.turn = "between_hands", None
                self.broadcast(HAND_END_UPDATE)
            else:
                self.status, self.turn = "over", None
                self.broadcast(OVER_UPDATE)
        elif (kind == "start" and self.status == "waiting" and seat == 0
              and len(self.players) == 4) or (
                kind == "next_hand" and self.status == "between_hands" and seat == 0):
            self.deal()
        else:
            sock.put(ENCODER.encode({"type": "error", "id": action.id, "code": "not_now",
                                     "message": f"the floor does not take {kind} now"}
                                    ).decode())
            return
        sock.put(ENCODER.encode({"type": "ack", "id": action.id, "seq": self.seq}).decode())

    def deal(self) -> None:
        self.hands += 1
        self.moves = 0
        self.status = "playing"
        self.leader = (self.leader + 1) % 4
        self.turn = self.leader
        self.broadcast(DEAL_UPDATE)


PACE = [0.0]
"""Seconds the floor waits before answering the plays that arrived meanwhile, like Kabès's
group commit (``--pace-ms``): 0 answers every play at once."""
WAITING: list[tuple[Table, int, Action]] = []
ARRIVED = asyncio.Event()


async def commits() -> None:
    """Answer the plays in groups, as Kabès's store releases them: the plays waiting when a
    "commit" begins are answered when it ends, ``PACE`` seconds later; those that arrive
    meanwhile wait for the next one."""
    while True:
        await ARRIVED.wait()
        ARRIVED.clear()
        batch = WAITING[:]
        del WAITING[:]
        await asyncio.sleep(PACE[0])
        for table, seat, action in batch:
            table.answer(seat, action)
        if WAITING:
            ARRIVED.set()


PLAYERS: dict[str, int] = {}
"""Token → player."""
TABLES: dict[str, Table] = {}
NUMBERS = itertools.count(1)
RUNNING: list[asyncio.Task[None]] = []


# The app -----------------------------------------------------------------------------------


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "websocket":
        await table_socket(scope, receive, send)
    elif scope["type"] == "http":
        await http(scope, receive, send)
    elif scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if PACE[0] > 0:
                    RUNNING.append(asyncio.get_running_loop().create_task(commits()))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return


async def http(scope: Scope, receive: Receive, send: Send) -> None:
    more = True
    while more:  # the body is read and ignored
        message = await receive()
        more = message.get("more_body", False) and message["type"] == "http.request"
    status, body = route(scope["method"], scope["path"], dict(scope["headers"]))
    data = ENCODER.encode(body)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


def route(method: str, path: str, headers: dict[bytes, bytes]) -> tuple[int, dict[str, Any]]:
    """The HTTP calls of the load clients: (status, JSON body)."""
    parts = path.strip("/").split("/")
    if method == "GET" and path == "/healthz":
        return 200, {"ok": True, "tables": len(TABLES), "floor": True}
    if method != "POST" or parts[:1] != ["api"]:
        return 404, {"code": "not_found", "message": path}
    if parts == ["api", "guests"]:
        player = next(NUMBERS)
        token = secrets.token_urlsafe(16)
        PLAYERS[token] = player
        return 200, {"player": player, "token": token}
    auth = headers.get(b"authorization", b"").decode()
    player_or_none = PLAYERS.get(auth.removeprefix("Bearer "))
    if player_or_none is None:
        return 401, {"code": "bad_token", "message": "this token is unknown"}
    player = player_or_none
    if parts == ["api", "tables"]:
        code = f"F{next(NUMBERS)}"
        TABLES[code] = Table(code, player)
        return 200, {"code": code, "seat": 0}
    if len(parts) == 4 and parts[1] == "tables" and parts[3] == "join":
        table = TABLES.get(parts[2])
        if table is None:
            return 404, {"code": "not_found", "message": f"no table {parts[2]!r}"}
        if player not in table.players:
            if len(table.players) == 4:
                return 409, {"code": "table_full", "message": "no free seat"}
            table.players.append(player)
        return 200, {"code": table.code, "seat": table.players.index(player)}
    return 404, {"code": "not_found", "message": path}


async def table_socket(scope: Scope, receive: Receive, send: Send) -> None:
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    parts = scope["path"].strip("/").split("/")
    table = TABLES.get(parts[2]) if len(parts) == 4 else None
    if table is None:
        await send({"type": "websocket.close", "code": 4404})
        return
    sock = Socket(send)
    seat: int | None = None
    try:
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            data = text if text is not None else message.get("bytes") or b""
            try:
                action = DECODER.decode(data)
            except msgspec.DecodeError as err:
                sock.put(ENCODER.encode({"type": "error", "id": None, "code": "bad_message",
                                         "message": str(err)}).decode())
                continue
            if seat is not None:
                table.act(seat, action)
            elif action.type == "hello":
                player = PLAYERS.get(action.token or "")
                if player is None or player not in table.players:
                    await send({"type": "websocket.close", "code": 4401})
                    return
                seat = table.players.index(player)
                table.attach(seat, sock)
            else:
                sock.put(ENCODER.encode({"type": "error", "id": action.id,
                                         "code": "bad_message", "message": "say hello first"}
                                        ).decode())
    finally:
        sock.gone = True
        if seat is not None:
            table.detach(seat, sock)


# Running -----------------------------------------------------------------------------------


def exit_with_parent() -> None:
    """End this process when the one that started it is gone (a bench killed with -9)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--pace-ms", type=float, default=0.0,
                        help="answer plays in groups, this many ms after they arrive, as "
                             "Kabès's group commit does (0: at once)")
    parser.add_argument("--exit-with-parent", action="store_true",
                        help="end when the process that started this one ends")
    args = parser.parse_args()
    if args.exit_with_parent:
        exit_with_parent()
    PACE[0] = args.pace_ms / 1000
    # Exactly as kabes serve runs: the same uvicorn settings and runtime (kabes.server.runtime,
    # the only part of Kabès the floor loads).
    server = uvicorn.Server(uvicorn_config(app, args.host, args.port))
    print(f"The floor is serving at http://{args.host}:{args.port}/", flush=True)
    tune_runtime()
    with contextlib.suppress(KeyboardInterrupt):
        server.run()


if __name__ == "__main__":
    main()
