"""Knockout, two sides a table: the winners go on until one is left.

Entrants are seeded in the order they were formed (entrant 1 first). Round 1 fills the
bracket to the next power of two with byes, given to the top seeds; the rest meet highest
against lowest. From then on the entrants left, in seed order, meet first against last, and
their count is a power of two. A match won by both sides (a tie that shares the win, as
Mexican Train's equal totals) sends on the better seed of the two.
"""

from __future__ import annotations

from kabes.tournaments.model import Pairing, Round


def knockout_rounds(count: int) -> int:
    """How many rounds a knockout of ``count`` entrants takes (0 for one entrant)."""
    rounds = 0
    while (1 << rounds) < count:
        rounds += 1
    return rounds


def goes_on(pairing: Pairing) -> int:
    """The entrant of a finished table who goes on: the best-seeded of its winners (the
    best-seeded at the table if, somehow, nobody won)."""
    assert pairing.result is not None
    winners = pairing.result.winners or pairing.entrants
    return min(winners)


def still_in(entrants: list[int], played: list[Round]) -> list[int]:
    """The entrants not yet knocked out after the ``played`` rounds, in seed order."""
    out: set[int] = set()
    for round_ in played:
        for table in round_.tables:
            if table.result is not None:
                winner = goes_on(table)
                out.update(e for e in table.entrants if e != winner)
    return [e for e in sorted(entrants) if e not in out]


def knockout_round(entrants: list[int], played: list[Round]) -> Round:
    """The next round of a knockout of ``entrants`` after the ``played`` rounds."""
    left = still_in(entrants, played)
    if len(left) < 2:
        raise ValueError("the knockout is over")
    bracket = 1 << knockout_rounds(len(left))
    byes = bracket - len(left)
    playing = left[byes:]
    tables = tuple(
        Pairing((playing[i], playing[len(playing) - 1 - i])) for i in range(len(playing) // 2)
    )
    return Round(tables, tuple(left[:byes]))
