"""Puzzles found in a finished match's record.

Each hand of a line variant is replayed; at every position where the stock is empty and the
seat to move has at least two different moves, the position is proven (``prove``) from that
seat's view. It is a puzzle when one move dominates and the ``skilled`` level would not play
it: a position the counting player already gets right teaches nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import ceil
from random import Random
from typing import Any

from kabes.ai.knowledge import unseen
from kabes.ai.skilled import Skilled
from kabes.events import Event
from kabes.match import Match
from kabes.puzzles.model import Puzzle, move_class
from kabes.puzzles.prove import LINE_VARIANTS, MAX_UNSEEN, Proven, prove
from kabes.records import replay
from kabes.table.wire import view_json
from kabes.views import View, view


@dataclass(frozen=True)
class Candidate:
    """A position worth proving: the seat's view, the hand's moves so far, which hand."""

    view: View
    moves: list[str]
    hand: int


def candidates(record: dict[str, Any], *, max_unseen: int = MAX_UNSEEN) -> list[Candidate]:
    """The positions of ``record`` a puzzle may be found at: a line variant's hand with the
    stock empty, the seat to move holding two moves that differ, at most ``max_unseen``
    tiles it has not seen."""
    if record.get("variant") not in LINE_VARIANTS:
        return []
    found: list[Candidate] = []
    matches: list[Match] = []

    def look(_: list[Event]) -> None:
        match = matches[0]
        hand = match.hand
        if hand is None or hand.end is not None or hand.stock_left or hand.turn is None:
            return
        seen = view(match, hand.turn)
        classes = {move_class(str(m), seen.ends) for m in seen.legal}
        if len(classes) < 2 or len(unseen(seen)) > max_unseen:
            return
        found.append(Candidate(seen, list(hand.moves), len(match.log)))

    replay(record, look, matches.append)
    return found


def find_puzzles(
    record: dict[str, Any], *, max_unseen: int = MAX_UNSEEN, source: str = "record"
) -> Iterator[Puzzle]:
    """The puzzles of a finished match's ``record`` (BadRecord if it does not replay), in the
    order they arise; ``source`` names the record (``:<hand>`` is added)."""
    for candidate in candidates(record, max_unseen=max_unseen):
        puzzle = puzzle_at(candidate, record, source, max_unseen)
        if puzzle is not None:
            yield puzzle


def skilled_move(seen: View) -> str:
    """What the ``skilled`` level plays here (it draws no chance in a line game: seeded the
    same always, so the answer is the same always)."""
    return str(Skilled(Random(0)).choose(seen))


def puzzle_at(
    candidate: Candidate, record: dict[str, Any], source: str, max_unseen: int = MAX_UNSEEN
) -> Puzzle | None:
    """The puzzle at ``candidate``, if the position has a solution the skilled level misses."""
    seen = candidate.view
    tempting = skilled_move(seen)
    proven = prove(seen, max_unseen=max_unseen, only_solved=True, besides=tempting)
    if proven is None or not proven.solution:
        return None
    solution = {move_class(m, seen.ends) for m in proven.solution}
    if move_class(tempting, seen.ends) in solution:
        return None
    return Puzzle(
        variant=seen.variant,
        players=seen.players,
        options=dict(record.get("options") or {}),
        seat=seen.seat,
        view=view_json(seen),
        moves=list(candidate.moves),
        solution=proven.solution,
        proof=proven.proof,
        difficulty=difficulty(proven, tempting),
        depth=proven.depth,
        source=f"{source}:{candidate.hand}",
    )


def difficulty(proven: Proven, tempting: str) -> int:
    """How hard the puzzle is: ten points per move of the longest perfect line, and up to
    ten more the fewer deals the tempting move falls behind in (a move that loses in every
    deal is easy to see as wrong; one that loses in a few is not)."""
    numbers = proven.proof.of(tempting)
    share = 1.0 if numbers is None else numbers.behind / proven.proof.deals
    return 10 * proven.depth + (10 - ceil(10 * share))
