"""Round robin by the circle method: everyone meets everyone once, two sides a table.

With an odd number of entrants a blank joins the circle; whoever meets the blank has a bye
that round (so each entrant has exactly one bye, each worth a point, and it stays fair). The
first entrant stays put and the others turn one place a round; who sits first at a table
alternates so that nobody is always seat 0.
"""

from __future__ import annotations

from kabes.tournaments.model import Pairing, Round


def round_robin_rounds(count: int) -> int:
    """How many rounds a round robin of ``count`` entrants takes."""
    return count - 1 if count % 2 == 0 else count


def round_robin_round(entrants: list[int], number: int) -> Round:
    """Round ``number`` (1-based) of the round robin of ``entrants`` (in seeding order)."""
    circle: list[int | None] = list(entrants)
    if len(circle) % 2:
        circle.append(None)
    size = len(circle)
    if not 1 <= number <= size - 1:
        raise ValueError(f"a round robin of {len(entrants)} has no round {number}")
    turned = circle[1:]
    shift = (number - 1) % (size - 1)
    turned = turned[-shift:] + turned[:-shift] if shift else turned
    ring = [circle[0], *turned]
    tables: list[Pairing] = []
    byes: list[int] = []
    for i in range(size // 2):
        a, b = ring[i], ring[size - 1 - i]
        if a is None or b is None:
            byes.extend(e for e in (a, b) if e is not None)
            continue
        first, second = (a, b) if (number + i) % 2 else (b, a)
        tables.append(Pairing((first, second)))
    return Round(tuple(tables), tuple(byes))
