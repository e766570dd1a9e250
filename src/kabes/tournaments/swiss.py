"""Swiss pairing: by points, never the same opponents twice while another pairing exists (as
far as a bounded search can tell), an entrant left over given a bye (a point), never twice
while someone without one is left.

Entrants are ordered by points (then by number). The byes go to the entrants with the
fewest byes, the lowest placed first. The rest are grouped into tables of ``sides`` in two
steps, the second only when the first leaves a repeated meeting:

1. Quick (:func:`_greedy`, :func:`_repair`): each table's first entrant is the first not
   seated; each other seat goes to the nearest entrant below (of the next :data:`WINDOW`)
   it adds the fewest repeats with; then two entrants of different tables swap, the nearest
   tables first, wherever that lowers the two tables' repeats. Nearly every round of every
   field ends here with no repeat, in a few milliseconds.
2. Search (:func:`_group`): depth-first over the same order, the first entrant not seated
   taking the nearest entrants below it that it (and they, among themselves) have not met,
   backing up when the rest cannot be seated; under each allowed choice of byes in turn,
   then allowing repeats (doubling the allowance) while that beats the quick grouping.

Bounded, whatever the field (PROTOCOL.md, "Tournaments are bounded": a round of 256 entrants
pairs in well under a second at any seat count): the choices of byes are generated one at a
time, never listed (47 entrants at 8-seat tables leave 7 byes: 63 million sets, of which the
first is nearly always the one kept); the swaps weighed are at most :data:`REPAIR_STEPS` and
the search's candidate seats :data:`SEARCH_STEPS`, every choice of byes and allowance
together. Within them the search is exact, which covers the small fields where a repeat
is hard to avoid; past them the quick grouping stands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from kabes.tournaments.model import Pairing, Round

SEARCH_STEPS = 60_000
"""Candidate seats the search of one round looks at, every choice of byes and every
allowance of repeats together, before the round is grouped greedily."""
REPAIR_STEPS = 40_000
"""Swaps of two entrants the greedy grouping weighs, at most, to remove its repeats."""
WINDOW = 64
"""Entrants below a table's first that the greedy grouping looks through for one of its
seats (the nearest with the fewest repeats wins): a table stays among near scores."""


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
    opponents: dict[int, set[int]] = {e: set() for e in entrants}
    for pair in met:
        a, b = pair
        if a in opponents and b in opponents:
            opponents[a].add(b)
            opponents[b].add(a)
    order = sorted(entrants, key=lambda e: (-points[e], e))
    place = {e: i for i, e in enumerate(order)}
    count = len(order) % sides
    first = next(bye_choices(order, byes, count))
    quick = _greedy([e for e in order if e not in set(first)], sides, opponents)
    _repair(quick, opponents, [REPAIR_STEPS])
    quick_cost = sum(_repeats(t, opponents) for t in quick)
    if quick_cost == 0:
        return _round(quick, first, place)
    steps = [SEARCH_STEPS]
    allowed = 0
    while allowed < quick_cost and steps[0] > 0:
        for bye_set in bye_choices(order, byes, count):
            out = set(bye_set)
            found = _group([e for e in order if e not in out], sides, opponents, allowed,
                           steps)
            if found is not None:
                return _round(found, bye_set, place)
            if steps[0] <= 0:
                break
        allowed = allowed * 2 if allowed else 1
    return _round(quick, first, place)


def _round(tables: Sequence[Sequence[int]], bye_set: tuple[int, ...],
           place: dict[int, int]) -> Round:
    """The round of ``tables``, its byes in the order of the standings."""
    return Round(tuple(Pairing(tuple(t)) for t in tables),
                 tuple(sorted(bye_set, key=place.__getitem__)))


def _repeats(table: Sequence[int], opponents: dict[int, set[int]]) -> int:
    """The pairs at ``table`` that have met before."""
    return sum(len(opponents[a].intersection(table)) for a in table) // 2


def bye_choices(order: list[int], byes: Counter[int], count: int) -> Iterator[tuple[int, ...]]:
    """The sets of ``count`` entrants who may have the byes, best first: those with the
    fewest byes, the lowest placed first; one at a time (there may be millions).

    Whoever has fewer byes than the ``count``-th fewest must have one; the rest are chosen
    among those with exactly that many, the lowest placed first."""
    if count == 0:
        yield ()
        return
    lowest_first = sorted(reversed(order), key=lambda e: byes[e])
    top = byes[lowest_first[count - 1]]
    forced = tuple(e for e in lowest_first[:count] if byes[e] < top)
    pool = [e for e in lowest_first if byes[e] == top]
    for chosen in combinations(pool, count - len(forced)):
        yield forced + chosen


def _group(
    rest: list[int], sides: int, opponents: dict[int, set[int]], allowed: int,
    steps: list[int],
) -> list[tuple[int, ...]] | None:
    """Tables of ``sides`` for every entrant of ``rest`` (in order) with at most ``allowed``
    pairs that have met before; None if there is none, or if the search used up ``steps``
    (``steps[0]`` is lowered by every candidate seat looked at).

    Seat by seat, without recursion (a thousand tables are a thousand levels deep): the
    first seat of a table is the first entrant not seated; each other seat an entrant below
    the previous seat's, the nearest first, as long as the repeats so far stay within
    ``allowed``. A seat with no candidate left sends the search back to the seat before."""
    size = len(rest)
    if size % sides:
        raise ValueError("the entrants left do not fill whole tables")
    used = [False] * size
    chosen: list[int] = []
    """The index in ``rest`` of each seat filled so far, in order."""
    cost: list[int] = [0]
    """The repeats among the seats filled so far (``cost[k]``: within the first k)."""
    start = 0
    """Where the next seat's candidates begin (past the one tried and given up)."""
    while len(chosen) < size:
        seat = len(chosen)
        found, added = -1, 0
        if seat % sides == 0:
            if start == 0:
                found = used.index(False)
        else:
            table = [rest[i] for i in chosen[seat - seat % sides:]]
            budget = allowed - cost[-1]
            for i in range(max(start, chosen[-1] + 1), size):
                if used[i]:
                    continue
                steps[0] -= 1
                added = len(opponents[rest[i]].intersection(table))
                if added <= budget:
                    found = i
                    break
            if steps[0] <= 0 and found < 0:
                return None
        if found >= 0:
            used[found] = True
            chosen.append(found)
            cost.append(cost[-1] + added)
            start = 0
            continue
        if not chosen:
            return None
        last = chosen.pop()
        cost.pop()
        used[last] = False
        # The seat popped is tried again from the next candidate on; a table's first seat
        # has one candidate only (start 1: none left), so the search backs up past it.
        start = last + 1 if len(chosen) % sides else 1
        if steps[0] <= 0:
            return None
    return [tuple(rest[i] for i in chosen[k:k + sides]) for k in range(0, size, sides)]


def _greedy(rest: list[int], sides: int, opponents: dict[int, set[int]]
            ) -> list[list[int]]:
    """Tables of ``sides`` for every entrant of ``rest`` (in order), no search: each table's
    first entrant is the first not seated, and each other seat the entrant among the next
    :data:`WINDOW` who adds the fewest repeated meetings, the nearest first."""
    left = list(rest)
    tables: list[list[int]] = []
    while left:
        table = [left.pop(0)]
        while len(table) < sides:
            best, fewest = 0, sides
            for i, entrant in enumerate(left[:WINDOW]):
                added = len(opponents[entrant].intersection(table))
                if added < fewest:
                    best, fewest = i, added
                    if added == 0:
                        break
            table.append(left.pop(best))
        tables.append(table)
    return tables


def _clashes(entrant: int, table: list[int], without: int, opponents: dict[int, set[int]]
             ) -> int:
    """How many at ``table`` (``without`` and ``entrant`` aside) ``entrant`` has met."""
    met = opponents[entrant]
    return len(met.intersection(table)) - (without in met)


def _repair(tables: list[list[int]], opponents: dict[int, set[int]], steps: list[int]) -> None:
    """Fewer repeats in ``tables`` (changed in place) by swapping two entrants of different
    tables whenever the swap lowers the repeats of the two tables together; the nearest
    tables first (their entrants' scores are nearest), until no swap helps or ``steps``
    swaps have been weighed."""
    improved = True
    while improved and steps[0] > 0:
        improved = False
        for t, table in enumerate(tables):
            for a in list(table):
                before_a = _clashes(a, table, a, opponents)
                if before_a == 0:
                    continue
                for u in _nearest(t, len(tables)):
                    other = tables[u]
                    swapped = False
                    for j, b in enumerate(other):
                        steps[0] -= 1
                        before = before_a + _clashes(b, other, b, opponents)
                        after = (_clashes(a, other, b, opponents)
                                 + _clashes(b, table, a, opponents))
                        if after < before:
                            table[table.index(a)], other[j] = b, a
                            swapped = improved = True
                            break
                    if swapped or steps[0] <= 0:
                        break
                if steps[0] <= 0:
                    return


def _nearest(t: int, count: int) -> Iterator[int]:
    """The tables other than ``t``, nearest first: t + 1, t - 1, t + 2, t - 2, ..."""
    for gap in range(1, count):
        if t + gap < count:
            yield t + gap
        if t - gap >= 0:
            yield t - gap
