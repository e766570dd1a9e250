"""PROTOCOL.md guarantee 1, "Hidden stays hidden", checked against each match's own record.

Whole matches of every variant and seat count are played at the in-process server, people
seats (each its own guest and socket, the host with a second tab) beside computer seats, and
every message every socket receives is kept. Then the match's record (GET /record) is replayed
with the engine, move by move, and each message is put at its moment: while a hand is being
played, the tiles a message may name are the seat's own hand at that moment and the tiles laid
on the table; any other tile (in another seat's hand or in the stock) is a leak, wherever it
is in the message, in either order ("6-3" or "3-6"). Between hands and after the match every
hand is face up, so anything goes.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from random import Random
from typing import Any

import pytest
from harness import Server, Socket, settle

from deals import train_hand
from kabes.events import LeaderChosen
from kabes.match import Match
from kabes.moves import TIMEOUT, parse_move
from kabes.records import filled, replay, to_record
from kabes.table import wire
from kabes.tiles import full_set, parse_tile
from kabes.views import view

Pair = tuple[int, int]
"""A tile as (low, high), whatever order it was written in."""

TILE_TEXT = re.compile(r"(?<!\d)(\d{1,2})-(\d{1,2})(?!\d)")


def tiles_named(value: Any, top: int) -> Iterator[tuple[Pair, str]]:
    """Every tile written anywhere in ``value`` (keys and values of the whole JSON, every
    string, inside moves such as ``6-3@L`` too), as (low, high) with the string it was in."""
    if isinstance(value, str):
        for match in TILE_TEXT.finditer(value):
            a, b = int(match.group(1)), int(match.group(2))
            if a <= top and b <= top:
                yield (min(a, b), max(a, b)), value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from tiles_named(key, top)
            yield from tiles_named(item, top)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from tiles_named(item, top)


def pair(text: str) -> Pair:
    a, b = (int(x) for x in text.split("@")[0].split("-"))
    return min(a, b), max(a, b)


@dataclass(frozen=True)
class Moment:
    """Where every tile is after some moves of a hand, by the record."""

    hands: tuple[frozenset[Pair], ...]
    laid: frozenset[Pair]
    over: bool


def moments(record: dict[str, Any]) -> dict[int, list[Moment]]:
    """For each hand (1-based) of ``record``, the moment after 0, 1, 2... of its moves."""
    match = Match(record["variant"], record["players"], record.get("options", {}))
    top = match.rules.top
    out: dict[int, list[Moment]] = {}
    for number, hand in enumerate(record["hands"], 1):
        deal = [[parse_tile(t, top) for t in seat] for seat in hand["deal"]]
        stock = [parse_tile(t, top) for t in hand["stock"]]
        match.start_hand(deal, stock, hand.get("leader"))
        steps = [_moment(match)]
        for text in hand["moves"]:
            match.apply(None, parse_move(text, top))
            steps.append(_moment(match))
        out[number] = steps
    return out


def _moment(match: Match) -> Moment:
    hand = match.hand
    assert hand is not None
    laid = {(p.tile.low, p.tile.high) for _, p in hand.played}
    engine = getattr(hand, "engine", None)
    if engine is not None:
        laid.add((engine.low, engine.high))
    return Moment(
        tuple(frozenset((t.low, t.high) for t in h) for h in hand.hands),
        frozenset(laid),
        hand.end is not None,
    )


def on_the_table(seen: dict[str, Any]) -> set[Pair]:
    """The tiles a VIEW shows laid: the line, the trains, the engine."""
    laid = {pair(t) for t in seen["line"] or []}
    for train in seen["trains"]:
        laid |= {pair(t) for t in train["tiles"]}
    if seen.get("engine"):
        laid.add(pair(seen["engine"]))
    return laid


@dataclass
class Checked:
    """What the checker went through: leaks found, and how much it looked at."""

    leaks: list[str] = field(default_factory=list)
    in_hand_messages: int = 0
    tiles_seen: int = 0


def check_hidden(
    record: dict[str, Any], seat: int | None, messages: list[dict[str, Any]], checked: Checked
) -> None:
    """Check guarantee 1 for the messages one socket of ``seat`` received, in order (seat
    None: a watcher, who holds no tiles). Every message is placed at the moment of the last
    VIEW that socket was sent (an ack, an error or a hint comes after the update of the
    state it answers in)."""
    steps = moments(record)
    top = 12 if record["variant"] == "mexican-train" else 6
    every = {(t.low, t.high) for t in full_set(top)}
    seen: dict[str, Any] | None = None
    for index, message in enumerate(messages):
        seen = message.get("view", seen)
        if seen is None or seen["hand_number"] == 0:
            # Before the first deal nothing is dealt, so nothing is hidden yet.
            continue
        number, played = seen["hand_number"], len(seen["played"])
        assert number in steps, f"seat {seat}: message {index} is in hand {number}, " \
                                f"which the record does not hold"
        assert played < len(steps[number]), f"seat {seat}: message {index} shows {played} " \
                                            f"tiles played in hand {number}, more than recorded"
        moment = steps[number][played]
        own: frozenset[Pair] = frozenset() if seat is None else moment.hands[seat]
        # The message and the replay must describe the same moment, or the check means nothing.
        assert {pair(t) for t in seen["hand"]} == own, (
            f"seat {seat}, message {index}: its hand {seen['hand']} is not the record's"
        )
        assert on_the_table(seen) == moment.laid, (
            f"seat {seat}, message {index}: the table it shows is not the record's"
        )
        if moment.over:
            continue  # between hands or after the match: every hand is face up
        checked.in_hand_messages += 1
        hidden = every - own - moment.laid
        for tile, text in tiles_named(message, top):
            checked.tiles_seen += 1
            if tile in hidden:
                holder = next(
                    (f"seat {s}'s hand" for s, h in enumerate(moment.hands) if tile in h),
                    "the stock",
                )
                checked.leaks.append(
                    f"seat {seat}, message {index} ({message['type']}, hand {number}, "
                    f"after {played} tiles played): {text!r} names {tile[0]}-{tile[1]}, "
                    f"which is in {holder}"
                )


# Playing whole matches ---------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A table to play: variant, seat count, options, computer seats (seat -> level)."""

    variant: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    computers: dict[str, str] = field(default_factory=dict)
    rounds: int | None = None
    """Stop once this many hands are over (mexican-train: a whole match is 13 rounds)."""
    finish_after: int | None = None
    """Open-ended tables: the host finishes the match once this many hands are over."""
    hints: bool = False
    """The host (alone against the computer) asks for a hint and plays it."""

    def __str__(self) -> str:
        return f"{self.variant}-{self.players}"


# Every variant with every seat count RULES.md allows, written out here, not read from the
# engine; people and computers mixed (partnership seats people only).
TABLES = [
    Table("partnership", 4, {"target": 50}),
    Table("plaza", 2, {"target": 50}, {"1": "expert"}, hints=True),
    Table("plaza-partners", 4, {"target": 50}, {"1": "casual", "3": "skilled"}),
    Table("haitian", 2, {}, {"1": "beginner"}),
    Table("haitian", 3, {"hands": 1}, {"2": "expert"}),
    Table("haitian", 4, {"hands": 1}, {"1": "beginner", "2": "casual", "3": "skilled"},
          hints=True),
    Table("haitian-partners", 4, {}, {}, finish_after=2),
    Table("mexican-train", 2, {}, {}, rounds=2),
    Table("mexican-train", 3, {"mexican_train": True}, {"2": "casual"}, rounds=2),
    Table("mexican-train", 4, {}, {"1": "expert", "3": "beginner"}, rounds=1),
    Table("mexican-train", 5, {"mexican_train": True}, {"4": "skilled"}, rounds=1),
    Table("mexican-train", 6, {}, {"1": "casual", "2": "beginner", "5": "casual"}, rounds=1),
    Table("mexican-train", 7, {"mexican_train": True}, {"3": "beginner"}, rounds=1),
    Table("mexican-train", 8, {}, {"2": "casual", "4": "beginner", "6": "skilled"}, rounds=1),
]


class Paced:
    """Sends on one socket at most 85 messages in any two seconds of real time: the server
    closes a socket that sends more than 100 within one second (guarantee 3), a match against
    computers with no delay goes faster than that, and the server may read a burst late."""

    def __init__(self, sock: Socket) -> None:
        self.sock = sock
        self.sent: deque[float] = deque()

    async def send(self, message: dict[str, Any]) -> None:
        while True:
            now = time.monotonic()
            while self.sent and now - self.sent[0] > 2.0:
                self.sent.popleft()
            if len(self.sent) < 85:
                break
            await asyncio.sleep(2.01 - (now - self.sent[0]))
        self.sent.append(now)
        self.sock.send(message)


def done(table: Table, message: dict[str, Any]) -> bool:
    """Whether this update shows the match over, or as far as the test plays it."""
    seen = message["view"]
    if seen["result"] is not None:
        return True
    return (
        table.rounds is not None
        and message["table"]["status"] == "between_hands"
        and seen["hands_played"] >= table.rounds
    )


async def person(sock: Socket, seat: int, table: Table, rng: Random) -> None:
    """A person at ``seat``: plays a legal move (the first, a random one, or the hint's),
    and as host deals the next hand or finishes an open-ended match."""
    acted: set[tuple[Any, ...]] = set()
    out = Paced(sock)
    while True:
        message = await sock.recv()
        assert message["type"] != "error", f"seat {seat} was refused: {message}"
        if message["type"] not in ("welcome", "update"):
            continue
        if done(table, message):
            return
        seen = message["view"]
        status = message["table"]["status"]
        number = seen["hand_number"]
        if status == "between_hands" and seat == message["table"]["host"]:
            if ("host", number) in acted:
                continue
            acted.add(("host", number))
            if table.finish_after is not None and seen["hands_played"] >= table.finish_after:
                await out.send({"type": "finish", "id": f"finish{number}"})
            else:
                await out.send({"type": "next_hand", "id": f"next{number}"})
        elif status == "playing" and seen["turn"] == seat and seen["legal"]:
            key = (number, len(seen["played"]))
            if key in acted:
                continue
            acted.add(key)
            action = f"play{number}_{len(seen['played'])}"
            if table.hints:
                await out.send({"type": "hint", "id": f"hint{action}"})
                hint = await sock.until("hint", id=f"hint{action}")
                assert hint["move"] in seen["legal"], f"the hint {hint} is not a legal move"
                move = hint["move"]
            elif seat % 2:
                move = rng.choice(seen["legal"])
            else:
                move = seen["legal"][0]
            await out.send({"type": "play", "id": action, "move": move})


async def watcher(sock: Socket, table: Table) -> None:
    """A second tab: only reads."""
    while True:
        message = await sock.recv()
        if message["type"] == "update" and done(table, message):
            return


async def play(server: Server, table: Table, rng: Random) -> tuple[str, dict[int, list[Socket]]]:
    """Open ``table``, seat everyone, play it; its code and every seat's sockets."""
    _, host = await server.guest("Host")
    summary = await server.open_table(
        host, variant=table.variant, players=table.players, options=table.options,
        computers=table.computers,
    )
    code = summary["code"]
    tokens = {0: host}
    for seat in range(1, table.players):
        if str(seat) not in table.computers:
            _, token = await server.guest(f"Seat {seat}")
            assert await server.join(token, code) == seat
            tokens[seat] = token
    sockets: dict[int, list[Socket]] = {}
    for seat, token in tokens.items():
        sockets[seat] = [(await server.connect(code, token))[0]]
    sockets[0].append((await server.connect(code, host))[0])
    sockets[0][0].send({"type": "start", "id": "start"})
    players = [person(socks[0], seat, table, rng) for seat, socks in sockets.items()]
    await asyncio.wait_for(asyncio.gather(*players, watcher(sockets[0][1], table)), 300)
    await settle()
    for socks in sockets.values():
        for sock in socks:
            await sock.quiet()
    return code, sockets


@pytest.mark.parametrize("table", TABLES, ids=str)
async def test_no_message_names_a_tile_hidden_from_its_seat(server: Server, table: Table) -> None:
    rng = Random(str(table))
    code, sockets = await play(server, table, rng)
    record = (await server.http.get(f"/api/tables/{code}/record")).json()
    # The record is the match that was played: it replays to what the table announced.
    assert filled(record) == record
    hands = len(record["hands"])
    if table.rounds is not None:
        assert hands == table.rounds
    assert hands >= (table.finish_after or 1)
    if table.rounds is None:
        assert replay(record).over
        last = [m for m in sockets[0][0].log if m["type"] == "update"][-1]
        assert last["view"]["result"] == record["result"]
    checked = Checked()
    for seat, socks in sockets.items():
        for sock in socks:
            before = checked.in_hand_messages
            check_hidden(record, seat, sock.log, checked)
            assert checked.in_hand_messages > before, f"seat {seat} saw no hand being played"
    assert checked.tiles_seen > 0
    assert not checked.leaks, "\n".join(checked.leaks[:20])


# The checker itself must catch a leak ------------------------------------------------------


def a_played_hand(variant: str, players: int, seed: int) -> tuple[dict[str, Any], Match]:
    """A hand played by the engine alone (every move by the clock rule), its record, and
    a fresh match at the same deal for stepping through it again."""
    played = Match(variant, players, rng=Random(seed))
    played.deal_hand()
    while played.hand_in_progress:
        played.apply(None, TIMEOUT)
    record = to_record(played)
    again = Match(variant, players)
    top = again.rules.top
    hand = record["hands"][0]
    again.start_hand(
        [[parse_tile(t, top) for t in s] for s in hand["deal"]],
        [parse_tile(t, top) for t in hand["stock"]],
        hand.get("leader"),
    )
    return record, again


def update(match: Match, seat: int, **extra: Any) -> dict[str, Any]:
    """The update a server would send ``seat`` now, with ``extra`` fields added."""
    return {"type": "update", "seq": 1, "table": {}, "events": [],
            "view": wire.view_json(view(match, seat), None, None), **extra}


def leaks_in(record: dict[str, Any], seat: int, messages: list[dict[str, Any]]) -> list[str]:
    checked = Checked()
    check_hidden(record, seat, messages, checked)
    return checked.leaks


@pytest.mark.parametrize("written", ["{a}-{b}", "{b}-{a}", "{b}-{a}@L", "it was {a}-{b}."])
def test_the_checker_catches_another_seats_tile_in_either_order(written: str) -> None:
    record, match = a_played_hand("plaza", 2, seed=5)
    assert match.hand is not None
    theirs = match.hand.hands[1][0]
    text = written.format(a=theirs.high, b=theirs.low)
    honest = update(match, 0)
    assert leaks_in(record, 0, [honest]) == []
    forged = update(match, 0, note={"deep": [text]})
    found = leaks_in(record, 0, [forged])
    assert len(found) == 1 and "seat 1's hand" in found[0], found
    # An ack after the update is judged at the same moment, and caught the same way.
    assert leaks_in(record, 0, [honest, {"type": "ack", "id": text, "seq": 1}])


def test_the_checker_catches_a_stock_tile_but_not_a_laid_one() -> None:
    record, match = a_played_hand("mexican-train", 3, seed=11)
    hand = train_hand(match)
    stock = hand.stock[hand.drawn]
    engine = hand.engine
    found = leaks_in(record, 2, [update(match, 2, events=[{"tile": f"{stock.high}-{stock.low}"}])])
    assert len(found) == 1 and "the stock" in found[0], found
    laid = update(match, 2, events=[{"tile": f"{engine.high}-{engine.low}"}])
    assert leaks_in(record, 2, [laid]) == []


def test_the_checker_lets_every_hand_show_once_the_hand_is_over() -> None:
    record, match = a_played_hand("haitian", 4, seed=3)
    for text in record["hands"][0]["moves"]:
        match.apply(None, parse_move(text, 6))
    assert not match.hand_in_progress
    theirs = record["hands"][0]["deal"][2]
    assert leaks_in(record, 0, [update(match, 0, everything=theirs)]) == []


def test_the_checker_refuses_a_message_the_record_does_not_place() -> None:
    record, match = a_played_hand("plaza", 2, seed=5)
    message = update(match, 0)
    message["view"]["hand"] = message["view"]["hand"][1:]
    with pytest.raises(AssertionError, match="is not the record's"):
        leaks_in(record, 0, [message])


def test_a_forced_lead_is_named_to_its_leader_only() -> None:
    """Haitian's first hand is led with the highest double held: until it is laid, it is in
    the leader's hand, so only the leader's view names it; the others learn who leads."""
    match = Match("haitian", 4, rng=Random(1))
    events = match.deal_hand()
    hand = match.hand
    assert hand is not None and hand.forced_lead is not None  # type: ignore[attr-defined]
    leader, forced = hand.leader, hand.forced_lead  # type: ignore[attr-defined]
    for seat in range(4):
        shown = wire.view_json(view(match, seat), None, None)["forced_lead"]
        assert shown == (str(forced) if seat == leader else None)
    chosen = [wire.event_json(e) for e in events if isinstance(e, LeaderChosen)]
    assert chosen == [{"kind": "leader_chosen", "seat": leader, "forced": True}]
