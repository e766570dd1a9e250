"""The traits of the rules the computer players read (``kabes.rules.base.Rules``, their block)
say what the rules do: checked against the rules' own results over played hands."""

from __future__ import annotations

from random import Random

import pytest

from kabes.ai import Casual
from kabes.match import Match
from kabes.rules import VARIANTS
from kabes.views import view

HANDS = 24


def last_tiles_and_next_leaders(variant: str, players: int) -> list[tuple[int, int | None]]:
    """For each hand that did not end its match: the seat that laid its last tile, and the
    seat the rules named to lead the next hand."""
    found: list[tuple[int, int | None]] = []
    rng = Random(7)
    match: Match | None = None
    casual = Casual(rng)
    while len(found) < HANDS:
        if match is None or match.over:
            match = Match(variant, players, rng=rng)
        match.deal_hand()
        while match.hand_in_progress:
            seat = match.turn
            assert seat is not None
            match.apply(seat, casual.choose(view(match, seat)))
        assert match.hand is not None and match.log[-1].result is not None
        if not match.over:
            found.append((match.hand.played[-1][0], match.log[-1].result.next_leader))
    return found


@pytest.mark.parametrize(
    ("variant", "players"),
    [(rules.id, players) for rules in VARIANTS.values() for players in rules.seat_counts],
)
def test_the_last_tile_leads_the_next_hand_exactly_where_the_rules_say_so(
    variant: str, players: int
) -> None:
    hands = last_tiles_and_next_leaders(variant, players)
    led_by_last_tile = [last == leader for last, leader in hands]
    if VARIANTS[variant].last_tile_leads:
        assert all(led_by_last_tile)
    else:
        assert not all(led_by_last_tile)
