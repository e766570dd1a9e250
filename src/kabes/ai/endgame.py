"""The end of a line-game hand searched exactly, in one world, for the expert.

Late in a hand few tiles are left, and a random playout misjudges them most: one careless
tile decides a block or a domino. Once a world's hands hold few enough tiles, the expert
searches every line of play to the end instead (minimax with alpha-beta pruning): its own
side picks the best end for it, the other side the worst, each end valued by the variant's
own rules for the match (``worth``). This is what a master does when counting out the last
tiles. It knows the world it is given (the hidden hands as dealt for it), so it is used
only where each side is one party (two seats, or two teams): the value of an end to one side
is then the loss of the other.

The rules played are the playouts' (``kabes.ai.fastline``): play when able, draw until a
tile fits while there is a stock, pass otherwise, block when everybody passes in turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from kabes.ai.fastline import FITS, HIGH, LOW, BitEnd
from kabes.results import Ending

BLOCKED: Final = Ending.BLOCKED
DOMINO: Final = Ending.DOMINO

TILES = 16
"""Searched exactly once the hands hold at most this many tiles (after the move searched).
In partnership against skilled at 50 ms a move, 16 won 66.1% of hands over three seeds'
deals against 63.3% at 12; at 20 the searches cost so much that a move gets only five to
seven worlds, and half of them give up (64.9%, one seed)."""

NODES = 3000
"""Positions a search may visit before it gives up (the world is then played out at random).
Searches of 16 tiles took half a millisecond on average and none gave up (1,180 searches in
four partnership matches, the longest 2.8 ms), but two hands of eight with many choices can
visit hundreds of thousands of positions, which would blow the move's budget: at 20 tiles
100 of 181 searches gave up."""

Worth = Callable[[BitEnd], float]
"""What an end of the hand is worth to the searching side."""


def solve(
    hands: list[int],
    left: int,
    right: int,
    turn: int,
    stock: Sequence[int],
    last: int,
    ours: int,
    worth: Worth,
    nodes: int | None = None,
    counter: list[int] | None = None,
) -> BitEnd | None:
    """The end of the hand when every seat plays its best from here, ``turn`` to move on a
    line with ends ``left`` and ``right`` (``last`` played last). Seats whose bit is set in
    ``ours`` seek the highest ``worth``, the others the lowest. None if that takes more than
    ``nodes`` positions (``NODES`` unless given). The positions visited are added to
    ``counter[0]`` where it is given (the puzzles' proofs report them)."""
    search = _Search(hands, stock, ours, worth, NODES if nodes is None else nodes)
    try:
        return search.best(left, right, turn, 0, last, 0, float("-inf"), float("inf"))[1]
    except _TooBig:
        return None
    finally:
        if counter is not None:
            counter[0] += search.visited


class _Search:
    """One exact search: the hands (changed in place as moves are tried, and put back),
    the stock, the sides, and the positions visited so far."""

    def __init__(
        self, hands: list[int], stock: Sequence[int], ours: int, worth: Worth, limit: int
    ) -> None:
        self.hands: list[int] = list(hands)
        self.stock: list[int] = list(stock)
        self.players: int = len(hands)
        self.ours: int = ours
        self.worth: Worth = worth
        self.limit: int = limit
        self.visited: int = 0

    def best(
        self,
        left: int,
        right: int,
        turn: int,
        drawn: int,
        last: int,
        passes: int,
        alpha: float,
        beta: float,
    ) -> tuple[float, BitEnd]:
        """The value and end of the best play from here for the seat to move."""
        self.visited += 1
        if self.visited > self.limit:
            raise _TooBig
        hands = self.hands
        stock = self.stock
        fit: int = FITS[left] | FITS[right]
        held: int = hands[turn]
        hand = held
        playable = hand & fit
        while not playable and drawn < len(stock):
            tile: int = stock[drawn]
            drawn += 1
            hand |= tile
            playable = tile & fit
        players = self.players
        if not playable:
            if passes + 1 >= players:
                blocked: BitEnd = (BLOCKED, last, False, list(hands))
                return self.worth(blocked), blocked
            hands[turn] = hand
            passed = self.best(
                left, right, (turn + 1) % players, drawn, last, passes + 1, alpha, beta
            )
            hands[turn] = held
            return passed
        maximising = (self.ours >> turn & 1) != 0
        value = float("-inf") if maximising else float("inf")
        found: BitEnd | None = None
        following = (turn + 1) % players
        while playable:  # heaviest first: the likeliest good move, for early cut-offs
            index = playable.bit_length() - 1
            bit = 1 << index
            playable ^= bit
            rest = hand ^ bit
            a: int = LOW[index]
            b: int = HIGH[index]
            on_left = a == left or b == left
            on_right = a == right or b == right
            both = on_left and on_right and left != right
            hands[turn] = rest
            places = 1 if not rest or not both else 2
            for place in range(places):
                here: float
                end: BitEnd
                if not rest:  # a domino: either end gives the same
                    end = (DOMINO, turn, both, list(hands))
                    here = self.worth(end)
                elif place == 0 and on_left:
                    here, end = self.best(
                        b if a == left else a, right, following, drawn, turn, 0, alpha, beta
                    )
                else:
                    here, end = self.best(
                        left, b if a == right else a, following, drawn, turn, 0, alpha, beta
                    )
                if here > value if maximising else here < value:
                    value = here
                    found = end
                if maximising:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
                if alpha >= beta:
                    break
            if alpha >= beta:
                break
        hands[turn] = held
        assert found is not None
        return value, found


class _TooBig(Exception):
    """The search went past ``NODES`` positions."""
