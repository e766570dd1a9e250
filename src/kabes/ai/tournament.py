"""Tournaments between computer levels: whole matches, seats rotated, played in parallel.

Match ``i`` deals from seed ``seed + i // parties`` and seats the levels rotated by
``i % parties``, so every deal is played once with each side in each chair (duplicate play):
the luck of the deal and of the lead cancels between levels. Rates come with 95% confidence
intervals (Wilson's).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from random import Random
from typing import Any

from kabes.ai import make_player
from kabes.errors import BadOptions
from kabes.match import Match
from kabes.results import HandResult
from kabes.rules import get_rules
from kabes.views import view

MAX_HANDS = 500
"""A match that has not ended after this many hands is a bug, not a long match."""
Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Setup:
    """What every match of a tournament shares."""

    variant: str
    players: int
    levels: tuple[str, ...]
    """One level per party (team, or seat without teams), before rotation."""
    options: tuple[tuple[str, Any], ...] = ()
    budget: float = 1.0
    seed: int = 0


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """One match's facts, per party: its level, whether it won, and every hand."""

    party_levels: tuple[str, ...]
    winners: tuple[int, ...]
    hand_winners: tuple[int | None, ...]
    hand_points: tuple[tuple[int, ...], ...]


@dataclass(slots=True)
class LevelStats:
    """Totals for one level over a tournament."""

    matches: int = 0
    match_wins: int = 0
    hands: int = 0
    hand_wins: int = 0
    points: int = 0

    def report(self) -> dict[str, Any]:
        """The figures ``kabes simulate --json`` prints for a level."""
        return {
            "match_wins": _rate(self.match_wins, self.matches),
            "match_ci": list(wilson(self.match_wins, self.matches)),
            "hand_wins": _rate(self.hand_wins, self.hands),
            "hand_ci": list(wilson(self.hand_wins, self.hands)),
            "points_per_hand": round(self.points / self.hands, 2) if self.hands else 0.0,
        }


@dataclass(slots=True)
class Tally:
    """A tournament's results so far."""

    setup: Setup
    matches: int = 0
    hands: int = 0
    levels: dict[str, LevelStats] = field(default_factory=dict)

    def add(self, outcome: MatchOutcome) -> None:
        """Count one match."""
        self.matches += 1
        self.hands += len(outcome.hand_winners)
        for party, level in enumerate(outcome.party_levels):
            stats = self.levels.setdefault(level, LevelStats())
            stats.matches += 1
            stats.match_wins += party in outcome.winners
            stats.hands += len(outcome.hand_winners)
            stats.hand_wins += sum(w == party for w in outcome.hand_winners)
            stats.points += sum(points[party] for points in outcome.hand_points)

    def report(self) -> dict[str, Any]:
        """The JSON object of ``kabes simulate --json``."""
        order = list(dict.fromkeys(self.setup.levels))
        return {
            "variant": self.setup.variant,
            "matches": self.matches,
            "hands": self.hands,
            "levels": {level: self.levels[level].report() for level in order},
        }


def party_count(variant: str, players: int) -> int:
    """How many sides score: 2 in team variants, else one per seat."""
    return 2 if get_rules(variant).teams else players


def check_setup(setup: Setup) -> None:
    """Refuse what cannot be simulated, with the reason, before any process starts."""
    match = Match(setup.variant, setup.players, dict(setup.options))
    if match.options.open_ended:
        raise BadOptions("an open-ended match never ends by itself: it cannot be simulated")
    parties = party_count(setup.variant, setup.players)
    if not 1 <= len(setup.levels) <= parties:
        raise BadOptions(f"give 1 to {parties} levels for {parties} sides, not {len(setup.levels)}")
    for level in setup.levels:
        make_player(level, Random(0))


def seating(setup: Setup, index: int) -> tuple[int, tuple[str, ...]]:
    """The deal seed and the level of each party for match ``index`` (duplicate rotation)."""
    parties = party_count(setup.variant, setup.players)
    filled = [setup.levels[p % len(setup.levels)] for p in range(parties)]
    shift = index % parties
    rotated = tuple(filled[(p - shift) % parties] for p in range(parties))
    return setup.seed + index // parties, rotated


def play_match(setup: Setup, index: int) -> MatchOutcome:
    """Play match ``index`` of a tournament to its end."""
    seed, party_levels = seating(setup, index)
    match = Match(setup.variant, setup.players, dict(setup.options), Random(seed))
    party = match.state.party
    players = [
        make_player(party_levels[party(s)], Random(seed * 97 + s * 13 + index), setup.budget)
        for s in range(setup.players)
    ]
    while not match.over:
        if not match.hand_in_progress:
            if len(match.log) >= MAX_HANDS:
                raise RuntimeError(f"match {index} did not end in {MAX_HANDS} hands")
            match.deal_hand()
            continue
        seat = match.turn
        assert seat is not None
        match.apply(seat, players[seat].choose(view(match, seat)))
    results = [log.result for log in match.log if log.result is not None]
    assert match.result is not None
    penalties = match.rules.penalties(setup.players)
    return MatchOutcome(
        party_levels,
        match.result.winners,
        tuple(_hand_winner(r, penalties) for r in results),
        tuple(r.points for r in results),
    )


def _hand_winner(result: HandResult, penalties: bool) -> int | None:
    """Who won the hand: the rules' winner; in a penalty game where the rules name none (a
    blocked Mexican Train round), the one party with the fewest penalty points."""
    if result.winner is not None or not penalties:
        return result.winner
    low = min(result.points)
    lowest = [p for p, points in enumerate(result.points) if points == low]
    return lowest[0] if len(lowest) == 1 else None


def run(
    setup: Setup, matches: int, jobs: int = 1, progress: Callable[[int], None] | None = None
) -> Tally:
    """Play ``matches`` matches on ``jobs`` processes; ``progress`` hears of each one done."""
    check_setup(setup)
    tally = Tally(setup)
    for outcome in _outcomes(setup, matches, jobs):
        tally.add(outcome)
        if progress is not None:
            progress(tally.matches)
    return tally


def _outcomes(setup: Setup, matches: int, jobs: int) -> Iterator[MatchOutcome]:
    if jobs <= 1:
        for index in range(matches):
            yield play_match(setup, index)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play_match, [setup] * matches, range(matches))


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


def _rate(successes: int, trials: int) -> float:
    return round(successes / trials, 3) if trials else 0.0
