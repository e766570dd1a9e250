"""Results of a hand and of a match, in the shape game records carry them (DESIGN.md).

``winner``, ``points`` and ``scores`` are per team (team 0 = seats 0 and 2) in team variants
and per seat otherwise; in ``haitian`` with 3 or 4 players and in ``mexican-train`` they are
penalties.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from kabes.tiles import Tile


class Ending(StrEnum):
    """How a hand ended."""

    DOMINO = "domino"
    """A player played their last tile."""
    BLOCKED = "blocked"
    """Nobody could play and nobody could draw."""


@dataclass(frozen=True, slots=True)
class HandEnd:
    """What the table saw when a hand stopped, before any variant scored it.

    ``seat`` is who went out (domino) or who played the last tile (blocked); ``capicu`` is
    a domino with a non-double that fitted both ends while they showed different numbers.
    """

    ending: Ending
    seat: int
    capicu: bool
    hands: tuple[tuple[Tile, ...], ...]
    leader: int


@dataclass(frozen=True, slots=True)
class HandResult:
    """A scored hand, exactly the ``result`` object of a record's hand."""

    ending: Ending
    name: str | None
    capicu: bool
    winner: int | None
    points: tuple[int, ...]
    scores: tuple[int, ...]
    leader: int
    next_leader: int | None
    counts: tuple[int, ...]
    """The pips left in each seat's hand when the hand ended, per seat (tile values: 0-0
    counts 0 here even where the variant's scoring makes it cost 50)."""

    def to_json(self) -> dict[str, Any]:
        """The record form of this result."""
        return {
            "ending": str(self.ending),
            "name": self.name,
            "capicu": self.capicu,
            "winner": self.winner,
            "points": list(self.points),
            "scores": list(self.scores),
            "leader": self.leader,
            "next_leader": self.next_leader,
            "counts": list(self.counts),
        }


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The record's overall ``result``; ``winners`` is empty while the match is unfinished,
    and when it was abandoned (DESIGN.md: a server ended it because no person was left)."""

    finished: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    kochon: bool
    abandoned: bool = False

    def to_json(self) -> dict[str, Any]:
        """The record form of this result (``abandoned`` only when true, as DESIGN.md says)."""
        out: dict[str, Any] = {
            "finished": self.finished,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "kochon": self.kochon,
        }
        if self.abandoned:
            out["abandoned"] = True
        return out
