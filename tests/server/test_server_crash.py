"""PROTOCOL.md guarantee 2, "Nothing acknowledged is lost", against a real `kabes serve`.

The server runs as its own process on a SQLite file and is killed with SIGKILL (its worker
processes with it) at moments chosen by a seeded random: in the middle of a hand, right after
an ack, between hands, while a computer seat is thinking, with a move still on the wire. It is
started again on the same store, the clients come back with the same tokens, and the test
checks what a client can see:

- every table comes back where it was: the welcome after the restart shows what the last update
  before the kill showed (hands, line, scores, everything but the clocks and who is connected),
  or, when something was still under way at the kill, a later point of the same match;
- the turn's clock gives back the time it had left when the server stopped: the seconds the
  server was down are not charged, the clock is the normal one (not a disconnected seat's)
  even before the seat comes back, and it never holds more than a whole turn;
- every ack and every update that showed a move is in the final record, no sequence number is
  ever reused for another change, a retried action id is answered, never applied twice;
- the matches are then played to their end, and their record replays (kabes.records) to the
  results the table announced.
"""

from __future__ import annotations

import asyncio
import bisect
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from wsclient import WAIT, Client, Received, ServerProcess, auth, guest

from kabes.events import Event, Played
from kabes.records import filled, replay

SERVE_OPTIONS = (
    "--computer-delay", "0", "--turn-seconds", "45", "--pause-seconds", "30",
    "--workers", "1", "--expert-budget", "0.05",
)
TURN_MS = 45_000
PAUSE_MS = 30_000
AWAY_MS = 5_000
HEARTBEAT_MS = 250
"""The server notes it is alive every 0.25 s: a restart may give back up to that much more."""
SLACK_MS = 600
"""Scheduling on a shared machine: the update's trip, the restart's first steps, a reconnect."""
SEED = 20_260_406


class LoopWatch:
    """When this test's own event loop was last seen on time.

    A client's message is stamped when the loop gets to read it. On a loaded machine the test
    process may be kept off the CPU for most of a second, and a message read late had been on
    its way (the server's clock running) since before it was read: but not since before the
    loop's last tick ahead of the reading, for a message waiting at that tick would have been
    read then (give or take one turn of the loop)."""

    PERIOD = 0.01

    def __init__(self) -> None:
        self.ticks: deque[float] = deque(maxlen=3000)  # 30 s: bounded, whatever the test does

    async def run(self) -> None:
        while True:
            self.ticks.append(time.monotonic())
            await asyncio.sleep(self.PERIOD)

    def on_time_before(self, at: float) -> float:
        """The last tick at or before ``at`` (``at`` itself when none is kept)."""
        ticks = list(self.ticks)
        where = bisect.bisect_right(ticks, at)
        return ticks[where - 1] if where else at


WATCH = LoopWatch()


@pytest.fixture(autouse=True)
async def watched() -> AsyncIterator[None]:
    """:data:`WATCH` ticking on this test's loop for the whole test."""
    WATCH.ticks.clear()
    ticking = asyncio.create_task(WATCH.run())
    try:
        yield
    finally:
        ticking.cancel()


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    """`kabes serve` on a fresh SQLite file; killed (with its workers) whatever happens."""
    process = ServerProcess(tmp_path, *SERVE_OPTIONS)
    try:
        await process.start()
        yield process
    finally:
        process.kill()


# Tables and their clients ------------------------------------------------------------------


@dataclass
class Ack:
    """An action a client saw acknowledged."""

    client: Client
    id: str
    kind: str
    move: str | None
    seq: int


@dataclass
class Table:
    """One table as its people's clients see it."""

    code: str
    clients: dict[int, Client]
    """People's seats (computer seats have no client)."""
    acks: list[Ack] = field(default_factory=list)
    actions: int = 0

    @property
    def host(self) -> Client:
        """Seat 0."""
        return self.clients[0]

    def newest(self) -> Received:
        """The welcome or update with the highest seq any client holds on its current socket."""
        found = [r for c in self.clients.values() if (r := c.latest()) is not None]
        assert found, f"table {self.code}: nobody is connected"
        return max(found, key=lambda r: r.message["seq"])

    def state(self) -> dict[str, Any]:
        """The newest message."""
        return self.newest().message

    def settled(self) -> bool:
        """Every client has the newest update, and the table waits for a person (a person's
        turn, between hands, or over): nothing happens at the server until someone acts."""
        latest = [c.latest() for c in self.clients.values()]
        if any(r is None for r in latest):
            return False
        seqs = {r.message["seq"] for r in latest if r is not None}
        return len(seqs) == 1 and waits_for_person(self.state(), self.clients)

    def next_id(self, kind: str) -> str:
        """A fresh action id."""
        self.actions += 1
        return f"{self.code}-{kind}-{self.actions}"


def waits_for_person(message: dict[str, Any], people: dict[int, Client]) -> bool:
    """Whether the table, as ``message`` shows it, can only move on by a person's action."""
    status = message["table"]["status"]
    return status != "playing" or message["view"]["turn"] in people


async def settle(table: Table) -> dict[str, Any]:
    """Wait until ``table`` is settled; its newest message."""
    deadline = time.monotonic() + WAIT
    while not table.settled():
        assert time.monotonic() < deadline, f"table {table.code} did not settle"
        await asyncio.sleep(0.005)
    return table.state()


@dataclass
class Sent:
    """A play sent: by whom, its id, the move, and the sender's view just before."""

    client: Client
    id: str
    move: str
    before: dict[str, Any]

    @property
    def seq(self) -> int:
        """The seq of the view the play was chosen from."""
        seq: int = self.before["seq"]
        return seq


async def play(table: Table, rng: random.Random, wait: bool = True) -> Sent:
    """The person whose turn it is plays one of their legal moves (at random); with ``wait``,
    until its ack."""
    state = await settle(table)
    assert state["table"]["status"] == "playing", state["table"]["status"]
    client = table.clients[state["view"]["turn"]]
    own = client.latest()
    assert own is not None
    legal = own.message["view"]["legal"]
    assert legal, f"seat {client.seat} to move with no legal move: {own.message['view']}"
    move = rng.choice(legal)
    action = table.next_id("play")
    start = len(client.log)
    await client.send({"type": "play", "id": action, "move": move})
    if wait:
        answer = await client.answer(action, start)
        assert answer["type"] == "ack", answer
        table.acks.append(Ack(client, action, "play", move, answer["seq"]))
    return Sent(client, action, move, own.message)


async def host_action(table: Table, kind: str) -> None:
    """The host's ``next_hand`` or ``start``, until its ack."""
    action = table.next_id(kind)
    start = len(table.host.log)
    await table.host.send({"type": kind, "id": action})
    answer = await table.host.answer(action, start)
    assert answer["type"] == "ack", answer
    table.acks.append(Ack(table.host, action, kind, None, answer["seq"]))


async def step(table: Table, rng: random.Random) -> str:
    """Move ``table`` on by one person's action; its status before that."""
    state = await settle(table)
    status: str = state["table"]["status"]
    if status == "between_hands":
        await host_action(table, "next_hand")
    elif status == "playing":
        await play(table, rng)
    return status


async def until(table: Table, rng: random.Random, status: str) -> bool:
    """Play ``table`` on until it is settled in ``status``; False if the match ended first."""
    while (now := (await settle(table))["table"]["status"]) != status:
        if now == "over":
            return False
        await step(table, rng)
    return True


async def open_table(
    server: ServerProcess, names: list[str], body: dict[str, Any]
) -> Table:
    """A table opened by the first of ``names`` with ``body``, the others seated in order,
    every person connected, the match started."""
    async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
        tokens = [(await guest(http, name))[1] for name in names]
        reply = await http.post("/api/tables", headers=auth(tokens[0]), json=body)
        assert reply.status_code == 201, reply.text
        code = reply.json()["code"]
        for token in tokens[1:]:
            joined = await http.post(f"/api/tables/{code}/join", headers=auth(token))
            assert joined.status_code == 200, joined.text
    clients = [Client(server.base, code, token) for token in tokens]
    for client in clients:
        await client.connect()
    table = Table(code, {c.seat: c for c in clients})
    await host_action(table, "start")
    return table


async def partnership(server: ServerProcess, target: int) -> Table:
    """A partnership table of four people."""
    return await open_table(server, ["Roselène", "Wilner", "Darline", "Jocelyn"],
                            {"variant": "partnership", "options": {"target": target}})


async def haitian(server: ServerProcess) -> Table:
    """A Haitian table of six hands: people at seats 0 and 2, computers at 1 and 3 (so a
    computer moves after every person)."""
    return await open_table(server, ["Fabiola", "Esaïe"], {
        "variant": "haitian", "players": 4, "options": {"hands": 6},
        "computers": {"1": "expert", "3": "casual"}})


# One kill ----------------------------------------------------------------------------------


@dataclass
class Before:
    """What a table's clients had seen when the server was killed."""

    seq: int
    """The highest seq any client had seen."""
    quiet: bool
    """Nothing was under way at the server: the newest update is the table's state."""
    last: dict[int, dict[str, Any]]
    """Each client's newest message."""
    clock_ms: float | None = None
    """Quiet, during a hand: what the turn's clock held at the moment of the kill."""
    pause_ms: float | None = None
    """Quiet, between hands: what the pause held at the moment of the kill."""
    late_ms: float = 0.0
    """Quiet: how long the newest update may have waited to be read (:class:`LoopWatch`):
    the clocks may have held that much less at the kill than ``clock_ms`` and ``pause_ms``."""
    pending: Sent | None = None
    """A play sent but not acknowledged when the server died (retried after the restart)."""


def snapshot(table: Table, quiet: bool, killed_at: float) -> Before:
    """What ``table``'s clients saw, just before the kill at ``killed_at``."""
    newest = table.newest()
    seq = newest.message["seq"]
    last = {s: r.message for s, c in table.clients.items() if (r := c.latest()) is not None}
    before = Before(seq, quiet, last)
    if quiet:
        # The first copy of the newest update to arrive says best what the clock held.
        arrived = min(r.at for c in table.clients.values() for r in c.log
                      if r.epoch == c.epoch and r.message.get("seq") == seq
                      and r.message["type"] in ("update", "welcome"))
        spent = (killed_at - arrived) * 1000
        before.late_ms = (arrived - WATCH.on_time_before(arrived)) * 1000
        view = newest.message["view"]
        if view["clock"] is not None:
            before.clock_ms = view["clock"]["remaining_ms"] - spent
        if view["pause"] is not None:
            before.pause_ms = view["pause"]["remaining_ms"] - spent
    return before


def comparable(message: dict[str, Any]) -> dict[str, Any]:
    """A welcome or update without what a restart may change: the clocks, who is connected,
    the seq and the events."""
    view = {k: v for k, v in message["view"].items() if k not in ("clock", "pause")}
    summary = dict(message["table"])
    summary["seats"] = [
        None if s is None else {k: v for k, v in s.items() if k != "connected"}
        for s in summary["seats"]
    ]
    return {"table": summary, "view": view}


def differ(after: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """What differs between two comparable messages: {field: (after, before)}."""
    a, b = comparable(after), comparable(before)
    out = {k: (v, b["table"].get(k)) for k, v in a["table"].items() if b["table"].get(k) != v}
    out.update({k: (v, b["view"].get(k)) for k, v in a["view"].items() if b["view"].get(k) != v})
    return out


def progress(message: dict[str, Any]) -> tuple[int, bool, int]:
    """How far the match is: hands dealt, whether the last is over, tiles played in it."""
    view = message["view"]
    return view["hand_number"], message["table"]["status"] != "playing", len(view["played"])


@dataclass
class Charge:
    """One resumed clock: what it held at the kill, what it held after, how long the server
    was away in between."""

    expected_ms: float
    got_ms: int
    down_s: float
    full_ms: int
    """A whole turn, or a whole pause."""
    late_ms: float
    """How long the update giving ``expected_ms`` may have waited to be read."""

    def check(self, where: str) -> None:
        """The clock came back with what it had at the kill: give or take a heartbeat (it
        may get back what it spent after the last one), the trip of the messages and the
        time the update waited to be read, never charged the time the server was down,
        never more than whole."""
        charged = self.expected_ms - self.got_ms
        assert -(HEARTBEAT_MS + SLACK_MS) <= charged <= SLACK_MS + self.late_ms, (
            f"{where}: a clock holding {self.expected_ms:.0f} ms at the kill (or up to "
            f"{self.late_ms:.0f} ms less, read late) came back with {self.got_ms} ms after "
            f"{self.down_s:.2f} s away")
        assert self.got_ms <= self.full_ms, f"{where}: {self.got_ms} ms is more than whole"


async def come_back(table: Table, before: Before, charges: list[Charge], killed_at: float) -> None:
    """Reconnect every client of ``table`` (the seat to move last) and check its welcome."""
    newest = max(before.last.values(), key=lambda m: m["seq"])
    turn = newest["view"]["turn"]
    order = sorted(table.clients, key=lambda s: (s == turn, s))
    first = True
    for seat in order:
        client = table.clients[seat]
        start = len(client.log)
        welcome = await client.connect()
        down_s = time.monotonic() - killed_at
        where = f"table {table.code} seat {seat} after restart"
        assert welcome["seq"] > before.seq, (
            f"{where}: welcome seq {welcome['seq']} but seq {before.seq} was seen before the "
            "kill: a change that was shown is gone, or its seq is reused")
        view = welcome["view"]
        status = welcome["table"]["status"]
        clock, pause = view["clock"], view["pause"]
        assert (clock is not None) == (status == "playing"), f"{where}: clock {clock}"
        if clock is not None:
            assert clock["remaining_ms"] <= TURN_MS, f"{where}: clock {clock} holds too much"
            sitter = welcome["table"]["seats"][clock["seat"]]
            if progress(welcome) == progress(newest):
                # The turn the server died in: the normal clock, whoever is back.
                assert clock["away"] is False, f"{where}: the restart put {clock} on the away clock"
                if first and clock["seat"] in table.clients and clock["seat"] != seat:
                    assert sitter["connected"] is False, f"{where}: {sitter}"
                    assert clock["remaining_ms"] > AWAY_MS + SLACK_MS, (
                        f"{where}: seat {clock['seat']}, not back yet, has {clock}")
            elif clock["away"]:
                # A turn begun after the restart, for a person not back yet (a welcome shows
                # the table as it was just before this socket came): the short clock.
                assert clock["seat"] in table.clients, f"{where}: a computer away? {clock}"
                assert clock["remaining_ms"] <= AWAY_MS, f"{where}: {clock}"
        if pause is not None:
            assert pause["remaining_ms"] <= PAUSE_MS, f"{where}: pause {pause} holds too much"
        mine = before.last.get(seat)
        if before.quiet and mine is not None and mine["seq"] == before.seq:
            assert comparable(welcome) == comparable(mine), (
                f"{where}: the table did not come back as it was: {differ(welcome, mine)}")
            if first and before.clock_ms is not None:
                assert clock is not None and clock["seat"] == mine["view"]["clock"]["seat"]
                charges.append(Charge(before.clock_ms, clock["remaining_ms"], down_s, TURN_MS,
                                      before.late_ms))
                charges[-1].check(where)
            if first and before.pause_ms is not None:
                assert pause is not None, f"{where}: the pause is gone"
                charges.append(Charge(before.pause_ms, pause["remaining_ms"], down_s, PAUSE_MS,
                                      before.late_ms))
                charges[-1].check(where)
        elif mine is not None:
            then, now = progress(mine), progress(welcome)
            assert now >= then, f"{where}: the table went back from {then} to {now}"
            if now == then:
                assert comparable(welcome) == comparable(mine), (
                    f"{where}: same point, not the same table: {differ(welcome, mine)}")
        first = False
        await client.wait(is_back(seat), start)
    await settle_seq(table)
    clock = table.state()["view"]["clock"]
    assert clock is None or not clock["away"], (
        f"table {table.code}: every seat is back, yet the clock is {clock}")


def is_back(seat: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is the update telling that ``seat`` is connected."""
    news = {"kind": "connected", "seat": seat}
    return lambda m: m["type"] == "update" and news in m["events"]


async def settle_seq(table: Table) -> None:
    """Wait until every client has seen the same newest seq (the reconnections' updates)."""
    deadline = time.monotonic() + WAIT
    while True:
        latest = [c.latest() for c in table.clients.values()]
        if all(r is not None for r in latest) and len(
            {r.message["seq"] for r in latest if r is not None}
        ) == 1:
            return
        assert time.monotonic() < deadline, f"table {table.code}: clients out of step"
        await asyncio.sleep(0.005)


async def retry(table: Table, before: Before, welcome_seq: int) -> bool:
    """Send again the play the server died on: acked, and applied exactly once (its old ack
    if it was stored before the kill, a new change if it was not). Whether it was stored."""
    assert before.pending is not None
    client, action, move = before.pending.client, before.pending.id, before.pending.move
    start = len(client.log)
    welcome = next(r.message for r in client.log
                   if r.epoch == client.epoch and r.message["type"] == "welcome")
    # The table waited for this play alone: if it moved on, the play was stored.
    stored = progress(welcome) != progress(before.pending.before)
    shown = [r.message["seq"] for r in client.log if r.epoch == client.epoch - 1
             and r.message["type"] == "update" and r.message["seq"] > before.pending.seq
             and [client.seat, move] in [
                 [e["seat"], e["move"]] for e in r.message["events"] if e["kind"] == "played"]]
    await client.send({"type": "play", "id": action, "move": move})
    answer = await client.answer(action, start)
    assert answer["type"] == "ack", f"retried {action}: {answer}"
    assert stored or not shown, f"{action} was shown before the kill, yet not kept"
    if stored:
        assert answer["seq"] < welcome_seq, (
            f"retried {action}, stored before the kill, was acked as a new change: {answer}")
        assert answer["seq"] in shown or not shown, (
            f"retried {action}: acked with seq {answer['seq']}, shown at {shown}")
    else:
        assert answer["seq"] > welcome_seq, (
            f"retried {action}, not stored before the kill, was acked as an old one: {answer}")
        update = await client.wait(lambda m: m.get("seq") == answer["seq"], start)
        assert update["type"] == "update" and [client.seat, move] in [
            [e["seat"], e["move"]] for e in update["events"] if e["kind"] == "played"
        ], f"retried {action}: its update {update} does not show {move}"
    table.acks.append(Ack(client, action, "play", move, answer["seq"]))
    return stored


async def resend(ack: Ack) -> None:
    """An action acked before a kill, sent again after it: the same ack, nothing applied."""
    start = len(ack.client.log)
    message: dict[str, Any] = {"type": ack.kind, "id": ack.id}
    if ack.move is not None:
        message["move"] = ack.move
    await ack.client.send(message)
    again = await ack.client.answer(ack.id, start)
    assert again == {"type": "ack", "id": ack.id, "seq": ack.seq}, (
        f"{ack.id} was acked with seq {ack.seq} before the kill; after it: {again}")


async def kill_and_restart(
    server: ServerProcess,
    tables: list[Table],
    quiet: dict[str, bool],
    pending: dict[str, Sent],
    down: float,
    charges: list[Charge],
) -> dict[str, bool]:
    """SIGKILL now; ``down`` seconds later start again; every client back, every check, every
    pending play retried. For each table with one: whether it had been stored."""
    killed_at = time.monotonic()
    server.kill()
    befores = {t.code: snapshot(t, quiet[t.code], killed_at) for t in tables}
    for code, sent in pending.items():
        befores[code].pending = sent
    for table in tables:
        for client in table.clients.values():
            await client.drop()
    await asyncio.sleep(down)
    await server.start()
    for table in tables:
        await come_back(table, befores[table.code], charges, killed_at)
    stored: dict[str, bool] = {}
    for table in tables:
        before = befores[table.code]
        if table.acks:
            await resend(table.acks[-1])
        if before.pending is not None:
            welcome_seq = min(
                r.message["seq"] for c in table.clients.values() for r in c.log
                if r.epoch == c.epoch and r.message["type"] == "welcome"
            )
            stored[table.code] = await retry(table, before, welcome_seq)
            await resend(table.acks[-1])
    return stored


# The whole check ---------------------------------------------------------------------------


def replayed_moves(record: dict[str, Any]) -> list[list[list[Any]]]:
    """Each hand's tiles played, as [seat, move], by replaying the record."""
    hands: list[list[list[Any]]] = []

    def collect(events: list[Event]) -> None:
        for event in events:
            if event.kind == "hand_started":
                hands.append([])
            if isinstance(event, Played):
                hands[-1].append([event.seat, event.move])

    replay(record, collect)
    return hands


def check_everything_kept(table: Table, record: dict[str, Any]) -> None:
    """Every update's played tiles, every ack, every announced result, against the record."""
    hands = replayed_moves(record)
    results = [h["result"] for h in filled(record)["hands"]]
    assert [h["result"] for h in record["hands"]] == results
    assert record["result"] == filled(record)["result"]
    shown: dict[int, tuple[list[Any], int, Any]] = {}
    for client in table.clients.values():
        for item in client.log:
            message = item.message
            if message["type"] not in ("update", "welcome"):
                continue
            view, seq = message["view"], message["seq"]
            where = f"table {table.code} seat {client.seat} seq {seq}"
            number = view["hand_number"]
            if number == 0:
                continue
            moves = hands[number - 1]
            assert view["played"] == moves[:len(view["played"])], (
                f"{where}: the tiles shown played are not the record's")
            played = [[e["seat"], e["move"]] for e in message.get("events", [])
                      if e["kind"] == "played"]
            key = [number, played]
            if message["type"] == "update" and message["events"]:  # (not a sync's answer)
                first = shown.setdefault(seq, (key, item.epoch, message["events"]))
                assert first[0] == key, (
                    f"{where}: seq {seq} was shown as two different changes: {first[1:]} and "
                    f"{item.epoch, message['events']}")
            for move in played:
                if message["table"]["status"] == "playing":
                    assert view["played"][-1] == move, f"{where}: {move} not in the view"
                else:
                    assert moves[-1] == move, f"{where}: the hand's last tile {move} is lost"
            told = [e["result"] for e in message.get("events", []) if e["kind"] == "hand_ended"]
            if view["last_hand"] is not None:
                told.append(view["last_hand"]["result"])
            for result in told:
                announced = result  # counts included: the record carries them too
                assert announced == results[number - 1], (
                    f"{where}: hand {number} announced {announced}, replays to "
                    f"{results[number - 1]}")
            if view["result"] is not None:
                assert view["result"] == record["result"], f"{where}: announced {view['result']}"
    for ack in table.acks:
        if ack.move is None:
            continue
        found = [r.message for r in ack.client.log if r.message.get("seq") == ack.seq
                 and r.message["type"] == "update" and r.message["events"]]
        for update in found:
            played = [[e["seat"], e["move"]] for e in update["events"] if e["kind"] == "played"]
            assert played == [[ack.client.seat, ack.move]], (
                f"{ack.id} acked at seq {ack.seq}, whose update shows {played}")
        if not found:
            # Acked again after a restart, stored before it: a later view shows the tile.
            assert any([ack.client.seat, ack.move] in h for h in hands), f"{ack.id} is lost"


KINDS = ("mid_hand", "after_ack", "between_hands", "computer_turn", "in_flight")
"""The moments of a kill: a person to move; just after an ack; between hands; a computer
thinking; a play on its way to the server."""


async def test_nothing_acknowledged_is_lost_when_the_server_is_killed_at_random_moments(
    server: ServerProcess,
) -> None:
    rng = random.Random(SEED)
    tables = [await partnership(server, 150), await haitian(server)]
    charges: list[Charge] = []
    kills = 12
    for number in range(kills):
        live = []
        for table in tables:
            for _ in range(rng.randrange(0, 3)):
                await step(table, rng)
            if (await settle(table))["table"]["status"] != "over":
                live.append(table)
        assert live, f"both matches ended before kill {number + 1}"
        kind = KINDS[number] if number < len(KINDS) else rng.choice(KINDS)
        target = tables[1] if kind == "computer_turn" and tables[1] in live else rng.choice(live)
        quiet = {t.code: True for t in live}
        pending: dict[str, Sent] = {}
        if await until(target, rng, "between_hands" if kind == "between_hands" else "playing"):
            if kind == "after_ack":
                await play(target, rng)
                quiet[target.code] = waits_for_person(target.state(), target.clients)
            elif kind == "computer_turn":
                await play(target, rng)
                await asyncio.sleep(rng.uniform(0, 0.06))
                quiet[target.code] = False
            elif kind == "in_flight":
                pending[target.code] = await play(target, rng, wait=False)
                await asyncio.sleep(rng.choice((0, 0, 0.001, 0.003, 0.01)))
                quiet[target.code] = False
        down = rng.uniform(0.1, 0.4)
        if number in (0, 2):
            # Let the clocks run a while with the server up, then keep it down a while: the
            # first is charged to the turn (or the pause), the second must not be.
            await asyncio.sleep(2.0)
            down = 1.5
        live = [t for t in live if t.state()["table"]["status"] != "over"]
        await kill_and_restart(server, live, quiet, pending, down, charges)

    # Every clock running at a quiet kill came back with what it had left (checked at each
    # kill), and among them were some that show what is not allowed.
    assert len(charges) >= kills // 2, charges
    assert max(c.down_s for c in charges) * 1000 > 2 * (HEARTBEAT_MS + SLACK_MS), (
        "no clock was checked across a downtime long enough to show it was not charged")
    assert max(c.full_ms - c.expected_ms for c in charges) > HEARTBEAT_MS + SLACK_MS + 500, (
        "no clock was checked that had run long enough to show it is not given a new turn")

    for table in tables:
        while await step(table, rng) != "over":
            pass
    async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
        for table in tables:
            reply = await http.get(f"/api/tables/{table.code}/record")
            assert reply.status_code == 200, reply.text
            record = reply.json()
            assert record["result"] is not None and record["result"]["finished"], record["result"]
            check_everything_kept(table, record)
    for table in tables:
        for client in table.clients.values():
            await client.drop()


async def test_a_play_retried_after_a_restart_is_applied_exactly_once(
    server: ServerProcess,
) -> None:
    rng = random.Random(SEED + 1)
    table = await partnership(server, 50)
    charges: list[Charge] = []

    async def unchanged_since(client: Client, seq: int) -> None:
        """A sync shows that nothing changed after ``seq``."""
        action, start = table.next_id("sync"), len(client.log)
        await client.send({"type": "sync", "id": action})
        answer = await client.answer(action, start)
        assert answer == {"type": "ack", "id": action, "seq": seq}, answer

    # Acked, then the kill: the same id after the restart gets the same ack, even with
    # another move, even now that it is another seat's turn.
    sent = await play(table, rng)
    acked = table.acks[-1].seq
    await kill_and_restart(server, [table], {table.code: True}, {}, 0.2, charges)
    seq = (await settle(table))["seq"]
    assert seq > acked
    start = len(sent.client.log)
    other = "0-0" if sent.move != "0-0" else "6-6"
    await sent.client.send({"type": "play", "id": sent.id, "move": other})
    assert await sent.client.answer(sent.id, start) == {"type": "ack", "id": sent.id,
                                                         "seq": acked}
    await unchanged_since(sent.client, seq)

    # Sent to a server that had stopped reading (SIGSTOP), then the kill: never stored;
    # the same id after the restart is applied, once.
    await settle(table)
    server.freeze()
    frozen = await play(table, rng, wait=False)
    await asyncio.sleep(0.05)
    stored = await kill_and_restart(server, [table], {table.code: False},
                                    {table.code: frozen}, 0.2, charges)
    assert stored == {table.code: False}
    again = table.acks[-1]
    assert again.id == frozen.id
    # Applied at the retry, and not again when it was sent once more (kill_and_restart).
    await unchanged_since(frozen.client, again.seq)

    # On the wire at the kill, stored or not as it happens: acked once either way.
    outcomes: list[bool] = []
    for pause in (0.0, 0.002, 0.02):
        await settle(table)
        sent = await play(table, rng, wait=False)
        await asyncio.sleep(pause)
        outcomes += (await kill_and_restart(server, [table], {table.code: False},
                                            {table.code: sent}, 0.2, charges)).values()
    assert len(outcomes) == 3

    while await step(table, rng) != "over":
        pass
    async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
        record = (await http.get(f"/api/tables/{table.code}/record")).json()
    check_everything_kept(table, record)
    for client in table.clients.values():
        await client.drop()
