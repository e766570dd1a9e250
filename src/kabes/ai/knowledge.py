"""What a seat can work out from its view: tiles out, tiles unseen, where a move leaves the ends.

Everything here reads a :class:`kabes.views.View` only, so a computer player built on it can
know no more than a person in that seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from kabes.moves import LEFT, RIGHT, Move, Play
from kabes.rules import get_rules
from kabes.tiles import Tile, full_set
from kabes.views import View


@dataclass(frozen=True, slots=True)
class Hint:
    """A level's move with a reason a person can read."""

    move: Move
    reason: str


def top_of(view: View) -> int:
    """The highest number of the set in play."""
    return get_rules(view.variant).top


def laid_tiles(view: View) -> set[Tile]:
    """Every tile face up on the table: the line, the trains, the engine."""
    laid = {Tile.of(a, b) for a, b in view.line or ()}
    for train in view.trains:
        laid.update(Tile.of(a, b) for a, b in train.laid)
    if view.engine is not None:
        laid.add(view.engine)
    return laid


def unseen(view: View) -> list[Tile]:
    """Tiles this seat has not seen: in the others' hands or the stock, in hand order."""
    known = laid_tiles(view) | set(view.hand)
    return [t for t in full_set(top_of(view)) if t not in known]


def distinct(view: View) -> list[Play]:
    """The legal moves that lead to different positions: when both ends show the same
    number, a tile on the left or on the right is the same play, so only the left is kept."""
    if view.ends is None or view.ends[0] != view.ends[1]:
        return list(view.legal)
    return [m for m in view.legal if m.at != RIGHT]


def ends_after(view: View, move: Play) -> tuple[int, int]:
    """The two open ends after ``move`` on the line (a lead sets both)."""
    tile = move.tile
    if view.ends is None:
        first = tile.low if move.first is None else move.first
        return (first, tile.other(first))
    left, right = view.ends
    if move.at == LEFT:
        return (tile.other(left), right)
    return (left, tile.other(right))


def number_counts(tiles: list[Tile] | tuple[Tile, ...]) -> list[int]:
    """How many of ``tiles`` show each number (a double counts once)."""
    counts = [0] * 13
    for t in tiles:
        counts[t.low] += 1
        if not t.is_double:
            counts[t.high] += 1
    return counts


def partner(view: View) -> int | None:
    """The seat opposite, in team variants."""
    return (view.seat + 2) % 4 if view.teams else None


def opponents(view: View) -> list[int]:
    """The seats not on this seat's side."""
    return [s for s in range(view.players) if view.party(s) != view.party(view.seat)]
