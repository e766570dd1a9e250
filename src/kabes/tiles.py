"""Tiles and sets: the double-six (28 tiles) and double-twelve (91 tiles) sets.

A tile is written ``a-b``; ``6-3`` and ``3-6`` are the same tile. Tiles are interned, so
``Tile.of(6, 3) is Tile.of(3, 6)``, and they sort in "hand order": low half, then high half,
which is the order a player's tiles are shown in and the order the clock's first-fit rule
tries them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import total_ordering

from kabes.errors import BadTile

MAX_PIPS = 12


@total_ordering
@dataclass(frozen=True, slots=True, eq=False)
class Tile:
    """One domino; ``low <= high`` always. Use :meth:`of` or :func:`parse_tile` to get one."""

    low: int
    high: int

    @staticmethod
    def of(a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b``, in either order."""
        if not (0 <= a <= MAX_PIPS and 0 <= b <= MAX_PIPS):
            raise BadTile(f"{a}-{b}: halves go from 0 to {MAX_PIPS}")
        return _TILES[a][b]

    @property
    def value(self) -> int:
        """The tile's value: the pips on both halves (6-6 = 12, 0-0 = 0)."""
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        """Whether both halves show the same number."""
        return self.low == self.high

    def has(self, number: int) -> bool:
        """Whether one of the halves shows ``number``."""
        return self.low == number or self.high == number

    def other(self, number: int) -> int:
        """The half left open when the half showing ``number`` touches the line."""
        return self.high if self.low == number else self.low

    @property
    def index(self) -> int:
        """A dense index (0..90), ordered like the tiles themselves; handy for bit sets."""
        return _INDEX[(self.low, self.high)]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return (self.low, self.high) < (other.low, other.high)

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self.low * 16 + self.high

    def __str__(self) -> str:
        # Written once per tile: every view writes every tile of a hand, at every change.
        return _TEXT[self.low * 16 + self.high]

    def __repr__(self) -> str:
        return f"Tile({self.low}-{self.high})"

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        # Tiles are compared by identity: unpickling must give back the interned tile.
        return (Tile.of, (self.low, self.high))

    def written(self, first: int) -> str:
        """The tile written with ``first`` on the first half, as moves do (``6-3`` vs ``3-6``)."""
        return f"{first}-{self.other(first)}"


def _make_tiles() -> list[list[Tile]]:
    grid: list[list[Tile | None]] = [[None] * (MAX_PIPS + 1) for _ in range(MAX_PIPS + 1)]
    for low in range(MAX_PIPS + 1):
        for high in range(low, MAX_PIPS + 1):
            tile = Tile(low, high)
            grid[low][high] = tile
            grid[high][low] = tile
    return [[t for t in row if t is not None] for row in grid]


_TILES = _make_tiles()
_TEXT = {low * 16 + high: f"{low}-{high}"
         for low in range(MAX_PIPS + 1) for high in range(low, MAX_PIPS + 1)}
"""Each tile as written, ``low-high``, by ``low * 16 + high``."""
_INDEX: dict[tuple[int, int], int] = {}
for _low in range(MAX_PIPS + 1):
    for _high in range(_low, MAX_PIPS + 1):
        _INDEX[(_low, _high)] = len(_INDEX)


def full_set(top: int) -> list[Tile]:
    """Every tile from 0-0 to top-top, each once, in hand order (28 for 6, 91 for 12)."""
    return [Tile.of(low, high) for low in range(top + 1) for high in range(low, top + 1)]


def parse_tile(text: str, top: int = MAX_PIPS) -> Tile:
    """Read ``a-b`` into a tile of the set that goes up to ``top``; a clear error otherwise."""
    parts = text.strip().split("-")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise BadTile(f"{text!r} is not a tile: write it as two numbers with a dash, like 6-3")
    a, b = int(parts[0]), int(parts[1])
    if a > top or b > top:
        raise BadTile(f"{text!r} is not in the double-{_SET_NAMES.get(top, str(top))} set")
    return Tile.of(a, b)


def count(tiles: list[Tile] | tuple[Tile, ...]) -> int:
    """A hand's count: the sum of its tiles' values."""
    return sum(t.value for t in tiles)


_SET_NAMES = {6: "six", 12: "twelve"}
