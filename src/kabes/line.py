"""The line of play of the double-six games: exactly two open ends, doubles never branch.

The lead sets both ends; a tile goes on an end showing one of its numbers, that half touches
and the other half becomes the new end.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kabes.moves import LEFT
from kabes.tiles import Tile


@dataclass(slots=True)
class Line:
    """The tiles laid so far, left to right, each as (left half, right half)."""

    left: int
    right: int
    laid: list[tuple[int, int]] = field(default_factory=list)

    @staticmethod
    def lead(tile: Tile, left: int) -> Line:
        """A line started by ``tile`` with ``left`` on the left end."""
        right = tile.other(left)
        return Line(left, right, [(left, right)])

    def fits(self, tile: Tile, end: str) -> bool:
        """Whether ``tile`` can go on ``end`` (``L`` or ``R``)."""
        return tile.has(self.left if end == LEFT else self.right)

    def place(self, tile: Tile, end: str) -> None:
        """Lay ``tile`` on ``end``; the caller has checked that it fits."""
        if end == LEFT:
            outer = tile.other(self.left)
            self.laid.insert(0, (outer, self.left))
            self.left = outer
        else:
            outer = tile.other(self.right)
            self.laid.append((self.right, outer))
            self.right = outer

    @property
    def ends(self) -> tuple[int, int]:
        """The two open numbers, left first."""
        return (self.left, self.right)

    def __str__(self) -> str:
        return " ".join(f"[{a}|{b}]" for a, b in self.laid)
