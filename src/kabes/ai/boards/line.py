"""What the computer players make of the line of the double-six games (see
kabes.ai.boards.base).

On a line the skilled player tracks the tiles out and the numbers each seat is known to lack
(every pass and draw), keeps open the numbers it holds, kills the numbers the opponents play
to, and with a partner it does not cover the partner's number, plays to the partner's suit
and leaves open the numbers the next opponent lacks, so the play comes back to its side. The
expert plays its worlds out on bit sets (``kabes.ai.fastline``).
"""

from __future__ import annotations

from kabes.ai import endgame, fastline
from kabes.ai.boards.base import Judge, Playout, Searched, Tactics, Valued
from kabes.ai.features import (
    CONTROL,
    COVERS_PARTNER,
    DOUBLE,
    HOLDS,
    KILLS_SUIT,
    LACKS,
    NEXT_LACKS,
    OUT,
    PARTNER_LACKS,
    PARTNER_SUIT,
    PIP,
    Feature,
)
from kabes.ai.knowledge import ends_after, number_counts, opponents, partner, unseen
from kabes.ai.reading import Chain, Reading
from kabes.ai.worlds import BitDealer
from kabes.moves import Play
from kabes.rules import get_rules
from kabes.tiles import Tile, count
from kabes.views import View

STEPS = 3
"""Steps of the walk through likely worlds (``reading.Chain``) between two worlds searched:
more measured no stronger at 50 ms a move (fewer worlds)."""
BURN_IN = 20
"""Steps walked from the first world dealt at random, before any is searched."""


class LineTactics(Tactics):
    """A line with two open ends (partnership, plaza, haitian)."""

    name = "line"
    _dealer: BitDealer | None = None
    """The worlds of the search under way (one search at a time per process): recognised by
    the view and the unseen tiles it is given, the same objects for every world of a search."""
    _solved: dict[tuple[int, ...], Searched] | None = None
    """The worlds of the search under way already searched exactly, by their hands: see
    :meth:`play_world`."""

    def follow(self, view: View, move: Play) -> int:
        """How many of the other tiles in hand would fit the ends this move leaves."""
        left, right = ends_after(view, move)
        return sum(1 for t in view.hand if t is not move.tile and (t.has(left) or t.has(right)))

    def judge(self, view: View) -> Judge:
        """:func:`line_features`, with the seat's unseen tiles worked out once."""
        out = unseen(view)
        return lambda seen, move: line_features(seen, move, out)

    def read(self, view: View) -> Reading | None:
        """The other seats' past plays on the line."""
        return Reading(view)

    def play_world(self, playout: Playout) -> Searched:
        """The hidden hands dealt again at random, or with a ``reading`` the next world of
        its walk through the worlds the plays make likely (``reading.Chain``), and each move
        played out on bit sets, or searched exactly (``kabes.ai.endgame``) once few tiles
        are left; an end is known by its pips per seat (``fastline.summary``)."""
        view, rng, pool, reading = playout.view, playout.rng, playout.pool, playout.reading
        dealer = self._dealer
        if dealer is None or dealer.pool is not pool or dealer.view is not view:
            dealer = self._dealer = BitDealer(view, pool, fastline.BITS)
            self._solved = {}
        if reading is None:
            masks, bits = dealer.deal(rng)
        else:
            if reading.chain is None:
                start, stock = dealer.deal(rng)
                reading.chain = Chain(reading, view, start, sum(stock))
                reading.chain.world(BURN_IN, rng.random)
            masks, stocked = reading.chain.world(STEPS, rng.random)
            bits = [fastline.BIT[t] for t in fastline.tiles_of(stocked)]
            rng.shuffle(bits)
        leader = view.leader
        assert leader is not None
        teams = view.teams and get_rules(view.variant).counts_by_party
        valued = playout.valued
        gave_up = [0]
        exact = None if valued is None else _exact(view, bits, valued, leader, teams, gave_up)
        solved = None if exact is None else self._solved
        key = tuple(masks)
        if solved is not None:
            # A world searched exactly comes out the same every time (the search plays no
            # chances), and the walk through likely worlds meets the same world again and
            # again late in a hand (half to three quarters of its steps are refused there):
            # its ends are looked up, not searched again.
            known = solved.get(key)
            if known is not None:
                return known
        ends = [
            fastline.finish_after(
                list(masks), view.ends, view.seat, move, bits, rng.random, playout.greedy, exact
            )
            for move in playout.moves
        ]
        searched = Searched(
            [fastline.summary(end, leader, teams) for end in ends],
            lambda i: fastline.hand_end(ends[i], leader),
        )
        if solved is not None and not gave_up[0]:
            solved[key] = searched  # a world whose search gave up was played out at random
        return searched


def _exact(
    view: View, stock: list[int], valued: Valued, leader: int, teams: bool, gave_up: list[int]
) -> fastline.Exact | None:
    """The exact search of the rest of the hand, where it is sound and worth its cost: with
    the stock empty (a world's stock order is a guess that exact play would trust), at most
    ``endgame.TILES`` tiles in hand after the move, and two sides (each side's gain is the
    other's loss). Each search that gives up is counted in ``gave_up[0]``."""
    if view.stock or sum(view.counts) - 1 > endgame.TILES:
        return None
    if not (view.teams or view.players == 2):
        return None
    ours = sum(1 << s for s in range(view.players) if view.party(s) == view.party(view.seat))

    def worth(end: fastline.BitEnd) -> float:
        return valued(fastline.summary(end, leader, teams), lambda: fastline.hand_end(end, leader))

    def exact(
        hands: list[int], left: int, right: int, turn: int, last: int
    ) -> fastline.BitEnd | None:
        end = endgame.solve(hands, left, right, turn, stock, last, ours, worth)
        if end is None:
            gave_up[0] += 1
        return end

    return exact


def line_features(view: View, move: Play, out: list[Tile]) -> list[Feature]:
    """Why ``move`` is good or bad on a line of play; ``out`` are the seat's unseen tiles."""
    tile = move.tile
    rest = [t for t in view.hand if t is not tile]
    if not rest:
        return [Feature(OUT + tile.value, f"{tile} is your last tile: domino!")]
    left, right = ends_after(view, move)
    open_numbers = {left, right}
    mine = number_counts(rest)
    outside = number_counts(out)
    features = [Feature(tile.value * PIP, f"{tile} sheds {tile.value} pips")]
    if tile.is_double:
        features.append(Feature(DOUBLE, f"{tile} is a double: hard to place later"))
    for n in open_numbers:
        if mine[n]:
            features.append(
                Feature(HOLDS * min(mine[n], 3), f"keeps {n} open: you hold {mine[n]} more")
            )
            if outside[n] == 0:
                features.append(Feature(CONTROL, f"nobody else can have a {n}: you control it"))
    for seat in opponents(view):
        lacking = open_numbers & view.voids[seat]
        if lacking:
            weight = NEXT_LACKS if seat == (view.seat + 1) % view.players else LACKS
            n = min(lacking)
            why = f"seat {seat} has no {n}: leave {n} open"
            features.append(Feature(weight * len(lacking), why))
    mate = partner(view)
    if mate is not None:
        lacking = open_numbers & view.voids[mate]
        if lacking:
            n = min(lacking)
            features.append(
                Feature(
                    PARTNER_LACKS * len(lacking), f"your partner passed on {n}s: keep {n} closed"
                )
            )
        suit = _suit(view, mate)
        if suit is not None and view.ends is not None and suit in view.ends:
            if suit not in open_numbers:
                features.append(Feature(COVERS_PARTNER, f"do not cover your partner's {suit}"))
            else:
                features.append(Feature(PARTNER_SUIT, f"plays to your partner's {suit}"))
    for seat in opponents(view):
        suit = _suit(view, seat)
        covered = suit is not None and view.ends is not None and suit in view.ends
        if covered and suit not in open_numbers:
            features.append(Feature(KILLS_SUIT, f"kills the {suit} seat {seat} is playing to"))
    features += _block_features(view, rest, open_numbers, out, mine)
    return features


def _suit(view: View, seat: int) -> int | None:
    """The number ``seat`` last opened on the line: the number it is playing to."""
    for who, play in reversed(view.played):
        if who == seat:
            if play.at is None:
                return None
            first = play.first if play.first is not None else play.tile.low
            return play.tile.other(first) if play.at == "R" else first
    return None


def _block_features(
    view: View, rest: list[Tile], open_numbers: set[int], out: list[Tile], mine: list[int]
) -> list[Feature]:
    """A move that blocks the game is judged by who would win the block."""
    if view.stock or any(mine[n] for n in open_numbers):
        return []
    if any(t.has(n) for t in out for n in open_numbers):
        return []
    others = [s for s in range(view.players) if s != view.seat]
    hidden = sum(view.counts[s] for s in others) or 1
    average = sum(t.value for t in out) / hidden
    mine_total: float = count(rest)
    theirs = [average * view.counts[s] for s in others]
    if view.teams:
        mate = partner(view)
        mine_total += average * view.counts[mate] if mate is not None else 0
        theirs = [average * sum(view.counts[s] for s in opponents(view))]
    if mine_total < min(theirs):
        return [Feature(40.0, "blocks the game while you hold the fewest pips")]
    return [Feature(-40.0, "would block the game with more pips than the others")]
