"""Helpers for the rule tests (imported as `deals`): crafted deals, scripted play, whole hands.

A deal is written as one string of tiles per seat (``"6-6 6-5 0-0"``); the stock is the rest
of the set, with the tiles named in ``stock`` drawn first and every other tile after them in
ascending order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kabes.events import Event
from kabes.line import Line
from kabes.line_hand import LineHand
from kabes.match import Match
from kabes.moves import TIMEOUT, parse_move
from kabes.tiles import Tile, full_set, parse_tile
from kabes.trains import TrainHand

# Every variant with every seat count RULES.md allows, written out here rather than read from
# the engine, so that tests state the rules.
SEATINGS = [
    ("partnership", 4),
    ("plaza", 2),
    ("plaza-partners", 4),
    ("haitian", 2),
    ("haitian", 3),
    ("haitian", 4),
    ("haitian-partners", 4),
    *[("mexican-train", n) for n in range(2, 9)],
]


def tiles(text: str) -> list[Tile]:
    """The tiles written in ``text``, separated by spaces, in that order."""
    return [parse_tile(t) for t in text.split()]


def pips(text: str) -> int:
    """The count of the tiles written in ``text`` (a hand's count)."""
    return sum(t.low + t.high for t in tiles(text))


def deal_of(
    hands: Sequence[str], stock: str = "", top: int = 6
) -> tuple[list[list[Tile]], list[Tile]]:
    """The deal written in ``hands`` and the stock: ``stock`` first, then the rest ascending."""
    deal = [tiles(h) for h in hands]
    first = tiles(stock)
    used = {t for h in deal for t in h} | set(first)
    return deal, first + [t for t in full_set(top) if t not in used]


def start(
    variant: str,
    hands: Sequence[str],
    stock: str = "",
    options: Mapping[str, Any] | None = None,
    leader: int | None = None,
    match: Match | None = None,
) -> tuple[Match, list[Event]]:
    """A match (new, or ``match``) with a hand started on this crafted deal."""
    top = 12 if variant == "mexican-train" else 6
    if match is None:
        match = Match(variant, len(hands), options)
    deal, rest = deal_of(hands, stock, top)
    events = match.start_hand(deal, rest, leader)
    return match, events


def play(match: Match, script: str) -> list[Event]:
    """Apply the moves written in ``script`` for whoever is to move; all their events."""
    top = 12 if match.variant == "mexican-train" else 6
    events: list[Event] = []
    for text in script.split():
        events += match.apply(None, parse_move(text, top))
    return events


def play_out(match: Match) -> list[Event]:
    """Finish the hand in progress by timeouts (the first-fit rule) for everyone."""
    events: list[Event] = []
    while match.hand_in_progress:
        events += match.apply(None, TIMEOUT)
    return events


def line_hand(match: Match) -> LineHand:
    """The hand in progress (or just over) of a match played on a line: a test that reads
    the line, the ends or the stock reads them here, typed, and fails plainly if the match
    has no hand or plays on trains."""
    hand = match.hand
    assert isinstance(hand, LineHand), f"expected a hand on a line, got {hand!r}"
    return hand


def line_of(match: Match) -> Line:
    """The line of a match's hand on a line, once its first tile is down (as ``line_hand``)."""
    line = line_hand(match).line
    assert line is not None, "no tile has been laid on the line yet"
    return line


def train_hand(match: Match) -> TrainHand:
    """The hand in progress (or just over) of a Mexican Train match, typed (as ``line_hand``)."""
    hand = match.hand
    assert isinstance(hand, TrainHand), f"expected a hand on trains, got {hand!r}"
    return hand


def of_type(events: Sequence[Event], kind: type) -> list[Any]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]


DRAWS = ["6-6 5-6 4-6 3-6 2-6 1-6 0-0", "0-1 1-1 0-2 1-2 2-2 0-3 1-4"]
"""Head to head: seat 0 holds every 6 but the 0-6 and leads 6-6; seat 1 holds no 6."""
NO_SIX = ["6-6 5-6 4-6 3-6 2-6 1-6 0-6", "0-0 0-1 1-1 0-2 1-2 2-2 0-3"]
"""Head to head: seat 0 holds every 6; seat 1 none, nor does the stock."""

BLOCK_SCRIPT = "6-6 6-0@L 0-1@L 1-6@L 6-2@L 2-3@L 3-6@L 6-4@L 4-5@L 5-6@L"
"""Ten plays that block a double-six hand: every 6 is laid and both ends show 6."""


def blocked_hands(extras: Sequence[str], leader: int = 0) -> list[str]:
    """Hands for a hand that blocks after BLOCK_SCRIPT led by ``leader``.

    Play i of the script is made by seat (leader + i) % n, so the blocking tile is played by
    seat (leader + 9) % n; ``extras[seat]`` are the tiles that seat keeps.
    """
    hands = [e.split() for e in extras]
    for i, move in enumerate(BLOCK_SCRIPT.split()):
        hands[(leader + i) % len(extras)].append(move.split("@")[0])
    return [" ".join(h) for h in hands]


KABES_2P = ["6-6 6-5 5-4 4-3 3-2 2-1 1-0", "6-4 4-4 4-2 2-2 2-0 0-0 5-5"]
KABES_2P_SCRIPT = "6-6 6-4@R 6-5@L 4-4@R 5-4@L 4-2@R 4-3@L 2-2@R 3-2@L 2-0@R 2-1@L 0-0@R 1-0@L"
"""Seat 0 goes out with 1-0 on ends 1 and 0 (a 2 KABÈS, a capicú); seat 1 keeps 5-5."""

TONBE_2P = ["6-6 6-5 5-4 4-3 3-2 2-1 1-0", "6-4 4-4 4-2 2-2 2-0 0-5 5-5"]
TONBE_2P_SCRIPT = "6-6 6-4@R 6-5@L 4-4@R 5-4@L 4-2@R 4-3@L 2-2@R 3-2@L 2-0@R 2-1@L 0-5@R 1-0@L"
"""Seat 0 goes out with 1-0 on ends 1 and 5 (a TONBE); seat 1 keeps 5-5."""

KABES_4P = [
    "5-6 4-5 4-4 2-4 1-6 0-1 0-0",
    "6-6 4-6 3-6 2-3 0-6 0-5 0-2",
    "5-5 3-5 2-5 2-2 1-5 1-4 1-2",
    "3-4 3-3 2-6 1-3 1-1 0-4 0-3",
]
KABES_4P_SCRIPT = (
    "6-6 6-2@R 2-4@R 4-6@R 5-6@L 6-0@R 2-5@L 0-3@R 3-2@R "
    "2-2@R 0-2@L 2-1@R 1-1@R 1-6@R 5-0@L 1-5@L 3-1@L 6-3@L"
)
"""Seat 1 (6-6) leads and goes out with 6-3 on ends 3 and 6 (a 2 KABÈS, a capicú).
Left: seat 0 0-0 0-1 4-4 4-5 (18), seat 2 1-4 3-5 5-5 (23), seat 3 0-4 3-3 3-4 (17)."""

TONBE_4P = [
    "4-5 3-6 2-6 2-4 2-2 1-3 0-1",
    "6-6 4-6 3-5 1-5 1-4 1-2 0-6",
    "3-4 3-3 2-3 1-6 0-3 0-2 0-0",
    "5-6 5-5 4-4 2-5 1-1 0-5 0-4",
]
TONBE_4P_SCRIPT = (
    "6-6 1-6@L 6-5@R 3-1@L 5-3@R 3-0@R 0-5@R 6-3@L 5-1@R "
    "1-1@R 2-6@L 1-2@L 0-1@L 6-0@L 1-4@R 4-3@R 4-6@L"
)
"""Seat 1 (6-6) leads and goes out with 4-6 on ends 6 and 3 (a TONBE).
Left: seat 0 2-2 2-4 4-5 (19), seat 2 0-0 0-2 2-3 3-3 (13), seat 3 0-4 2-5 4-4 5-5 (29)."""


def with_counts(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record whose hand results gain ``counts``, worked out here from the hands shown
    face up at each hand's end (the shared example records were written without them)."""
    from kabes.events import HandEnded
    from kabes.records import replay

    shown: list[list[int]] = []

    def note(events: list[Event]) -> None:
        for event in events:
            if isinstance(event, HandEnded):
                shown.append([sum(t.low + t.high for t in hand) for hand in event.hands])

    replay(record, note)
    out = {**record, "hands": [dict(h) for h in record["hands"]]}
    for hand, counts in zip(out["hands"], shown, strict=False):
        if hand.get("result") is not None:
            hand["result"] = {**hand["result"], "counts": counts}
    return out
