"""Whole matches the computer plays against itself, as records, for finding puzzles.

The levels are mixed (each side's drawn from beginner, casual and skilled), so that the
records hold the mistakes people make as well as good play. The expert is left out: it
thinks a second a move and would make a thousand records take hours.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any

from kabes.ai import make_player
from kabes.ai.tournament import MAX_HANDS
from kabes.match import Match
from kabes.records import to_record
from kabes.views import view

LEVELS = ("beginner", "casual", "skilled")
"""The levels that play the records, drawn per side."""


def computer_records(
    variant: str, players: int, count: int, seed: int
) -> Iterator[dict[str, Any]]:
    """``count`` finished matches of ``variant`` at ``players`` seats, the computer at mixed
    levels on every seat. Record ``i`` depends only on ``seed + i`` (it is record 0 of that
    seed), so ``computer:<variant>:<seed + i>`` names it."""
    for index in range(count):
        yield computer_record(variant, players, seed + index)


def computer_record(variant: str, players: int, seed: int) -> dict[str, Any]:
    """One finished match, every choice drawn from ``seed``."""
    rng = Random(seed)
    match = Match(variant, players, {}, Random(rng.getrandbits(64)))
    levels = [rng.choice(LEVELS) for _ in range(players)]
    party = match.state.party
    seated = [
        make_player(levels[party(s)], Random(rng.getrandbits(64))) for s in range(players)
    ]
    while not match.over:
        if not match.hand_in_progress:
            if len(match.log) >= MAX_HANDS:
                raise RuntimeError(f"match of seed {seed} did not end in {MAX_HANDS} hands")
            match.deal_hand()
            continue
        seat = match.turn
        assert seat is not None
        match.apply(seat, seated[seat].choose(view(match, seat)))
    return to_record(match)
