"""Whole matches at the pure table (kabes.table), driven as the server's actor drives it but
with no server: a person's move is one of the ``legal`` moves of the last update its seat was
sent, a computer seat's is its level's choice, the clock now and then plays for the seat to
move (``timeout``) or deals the next hand, and every change is sent to every seat and to a
watcher, encoded by the encoder given.

Run as a script (tests/table/test_pure_table.py does, in a fresh interpreter), it first
blocks every import of the server's dependencies and of the server itself, then plays a
match of every variant and seat count, and prints one JSON line: what was played, and every
module the run imported from outside the standard library and ``kabes``.
"""

from __future__ import annotations

import importlib.abc
import json
import random
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

BLOCKED = ("msgspec", "asyncio", "starlette", "fastapi", "sqlalchemy", "alembic", "redis",
           "uvicorn", "uvloop", "websockets", "httptools", "pydantic", "httpx", "openskill",
           "typer", "rich", "kabes.server", "kabes.cli")
"""What the pure table must run without: the server's dependencies, and the server and the
terminal themselves."""

SEATINGS: tuple[tuple[str, int, dict[str, str]], ...] = (
    ("partnership", 4, {}),
    ("plaza", 2, {"1": "casual"}),
    ("plaza-partners", 4, {"1": "beginner", "3": "skilled"}),
    ("haitian", 2, {}),
    ("haitian", 3, {"2": "casual"}),
    ("haitian", 4, {"1": "beginner"}),
    ("haitian-partners", 4, {"2": "casual"}),
    ("mexican-train", 2, {"1": "casual"}),
    ("mexican-train", 4, {"3": "beginner"}),
    ("mexican-train", 8, {"1": "beginner", "5": "casual"}),
)
"""Every variant (``kabes.rules.VARIANTS``), Haitian and Mexican Train at several seat
counts, with computer seats wherever the variant allows them."""


class Blocker(importlib.abc.MetaPathFinder):
    """Refuses to find any module of :data:`BLOCKED` (or under one)."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: object = None) -> None:
        if any(name == blocked or name.startswith(blocked + ".") for blocked in BLOCKED):
            raise ImportError(f"{name} is blocked: the pure table must run without it")
        return None


TILE_TEXT = re.compile(r"(?<!\d)(\d{1,2})-(\d{1,2})(?!\d)")
Pair = tuple[int, int]


def tiles_named(text: str) -> set[Pair]:
    """Every tile written anywhere in a message's JSON text (keys, values, inside ``6-3@L``:
    outside its strings, JSON never writes a digit, a dash and a digit in a row)."""
    written = set(TILE_TEXT.findall(text))
    return {(min(a, b), max(a, b)) for a, b in ((int(x), int(y)) for x, y in written)}


@dataclass
class Played:
    """What one match at the pure table came to."""

    variant: str
    players: int
    result: dict[str, Any] | None = None
    """The last view's ``result`` (the match's, once over)."""
    hands: int = 0
    entries: int = 0
    messages: int = 0
    refused: int = 0
    leaks: list[str] = field(default_factory=list)
    """Tiles a message named that its seat may not see (another seat's, or the stock's)."""


def play_match(
    variant: str,
    players: int,
    computers: dict[str, str],
    seed: int,
    encoder: Any,
    sent: Callable[[int | None, bytes], None] | None = None,
) -> Played:
    """Play one whole match at a pure table, every message encoded by ``encoder`` (and given
    to ``sent`` with its seat, None for the watcher), checking each against the seats'
    hands of the moment."""
    from kabes.ai import make_player
    from kabes.table import actions, outbox
    from kabes.table.entries import Entry
    from kabes.table.refusals import Refused
    from kabes.table.state import Status, TableState, Timing
    from kabes.views import view

    rng = random.Random(seed)
    state = TableState("PURETAB", Timing(45.0, 5.0, 30.0))
    played = Played(variant, players)
    last: dict[int, dict[str, Any]] = {}
    levels = {int(seat): make_player(level, random.Random(seed + int(seat)))
              for seat, level in computers.items()}
    clock = [1_700_000_000.0]

    def connected(seat: int) -> bool:
        return seat not in levels

    def send(seat: int | None, data: bytes) -> None:
        played.messages += 1
        if sent is not None:
            sent(seat, data)
        text = data.decode()
        message = json.loads(text)
        if seat is not None and "view" in message:
            last[seat] = message
        check(seat, text)

    def check(seat: int | None, text: str) -> None:
        match = state.match
        hand = None if match is None else match.hand
        if state.status != Status.PLAYING or hand is None or hand.end is not None:
            return  # between hands and after the match every hand is face up
        allowed = {(p.tile.low, p.tile.high) for _, p in hand.played}
        engine = getattr(hand, "engine", None)
        if engine is not None:
            allowed.add((engine.low, engine.high))
        if seat is not None:
            allowed |= {(t.low, t.high) for t in hand.hands[seat]}
        for tile in tiles_named(text) - allowed:
            played.leaks.append(f"seat {seat} was sent {tile[0]}-{tile[1]} at seq {state.seq}")

    def commit(kind: str, data: dict[str, Any], seat: int | None = None,
               action: str | None = None) -> None:
        clock[0] += rng.uniform(0.5, 4.0)
        entry = Entry(state.seq + 1, kind, data, clock[0], seat, action)
        change = state.apply(entry)
        played.entries += 1
        for number, data_out in outbox.updates(state, change.news, change.events,
                                               list(range(players)), connected, clock[0],
                                               encoder, watchers=1, watching=True):
            send(number, data_out)

    def refused(err: Refused, action: str) -> None:
        played.refused += 1
        send(None, encoder.encode(err.to_error(action)))

    commit("created", {"variant": variant, "players": players, "options": {},
                       "computers": computers, "player": 1, "name": "Rosélène",
                       "watch": True})
    for number in range(players):
        if number == 0 or number in levels:
            continue
        joined = actions.join(state, 100 + number, f"Seat {number}")
        assert not isinstance(joined, int), "a new person is given a free seat"
        commit(*joined)
    for number in range(players):
        send(number, encoder.encode(outbox.welcome(state, number, connected, clock[0], 1)))
    send(None, encoder.encode(outbox.watcher_welcome(state, connected, clock[0], 1)))
    commit(*actions.start(state, 0, rng), 0, "start")
    step = 0
    while state.status != Status.OVER:
        step += 1
        assert step < 20_000, f"{variant}: the match does not end"
        if state.status == Status.BETWEEN_HANDS:
            if rng.random() < 0.5:
                commit(*actions.next_hand(state, 0, rng), 0, f"next{step}")
            else:  # the pause ran out: the table deals
                commit("dealt", actions.new_deal(state, rng))
            continue
        turn = state.turn
        match = state.match
        assert turn is not None and match is not None
        try:  # a seat that plays out of turn changes nothing
            actions.play(state, (turn + 1) % players, "0-0")
        except Refused as err:
            refused(err, f"early{step}")
        if turn in levels:
            move = str(levels[turn].choose(view(match, turn)))
        elif rng.random() < 0.05:
            commit("move", {"seat": turn, "move": "timeout"})
            continue
        else:
            move = rng.choice(last[turn]["view"]["legal"])
        commit(*actions.play(state, turn, move), turn, f"m{step}")
    played.hands = len(state.match.log) if state.match is not None else 0
    played.result = last[0]["view"]["result"]
    return played


def main() -> None:
    """Block the server's imports, play every seating, print what was played and imported."""
    before = set(sys.modules)
    sys.meta_path.insert(0, Blocker())
    for name in BLOCKED:
        try:
            __import__(name)
        except ImportError:
            continue
        raise SystemExit(f"{name} was imported although blocked")
    from kabes.table.encoding import JSON

    games = [play_match(variant, players, computers, 7 + n, JSON)
             for n, (variant, players, computers) in enumerate(SEATINGS)]
    tops = {name.split(".")[0] for name in set(sys.modules) - before}
    # kabes_native__mypyc is kabes's own compiled code (kabes.native.LIBRARY: the engine's
    # hot modules built by mypyc), not a dependency; without a build it is not imported.
    outside = sorted(top for top in tops if top not in sys.stdlib_module_names
                     and top not in ("kabes", "kabes_native__mypyc")
                     and not top.startswith("__"))  # __mp_main__: an alias
    print(json.dumps({"games": [game.__dict__ for game in games], "outside": outside}))


if __name__ == "__main__":
    main()
