"""Shared helpers for the rule tests: crafted deals, scripted play, whole hands.

A deal is written as one string of tiles per seat (``"6-6 6-5 0-0"``); the stock is the rest
of the set, with the tiles named in ``stock`` drawn first and every other tile after them in
ascending order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kabes.events import Event
from kabes.match import Match
from kabes.moves import TIMEOUT, parse_move
from kabes.tiles import Tile, full_set, parse_tile


def tiles(text: str) -> list[Tile]:
    """The tiles written in ``text``, separated by spaces, in that order."""
    return [parse_tile(t) for t in text.split()]


def pips(text: str) -> int:
    """The count of the tiles written in ``text`` (a hand's count)."""
    return sum(t.low + t.high for t in tiles(text))


def deal_of(hands: Sequence[str], stock: str = "", top: int = 6) -> tuple[list[list[Tile]], list[Tile]]:
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


def of_type(events: Sequence[Event], kind: type) -> list[Any]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]
