"""A reason for (or against) a move, as the skilled player weighs it.

Each kind of board says which features its moves have (``kabes.ai.boards``); the skilled player
adds them up and explains its move by the strongest.
"""

from __future__ import annotations

from dataclasses import dataclass

OUT = 1000.0
"""The weight of going out: above every other consideration."""

# The weights of a line move's features (``kabes.ai.boards.line``), which the expert's reading
# of the table copies on bit sets (``kabes.ai.reading``): named once so the two cannot drift.
PIP = 0.6
"""Per pip the tile sheds."""
DOUBLE = 2.5
"""For a double: hard to place later."""
HOLDS = 1.8
"""Per tile held (up to three) of a number the move keeps open."""
CONTROL = 2.0
"""For keeping open a number nobody else can hold."""
NEXT_LACKS = 3.5
"""Per number left open that the next seat, an opponent, has passed on."""
LACKS = 2.0
"""Per number left open that another opponent has passed on."""
PARTNER_LACKS = -3.0
"""Per number left open that the partner has passed on."""
PARTNER_SUIT = 1.5
"""For playing to the number the partner last opened."""
COVERS_PARTNER = -2.5
"""For covering the number the partner last opened."""
KILLS_SUIT = 1.5
"""For covering the number an opponent last opened."""


@dataclass(frozen=True, slots=True)
class Feature:
    """One reason for (or against) a move, with its weight in the move's score."""

    score: float
    why: str
