"""What the store does besides keeping a table's log entry, in the same transaction.

A table says what followed from a change (its status, a match begun or ended, a hand to rate);
the store carries it out atomically with the entry, so ratings and match lists can never
disagree with the log after a crash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class TableStatus:
    """The table's status changed (lists of live tables read it)."""

    code: str
    status: str


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """A match began: who sits where, and whether it counts in the rankings."""

    code: str
    variant: str
    players: int
    people: list[tuple[int, int]]
    """(seat, player) for every person."""
    rated: bool
    public: bool = False
    """Played at a public table: its code may be shown on its players' pages."""
    seats: list[tuple[int | None, str | None]] | None = None
    """(player, name) of every seat in order; (None, None) for a computer."""


@dataclass(frozen=True, slots=True)
class HandRated:
    """A hand at a table of people only: openskill teams in seat order, their ranks (1 best,
    equal for a tie), and the players who won the hand."""

    variant: str
    teams: list[list[int]]
    ranks: list[int]
    won: list[int]


@dataclass(frozen=True, slots=True)
class MatchScored:
    """A hand of a match ended: each party's score now (the players' pages show it)."""

    code: str
    scores: list[int]


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """A match ended: its winners (players), its whole record, who played it."""

    code: str
    variant: str
    winners: list[int]
    record: dict[str, Any]
    rated: bool
    players: list[int]


@dataclass(frozen=True, slots=True)
class SeatsFreed:
    """Seats at a table waiting to start are no longer held: ``players``' (a leave, a
    removal), or everyone's (None: the table started or closed)."""

    code: str
    players: list[int] | None


Effect = TableStatus | MatchStarted | HandRated | MatchScored | MatchFinished | SeatsFreed
