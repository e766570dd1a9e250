"""The values a tournament's rounds are made of: an entrant is a number (1, 2, ... in the
order entrants were formed), a round is its tables and its byes, and a table's result is what
the standings need of the match played there."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Result:
    """What a finished match gives the standings, per entrant in the table's order: its
    score, its hands won, and who won the match (several on a shared win)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    hands_won: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a round: its entrants in seat order (entrant i of a team variant sits at
    seats i and i + 2), and its result once the match is over (None while it is played)."""

    entrants: tuple[int, ...]
    result: Result | None = None


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its tables and the entrants given a bye (each a point)."""

    tables: tuple[Pairing, ...]
    byes: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        """Whether every match of the round has its result."""
        return all(table.result is not None for table in self.tables)
