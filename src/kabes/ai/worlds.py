"""Possible worlds: hidden hands dealt again at random, consistent with what a seat has seen.

The expert plays its candidate moves out in many such worlds. A world keeps the seat's own
tiles, gives every other seat as many unseen tiles as it holds, never a tile with a number the
seat is known to lack (its passes and draws), and puts the rest in the stock in a random
order. Line games play their worlds on bit sets (``fastline``); a Mexican Train world is
rebuilt as an ordinary engine round (``kabes.ai.boards.trains``), so the candidate move is
checked by the engine itself.
"""

from __future__ import annotations

from random import Random

from kabes.ai.bits import DOUBLE_SIX, DOUBLE_TWELVE, TileBits
from kabes.ai.knowledge import unseen
from kabes.rules import get_rules
from kabes.tiles import Tile
from kabes.views import View

ATTEMPTS = 30


def deal_world(
    view: View, rng: Random, pool: list[Tile] | None = None
) -> tuple[list[list[Tile]], list[Tile]]:
    """Hands for every seat (this seat's own, the others sampled) and a stock order;
    ``pool`` is the seat's unseen tiles, if the caller has them already. Dealt as
    :class:`BitDealer` deals, and given back as tiles."""
    pool = unseen(view) if pool is None else pool
    bits = DOUBLE_TWELVE if get_rules(view.variant).top == 12 else DOUBLE_SIX
    masks, stock = BitDealer(view, pool, bits).deal(rng)
    hands = [list(bits.tiles_of(m)) for m in masks]
    hands[view.seat] = list(view.hand)
    return hands, [bits.tiles[b.bit_length() - 1] for b in stock]


class BitDealer:
    """Worlds dealt on bit sets (``kabes.ai.bits``), as the line games' search plays them
    (:func:`deal_world` gives them back as tiles). What does not change from world to world
    (the unseen tiles as bits, the tiles each seat's voids forbid, the tightest seats first)
    is worked out once per search, so a world costs one random ordering and a few slices:
    dealing tiles and then turning them into bits took about a fifth of a plaza search."""

    def __init__(self, view: View, pool: list[Tile], bits: TileBits) -> None:
        self.view = view
        self.pool = pool
        """The view and unseen tiles these worlds are dealt for (kept to recognise them)."""
        self.bits = [bits.bit[t] for t in pool]
        self.players = view.players
        self.seat = view.seat
        self.own = bits.mask(view.hand)
        self.counts = view.counts
        others = [s for s in range(view.players) if s != view.seat]
        self.forbidden = [0] * view.players
        for s in others:
            for number in view.voids[s]:
                self.forbidden[s] |= bits.fits[number]
        self.tight = any(self.forbidden)
        room = {s: sum(1 for b in self.bits if not b & self.forbidden[s]) for s in others}
        self.order = sorted(others, key=lambda s: room[s] - view.counts[s])
        """Tightest seats first: those whose voids leave the fewest tiles to choose from."""

    def deal(self, rng: Random) -> tuple[list[int], list[int]]:
        """Every seat's hand as a bit set (this seat's own, the others sampled) and the
        stock's tiles in a random order."""
        random = rng.random
        counts = self.counts
        for attempt in range(ATTEMPTS + 1):
            hands = [0] * self.players
            hands[self.seat] = self.own
            # Sorted by random keys: a uniform order, in half the time of rng.shuffle.
            left = sorted(self.bits, key=lambda _: random())
            if not self.tight:
                start = 0
                for seat in self.order:
                    hands[seat] = sum(left[start : start + counts[seat]])
                    start += counts[seat]
                return hands, left[start:]
            strict = attempt < ATTEMPTS
            for seat in self.order:
                forbidden = self.forbidden[seat] if strict else 0
                need = counts[seat]
                taken = 0
                rest = []
                for b in left:
                    if need and not b & forbidden:
                        taken |= b
                        need -= 1
                    else:
                        rest.append(b)
                if need:
                    break
                hands[seat] = taken
                left = rest
            else:
                return hands, left
        raise AssertionError("a world without voids always exists")  # pragma: no cover
