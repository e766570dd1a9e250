"""Possible worlds: hidden hands dealt again at random, consistent with what a seat has seen.

The expert plays its candidate moves out in many such worlds. A world keeps the seat's own
tiles, gives every other seat as many unseen tiles as it holds, never a tile with a number the
seat is known to lack (its passes and draws), and puts the rest in the stock in a random
order. Line games play their worlds on bit sets (``fastline``); a Mexican Train world is
rebuilt as an ordinary engine round (``kabes.boards.trains``), so the candidate move is
checked by the engine itself.
"""

from __future__ import annotations

from random import Random

from kabes.ai.knowledge import unseen
from kabes.tiles import Tile
from kabes.views import View

ATTEMPTS = 30


def deal_world(
    view: View, rng: Random, pool: list[Tile] | None = None
) -> tuple[list[list[Tile]], list[Tile]]:
    """Hands for every seat (this seat's own, the others sampled) and a stock order;
    ``pool`` is the seat's unseen tiles, if the caller has them already."""
    pool = unseen(view) if pool is None else list(pool)
    others = [s for s in range(view.players) if s != view.seat]
    hands: list[list[Tile]] = [[] for _ in range(view.players)]
    hands[view.seat] = list(view.hand)
    if not any(view.voids[s] for s in others):
        rng.shuffle(pool)
        start = 0
        for seat in others:
            hands[seat] = pool[start : start + view.counts[seat]]
            start += view.counts[seat]
        return hands, pool[start:]
    # Tightest seats first: those whose voids leave the fewest tiles to choose from.
    order = sorted(others, key=lambda s: _room(view, s, pool) - view.counts[s])
    for attempt in range(ATTEMPTS + 1):
        strict = attempt < ATTEMPTS
        rng.shuffle(pool)
        left = pool
        for seat in order:
            voids = view.voids[seat] if strict else frozenset()
            need = view.counts[seat]
            taken = [t for t in left if t.low not in voids and t.high not in voids][:need]
            if len(taken) < need:
                break
            hands[seat] = taken
            chosen = set(taken)
            left = [t for t in left if t not in chosen]
        else:
            return hands, left
    raise AssertionError("a world without voids always exists")  # pragma: no cover


def _room(view: View, seat: int, pool: list[Tile]) -> int:
    voids = view.voids[seat]
    return sum(1 for t in pool if t.low not in voids and t.high not in voids)
