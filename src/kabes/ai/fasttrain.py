"""Quick playouts of a Mexican Train round on bit sets, for the expert's search.

The same rules as ``kabes.trains`` (first round of turns on one's own train, one tile a turn
after it, doubles satisfied at once, an open double closing every other train, one draw a
turn, markers, blocked when everybody passes in turn with the stock empty), on 91-bit masks
(``kabes.ai.bits``), so a seat's heaviest playable tile is the highest bit.
``tests/test_levels.py`` checks it against the engine.
"""

from __future__ import annotations

from collections.abc import Callable

from kabes.ai.bits import DOUBLE_TWELVE
from kabes.moves import PUBLIC
from kabes.results import Ending, HandEnd
from kabes.trains import TrainHand

BITS = DOUBLE_TWELVE
TILES = BITS.tiles
BIT = BITS.bit
LOW = BITS.low
HIGH = BITS.high
FITS = BITS.fits
mask = BITS.mask
tiles_of = BITS.tiles_of
PUB = -1
"""The public train's place number here (seats are 0..7)."""


def finish(hand: TrainHand, random: Callable[[], float], greedy: float) -> HandEnd:
    """Play an engine round to its end on bit sets; the engine's HandEnd."""
    assert hand.turn is not None
    players = hand.players
    hands = [mask(h) for h in hand.hands]
    ends = [t.end for t in hand.trains]
    public = hand.public.end if hand.public is not None else None
    marked = list(hand.marked)
    done = list(hand.first_turn_done)
    opened = None if hand.open_double is None else _place(hand.open_double)
    stock = [BIT[t] for t in hand.stock[hand.drawn :]]
    drawn = 0
    turn = hand.turn
    drew = hand.drew_this_turn
    only = BIT[hand.drawn_tile] if hand.drawn_tile is not None else 0
    empty = hand.empty_passes
    while True:
        seat = turn
        held = hands[seat]
        if not done[seat]:
            places = [seat]
        elif opened is not None:
            places = [opened]
        else:
            places = [seat]
            if public is not None:
                places.append(PUB)
            places += [s for s in range(players) if marked[s] and s != seat]
        fits = 0
        for p in places:
            fits |= FITS[public if p == PUB else ends[p]]  # type: ignore[index]
        playable = held & fits
        if only:
            playable &= only
        if playable:
            # Written out, as in fastline: this loop is the hot path of search.
            if random() < greedy:
                bit = 1 << (playable.bit_length() - 1)
            else:
                k = int(random() * playable.bit_count())
                for _ in range(k):
                    playable &= playable - 1
                bit = playable & -playable
            index = bit.bit_length() - 1
            a, b = LOW[index], HIGH[index]
            for p in places:
                end = public if p == PUB else ends[p]
                if a == end or b == end:
                    break
            outer = b if a == end else a
            if p == PUB:
                public = outer
            else:
                ends[p] = outer
            held ^= bit
            hands[seat] = held
            only = 0
            empty = 0
            if p == seat and marked[seat]:
                marked[seat] = False
            if not held:
                return _end(Ending.DOMINO, seat, hands, hand.leader)
            if not done[seat]:
                if drew or not held & FITS[ends[seat]]:
                    done[seat] = True
                    turn, drew = (seat + 1) % players, False
                continue
            if a == b:
                opened, drew = p, False
                continue
            if opened == p:
                opened = None
            turn, drew = (seat + 1) % players, False
            continue
        only = 0
        if drawn < len(stock) and not drew:
            bit = stock[drawn]
            drawn += 1
            hands[seat] = held | bit
            drew = True
            if bit & fits:
                only = bit
                continue
        elif not drew:
            empty += 1
        marked[seat] = True
        if empty >= players:
            return _end(Ending.BLOCKED, seat, hands, hand.leader)
        done[seat] = True
        turn, drew = (seat + 1) % players, False


def _place(at: str) -> int:
    return PUB if at == PUBLIC else int(at)


def _end(ending: Ending, seat: int, hands: list[int], leader: int) -> HandEnd:
    return HandEnd(ending, seat, False, tuple(tiles_of(h) for h in hands), leader)
