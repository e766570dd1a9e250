"""Reading the table: how likely a dealt world makes the plays every other seat has made.

A world (hidden hands dealt consistently with counts and voids) says what each seat held when
it played each of its tiles: what it holds in the world, plus every tile it has played since.
People do not play at random: they shed heavy tiles and doubles, and they keep open the
numbers they hold. So a world in which a seat played 5-2 while holding three more fives is
likelier than one where that 5-2 was its only five, and one in which it kept back a playable
double (or a heavier tile) is less likely.

People do not all play alike, either: many simply put down their heaviest tile. So each seat
is read two ways, as a counting player who weighs moves like the skilled level (a softmax
over a copy of its features on bit sets: its own hand, and what the table showed then, the
numbers each seat had passed on and the suits being played to; an opponent's softmax sharper
than the partner's) and as a heavy-tile player (a sharp softmax over the pips), and a world's
chance for that seat is the mixture of the two chances of all its plays (``COUNTING`` of
the first, the rest of the second): a seat whose
every play was its heaviest fitting tile is soon read as a heavy-tile player, and then a light
tile it played says that nothing heavier fitted. The weight of a world is the product of its
seats' chances. The expert searches worlds in proportion to these weights (:class:`Chain`),
so the hands that explain the table best come up most; partners are read the same way, so
the suit a partner leads or keeps feeding tells where its strength is.

Only line games can be read, and only seats that have not drawn (a drawn tile was not in the
hand before the draw, and the view does not say when it came); the expert reads only where
it measured stronger (``kabes.ai.expert.reads``).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from math import exp
from typing import Final

from kabes.ai import features
from kabes.ai.bits import DOUBLE_SIX, POP_14
from kabes.moves import RIGHT
from kabes.views import View

BETA: Final = 0.3
"""How sharply the partner, read as a counting player, is assumed to prefer its better moves
(0: not at all). For every seat alike, 0.3, 0.6 and 1.0 measured alike against the skilled
level (within their noise); against heavy-tile play 0.3 measured best (74.1% of hands against
72.2% at 0.6). A partner may be a computer that plays like neither kind of player read here
(the expert), and read sharply it is misread with confidence: at 1.0 for every seat the
worlds gave the partner's true tiles less weight than at 0.3 (``bench/reading_truth.py``)."""
HEAVY: Final = 1.2
"""How sharply a heavy-tile seat prefers each pip more (a tile one pip heavier is about
three times likelier to be its choice), and a double on equal weight."""
BETA_OPPONENTS: Final = 3.0
"""The same for the opponents. Sharper than the partner's: with it the worlds give the
opponents' true tiles more weight (and the partner's too, the hands being dealt together; late
in a hand the log2 gained over blind dealing was +0.42 at 1.0, +0.57 at 3.0), and against
skilled (seeds 2026 and 2027, 200 matches each, 0.06 s of thread CPU a move; docs/levels.md)
the expert won 68.3% and 67.4% of hands with the opponents read as the partner, 70.6% and
69.1% at 1.0, 72.3% and 70.5% at 3.0. At 3.0 a counting opponent is read as sharper than a
heavy-tile one (whose ``HEAVY`` is 1.2)."""
COUNTING = 0.8
"""The prior share of counting players; the rest are taken to play their heaviest tile. A
seat's plays move it from there within the hand (each kind's chance of them, above). Against
skilled (200 matches on each of seeds 2026, 2027, 3026, 4026 and 5026, 0.0496 s of thread CPU
a move, each run beside the even prior in the same hour; docs/levels.md) the expert won 71.7%
of hands at 0.8 and 70.7% at 0.5, ahead on every seed (by 0.5 to 2.0 points): the few plays an
opponent has made by the choices that matter seldom tell the kinds apart, and then the sharper
reading of a counting player ranks the worlds better. Higher went back: at 0.95, beside 0.8 on
the same five seeds at 0.0522 s, 71.3% against 72.4%, behind on four seeds of five. Against
the library's ``probabilistic_alphabeta`` (16 worlds, 1 s a move), which plays like neither
kind, 0.8 won 47 of the 80 hands of its bench where 0.5 had won 44."""

FITS: Final = DOUBLE_SIX.fits
LOW: Final = DOUBLE_SIX.low
HIGH: Final = DOUBLE_SIX.high
BIT: Final = DOUBLE_SIX.bit
ALL: Final = (1 << len(DOUBLE_SIX.tiles)) - 1
PULL: Final = tuple(
    exp(HEAVY * (a + b + (0.5 if a == b else 0))) for a, b in zip(LOW, HIGH, strict=True)
)
"""A heavy-tile player's pull towards each tile (worked out once, not per world)."""

# The skilled level's feature weights (kabes.ai.features), as Final names of this module: where
# it is compiled (kabes.native) they are C constants, not a dictionary lookup at each use.
CONTROL: Final[float] = features.CONTROL
COVERS_PARTNER: Final[float] = features.COVERS_PARTNER
DOUBLE: Final[float] = features.DOUBLE
HOLDS: Final[float] = features.HOLDS
KILLS_SUIT: Final[float] = features.KILLS_SUIT
LACKS: Final[float] = features.LACKS
NEXT_LACKS: Final[float] = features.NEXT_LACKS
PARTNER_LACKS: Final[float] = features.PARTNER_LACKS
PARTNER_SUIT: Final[float] = features.PARTNER_SUIT
PIP: Final[float] = features.PIP


class Reading:
    """The past plays of the other seats, ready to weigh worlds (see the module docstring)."""

    def __init__(self, view: View) -> None:
        self.decisions: list[tuple[int, int, int, int, int | None, int | None, Table | None]] = []
        """Per past play: the seat, the tile's bit, the tiles it played from then on, the
        tiles that fitted, the two ends before it (None for a lead), and what everybody
        saw then (None where it cannot be told)."""
        self.seen: dict[int, tuple[float, float]] = {}
        """The chance of each past play given the hand then held, as a counting player and as
        a heavy-tile player would make it, as worked out so far; keyed by the play's index
        and the hand (``index << 28 | held``: an int key, where a tuple cost an allocation)."""
        self.players = view.players
        self.betas: list[float] = []
        """Per past play, as ``decisions``: how sharply its seat is read as a counting player
        (the partner ``BETA``, an opponent ``BETA_OPPONENTS``)."""
        mate = (view.seat + 2) % 4 if view.teams and view.players == 4 else -1
        self.chain: Chain | None = None
        """The walk through likely worlds of one search (``kabes.ai.boards.line``)."""
        later = [0] * view.players
        left: int | None = None
        right: int | None = None
        steps: list[tuple[int, int, int | None, int | None, Table | None]] = []
        history = _History(view)
        for seat, play in view.played:
            tile = play.tile
            steps.append((seat, BIT[tile], left, right, history.before(seat, left, right)))
            opened: int | None = None
            if left is None or right is None:
                first = tile.low if play.first is None else play.first
                left, right = first, tile.other(first)
            elif play.at == RIGHT:
                right = opened = tile.other(right)
            else:
                left = opened = tile.other(left)
            history.played(seat, BIT[tile], opened)
        for seat, bit, before_left, before_right, table in reversed(steps):
            later[seat] |= bit
            if seat != view.seat and not view.draws[seat]:
                fits = (
                    ALL
                    if before_left is None or before_right is None
                    else (FITS[before_left] | FITS[before_right])
                )
                self.decisions.append(
                    (seat, bit, later[seat], fits, before_left, before_right, table)
                )
                self.betas.append(BETA if seat == mate else BETA_OPPONENTS)

    def weight(self, hands: list[int]) -> float:
        """How likely the world with these bit-set ``hands`` makes the plays seen: per seat,
        as a counting player or as a heavy-tile player would have made them (each seat is
        read as either, by how well each explains all its plays)."""
        counting = [1.0] * self.players
        heavy = [1.0] * self.players
        seen = self.seen
        betas = self.betas
        for index, (seat, bit, played, fits, left, right, table) in enumerate(self.decisions):
            held = hands[seat] | played
            choices = held & fits
            if choices == bit:
                continue
            key = index << 28 | held
            known = seen.get(key)
            if known is None:
                known = seen[key] = _chances(
                    held, bit, choices, left, right, table, betas[index]
                )
            counting[seat] *= known[0]
            heavy[seat] *= known[1]
        weight = 1.0
        for a, b in zip(counting, heavy, strict=True):
            weight *= COUNTING * a + (1.0 - COUNTING) * b
        return weight


class Table:
    """What everybody at the table saw when a seat chose its tile: the numbers each seat
    had passed on, the number each seat last opened (its suit), and the tiles on the line.
    A counting player weighs its moves by these as much as by its own hand."""

    def __init__(
        self,
        view: View,
        seat: int,
        voids: tuple[frozenset[int], ...],
        suits: tuple[int | None, ...],
        line: int,
    ) -> None:
        self.seat = seat
        self.voids = voids
        self.suits = suits
        self.line = line
        party = view.party
        self.opponents = [s for s in range(view.players) if party(s) != party(seat)]
        self.partner = (seat + 2) % 4 if view.teams else None
        self.next = (seat + 1) % view.players
        self.bonuses: dict[tuple[int, int], float] = {}

    def bonus(self, before: tuple[int, int], after: tuple[int, int]) -> float:
        """What the skilled player's table features make of a move from the ends
        ``before`` to the ends ``after``: leave open the numbers opponents lack (the next
        one most), keep closed those the partner lacks, play to the partner's suit and
        never cover it, kill the opponents' suits."""
        key = (min(after), max(after))
        known = self.bonuses.get(key)
        if known is not None:
            return known
        open_numbers = set(after)
        total = 0.0
        for seat in self.opponents:
            lacking = len(open_numbers & self.voids[seat])
            total += (NEXT_LACKS if seat == self.next else LACKS) * lacking
            suit = self.suits[seat]
            if suit is not None and suit in before and suit not in open_numbers:
                total += KILLS_SUIT
        if self.partner is not None:
            total += PARTNER_LACKS * len(open_numbers & self.voids[self.partner])
            suit = self.suits[self.partner]
            if suit is not None and suit in before:
                total += PARTNER_SUIT if suit in open_numbers else COVERS_PARTNER
        self.bonuses[key] = total
        return total


class _History:
    """The public facts of a hand replayed play by play, for :class:`Table`. Passes are
    not timed in a view, but where nobody drew each one is told by the order of play: the
    seats between two plays passed on the ends then open."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.players = view.players
        self.voids: list[frozenset[int]] = [frozenset()] * view.players
        self.suits: list[int | None] = [None] * view.players
        self.line = 0
        self.last: int | None = None
        self.known = not any(view.draws) and _passes_between(view) == len(view.passes)

    def before(self, seat: int, left: int | None, right: int | None) -> Table | None:
        """The table ``seat`` saw before its play, or None where it cannot be told."""
        if not self.known:
            return None
        if self.last is not None and left is not None and right is not None:
            passer = (self.last + 1) % self.players
            while passer != seat:
                self.voids[passer] = self.voids[passer] | {left, right}
                passer = (passer + 1) % self.players
        return Table(self.view, seat, tuple(self.voids), tuple(self.suits), self.line)

    def played(self, seat: int, bit: int, opened: int | None) -> None:
        """``seat`` laid ``bit``, opening ``opened`` (None for the lead)."""
        self.line |= bit
        self.suits[seat] = opened
        self.last = seat


def _passes_between(view: View) -> int:
    """The passes the order of play implies: the seats skipped between plays, and before
    the seat to move."""
    seats = [seat for seat, _ in view.played]
    if view.turn is not None and seats:
        seats.append(view.turn)
    return sum((b - a - 1) % view.players for a, b in pairwise(seats))


def _chances(
    held: int,
    bit: int,
    choices: int,
    left: int | None,
    right: int | None,
    table: Table | None,
    beta: float,
) -> tuple[float, float]:
    """The chance that a counting player, and a heavy-tile player, holding ``held`` picks
    ``bit`` among the ``choices`` that fit."""
    chosen = total = 0.0
    chosen_heavy = total_heavy = 0.0
    while choices:
        one = choices & -choices
        choices ^= one
        score = exp(beta * _score(held, one, left, right, table))
        pull = PULL[one.bit_length() - 1]
        total += score
        total_heavy += pull
        if one == bit:
            chosen = score
            chosen_heavy = pull
    return chosen / total, chosen_heavy / total_heavy


def _score(held: int, bit: int, left: int | None, right: int | None, table: Table | None) -> float:
    """The skilled score of playing ``bit`` from ``held`` (the best of its ends): its own
    pips and double, the numbers it keeps open, and what the table showed (``table``)."""
    index = bit.bit_length() - 1
    a = LOW[index]
    b = HIGH[index]
    rest = held ^ bit
    base = PIP * (a + b) + (DOUBLE if a == b else 0.0)
    if left is None or right is None:
        return base + _keeps(rest, a, b, held, table)
    best = float("-inf")
    if a == left or b == left:
        best = _placed(rest, (left, right), (b if a == left else a, right), held, table)
    if a == right or b == right:
        best = max(best, _placed(rest, (left, right), (left, b if a == right else a), held, table))
    return base + best


def _placed(
    rest: int,
    before: tuple[int, int],
    after: tuple[int, int],
    held: int,
    table: Table | None,
) -> float:
    keeps = _keeps(rest, after[0], after[1], held, table)
    return keeps if table is None else keeps + table.bonus(before, after)


def _keeps(rest: int, left: int, right: int, held: int, table: Table | None) -> float:
    """What keeping these two ends open is worth to a hand holding ``rest``, and more where
    nobody else can hold a number it keeps (every other tile of it is on the line)."""
    total = 0.0
    tiles: int = FITS[left]
    mine = POP_14[rest & tiles & 16383] + POP_14[(rest & tiles) >> 14]
    if mine:
        total += HOLDS * min(mine, 3)
        if table is not None and not tiles & ~(table.line | held):
            total += CONTROL
    if right == left:
        return total
    tiles = FITS[right]
    mine = POP_14[rest & tiles & 16383] + POP_14[(rest & tiles) >> 14]
    if mine:
        total += HOLDS * min(mine, 3)
        if table is not None and not tiles & ~(table.line | held):
            total += CONTROL
    return total  # both ends written out: a loop over a tuple of them cost a third more


class Chain:
    """Worlds drawn in proportion to how well they explain the plays, by a Metropolis walk:
    two hidden holders (other seats, or the stock) swap a tile where the numbers each is
    known to lack allow it, and the swap is kept with the odds of the new world against the
    old. Weighing uniform deals instead wastes most of them once the plays say much (a few
    worlds carry all the weight); a walk spends its time where the likely worlds are."""

    def __init__(self, reading: Reading, view: View, hands: list[int], stock: int) -> None:
        self.reading = reading
        self.hands = [*hands, stock]
        self.weight = reading.weight(hands)
        self.forbidden = [
            _numbers(view.voids[s]) if s < view.players else 0 for s in range(view.players + 1)
        ]
        self.holders = [s for s in range(view.players) if s != view.seat and view.counts[s]] + (
            [view.players] if view.stock else []
        )
        self.players = view.players

    def step(self, random: Callable[[], float]) -> None:
        """One proposed swap, kept or not."""
        holders = self.holders
        if len(holders) < 2:
            return
        i = holders[int(random() * len(holders))]
        j = holders[int(random() * len(holders))]
        if i == j:
            return
        hands = self.hands
        give = _pick(hands[i], random)
        take = _pick(hands[j], random)
        if give & self.forbidden[j] or take & self.forbidden[i]:
            return
        hands[i] ^= give | take
        hands[j] ^= give | take
        weight = self.reading.weight(hands[: self.players])
        if weight >= self.weight or random() * self.weight < weight:
            self.weight = weight
        else:
            hands[i] ^= give | take
            hands[j] ^= give | take

    def world(self, steps: int, random: Callable[[], float]) -> tuple[list[int], int]:
        """The hands and the stock after ``steps`` more proposals."""
        for _ in range(steps):
            self.step(random)
        return self.hands[: self.players], self.hands[self.players]


def _numbers(voids: frozenset[int]) -> int:
    """The tiles showing any of these numbers."""
    tiles = 0
    for number in voids:
        tiles |= FITS[number]
    return tiles


def _pick(tiles: int, random: Callable[[], float]) -> int:
    """One of these tiles, at random."""
    for _ in range(int(random() * (POP_14[tiles & 16383] + POP_14[tiles >> 14]))):
        tiles &= tiles - 1
    return tiles & -tiles
