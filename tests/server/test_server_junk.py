"""Random actions and junk from random sockets never break a table (issue 6's property test).

Hypothesis draws a table and a sequence of steps: junk (not JSON, unknown types, wrong fields,
binary frames, random moves, out-of-turn plays, host actions from other seats), oversized and
flooding sockets, disconnects and reconnects, strangers' sockets, retried action ids, the fake
clock moved on, and real plays. Each step gets exactly the answer PROTOCOL.md gives it
(guarantee 3: a refused action changes nothing). Afterwards everyone plays legal moves and the
table still plays to its end, every socket still open has seen consistent seqs, and the record
of GET /record replays with the engine to the results the table announced (guarantee 5).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import Closed, Pacer, Server, Socket, running, sqlite_url
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from kabes.records import filled, replay
from kabes.server.common import protocol
from kabes.server.common.config import Settings

Message = dict[str, Any]


@dataclass(frozen=True)
class Setup:
    """A table: variant, seats, options, computer seats (seat -> level)."""

    variant: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    computers: dict[str, str] = field(default_factory=dict)

    @property
    def people(self) -> list[int]:
        return [s for s in range(self.players) if str(s) not in self.computers]

    @property
    def hints(self) -> bool:
        """Only the host is a person: the host may ask for hints."""
        return self.people == [0]


SETUPS = [
    Setup("partnership", 4, {"target": 50}),
    Setup("plaza", 2, {"target": 50}, {"1": "beginner"}),
    Setup("plaza-partners", 4, {"target": 50}, {"2": "casual"}),
    Setup("haitian", 2),  # people only: open-ended, the host finishes it
    Setup("haitian", 3, {"hands": 2}, {"1": "beginner"}),
    Setup("haitian-partners", 4, {}, {"1": "beginner", "3": "casual"}),
    Setup("mexican-train", 3, {"mexican_train": True}, {"1": "beginner", "2": "casual"}),
]
OPEN_ENDED_HANDS = 2
"""An open-ended table is finished by its host once this many hands are over."""

# Text frames that are not a valid message, each with the error it must get.
JUNK = [
    "not json{",
    "",
    "null",
    "[]",
    "42",
    '"play"',
    "{}",
    '{"id": "j1"}',
    '{"type": "dance", "id": "j2"}',
    '{"type": "play"}',
    '{"type": "play", "id": "j3"}',
    '{"type": "play", "id": 5, "move": "6-6"}',
    '{"type": "play", "id": "j4", "move": 7}',
    '{"type": "play", "id": "j5", "move": "' + "6" * 40 + '"}',
    '{"type": "start", "id": "' + "x" * 65 + '"}',
    '{"type": "next_hand"}',
    '{"type": "sync", "id": null}',
    '{"type": "finish", "id": ["f"]}',
    '{"type": "hello", "token": "whoever"}',
    '{"type": "hello"}',
]
MOVE_TEXTS = ["timeout", "6-6", "6-6@L", "0-0@R", "9-9", "12-12@M", "6-3@5", "x", "6-3@Z",
              "3-6@R", "-1-2", "1-2@8", " 1-2 ", "12-11@0", "7-7@1"]
CLOCK_STEPS = [0.5, 3.0, 5.5, 20.0, 31.0, 46.0]
PROGRESS = ["to the end of the hand", "one move", "five moves", "to the next deal"]

socket_index = st.integers(0, 63)
STEP = st.one_of(
    st.tuples(st.just("progress"), st.integers(0, 63), st.sampled_from(PROGRESS)),
    st.tuples(st.just("progress"), st.integers(0, 63), st.sampled_from(PROGRESS)),
    st.tuples(st.just("junk"), socket_index, st.sampled_from(JUNK)),
    st.tuples(st.just("text"), socket_index, st.text(max_size=60)),
    st.tuples(st.just("bytes"), socket_index, st.binary(max_size=40)),
    st.tuples(st.just("move"), socket_index, st.sampled_from(MOVE_TEXTS)),
    st.tuples(st.just("own"), socket_index, st.integers(0, 20),
              st.sampled_from(["", "@L", "@R", "@0", "@1", "@M"])),
    st.tuples(st.just("host"), socket_index, st.sampled_from(["start", "next_hand", "finish"])),
    st.tuples(st.just("hint"), socket_index),
    st.tuples(st.just("sync"), socket_index),
    st.tuples(st.just("retry"), socket_index, st.integers(0, 1000)),
    st.tuples(st.just("oversized"), socket_index),
    st.tuples(st.just("flood"), socket_index),
    st.tuples(st.just("disconnect"), socket_index),
    st.tuples(st.just("reconnect"), st.integers(0, 7)),
    st.tuples(st.just("stranger"), st.booleans()),
    st.tuples(st.just("advance"), st.sampled_from(CLOCK_STEPS)),
)



@dataclass
class Peer:
    """One client socket the test opened, and what became of it."""

    seat: int | None
    sock: Socket
    pacer: Pacer = field(default_factory=Pacer)
    gone: str | None = None
    """Why it is no longer open (closed by the server with a code, or dropped by us)."""


@dataclass
class Answered:
    """An action that reached the table, and the first answer it got."""

    seat: int
    message: Message
    answer: Message


class Run:
    """One example: the server, the table, the sockets, and what the table has answered."""

    def __init__(self, server: Server, setup: Setup, code: str, tokens: dict[int, str]) -> None:
        self.server = server
        self.setup = setup
        self.code = code
        self.tokens = tokens
        self.peers: list[Peer] = []
        self.pacers: dict[int, Pacer] = {}
        """One per seat: its sockets together stay under the flood limit."""
        self.answered: list[Answered] = []
        self.ids = 0

    def new_id(self) -> str:
        self.ids += 1
        return f"a{self.ids}"

    @property
    def table(self) -> Any:
        return self.server.hub.tables[self.code]

    def open_peers(self) -> list[Peer]:
        return [p for p in self.peers if p.gone is None and p.seat is not None]

    def pick(self, index: int) -> Peer | None:
        peers = self.open_peers()
        return peers[index % len(peers)] if peers else None

    async def state(self) -> dict[str, Any]:
        """The table's state once every change so far is handled, every computer seat has
        moved, and every socket has read what it was sent."""
        table = self.table
        started = time.monotonic()
        while True:
            now: dict[str, Any] = await table.call(lambda: {
                "seq": table.state.seq, "status": str(table.state.status),
                "turn": table.state.turn, "host": table.state.host,
                "hands": 0 if table.state.match is None
                else table.state.match.state.hands_played,
                "open_ended": bool(table.state.options.get("open_ended")),
            })
            turn = now["turn"]
            if turn is None or str(turn) not in self.setup.computers:
                break
            assert time.monotonic() - started < 20, f"computer seat {turn} never moved"
            await asyncio.sleep(0.002)
        for peer in self.open_peers():
            await self.drain(peer, now["seq"])
        return now

    async def drain(self, peer: Peer, seq: int) -> None:
        """Read what is waiting on ``peer``'s socket, at least up to an update at ``seq``."""
        started = time.monotonic()
        while peer.gone is None:
            shown = [m["seq"] for m in peer.sock.log if m["type"] in ("update", "welcome")]
            caught_up = bool(shown) and shown[-1] >= seq
            try:
                await peer.sock.recv(0.001 if caught_up else 0.05)
            except TimeoutError:
                if caught_up:
                    return
                assert time.monotonic() - started < 10, f"seat {peer.seat} never saw seq {seq}"
            except Closed as err:
                peer.gone = f"closed {err.code}"

    async def connect(self, seat: int) -> Peer:
        sock, welcome = await self.server.connect(self.code, self.tokens[seat])
        assert welcome["seat"] == seat
        mine = [p for p in self.open_peers() if p.seat == seat]
        peer = Peer(seat, sock, self.pacers.setdefault(seat, Pacer()))
        self.peers.append(peer)
        if len(mine) >= Settings().seat_sockets:  # the seat's oldest socket makes room
            oldest = mine[0]
            assert (await oldest.sock.until("error"))["code"] == "too_many_sockets"
            assert await oldest.sock.closed() == 4409
            oldest.gone = "closed 4409"
        return peer

    async def send(self, peer: Peer, message: Message | str) -> int:
        """Send ``message`` (a dict, or raw text) on ``peer``; where its answer will start."""
        await peer.pacer.wait()
        start = len(peer.sock.log)
        if isinstance(message, str):
            peer.sock.send_text(message)
        else:
            peer.sock.send(message)
        return start

    async def reply(self, peer: Peer, start: int, test: Callable[[Message], bool]) -> Message:
        """The first message from ``start`` on ``peer`` that passes ``test``."""
        seen = start
        while True:
            log = peer.sock.log
            for message in log[seen:]:
                if test(message):
                    return message
            seen = len(log)
            await peer.sock.recv()

    async def answer(self, peer: Peer, start: int, action_id: str | None) -> Message:
        """The ack, error or hint answering ``action_id`` on ``peer``."""
        return await self.reply(
            peer, start,
            lambda m: m["type"] in ("ack", "error", "hint") and m.get("id") == action_id,
        )

    def latest_view(self, peer: Peer) -> dict[str, Any] | None:
        for message in reversed(peer.sock.log):
            if "view" in message:
                view: dict[str, Any] = message["view"]
                return view
        return None


# Steps -------------------------------------------------------------------------------------


async def step(run: Run, kind: str, args: tuple[Any, ...]) -> None:
    """Do one step and check the answer it gets."""
    before = await run.state()
    event(f"{kind} while {before['status']}")
    if kind == "progress":
        goal = args[1]
        for count in range(1, 400):
            await progress(run, before, args[0])
            now = await run.state()
            if (
                now["seq"] == before["seq"]  # stuck: waiting for a host with no socket
                or now["status"] == "over"
                or goal == "one move"
                or (goal == "five moves" and count == 5)
                or (goal == "to the end of the hand" and now["status"] == "between_hands")
                or (goal == "to the next deal" and before["status"] == "between_hands"
                    and now["status"] == "playing")
            ):
                return
            before = now
        raise AssertionError(f"no {goal} after 400 steps")
    if kind == "advance":
        await run.server.advance(args[0])
        return
    if kind == "reconnect":
        people = run.setup.people
        await run.connect(people[args[0] % len(people)])
        return
    if kind == "stranger":
        await stranger(run, known=args[0])
        return
    peer = run.pick(args[0])
    if peer is None:
        return
    assert peer.seat is not None
    if kind == "disconnect":
        peer.sock.disconnect()
        peer.gone = "dropped"
        await asyncio.wait_for(peer.sock.task, 10)  # its table has been told
        return
    if kind == "oversized":
        padding = "x" * (protocol.MAX_MESSAGE_BYTES + 1)
        await run.send(peer, {"type": "sync", "id": "big", "pad": padding})
        assert await peer.sock.closed() == 1009
        peer.gone = "closed 1009"
        await asyncio.wait_for(peer.sock.task, 10)
        return
    if kind == "flood":
        for _ in range(protocol.MAX_MESSAGES_PER_SECOND + 20):
            peer.sock.send_text("flood")
        assert await peer.sock.closed() == 1008
        peer.gone = "closed 1008"
        await asyncio.wait_for(peer.sock.task, 10)
        return
    changes = False
    if kind in ("junk", "text", "bytes"):
        await junk(run, peer, kind, args[1])
    elif kind == "retry":
        await retry(run, peer, args[1])
    elif kind == "sync":
        await sync(run, peer, before)
    elif kind == "hint":
        await hint(run, peer, before)
    else:
        changes = await action(run, peer, kind, args[1:], before)
    if not changes:
        # Bad input changes nothing (guarantee 3), and neither does a retry, a sync, a hint.
        after = await run.state()
        assert after["seq"] == before["seq"], f"{kind} {args} changed the table"


async def junk(run: Run, peer: Peer, kind: str, payload: Any) -> None:
    """Something that is not a valid message: bad_message, and the socket stays open."""
    start = len(peer.sock.log)
    if kind == "bytes":
        await peer.pacer.wait()
        peer.sock.to_app.put_nowait({"type": "websocket.receive", "bytes": payload})
        text = payload
    else:
        text = payload
        await run.send(peer, text)
    try:
        decoded = protocol.decode_client(text)
    except protocol.BadInput as err:
        expected_id = err.action_id
    else:
        if not isinstance(decoded, protocol.Hello):
            return  # random text that happens to be a valid action: nothing to check
        expected_id = None  # hello said twice
    error = await run.reply(peer, start, lambda m: m["type"] == "error")
    assert error["code"] == "bad_message" and error["message"], error
    assert error["id"] == expected_id, (error, payload)
    assert peer.sock.close_code is None


async def action(
    run: Run, peer: Peer, kind: str, args: tuple[Any, ...], before: dict[str, Any]
) -> bool:
    """A play or a host action from any seat, answered as PROTOCOL.md says; whether the
    table took it."""
    assert peer.seat is not None
    seen = run.latest_view(peer)
    action_id = run.new_id()
    message: Message
    if kind == "host":
        message = {"type": args[0], "id": action_id}
        expected = host_answer(before, peer.seat, args[0])
    else:
        if kind == "own":
            hand = seen["hand"] if seen else []
            move = hand[args[0] % len(hand)] + args[1] if hand else "6-6"
        else:
            move = args[0]
        message = {"type": "play", "id": action_id, "move": move}
        expected = play_answer(before, peer.seat, move, seen)
    start = await run.send(peer, message)
    answer = await run.answer(peer, start, action_id)
    got = answer["code"] if answer["type"] == "error" else answer["type"]
    assert got in expected, f"{message} from seat {peer.seat} got {answer}, not {expected}"
    if answer["type"] == "error":
        assert answer["message"], answer
    run.answered.append(Answered(peer.seat, message, answer))
    acked: bool = answer["type"] == "ack"
    return acked


def host_answer(state: dict[str, Any], seat: int, kind: str) -> set[str]:
    if seat != state["host"]:
        return {"not_host"}
    if kind == "start":
        return {"ack" if state["status"] == "waiting" else "not_now"}
    if kind == "next_hand":
        return {"ack" if state["status"] == "between_hands" else "not_now"}
    ok = state["open_ended"] and state["status"] == "between_hands"
    return {"ack" if ok else "not_now"}


def play_answer(
    state: dict[str, Any], seat: int, move: str, seen: dict[str, Any] | None
) -> set[str]:
    if state["status"] != "playing":
        return {"not_now"}
    if state["turn"] != seat:
        return {"not_your_turn"}
    if seen is not None and move in seen["legal"]:
        return {"ack"}
    return {"ack", "illegal_move"}  # another way of writing a legal move is legal too


async def hint(run: Run, peer: Peer, state: dict[str, Any]) -> None:
    action_id = run.new_id()
    start = await run.send(peer, {"type": "hint", "id": action_id})
    answer = await run.answer(peer, start, action_id)
    if not run.setup.hints:
        assert answer.get("code") == "no_hints", answer
    elif state["turn"] != peer.seat:
        assert answer.get("code") == "not_your_turn", answer
    else:
        seen = run.latest_view(peer)
        assert answer["type"] == "hint" and seen is not None, answer
        assert answer["move"] in seen["legal"] and answer["reason"], answer


async def sync(run: Run, peer: Peer, state: dict[str, Any]) -> None:
    action_id = run.new_id()
    start = await run.send(peer, {"type": "sync", "id": action_id})
    ack = await run.answer(peer, start, action_id)
    assert ack == {"type": "ack", "id": action_id, "seq": state["seq"]}, ack
    fresh = [m for m in peer.sock.log[start:] if m["type"] == "update"]
    assert fresh and fresh[0]["seq"] == state["seq"] and fresh[0]["events"] == []


async def retry(run: Run, peer: Peer, index: int) -> None:
    """An action id sent again by its seat (from any of its sockets) gets its first answer
    again, and changes nothing."""
    mine = [a for a in run.answered if a.seat == peer.seat]
    if not mine:
        return
    first = mine[index % len(mine)]
    start = await run.send(peer, first.message)
    again = await run.answer(peer, start, first.message["id"])
    assert again == first.answer, f"retried {first.message}: {again}, first {first.answer}"


async def stranger(run: Run, known: bool) -> None:
    """A socket whose token holds no seat here (or is nobody's) is refused and closed."""
    if known:
        _, token = await run.server.guest("Stranger")
        code = "not_seated"
    else:
        token, code = "no-such-token", "bad_token"
    sock = run.server.socket(run.code)
    run.peers.append(Peer(None, sock, gone="stranger"))
    sock.send({"type": "hello", "token": token})
    error = await sock.recv()
    assert error["type"] == "error" and error["code"] == code, error
    assert await sock.closed() == 4401
    await asyncio.wait_for(sock.task, 10)


async def progress(run: Run, state: dict[str, Any], choice: int) -> None:
    """The game goes on: the seat to move plays a legal move, or the host deals or starts
    (or the clock runs out for a seat with no socket open)."""
    if state["status"] == "over":
        return
    if state["status"] in ("waiting", "between_hands"):
        seat, kind = state["host"], "start" if state["status"] == "waiting" else "next_hand"
    else:
        seat, kind = state["turn"], "play"
    peers = [p for p in run.open_peers() if p.seat == seat]
    if not peers:
        await run.server.advance(46.0)  # nobody there: the clock plays (or deals) for them
        return
    peer = peers[choice % len(peers)]
    seen = run.latest_view(peer)
    action_id = run.new_id()
    if kind == "play":
        assert seen is not None and seen["legal"], seen
        message = {"type": "play", "id": action_id, "move": seen["legal"][choice % len(
            seen["legal"])]}
    else:
        message = {"type": kind, "id": action_id}
    start = await run.send(peer, message)
    answer = await run.answer(peer, start, action_id)
    assert answer["type"] == "ack", f"{message} from seat {seat}: {answer}"
    run.answered.append(Answered(seat, message, answer))


# To the end --------------------------------------------------------------------------------


async def play_to_the_end(run: Run) -> None:
    """Everyone comes back on a fresh socket and plays legal moves until the match is over."""
    fresh = {seat: await run.connect(seat) for seat in run.setup.people}
    for _ in range(5000):
        state = await run.state()
        status = state["status"]
        if status == "over":
            return
        if status == "playing":
            seat = state["turn"]
            kind = "play"
        else:
            seat = state["host"]
            kind = {"waiting": "start", "between_hands": "next_hand"}[status]
            if kind == "next_hand" and state["open_ended"] and state["hands"] >= OPEN_ENDED_HANDS:
                kind = "finish"
        peer = fresh[seat]
        action_id = run.new_id()
        message: Message = {"type": kind, "id": action_id}
        if kind == "play":
            seen = run.latest_view(peer)
            assert seen is not None and seen["turn"] == seat and seen["legal"], seen
            message["move"] = seen["legal"][0]
        start = await run.send(peer, message)
        answer = await run.answer(peer, start, action_id)
        assert answer["type"] == "ack", f"{message} from seat {seat}: {answer}"
    raise AssertionError("the match did not end within 5000 actions")


def without_clock(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("clock", "pause")}


def without_presence(table: dict[str, Any]) -> dict[str, Any]:
    """A summary without who is connected now: a connection not logged is told at the
    table's current seq (docs/protocol.md, "Connections and the log")."""
    seats = [s if s is None else {k: v for k, v in s.items() if k != "connected"}
             for s in table["seats"]]
    return {**table, "seats": seats}


PRESENCE = ("connected", "disconnected")


def check_seqs(run: Run) -> None:
    """Every socket still open saw every change once, in order, with one seq per change for
    every seat: updates go up by one (a sync, a welcome or a connection not logged repeats
    the seq it shows), an ack never names a seq its socket has not been shown, and the same
    seq shows the same table to every socket, but for who is connected (and the same view to
    every socket of a seat)."""
    summaries: dict[int, Any] = {}
    views: dict[tuple[int, int], Any] = {}
    finals = set()
    for peer in run.open_peers():
        assert peer.seat is not None
        last: int | None = None
        for message in peer.sock.log:
            kind = message["type"]
            if kind in ("update", "welcome"):
                seq = message["seq"]
                if last is not None:
                    assert seq - last in (0, 1), f"seat {peer.seat}: seq {last} then {seq}"
                    if seq == last:
                        assert kind == "welcome" or all(
                            e["kind"] in PRESENCE for e in message["events"]), message
                last = seq
                table = without_presence(message["table"])
                summary = summaries.setdefault(seq, table)
                assert summary == table, f"seq {seq} shows two tables"
                seen = views.setdefault((peer.seat, seq), without_clock(message["view"]))
                assert seen == without_clock(message["view"]), f"seat {peer.seat}, seq {seq}"
            elif kind == "ack":
                assert last is not None and message["seq"] <= last, message
        assert last is not None
        finals.add(last)
    assert len(finals) == 1, f"open sockets end at different seqs: {finals}"


async def check_record(run: Run) -> None:
    """GET /record replays with the engine to the results the table announced."""
    reply = await run.server.http.get(f"/api/tables/{run.code}/record")
    assert reply.status_code == 200
    record = reply.json()
    assert filled(record) == record
    match = replay(record)
    assert match.over
    announced_hands: dict[int, Any] = {}
    final = None
    for peer in run.peers:
        for message in peer.sock.log:
            if message["type"] != "update":
                continue
            for said in message["events"]:
                if said["kind"] == "hand_ended":
                    result = said["result"]  # counts included: the record carries them too
                    number = message["view"]["hand_number"]
                    assert announced_hands.setdefault(number, result) == result
            if message["view"]["result"] is not None:
                final = message["view"]["result"]
    assert final == record["result"] == match.current_result().to_json()
    for number, result in announced_hands.items():
        assert record["hands"][number - 1]["result"] == result, f"hand {number}"
    summary = (await run.server.http.get(f"/api/tables/{run.code}")).json()
    assert summary["status"] == "over"


async def example(folder: Path, setup: Setup, start_first: bool, steps: list[Any]) -> None:
    async with running(sqlite_url(folder)) as server:
        _, host = await server.guest("Host")
        summary = await server.open_table(
            host, variant=setup.variant, players=setup.players, options=setup.options,
            computers=setup.computers,
        )
        code = summary["code"]
        tokens = {0: host}
        for seat in setup.people[1:]:
            _, tokens[seat] = await server.guest(f"Seat {seat}")
            assert await server.join(tokens[seat], code) == seat
        run = Run(server, setup, code, tokens)
        for seat in setup.people:
            await run.connect(seat)
        if start_first:
            await progress(run, await run.state(), 0)
        for kind, *args in steps:
            await step(run, kind, tuple(args))
        await play_to_the_end(run)
        await run.state()
        check_seqs(run)
        await check_record(run)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from(SETUPS),
    start_first=st.booleans(),
    steps=st.lists(STEP, min_size=3, max_size=40),
)
def test_random_actions_and_junk_never_break_a_table(
    setup: Setup, start_first: bool, steps: list[Any]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(asyncio.wait_for(example(Path(folder), setup, start_first, steps), 120))


def test_the_junk_list_is_junk() -> None:
    """Every canned junk frame is refused by the decoder (else the test above checks less)."""
    for text in JUNK:
        try:
            protocol.decode_client(text)
        except protocol.BadInput:
            continue
        if json.loads(text).get("type") == "hello":
            continue  # a valid hello, refused by the socket as said twice
        raise AssertionError(f"{text!r} decodes")
