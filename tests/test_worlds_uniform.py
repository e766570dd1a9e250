"""The expert's worlds are dealt uniformly among those the seat could be in.

The search deals the hidden tiles again, consistently with the counts and the numbers each
seat is known to lack, and averages its moves over those worlds: so each must come up as
often as any other (docs/levels.md, "Expert"). Late in a hand they can be listed, and each
tile's chance of being in each hidden hand (or the stock) worked out exactly.
"""

from __future__ import annotations

from random import Random

import pytest

from kabes.ai import fastline, make_player
from kabes.ai.knowledge import unseen
from kabes.ai.worlds import BitDealer, Exact
from kabes.match import Match
from kabes.views import View, view
from listed_worlds import every_world

DEALS = 20_000
"""Worlds dealt per position: a tile's share then varies by about 0.0035 (one sd)."""


def _positions(variant: str, players: int, wanted: int) -> list[View]:
    """Views of hands played by skilled players where two or more hidden holders lack
    numbers and the worlds are few enough to list (the first ``wanted`` found)."""
    found: list[View] = []
    for seed in range(400):
        match = Match(variant, players, rng=Random(seed))
        match.deal_hand()
        seats = [make_player("skilled", Random(seed + s)) for s in range(players)]
        while match.hand_in_progress and len(found) < wanted:
            seat = match.turn
            assert seat is not None
            seen = view(match, seat)
            constrained = sum(
                1 for s in range(players) if s != seat and seen.counts[s] and seen.voids[s]
            )
            hidden = sum(seen.counts[s] for s in range(players) if s != seat) + seen.stock
            if constrained >= 2 and hidden <= 12:
                found.append(seen)
                break
            match.apply(seat, seats[seat].choose(seen))
        if len(found) == wanted:
            return found
    raise AssertionError(f"{variant}: only {len(found)} positions found")


@pytest.mark.parametrize(("variant", "players"), [("partnership", 4), ("haitian", 3),
                                                   ("haitian-partners", 4), ("haitian", 4)])
def test_every_possible_world_is_dealt_as_often_as_any_other(variant: str, players: int) -> None:
    """Each tile lands in each hidden hand (and the stock) as often as it does among all the
    worlds listed, within 0.02; and the worlds counted are the worlds listed. Dealing the
    tightest seat first from a shuffle, as the dealer did before, was off by up to 0.25."""
    for seen in _positions(variant, players, 3):
        worlds = every_world(seen)
        dealer = BitDealer(seen, unseen(seen), fastline.BITS)
        assert dealer.exact is not None and dealer.exact.worlds() == len(worlds)
        others = [s for s in range(players) if s != seen.seat]
        rng = Random(len(worlds))
        dealt = []
        for _ in range(DEALS):
            hands, stock = dealer.deal(rng)
            dealt.append((*(hands[s] for s in others), sum(stock)))
        for holder in range(len(others) + 1):
            for bit in (fastline.BIT[t] for t in unseen(seen)):
                exact = sum(1 for w in worlds if w[holder] & bit) / len(worlds)
                share = sum(1 for w in dealt if w[holder] & bit) / DEALS
                assert abs(share - exact) < 0.02, (holder, bit, share, exact, len(worlds))


def test_no_world_is_counted_where_the_voids_admit_none() -> None:
    """Two seats that must take one tile each, both lacking its numbers: no world."""
    five_three = fastline.BIT[fastline.TILES[0]]
    assert Exact([five_three, five_three << 1], [five_three | five_three << 1] * 2, [1, 1],
                 stock=False).worlds() == 0


def test_the_stock_of_a_world_is_in_a_random_order() -> None:
    """A class's tiles in the stock come in every order, not the order they were listed."""
    bits = [1 << i for i in range(4)]
    exact = Exact(bits, [1, 2, 0], [1, 1, 2], stock=True)
    orders = {tuple(exact.deal(Random(n).random)[1]) for n in range(200)}
    assert len(orders) > 4
    assert all(len(order) == 2 for order in orders)
