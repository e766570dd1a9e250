"""Swiss pairing: by points, never the same opponents twice while another pairing exists, an
entrant left over given a bye (a point), never twice while someone without one is left.

Entrants are ordered by points (then by number) and grouped into tables of ``sides``
entrants by a depth-first search over that order: the first entrant not yet seated takes the
nearest entrants below it that it (and they, among themselves) have not met, and the search
backs up when the rest cannot be seated. It looks first for a round with no repeated meeting,
under every allowed choice of byes, and allows repeats only when none exists (then as few as
it can find). The byes go to the entrants with the fewest byes, the lowest placed first.

The search is exact for any tournament a club plays; its steps are bounded
(``SEARCH_STEPS``) so that a huge field whose every repeat-free round is buried deep still
pairs in bounded time: past the bound it accepts more repeats (doubling the allowance).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from kabes.tournaments.model import Pairing, Round

SEARCH_STEPS = 200_000
"""Tables tried per allowance of repeats before allowing more."""


class _OutOfSteps(Exception):
    """The search took more than its steps."""


def points_and_meetings(
    played: list[Round],
) -> tuple[Counter[int], Counter[int], set[frozenset[int]]]:
    """Each entrant's points (wins and byes) and byes so far, and every pair that has met
    (at a table already paired, finished or not)."""
    points: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    met: set[frozenset[int]] = set()
    for round_ in played:
        for bye in round_.byes:
            points[bye] += 1
            byes[bye] += 1
        for table in round_.tables:
            for a, b in combinations(table.entrants, 2):
                met.add(frozenset((a, b)))
            if table.result is not None:
                points.update(table.result.winners)
    return points, byes, met


def swiss_round(entrants: list[int], played: list[Round], sides: int = 2) -> Round:
    """The next round of a Swiss of ``entrants`` after the ``played`` rounds, at tables of
    ``sides`` entrants."""
    if len(entrants) < sides:
        raise ValueError(f"a Swiss at tables of {sides} needs at least {sides} entrants")
    points, byes, met = points_and_meetings(played)
    order = sorted(entrants, key=lambda e: (-points[e], e))
    choices = _bye_choices(order, byes, len(order) % sides)
    allowed = 0
    most = len(order) * sides
    while True:
        for bye_set in choices:
            rest = [e for e in order if e not in bye_set]
            try:
                found = _group(rest, sides, met, allowed, [0])
            except _OutOfSteps:
                found = None
                break
            if found is not None:
                tables = tuple(Pairing(t) for t in found)
                return Round(tables, tuple(sorted(bye_set, key=order.index)))
        if allowed >= most:
            raise AssertionError("a grouping with every repeat allowed always exists")
        allowed = allowed * 2 if allowed else 1


def _bye_choices(order: list[int], byes: Counter[int], count: int) -> list[tuple[int, ...]]:
    """The sets of ``count`` entrants who may have the byes, best first: those with the
    fewest byes, the lowest placed first."""
    if count == 0:
        return [()]
    lowest_first = sorted(reversed(order), key=lambda e: byes[e])
    need = sorted(byes[e] for e in lowest_first)[:count]
    return [combo for combo in combinations(lowest_first, count)
            if sorted(byes[e] for e in combo) == need]


def _group(
    rest: list[int], sides: int, met: set[frozenset[int]], allowed: int, steps: list[int]
) -> list[tuple[int, ...]] | None:
    """Tables of ``sides`` for every entrant of ``rest`` (in order) with at most ``allowed``
    pairs that have met before; None if there is none."""
    if not rest:
        return []
    first, others = rest[0], rest[1:]
    for picks in combinations(range(len(others)), sides - 1):
        steps[0] += 1
        if steps[0] > SEARCH_STEPS:
            raise _OutOfSteps
        table = (first, *(others[i] for i in picks))
        cost = sum(frozenset(pair) in met for pair in combinations(table, 2))
        if cost > allowed:
            continue
        chosen = set(picks)
        below = _group([e for i, e in enumerate(others) if i not in chosen],
                       sides, met, allowed - cost, steps)
        if below is not None:
            return [table, *below]
    return None
