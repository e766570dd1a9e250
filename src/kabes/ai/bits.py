"""Tiles as bits, for the quick playouts: a hand is an integer, one bit a tile.

Tiles are numbered by increasing value, a double after the other tiles of its value, so a
hand's heaviest tile is its highest bit, and "the heaviest playable tile, doubles first" is
``(hand & fits).bit_length() - 1``.
"""

from __future__ import annotations

from typing import Final

from kabes.tiles import Tile, full_set

POP_14: Final = tuple(bin(i).count("1") for i in range(1 << 14))
"""The tiles in every 14-bit set: a double-six set's count is ``POP_14[s & 16383] +
POP_14[s >> 14]``. Where mypyc compiles the playouts (``kabes.native``) two lookups cost far
less than calling ``int.bit_count``, which it does not compile."""


class TileBits:
    """One set's tiles, numbered for bit sets."""

    def __init__(self, top: int) -> None:
        self.tiles: tuple[Tile, ...] = tuple(
            sorted(full_set(top), key=lambda t: (t.value, t.is_double))
        )
        self.bit: dict[Tile, int] = {t: 1 << i for i, t in enumerate(self.tiles)}
        self.low = tuple(t.low for t in self.tiles)
        self.high = tuple(t.high for t in self.tiles)
        self.fits = tuple(
            sum(self.bit[t] for t in self.tiles if t.has(n)) for n in range(top + 1)
        )
        """For each number, the tiles that show it."""

    def mask(self, tiles: list[Tile] | tuple[Tile, ...]) -> int:
        """The bit set of ``tiles``."""
        out = 0
        for t in tiles:
            out |= self.bit[t]
        return out

    def tiles_of(self, bits: int) -> tuple[Tile, ...]:
        """The tiles of a bit set, in hand order."""
        found = []
        while bits:
            low = bits & -bits
            found.append(self.tiles[low.bit_length() - 1])
            bits ^= low
        return tuple(sorted(found))


DOUBLE_SIX = TileBits(6)
DOUBLE_TWELVE = TileBits(12)
