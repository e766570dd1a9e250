"""What a client must know of a variant to show it, as its rules say (``Rules.traits``).

A client (the web client, a bot) never asks which variant it is shown: it reads these traits,
served by ``GET /api/variants`` per seat count and in every VIEW as ``traits`` (for the
table's variant and seat count). They are built once per variant and seat count.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kabes.rules.base import Rules


@dataclass(frozen=True, slots=True)
class Traits:
    """A variant's traits with a given number of players; the JSON keys are the field names."""

    title: str
    """The variant's name for people, for a client whose words have no name for it."""
    board: str
    """The kind of board: ``"line"`` or ``"trains"`` (a key of ``kabes.ai.boards.TACTICS``
    and ``kabes.cli.boards.BOARDS``)."""
    top: int
    """The highest number in the set: 6 (double-six) or 12 (double-twelve)."""
    teams: bool
    """Whether seats 0 and 2 play against seats 1 and 3 as two teams."""
    people_only: bool
    """Whether only people may sit (no computer seat, no hints)."""
    penalties: bool
    """Whether scores are penalties, lower being better."""
    wa: bool
    """Whether the match crowns a Wa: the lowest penalty total so far wears the crown."""
    rounds: int | None
    """How many hands (rounds) every match has where the variant fixes it, else None."""
    crosswise_doubles: bool
    """Whether doubles are laid crosswise on a line (drawn across it), rather than in line."""
    colored_tiles: bool
    """Whether tiles are drawn with a colour per number (a double-twelve set's pips)."""
    stock_always_shown: bool
    """Whether the stock's count is shown even when it is empty and nobody drew from it."""

    def json(self) -> dict[str, Any]:
        """The traits as the wire shows them: one key per field."""
        return dataclasses.asdict(self)


@cache
def traits_json(rules: Rules, players: int) -> dict[str, Any]:
    """``rules.traits(players)`` as JSON, built once per variant and seat count and shared by
    every message that carries it: callers must not change it."""
    return rules.traits(players).json()
