"""A local table (kabes.local, a phone with no network) sends what the server's table sends:
the same messages, in the same order, for the same deals and moves (issue 26: one source).

A person plays a whole match against computer seats at the server (in process, a fake
clock), by the protocol: hello, start, moves drawn from the view's ``legal``, an illegal
move, a retried id, a sync, a phrase, a hint, a review, ``next_hand``, and ``play_again`` at
the end (or a refused one, where the match is cut short). Then a local table is given the
server's deals and its computer seats' moves (they come from the server's random source) and
the same client messages in the same order, its computer seats moving as they fall due;
every message it sends must equal the server's but for what a clock or a search decides: the
clocks' time left, a phrase's time, a hint's move, a review's moves, and the tables' codes.
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from pathlib import Path
from random import Random
from typing import Any

import pytest
from harness import Server, Socket, running, sqlite_url

from kabes.local.computer import Budgets
from kabes.local.table import TIMING, LocalTable
from kabes.local.tables import Tables
from kabes.server.common.config import TABLE, Settings
from kabes.table.creation import NewTable
from kabes.table.state import TableState

FAST = Settings(computer_delay=0.0, expert_budget=0.02, hint_budget=0.02, review_budget=0.02)
TABLES: list[dict[str, Any]] = [
    {"variant": "haitian", "players": 3, "computers": {"1": "expert", "2": "casual"},
     "options": {"hands": 2}},
    {"variant": "plaza-partners", "players": 4, "options": {"target": 50},
     "computers": {"1": "skilled", "2": "beginner", "3": "expert"}},
    {"variant": "mexican-train", "players": 5,
     "computers": {"1": "casual", "2": "beginner", "3": "skilled", "4": "casual"}},
]
ROUNDS = {"mexican-train": 2}
"""Where a match is played only so far (its 13 rounds would add little but time)."""


def test_the_local_table_runs_the_server_s_clocks() -> None:
    assert TABLE.timing == TIMING


class Played:
    """The person's side at the server: what they sent, and every message they got."""

    def __init__(self, server: Server, sock: Socket, rng: Random) -> None:
        self.server = server
        self.sock = sock
        self.rng = rng
        self.sent: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.table: dict[str, Any] = {}
        self.ids = itertools.count()
        self.waiting: set[str] = set()

    def send(self, message: dict[str, Any]) -> str:
        if "id" not in message and message["type"] != "hello":
            message = {**message, "id": f"p{next(self.ids)}"}
        self.sent.append(message)
        self.sock.send(message)
        if "id" in message:
            self.waiting.add(message["id"])
        return str(message.get("id"))

    async def settle(self) -> None:
        """Read until every action is answered and the table waits for the person."""
        pending = [await self.sock.recv()]
        while True:
            for message in pending:
                if message["type"] in ("welcome", "update"):
                    self.view, self.table = message["view"], message["table"]
                self.waiting.discard(message.get("id"))
            status = self.table.get("status")
            if not self.waiting and (status in ("between_hands", "over") or (
                    status == "playing" and self.view.get("turn") == 0)):
                return  # nothing comes until the person acts: no clock runs here
            if not self.waiting and status == "waiting":
                pending = await self.sock.quiet(0.1)  # a hello's answers have no id
                if not pending:
                    return
            else:
                pending = [await self.sock.recv()]


async def play_at_server(server: Server, spec: dict[str, Any], seed: int
                         ) -> tuple[int, str, list[dict[str, Any]], list[dict[str, Any]]]:
    """Play a match of ``spec`` at the server: the player, their name, the messages sent,
    the messages got."""
    player, token = await server.guest("Roselène")
    code = (await server.open_table(token, **spec))["code"]
    me = Played(server, server.socket(code), Random(seed))
    me.send({"type": "hello", "token": token})
    await me.settle()
    me.send({"type": "start"})
    await me.settle()
    first = True
    while me.table["status"] != "over":
        if me.view["hands_played"] == ROUNDS.get(spec["variant"]):
            break
        if me.table["status"] == "between_hands":
            me.send({"type": "review"})
            await me.settle()
            me.send({"type": "next_hand"})
        elif first:
            first = False
            me.send({"type": "play", "move": "9-9"})  # no such tile: illegal_move
            me.send({"type": "say", "phrase": "hello"})
            me.send({"type": "sync"})
            me.send({"type": "hint"})
            await me.settle()
            again = me.send({"type": "play", "move": me.rng.choice(me.view["legal"])})
            await me.settle()
            me.send({"type": "play", "move": "whatever", "id": again})  # a retry: its ack
        else:
            me.send({"type": "play", "move": me.rng.choice(me.view["legal"])})
        await me.settle()
    me.send({"type": "review"})  # of the last hand, once the match is over
    await me.settle()  # (the server's answer comes when searched: the local one at once)
    me.send({"type": "play_again"})  # refused not_now while the match goes on
    await me.settle()
    return player, code, me.sent, me.sock.log


def at_local(spec: dict[str, Any], player: int, entries: list[Any],
             sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same match at a local table: the server's deals and computer moves, the same
    client messages; every message the local table sent."""
    deals = deque({k: e.data[k] for k in ("deal", "stock", "leader")}
                  for e in entries if e.kind in ("started", "dealt"))
    moves: dict[int, deque[str]] = {}
    for e in entries:
        if e.kind == "move" and e.data["seat"] != 0:
            moves.setdefault(e.data["seat"], deque()).append(e.data["move"])

    def thinker(state: TableState, seat: int, level: str) -> str:
        return moves[seat].popleft()

    request = NewTable(spec["variant"], spec.get("players"), spec.get("options"),
                      spec.get("computers"))
    table = LocalTable.opened("LOCAL", request, player, "Roselène", clock=lambda: 1000.0,
                              budgets=Budgets(computer_delay=0.0, worlds=2),
                              dealer=lambda state: deals.popleft(), thinker=thinker,
                              opener=lambda _: "AGAIN")
    got: list[bytes] = []
    for message in sent:
        table.receive(1, json.dumps(message))
        while (due := table.due()) is not None and due <= 1000.0:
            table.tick()
        got += [data for _, data in table.take() if isinstance(data, bytes)]
    assert not deals and not any(moves.values()), "the local table played otherwise"
    return [json.loads(data) for data in got]


def same(message: dict[str, Any], code: str) -> dict[str, Any]:
    """``message`` without what a clock or a search decides, its table named ``CODE``."""
    text = json.dumps(message).replace(f'"{code}"', '"CODE"')
    out: dict[str, Any] = json.loads(text)
    view, table = out.get("view"), out.get("table")
    for clock in ("clock", "pause"):
        if view and view.get(clock):
            view[clock].pop("remaining_ms")
    if table and table.get("next_table"):
        table["next_table"] = "NEXT"
    for event in out.get("events", []):
        if event["kind"] == "next_table":
            event["code"] = "NEXT"
    if out["type"] == "said":
        out.pop("at")
    if out["type"] == "hint":
        assert out["move"] and out["reason"]
        out["move"] = out["reason"] = ""
    if out["type"] == "review":
        out["moves"] = []
    return out


@pytest.mark.parametrize("spec", TABLES, ids=[t["variant"] for t in TABLES])
async def test_a_local_table_sends_what_the_server_s_table_sends(
        tmp_path: Path, spec: dict[str, Any]) -> None:
    async with running(sqlite_url(tmp_path), FAST) as server:
        player, code, sent, got = await play_at_server(server, spec, seed=len(spec["variant"]))
        entries = await server.hub.store.load(code)
    local = at_local(spec, player, entries, sent)
    kinds = {m["type"] for m in got}
    assert kinds == {"welcome", "update", "ack", "error", "said", "hint", "review"}
    assert len(local) == len(got)
    for number, (here, there) in enumerate(zip(local, got, strict=True)):
        assert same(here, "LOCAL") == same(there, code), f"message {number}"


async def test_the_phone_answers_the_lessons_as_the_server_does(server: Server) -> None:
    """Every lesson in one language, and a try at each play step (its first legal move and a
    tile not in the hand), answered by the worker's call as by /api/lessons."""
    phone = Tables(seed=1)

    def local(**request: Any) -> Any:
        return json.loads(phone.call(json.dumps(request)))

    paths = (await server.http.get("/api/lessons?lang=ht")).json()
    assert local(op="lessons", lang="ht", done=[])["answer"] == paths
    for entry in [lesson for path in paths["paths"] for lesson in path["lessons"]]:
        body = (await server.http.get(f"/api/lessons/{entry['id']}?lang=ht")).json()
        assert local(op="lesson", lesson=entry["id"], lang="ht")["answer"] == body
        for number, step in enumerate(body["steps"]):
            if step["task"]["kind"] != "play":
                continue
            for move in (step["view"]["legal"][0], "12-12"):
                tried = {"step": number, "move": move}
                there = await server.http.post(f"/api/lessons/{entry['id']}/try?lang=ht",
                                               json=tried)
                here = local(op="try", lesson=entry["id"], lang="ht", body=tried)
                assert here.get("answer", here.get("error")) == there.json()
    assert local(op="lesson", lesson="nope", lang="en")["error"]["code"] == "not_found"
