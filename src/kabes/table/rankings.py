"""How a finished hand ranks its sides, for the ratings (openskill).

The side that won the hand comes first. The others follow by what the variant makes of the
hand: fewer penalty points first where scores are penalties (Haitian with 3 or 4 players,
Mexican Train), then fewer pips left. A hand nobody wins (a blocked tie) with no penalty is a
draw for everyone. Ranks start at 1; equal sides share a rank.
"""

from __future__ import annotations

from typing import Final

from kabes.results import HandResult
from kabes.tiles import Tile, count

RANKED_AFTER_HANDS: Final = 10
"""Rated hands a player needs in a variant before appearing in its rankings: a rating from a
few hands says little (openskill's sigma is still wide), and a place at the top should not be
reached by a lucky hand or two."""


def hand_ranks(
    result: HandResult,
    hands: tuple[tuple[Tile, ...], ...],
    teams: bool,
    penalties: bool,
) -> list[int]:
    """The rank of each side (team 0 and 1, or each seat) in this hand."""
    pips = [count(h) for h in hands]
    if teams:
        pips = [pips[0] + pips[2], pips[1] + pips[3]]
    if result.winner is None and not penalties:
        return [1] * len(pips)
    keys = [
        (0 if result.winner == side else 1, result.points[side] if penalties else 0, pips[side])
        for side in range(len(pips))
    ]
    order = sorted(set(keys))
    return [order.index(key) + 1 for key in keys]
