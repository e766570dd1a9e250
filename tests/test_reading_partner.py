"""The expert reads its opponents' plays more sharply than its partner's (kabes.ai.reading).

A partner may be a computer that plays like neither kind of player the reading assumes, and
read sharply it is misread with confidence; the opponents read sharply gave the search truer
worlds and more hands won against the skilled level (docs/levels.md).
"""

from __future__ import annotations

from random import Random

from kabes.ai import make_player, reading
from kabes.ai.bits import DOUBLE_SIX
from kabes.ai.reading import Reading
from kabes.match import Match
from kabes.views import view


def test_the_opponents_counting_is_read_more_sharply_than_the_partners() -> None:
    match = Match("partnership", 4, rng=Random(7))
    match.deal_hand()
    players = [make_player("skilled", Random(s)) for s in range(4)]
    while len(view(match, 0).played) < 8:
        seat = match.turn
        assert seat is not None
        match.apply(seat, players[seat].choose(view(match, seat)))
    read = Reading(view(match, 0))
    sharpness = {seat: beta for (seat, *_), beta in zip(read.decisions, read.betas, strict=True)}
    assert sharpness == {1: reading.BETA_OPPONENTS, 2: reading.BETA, 3: reading.BETA_OPPONENTS}
    assert reading.BETA_OPPONENTS > reading.BETA


def test_a_sharper_reading_makes_a_counting_players_best_tile_likelier() -> None:
    """Read more sharply, the counting player's first choice among 6-6, 6-5 and 1-0 (on an
    open board) is likelier, and its last choice less likely."""
    held = sum(DOUBLE_SIX.bit[t] for t in DOUBLE_SIX.tiles
               if (t.low, t.high) in ((6, 6), (5, 6), (0, 1)))
    tiles = [held & -held, (held & held - 1) & -(held & held - 1), 1 << (held.bit_length() - 1)]

    def chances(beta: float) -> list[float]:
        return [reading._chances(held, t, held, None, None, None, beta)[0] for t in tiles]

    gentle, sharp = chances(reading.BETA), chances(reading.BETA_OPPONENTS)
    best = max(range(3), key=lambda i: gentle[i])
    worst = min(range(3), key=lambda i: gentle[i])
    assert sharp[best] > gentle[best] and sharp[worst] < gentle[worst]
