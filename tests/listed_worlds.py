"""Every world a seat could be in, listed: for tests of how the expert deals and weighs them."""

from __future__ import annotations

import itertools

from kabes.ai import fastline
from kabes.ai.knowledge import unseen
from kabes.views import View


def every_world(seen: View) -> list[tuple[int, ...]]:
    """Every world: the other seats' hands, then the stock, as bit sets."""
    pool = [fastline.BIT[t] for t in unseen(seen)]
    others = [s for s in range(seen.players) if s != seen.seat]
    found: list[tuple[int, ...]] = []

    def deal(index: int, left: list[int], hands: list[int]) -> None:
        if index == len(others):
            found.append((*hands, sum(left)))
            return
        seat = others[index]
        voids = seen.voids[seat]
        for chosen in itertools.combinations(left, seen.counts[seat]):
            tiles = fastline.tiles_of(sum(chosen))
            if any(t.low in voids or t.high in voids for t in tiles):
                continue
            rest = [t for t in left if t not in chosen]
            deal(index + 1, rest, [*hands, sum(chosen)])

    deal(0, pool, [])
    return found
