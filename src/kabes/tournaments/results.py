"""What a finished match's game record (DESIGN.md) gives the standings.

A record's ``winners``, ``scores`` and each hand's ``winner`` are per party: per team in a
team variant (team 0 = seats 0 and 2, which is the table's first entrant), per seat
otherwise (seat i is the table's entrant i). So party i is the table's entrant i either way.
"""

from __future__ import annotations

from typing import Any

from kabes.tournaments.model import Result


def seat_order(members: list[tuple[int, ...]], teams: bool) -> list[int]:
    """The players of a table's entrants (each a tuple of players) in seat order: a pair's
    players opposite each other (entrant i at seats i and i + 2), else one a seat."""
    if not teams:
        return [m[0] for m in members]
    return [m[0] for m in members] + [m[1] for m in members]


def result_of(record: dict[str, Any], entrants: tuple[int, ...]) -> Result:
    """The result of the match whose ``record`` has its ``result`` filled in, played by
    ``entrants`` (in seat order)."""
    match = record["result"]
    hands_won = [0] * len(entrants)
    for hand in record.get("hands", []):
        winner = (hand.get("result") or {}).get("winner")
        if winner is not None and 0 <= winner < len(entrants):
            hands_won[winner] += 1
    scores = list(match.get("scores") or [0] * len(entrants))
    winners = tuple(entrants[w] for w in match.get("winners", []) if 0 <= w < len(entrants))
    return Result(winners, tuple(int(s) for s in scores[:len(entrants)]), tuple(hands_won))
