"""Positions and puzzles the puzzle tests share (imported as ``puzzle_corpus``): the records
in tests/data/records and a few matches the computer played against itself, replayed once
per test session."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kabes.match import Match
from kabes.moves import parse_move
from kabes.puzzles.find import Candidate, candidates, puzzle_at
from kabes.puzzles.matches import computer_records
from kabes.puzzles.model import Puzzle
from kabes.records import replay

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
SEATINGS = [("plaza", 2), ("haitian", 2), ("haitian", 3), ("haitian", 4),
            ("haitian-partners", 4), ("plaza-partners", 4), ("partnership", 4)]
"""The line variants with their seat counts, as RULES.md allows them."""
COMPUTER = 2
"""Computer records per seating."""


@dataclass(frozen=True)
class Found:
    """A position of a record, and the puzzle there if there is one."""

    record: dict[str, Any]
    source: str
    candidate: Candidate
    puzzle: Puzzle | None


@functools.cache
def records() -> tuple[tuple[str, dict[str, Any]], ...]:
    """The records searched, each with its source name."""
    found = [
        (f"file:{path.name}", json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(RECORDS.glob("*.json"))
    ]
    for variant, players in SEATINGS:
        for index, record in enumerate(computer_records(variant, players, COMPUTER, 7)):
            found.append((f"computer:{variant}:{7 + index}", record))
    return tuple(found)


@functools.cache
def positions() -> tuple[Found, ...]:
    """Every candidate position of the records, with its puzzle (or None)."""
    return tuple(
        Found(record, source, candidate, puzzle_at(candidate, record, source))
        for source, record in records()
        for candidate in candidates(record)
    )


def puzzles() -> list[Found]:
    """The positions that are puzzles."""
    return [f for f in positions() if f.puzzle is not None]


def match_at(record: dict[str, Any], candidate: Candidate) -> Match:
    """The match of ``record`` replayed to ``candidate``'s position."""
    hands = record["hands"]
    earlier = {**record, "hands": hands[: candidate.hand - 1]}
    match = replay(earlier)
    hand = hands[candidate.hand - 1]
    stock = [parse_move(t).tile for t in hand["stock"]]  # type: ignore[union-attr]
    deal = [[parse_move(t).tile for t in seat] for seat in hand["deal"]]  # type: ignore[union-attr]
    match.start_hand(deal, stock, hand.get("leader"))
    for text in candidate.moves:
        match.apply(None, parse_move(text))
    return match
