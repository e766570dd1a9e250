"""Possible worlds: hidden hands dealt again at random, consistent with what a seat has seen.

The expert plays its candidate moves out in many such worlds. A world keeps the seat's own
tiles, gives every other seat as many unseen tiles as it holds, never a tile with a number the
seat is known to lack (its passes and draws), and puts the rest in the stock in a random
order. Line games play their worlds on bit sets (``fastline``); a Mexican Train world is
rebuilt as an ordinary engine round (``kabes.ai.boards.trains``), so the candidate move is
checked by the engine itself.
"""

from __future__ import annotations

from collections.abc import Callable
from math import factorial
from random import Random
from typing import Final

from kabes.ai.bits import DOUBLE_SIX, DOUBLE_TWELVE, TileBits
from kabes.ai.knowledge import unseen
from kabes.rules import get_rules
from kabes.tiles import Tile
from kabes.views import View

ATTEMPTS = 30
FACTORIAL: Final = tuple(factorial(n) for n in range(92))
"""n! up to a double-twelve set's 91 tiles."""
EXACT_TILES: Final = 28
"""The largest set :class:`Exact` deals from: the double-six of every line game, where
counting the worlds takes at most 0.2 ms a search (300 random positions of three seats with
one to three numbers lacking each). With a double-twelve set's 91 tiles the ways of sharing a
class among four holders took up to 100 ms, twice a move's budget, and Mexican Train deals a
new world from scratch each time (``ai.boards.trains``), so there the shuffle stays."""


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
    dealing tiles and then turning them into bits took about a fifth of a plaza search.

    Every world consistent with the counts and voids is equally likely. Where at most one
    hidden holder is known to lack a number, that seat takes a random set of the tiles it may
    hold and the others share the rest at random, which is uniform (whichever tiles it takes,
    the rest can be shared as many ways). Where two or more are, that is not so: the first
    seat dealt takes its tiles blind to what the seats after it may not hold, so the worlds
    where it holds many of those tiles are dealt too rarely. There the worlds are dealt by
    :class:`Exact`."""

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
        self.exact: Exact | None = None
        constrained = sum(1 for s in others if self.forbidden[s])
        stock = len(self.bits) - sum(view.counts[s] for s in others)
        if constrained >= 2 and len(bits.tiles) <= EXACT_TILES:
            exact = Exact(
                self.bits,
                [self.forbidden[s] for s in self.order] + ([0] if stock else []),
                [view.counts[s] for s in self.order] + ([stock] if stock else []),
                stock > 0,
            )
            if exact.worlds():
                self.exact = exact

    def deal(self, rng: Random) -> tuple[list[int], list[int]]:
        """Every seat's hand as a bit set (this seat's own, the others sampled) and the
        stock's tiles in a random order."""
        random = rng.random
        exact = self.exact
        if exact is not None:
            shares, stock = exact.deal(random)
            hands = [0] * self.players
            hands[self.seat] = self.own
            for index, seat in enumerate(self.order):
                hands[seat] = shares[index]
            return hands, stock
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


class Exact:
    """Worlds dealt uniformly among all those consistent with the counts and voids, where
    several holders lack numbers.

    The unseen tiles fall into classes by the holders that may hold them (a 5-3 where one
    seat lacks fives and another threes may go only to the third seat or the stock). A world
    is a way of sharing each class among its holders, and the number of worlds with ``n[h]``
    tiles of a class of ``m`` going to each holder ``h`` is ``m! / prod(n[h]!)`` times the
    ways of sharing the classes after it among what room is left. Those counts are worked out
    once per search (a few hundred sums: the classes that some holder may not take are small,
    and the class every holder may take comes last, where its share is forced); a world then
    picks each class's shares in proportion to them and deals the class's tiles at random."""

    def __init__(
        self, bits: list[int], forbidden: list[int], room: list[int], stock: bool
    ) -> None:
        """``forbidden`` and ``room`` per holder: the other seats, then the stock if
        ``stock`` (it may hold any tile)."""
        holders = len(room)
        classes: dict[int, list[int]] = {}
        for bit in bits:
            allowed = 0
            for holder in range(holders):
                if not bit & forbidden[holder]:
                    allowed |= 1 << holder
            classes.setdefault(allowed, []).append(bit)
        # The most constrained classes first; the class every holder may take last.
        self.masks: list[int] = sorted(classes, key=lambda m: (m.bit_count(), m))
        self.classes: list[list[int]] = [classes[m] for m in self.masks]
        self.room = room
        self.holders = holders
        self.stock = holders - 1 if stock else -1
        self.ways: dict[int, int] = {}
        """Worlds from class ``k`` on with this room left, keyed by :meth:`_key`."""
        self.choices: dict[int, tuple[list[list[int]], list[int]]] = {}
        """The shares of class ``k`` with this room left, and their running totals of worlds."""

    def worlds(self) -> int:
        """How many worlds there are (0 where the counts and voids admit none)."""
        return self._ways(0, self.room)

    def _key(self, k: int, room: list[int]) -> int:
        key = k
        for r in room:
            key = key << 7 | r
        return key

    def _ways(self, k: int, room: list[int]) -> int:
        key = self._key(k, room)
        known = self.ways.get(key)
        if known is not None:
            return known
        total = 0
        if k == len(self.classes):
            total = 1 if not any(room) else 0
        elif k == len(self.classes) - 1:
            total = _forced(len(self.classes[k]), self.masks[k], room)
        else:
            totals = self._choices(k, room)[1]
            total = totals[-1] if totals else 0
        self.ways[key] = total
        return total

    def _choices(self, k: int, room: list[int]) -> tuple[list[list[int]], list[int]]:
        """Every share of class ``k`` that fits ``room`` and leaves the later classes a way,
        with the running total of the worlds through each."""
        key = self._key(k, room)
        known = self.choices.get(key)
        if known is not None:
            return known
        size = len(self.classes[k])
        shares: list[list[int]] = []
        totals: list[int] = []
        running = 0
        for share in _shares(size, self.masks[k], room):
            after = [r - n for r, n in zip(room, share, strict=True)]
            worlds = self._ways(k + 1, after)
            if worlds:
                ways = FACTORIAL[size]
                for n in share:
                    ways //= FACTORIAL[n]
                running += ways * worlds
                shares.append(share)
                totals.append(running)
        self.choices[key] = (shares, totals)
        return shares, totals

    def deal(self, random: Callable[[], float]) -> tuple[list[int], list[int]]:
        """One world: each holder's tiles as a bit set (the stock's among them, if any), and
        the stock's tiles in a random order."""
        room = list(self.room)
        hands = [0] * self.holders
        stocked: list[int] = []
        last = len(self.classes) - 1
        for k in range(last + 1):
            if k == last:
                share = room
            else:
                shares, totals = self._choices(k, room)
                pick = random() * totals[-1]
                index = 0
                while totals[index] <= pick and index < len(totals) - 1:
                    index += 1
                share = shares[index]
            tiles = list(self.classes[k])
            _shuffle(tiles, random)
            start = 0
            for holder in range(self.holders):
                n = share[holder]
                if not n:
                    continue
                if holder == self.stock:
                    stocked += tiles[start:start + n]
                else:
                    for bit in tiles[start:start + n]:
                        hands[holder] |= bit
                start += n
            room = [r - n for r, n in zip(room, share, strict=True)]
        _shuffle(stocked, random)
        if self.stock >= 0:
            hands = hands[: self.stock]
        return hands, stocked


def _forced(size: int, allowed: int, room: list[int]) -> int:
    """The worlds of the last class: it must fill the room left, all of it its holders'."""
    if sum(room) != size:
        return 0
    ways = FACTORIAL[size]
    for holder, n in enumerate(room):
        if n and not allowed >> holder & 1:
            return 0
        ways //= FACTORIAL[n]
    return ways


def _shares(size: int, allowed: int, room: list[int]) -> list[list[int]]:
    """Every way of giving ``size`` tiles to the ``allowed`` holders within their ``room``."""
    found: list[list[int]] = []
    share = [0] * len(room)
    _fill(0, size, allowed, room, share, found)
    return found


def _fill(
    holder: int, left: int, allowed: int, room: list[int], share: list[int],
    found: list[list[int]],
) -> None:
    if holder == len(room):
        if not left:
            found.append(list(share))
        return
    most = min(left, room[holder]) if allowed >> holder & 1 else 0
    for n in range(most + 1):
        share[holder] = n
        _fill(holder + 1, left - n, allowed, room, share, found)
    share[holder] = 0


def _shuffle(tiles: list[int], random: Callable[[], float]) -> None:
    """Fisher-Yates, from ``random``."""
    for i in range(len(tiles) - 1, 0, -1):
        j = int(random() * (i + 1))
        tiles[i], tiles[j] = tiles[j], tiles[i]
