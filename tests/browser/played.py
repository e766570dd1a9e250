"""A match played through the protocol at a real server, as a bot plays it: one person's socket
(seat 0: the first legal tile at each turn, the next hand dealt at once) and the computer at
the other seats. For the replay's browser test and bench/first_paint.py's replay page."""

from __future__ import annotations

import json
import urllib.request
from typing import Any
from urllib.parse import urlparse

from websockets.sync.client import connect


def api(base: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def play_match(
    base: str, spec: dict[str, Any], hands: int | None = None
) -> tuple[str, dict[str, Any]]:
    """A table of one person (seat 0, over the socket: the first legal tile at each turn, the
    next hand dealt at once) and the computer at the other seats, played to its end, or
    until ``hands`` hands are finished; the table's code and its guest."""
    guest = api(base, "/api/guests", {"name": "Wilna"})
    code = api(base, "/api/tables", spec, guest["token"])["code"]
    address = urlparse(base)
    seq = 0
    done: set[tuple[int, int, int]] = set()
    dealt: set[int] = set()
    with connect(f"ws://{address.netloc}/api/tables/{code}/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": guest["token"]}))
        ws.send(json.dumps({"type": "start", "id": "start"}))
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] not in ("welcome", "update"):
                assert message["type"] != "error" or message["code"] == "not_now", message
                continue
            seq += 1
            table, view = message["table"], message["view"]
            if table["status"] == "over" or (hands is not None and view["hands_played"] >= hands):
                return code, guest
            if table["status"] == "between_hands" and view["hand_number"] not in dealt:
                dealt.add(view["hand_number"])
                ws.send(json.dumps({"type": "next_hand", "id": f"n{seq}"}))
            moment = (view["hand_number"], len(view["played"]), len(view["passes"]))
            mine = table["status"] == "playing" and view["turn"] == 0 and view["legal"]
            if mine and moment not in done:
                done.add(moment)
                ws.send(json.dumps({"type": "play", "id": f"p{seq}", "move": view["legal"][0]}))
