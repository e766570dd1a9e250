"""Reading the table: how likely a dealt world makes the plays every other seat has made.

A world (hidden hands dealt consistently with counts and voids) says what each seat held when
it played each of its tiles: what it holds in the world, plus every tile it has played since.
People do not play at random: they shed heavy tiles and doubles, and they keep open the
numbers they hold. So a world in which a seat played 5-2 while holding three more fives is
likelier than one where that 5-2 was its only five, and one in which it kept back a playable
double (or a heavier tile) is less likely.

People do not all play alike, either: many simply put down their heaviest tile. So each seat
is read two ways, as a counting player who weighs moves like the skilled level (a gentle
softmax over a cheap copy of its main features) and as a heavy-tile player (a sharp softmax
over the pips), and a world's chance for that seat is the even mixture of the two chances of
all its plays: a seat whose every play was its heaviest fitting tile is soon read as a
heavy-tile player, and then a light tile it played says that nothing heavier fitted. The
weight of a world is the product of its seats' chances. The expert averages its worlds with
these weights, so the hands that explain the table best count most; partners are read the
same way, so the suit a partner leads or keeps feeding tells where its strength is.

Only line games can be read, and only seats that have not drawn (a drawn tile was not in the
hand before the draw, and the view does not say when it came); the expert reads only where
it measured stronger (``kabes.ai.expert.READS``).
"""

from __future__ import annotations

from math import exp

from kabes.ai.bits import DOUBLE_SIX
from kabes.moves import RIGHT
from kabes.views import View

BETA = 0.3
"""How sharply a counting seat is assumed to prefer its better moves (0: not at all)."""
HEAVY = 1.2
"""How sharply a heavy-tile seat prefers each pip more (a tile one pip heavier is about
three times likelier to be its choice), and a double on equal weight."""
COUNTING = 0.5
"""The prior share of counting players; the rest are taken to play their heaviest tile."""
PIPS = 0.6
DOUBLE = 2.5
HOLDS = 1.8
"""The cheap features' weights, as the skilled player weighs them (``boards.line``)."""

FITS = DOUBLE_SIX.fits
LOW = DOUBLE_SIX.low
HIGH = DOUBLE_SIX.high
BIT = DOUBLE_SIX.bit
ALL = (1 << len(DOUBLE_SIX.tiles)) - 1


class Reading:
    """The past plays of the other seats, ready to weigh worlds (see the module docstring)."""

    def __init__(self, view: View) -> None:
        self.decisions: list[tuple[int, int, int, int, int | None, int | None]] = []
        """Per past play: the seat, the tile's bit, the tiles it played from then on, the
        tiles that fitted, and the two ends before it (None for a lead)."""
        self.seen: dict[tuple[int, int], tuple[float, float]] = {}
        """The chance of each past play given the hand then held, as a counting player and as
        a heavy-tile player would make it, as worked out so far."""
        self.players = view.players
        later = [0] * view.players
        left: int | None = None
        right: int | None = None
        steps: list[tuple[int, int, int | None, int | None]] = []
        for seat, play in view.played:
            tile = play.tile
            steps.append((seat, BIT[tile], left, right))
            if left is None or right is None:
                first = tile.low if play.first is None else play.first
                left, right = first, tile.other(first)
            elif play.at == RIGHT:
                right = tile.other(right)
            else:
                left = tile.other(left)
        for seat, bit, before_left, before_right in reversed(steps):
            later[seat] |= bit
            if seat != view.seat and not view.draws[seat]:
                fits = (
                    ALL
                    if before_left is None or before_right is None
                    else (FITS[before_left] | FITS[before_right])
                )
                self.decisions.append((seat, bit, later[seat], fits, before_left, before_right))

    def weight(self, hands: list[int]) -> float:
        """How likely the world with these bit-set ``hands`` makes the plays seen: per seat,
        as a counting player or as a heavy-tile player would have made them (each seat is
        read as either, by how well each explains all its plays)."""
        counting = [1.0] * self.players
        heavy = [1.0] * self.players
        seen = self.seen
        for index, (seat, bit, played, fits, left, right) in enumerate(self.decisions):
            held = hands[seat] | played
            choices = held & fits
            if choices == bit:
                continue
            key = (index, held)
            known = seen.get(key)
            if known is None:
                known = seen[key] = _chances(held, bit, choices, left, right)
            counting[seat] *= known[0]
            heavy[seat] *= known[1]
        weight = 1.0
        for a, b in zip(counting, heavy, strict=True):
            weight *= COUNTING * a + (1.0 - COUNTING) * b
        return weight


def _chances(
    held: int, bit: int, choices: int, left: int | None, right: int | None
) -> tuple[float, float]:
    """The chance that a counting player, and a heavy-tile player, holding ``held`` picks
    ``bit`` among the ``choices`` that fit."""
    chosen = total = 0.0
    chosen_heavy = total_heavy = 0.0
    while choices:
        one = choices & -choices
        choices ^= one
        score = exp(BETA * _score(held ^ one, one, left, right))
        index = one.bit_length() - 1
        pull = exp(HEAVY * (LOW[index] + HIGH[index] + (0.5 if LOW[index] == HIGH[index] else 0)))
        total += score
        total_heavy += pull
        if one == bit:
            chosen = score
            chosen_heavy = pull
    return chosen / total, chosen_heavy / total_heavy


def _score(rest: int, bit: int, left: int | None, right: int | None) -> float:
    """The cheap skilled score of playing ``bit`` (the best of its ends) keeping ``rest``."""
    index = bit.bit_length() - 1
    a = LOW[index]
    b = HIGH[index]
    base = PIPS * (a + b) + (DOUBLE if a == b else 0.0)
    if left is None or right is None:
        return base + _holds(rest, a) + (_holds(rest, b) if a != b else 0.0)
    best = -1.0
    if a == left or b == left:
        best = _keeps(rest, b if a == left else a, right)
    if a == right or b == right:
        best = max(best, _keeps(rest, left, b if a == right else a))
    return base + best


def _keeps(rest: int, left: int, right: int) -> float:
    """What keeping these two ends open is worth to a hand holding ``rest``."""
    if left == right:
        return _holds(rest, left)
    return _holds(rest, left) + _holds(rest, right)


def _holds(rest: int, number: int) -> float:
    return HOLDS * min((rest & FITS[number]).bit_count(), 3)
