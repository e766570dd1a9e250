"""Quick playouts of a line-game hand on bit sets, for the expert's search.

A hand is a 28-bit mask (``kabes.ai.bits``), so a seat's heaviest playable tile is simply
the highest bit of ``hand & (FITS[left] | FITS[right])``. The rules played here are the
engine's (play when able, draw until a tile fits while there is a stock, pass otherwise,
block when everybody passes in turn); the end of the hand is handed back as an engine
``HandEnd`` so that the variant's own rules score it. ``tests/test_levels.py`` checks it
against the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from kabes.ai.bits import DOUBLE_SIX, POP_14
from kabes.moves import LEFT, Play
from kabes.results import Ending, HandEnd

# Final: where this module is compiled (kabes.native) these are C statics, not a dictionary
# lookup at each use.
BITS: Final = DOUBLE_SIX
TILES: Final = BITS.tiles
BIT: Final = BITS.bit
LOW: Final = BITS.low
HIGH: Final = BITS.high
FITS: Final = BITS.fits
BLOCKED: Final = Ending.BLOCKED
DOMINO: Final = Ending.DOMINO
mask = BITS.mask
tiles_of = BITS.tiles_of

BitEnd = tuple[Ending, int, bool, list[int]]
"""The end of a hand on bit sets: how it ended, who went out (or blocked), whether it was a
capicú, and the hands left."""

Exact = Callable[[list[int], int, int, int, int], "BitEnd | None"]
"""The end of a hand searched exactly (``kabes.ai.endgame``) from hands, the two ends, the
seat to move and the seat that played last; None where the search would cost too much."""

Summary = tuple[Ending, int, bool, int, tuple[int, ...]]
"""What a line variant's scoring reads of a hand's end (:func:`summary`)."""

PIPS_7: Final = tuple(
    tuple(
        sum(TILES[7 * part + i].value for i in range(7) if chunk >> i & 1)
        for chunk in range(128)
    )
    for part in range(4)
)
"""Pips of every 7-tile slice of a hand, so that a hand's count is four lookups."""


def pips(hand: int) -> int:
    """The pips in a bit-set hand (what ``kabes.tiles.count`` gives for its tiles)."""
    a, b, c, d = PIPS_7
    return a[hand & 127] + b[hand >> 7 & 127] + c[hand >> 14 & 127] + d[hand >> 21]


def deal(random: Callable[[], float], hands: int, each: int) -> list[int]:
    """``hands`` random hands of ``each`` double-six tiles as bit sets: the first tiles of a
    Fisher-Yates shuffle of the set's bits (written out on ints, with no tile objects, so
    that compiled it is a small part of a random hand's cost: ``bench/playout.py``)."""
    deck = [1 << i for i in range(len(TILES))]
    for i in range(len(deck) - 1, 0, -1):
        j = int(random() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    out = []
    for seat in range(hands):
        hand = 0
        for k in range(seat * each, seat * each + each):
            hand |= deck[k]
        out.append(hand)
    return out


def playout(
    hands: list[int],
    left: int,
    right: int,
    turn: int,
    stock: list[int],
    last: int,
    random: Callable[[], float],
    greedy: float,
) -> BitEnd:
    """Play a hand on from a position where the line is started and ``turn`` is to move.

    ``stock`` holds bit-tiles in draw order; ``last`` played the last tile. With probability
    ``greedy`` a seat plays its heaviest playable tile, else a random one; a tile that fits
    both ends goes on the end chosen the same way. Returns the ending, the seat that went out
    (or blocked), whether it was a capicú, and the hands left (the list passed in, changed).
    """
    players = len(hands)
    fits = FITS
    low_of = LOW
    high_of = HIGH
    drawn = 0
    stock_size = len(stock)
    passes = 0
    while True:
        hand = hands[turn]
        playable = hand & (fits[left] | fits[right])
        if not playable:
            while drawn < stock_size:
                tile = stock[drawn]
                drawn += 1
                hand |= tile
                if tile & (fits[left] | fits[right]):
                    playable = tile
                    break
            hands[turn] = hand
            if not playable:
                passes += 1
                if passes >= players:
                    return BLOCKED, last, False, hands
                turn = (turn + 1) % players
                continue
        passes = 0
        # The choice is written out here, not called: this loop is the hot path of search.
        if random() < greedy:
            bit = 1 << (playable.bit_length() - 1)
        else:
            k = int(random() * (POP_14[playable & 16383] + POP_14[playable >> 14]))
            for _ in range(k):
                playable &= playable - 1
            bit = playable & -playable
        index = bit.bit_length() - 1
        a = low_of[index]
        b = high_of[index]
        hand ^= bit
        hands[turn] = hand
        on_left = a == left or b == left
        on_right = a == right or b == right
        if on_left and on_right and left != right:
            if not hand:
                return DOMINO, turn, a != b, hands
            on_left = random() < 0.5
        elif not hand:
            return DOMINO, turn, False, hands
        if on_left:
            left = b if a == left else a
        else:
            right = b if a == right else a
        last = turn
        turn = (turn + 1) % players


def summary(end: BitEnd, leader: int, teams: bool) -> Summary:
    """All a line variant's scoring reads of a hand's end: the ending, the seat, the capicú,
    the leader and each seat's pips, or with ``teams`` each team's (where the rules count
    by party: ``Rules.counts_by_party``). ``tests/test_levels.py`` checks that the rules read
    no more, so that ends alike are valued once."""
    ending, seat, capicu, hands = end
    if teams:
        return ending, seat, capicu, leader, (pips(hands[0] | hands[2]), pips(hands[1] | hands[3]))
    return ending, seat, capicu, leader, tuple(map(pips, hands))


def hand_end(end: BitEnd, leader: int) -> HandEnd:
    """The engine's HandEnd of a bit-set end."""
    ending, seat, capicu, hands = end
    return HandEnd(ending, seat, capicu, tuple(tiles_of(h) for h in hands), leader)


def finish_after(
    hands: list[int],
    ends: tuple[int, int] | None,
    seat: int,
    move: Play,
    stock: list[int],
    random: Callable[[], float],
    greedy: float,
    exact: Exact | None = None,
) -> BitEnd:
    """Make ``move`` for ``seat`` on bit-set hands (changed in place), then play the hand to
    its end: searched by ``exact`` where it is given and affordable, else played out at
    random. ``ends`` is None before the lead."""
    tile = move.tile
    bit = BIT[tile]
    hands[seat] ^= bit
    if ends is None:
        first = tile.low if move.first is None else move.first
        left, right = first, tile.other(first)
    else:
        left, right = ends
        if not hands[seat]:
            capicu = not tile.is_double and left != right and tile.has(left) and tile.has(right)
            return Ending.DOMINO, seat, capicu, hands
        if move.at == LEFT:
            left = tile.other(left)
        else:
            right = tile.other(right)
    following = (seat + 1) % len(hands)
    if exact is not None:
        searched = exact(hands, left, right, following, seat)
        if searched is not None:
            return searched
    return playout(hands, left, right, following, stock, seat, random, greedy)
