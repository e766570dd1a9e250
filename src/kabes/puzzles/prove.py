"""The exact proof of a puzzle: every deal of the unseen tiles, every move, perfect play after.

Late in a line-game hand, with no stock left, a seat can list every way the tiles it has not
seen may lie in the other hands: each other seat holds as many as it shows, never a tile with
a number it passed on (``View.voids``), and in a set not wholly dealt the rest are out of play.
For each such deal and each legal move of the seat, the rest of the hand is searched with
every hand open (``kabes.ai.endgame``, alpha-beta), the seat's side maximising its score and
the others minimising it, and the end is scored by the variant's own rules
(``Rules.score``): the points the side gains minus those the others gain, counted the other
way where the variant scores penalties. In a game without teams of three or four seats the
side is the seat alone against the rest.

A move is *the solution* when it scores at least as well as every other move in every deal
and strictly better than each of them in some deal. Moves that are the same tile leaving the
same ends (either end when both show one number) are one move here (``model.move_class``).

A proof never runs away: a position with more than ``MAX_UNSEEN`` unseen tiles, more than
``MAX_DEALS`` deals or more than ``MAX_NODES`` positions searched in all is not proven
(``prove`` gives None).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations
from math import comb

from kabes.ai import endgame, fastline
from kabes.ai.knowledge import unseen
from kabes.moves import Play
from kabes.puzzles.model import MoveClass, MoveProof, Proof, move_class
from kabes.results import Ending, HandEnd
from kabes.rules import get_rules
from kabes.rules.base import MatchState
from kabes.views import View

MAX_UNSEEN = 12
"""Most unseen tiles a proof takes on: twelve in three hands of four is 34,650 deals before
the passes cut them, already too many; most proofs stop at ``MAX_DEALS`` first."""

MAX_DEALS = 6000
"""Most deals a proof enumerates (each is searched once per distinct move)."""

MAX_NODES = 4_000_000
"""Most positions a proof may search in all, over every deal and move."""

LINE_VARIANTS = frozenset({"partnership", "plaza", "plaza-partners", "haitian", "haitian-partners"})
"""The variants played on one line with two ends, whose puzzles this module proves."""


@dataclass(frozen=True)
class Proven:
    """A proof and what it found: the solving moves (empty if no move dominates), each
    distinct move's score in each deal (for tests), and the longest perfect line after the
    solution (moves, the solution's included)."""

    proof: Proof
    solution: tuple[str, ...]
    scores: dict[MoveClass, tuple[int, ...]]
    depth: int


class Position:
    """What a proof needs of a seat's view, on bit sets: the seat's tiles, the unseen tiles,
    what each other seat may hold, the distinct moves, and how an end is scored."""

    def __init__(self, view: View) -> None:
        if view.variant not in LINE_VARIANTS:
            raise ValueError(f"puzzles are line games; {view.variant!r} is not one")
        if view.stock:
            raise ValueError("a puzzle has no stock left to draw from")
        if view.turn != view.seat or not view.legal:
            raise ValueError(f"seat {view.seat} is not to move")
        self.view = view
        self.rules = rules = get_rules(view.variant)
        bits = fastline.BITS
        self.own = bits.mask(view.hand)
        self.pool = [bits.bit[t] for t in unseen(view)]
        self.forbidden = [0] * view.players
        for seat in range(view.players):
            if seat != view.seat:
                for number in view.voids[seat]:
                    self.forbidden[seat] |= bits.fits[number]
        self.others = [s for s in range(view.players) if s != view.seat]
        self.party = view.party(view.seat)
        self.ours = sum(1 << s for s in range(view.players) if view.party(s) == self.party)
        self.state = MatchState(
            view.players, view.teams, view.options, list(view.scores), view.hands_played,
            list(view.hand_wins),
        )
        self.sign = -1 if rules.penalties(view.players) else 1
        leader = view.leader
        assert leader is not None
        self.leader = leader
        self.by_party = view.teams and rules.counts_by_party
        self.worths: dict[fastline.Summary, int] = {}
        classes: dict[MoveClass, list[Play]] = {}
        for move in view.legal:
            found = move_class(str(move), view.ends)
            assert found is not None, f"{move} is legal"
            classes.setdefault(found, []).append(move)
        self.classes = classes

    def score(self, end: fastline.BitEnd) -> int:
        """The side's score at ``end``, by the variant's own rules (cached per summary)."""
        key = fastline.summary(end, self.leader, self.by_party)
        found = self.worths.get(key)
        if found is None:
            found = self.worths[key] = self.points(fastline.hand_end(end, self.leader))
        return found

    def points(self, end: HandEnd) -> int:
        """Points the side gains minus the points the other parties gain (the other way
        round where scores are penalties)."""
        scored = self.rules.score(self.state, end)
        ours = scored.points[self.party]
        theirs = sum(p for i, p in enumerate(scored.points) if i != self.party)
        return self.sign * (ours - theirs)

    def deals(self) -> Iterator[list[int]]:
        """Every deal of the unseen tiles to the other seats that the view allows, as bit
        hands per seat (this seat's own included), in a fixed order."""
        counts = self.view.counts
        hands = [0] * self.view.players
        hands[self.view.seat] = self.own

        def fill(index: int, left: list[int]) -> Iterator[list[int]]:
            if index == len(self.others):
                yield list(hands)
                return
            seat = self.others[index]
            allowed = [b for b in left if not b & self.forbidden[seat]]
            for chosen in combinations(allowed, counts[seat]):
                hands[seat] = sum(chosen)
                taken = hands[seat]
                yield from fill(index + 1, [b for b in left if not b & taken])

        yield from fill(0, list(self.pool))

    def solve(
        self, hands: list[int], move: Play, nodes: int, counter: list[int]
    ) -> fastline.BitEnd | None:
        """The end of the hand after ``move`` in the deal ``hands`` with perfect play."""
        seat = self.view.seat
        bit = fastline.BIT[move.tile]
        after = list(hands)
        after[seat] ^= bit
        tile = move.tile
        ends = self.view.ends
        if ends is None:
            first = tile.low if move.first is None else move.first
            left, right = first, tile.other(first)
        else:
            left, right = ends
            if not after[seat]:
                capicu = (not tile.is_double and left != right and tile.has(left)
                          and tile.has(right))
                return Ending.DOMINO, seat, capicu, after
            placed = move_class(str(move), ends)
            assert placed is not None and placed[1] is not None
            low, high = placed[1]
            # The ends as a pair: which side each is on changes nothing in the rest.
            left, right = low, high
        following = (seat + 1) % self.view.players
        return endgame.solve(
            after, left, right, following, (), seat, self.ours, self.score, nodes, counter
        )


def deal_count(view: View) -> int:
    """How many deals of the unseen tiles ``view`` allows (enumerated: passes shape it)."""
    return sum(1 for _ in Position(view).deals())


def plain_count(view: View) -> int:
    """The deals of the unseen tiles over the other seats' counts when no pass forbids any
    tile: the multinomial coefficient (with the out-of-play tiles as one more heap)."""
    left = len(unseen(view))
    total = 1
    for seat in range(view.players):
        if seat != view.seat:
            total *= comb(left, view.counts[seat])
            left -= view.counts[seat]
    return total


def prove(
    view: View,
    *,
    max_unseen: int = MAX_UNSEEN,
    max_deals: int = MAX_DEALS,
    max_nodes: int = MAX_NODES,
    order: Callable[[list[list[int]]], Iterable[list[int]]] | None = None,
    only_solved: bool = False,
    besides: str | None = None,
) -> Proven | None:
    """Prove ``view``'s position (the seat to move, no stock): every distinct move's score in
    every deal, and the solution if one move dominates. None when the position is past the
    limits. ``order`` may reorder the deals (the numbers do not depend on it).

    With ``only_solved``, None as soon as the deals searched show that no move other than
    ``besides`` (if given) can dominate: a puzzle finder needs no more, and most positions
    are settled in a few deals that way."""
    position = Position(view)
    if len(position.pool) > max_unseen:
        return None
    deals: list[list[int]] = []
    for deal in position.deals():
        deals.append(deal)
        if len(deals) > max_deals:
            return None
    if order is not None:
        deals = list(order(deals))
    if not deals:
        return None
    counter = [0]
    classes = list(position.classes)
    scores: dict[MoveClass, list[int]] = {c: [] for c in classes}
    left: dict[MoveClass, list[int]] = {c: [] for c in classes}
    excluded = None if besides is None else move_class(besides, view.ends)
    open_ = set(classes) - {excluded}
    for deal in deals:
        for cls in classes:
            end = position.solve(deal, position.classes[cls][0], max_nodes - counter[0], counter)
            if end is None:
                return None
            scores[cls].append(position.score(end))
            left[cls].append(sum(h.bit_count() for h in end[3]))
        if only_solved:
            top = max(scores[c][-1] for c in classes)
            open_ = {c for c in open_ if scores[c][-1] == top}
            if not open_:
                return None
    solution_class = dominant(scores)
    depth = 0 if solution_class is None else sum(view.counts) - min(left[solution_class])
    proof = Proof(
        len(deals),
        tuple(
            _numbers(str(move), scores[cls], None if solution_class is None
                     else scores[solution_class])
            for cls in classes for move in position.classes[cls]
        ),
        counter[0],
    )
    solution = (() if solution_class is None
                else tuple(str(m) for m in position.classes[solution_class]))
    return Proven(proof, solution, {c: tuple(s) for c, s in scores.items()}, depth)


def dominant(scores: dict[MoveClass, list[int]]) -> MoveClass | None:
    """The move that scores at least as well as every other in every deal and strictly better
    than each of them in some deal, if there is one (there is at most one)."""
    if len(scores) < 2:
        return None
    for cls, ours in scores.items():
        if all(
            all(a >= b for a, b in zip(ours, theirs, strict=True))
            and any(a > b for a, b in zip(ours, theirs, strict=True))
            for other, theirs in scores.items()
            if other != cls
        ):
            return cls
    return None


def _numbers(move: str, scores: list[int], solution: list[int] | None) -> MoveProof:
    """A move's worst, best and mean over the deals, and how it falls behind the solution."""
    gaps = [0] * len(scores) if solution is None else [s - m for m, s in
                                                         zip(scores, solution, strict=True)]
    return MoveProof(
        move,
        min(scores),
        max(scores),
        sum(scores) / len(scores),
        sum(1 for g in gaps if g > 0),
        max(gaps),
    )
