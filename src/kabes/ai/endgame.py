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

from kabes.ai.fastline import FITS, HIGH, LOW, BitEnd
from kabes.results import Ending

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
    players = len(hands)
    stock_size = len(stock)
    visited = [0]
    limit = NODES if nodes is None else nodes

    def best(
        hands: tuple[int, ...],
        left: int,
        right: int,
        turn: int,
        drawn: int,
        last: int,
        passes: int,
        alpha: float,
        beta: float,
    ) -> tuple[float, BitEnd]:
        visited[0] += 1
        if visited[0] > limit:
            raise _TooBig
        fit = FITS[left] | FITS[right]
        hand = hands[turn]
        playable = hand & fit
        while not playable and drawn < stock_size:
            tile = stock[drawn]
            drawn += 1
            hand |= tile
            playable = tile & fit
        if not playable:
            if passes + 1 >= players:
                end: BitEnd = (Ending.BLOCKED, last, False, list(hands))
                return worth(end), end
            if hand != hands[turn]:
                hands = (*hands[:turn], hand, *hands[turn + 1 :])
            return best(
                hands, left, right, (turn + 1) % players, drawn, last, passes + 1, alpha, beta
            )
        maximising = ours >> turn & 1
        value = float("-inf") if maximising else float("inf")
        found: BitEnd | None = None
        following = (turn + 1) % players
        while playable:  # heaviest first: the likeliest good move, for early cut-offs
            index = playable.bit_length() - 1
            bit = 1 << index
            playable ^= bit
            rest = hand ^ bit
            a = LOW[index]
            b = HIGH[index]
            on_left = a == left or b == left
            on_right = a == right or b == right
            after = (*hands[:turn], rest, *hands[turn + 1 :])
            places: list[tuple[int, int] | None]
            if not rest:
                places = [None]  # a domino: either end gives the same
            elif on_left and on_right and left != right:
                places = [(b if a == left else a, right), (left, b if a == right else a)]
            elif on_left:
                places = [(b if a == left else a, right)]
            else:
                places = [(left, b if a == right else a)]
            for place in places:
                if place is None:
                    capicu = on_left and on_right and left != right
                    end = (Ending.DOMINO, turn, capicu, list(after))
                    worth_here = worth(end)
                else:
                    worth_here, end = best(
                        after, place[0], place[1], following, drawn, turn, 0, alpha, beta
                    )
                if worth_here > value if maximising else worth_here < value:
                    value, found = worth_here, end
                if maximising:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
                if alpha >= beta:
                    break
            if alpha >= beta:
                break
        assert found is not None
        return value, found

    try:
        return best(tuple(hands), left, right, turn, 0, last, 0, float("-inf"), float("inf"))[1]
    except _TooBig:
        return None
    finally:
        if counter is not None:
            counter[0] += visited[0]


class _TooBig(Exception):
    """The search went past ``NODES`` positions."""
