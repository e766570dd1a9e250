"""A reason for (or against) a move, as the skilled player weighs it.

Each kind of board says which features its moves have (``kabes.boards``); the skilled player
adds them up and explains its move by the strongest.
"""

from __future__ import annotations

from dataclasses import dataclass

OUT = 1000.0
"""The weight of going out: above every other consideration."""


@dataclass(frozen=True, slots=True)
class Feature:
    """One reason for (or against) a move, with its weight in the move's score."""

    score: float
    why: str
