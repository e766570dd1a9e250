"""Computer players: each level receives a seat's view, never the full state, and returns a move.

Four levels, named for players: ``beginner`` (any legal move), ``casual`` (its heaviest tile),
``skilled`` (counts tiles and reads passes) and ``expert`` (searches the hidden hands within a
time budget). Each can also explain its move: ``hint(view)``.
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from kabes.ai.beginner import Beginner
from kabes.ai.casual import Casual
from kabes.ai.expert import Expert
from kabes.ai.knowledge import Hint
from kabes.ai.skilled import Skilled
from kabes.errors import BadOptions
from kabes.moves import Move
from kabes.views import View


class Player(Protocol):
    """Anything that picks a move from what its seat can see."""

    def choose(self, view: View) -> Move:
        """The move to make; called only when it is this seat's turn."""
        ...

    def hint(self, view: View) -> Hint:
        """The move it would make, with a reason a person can read."""
        ...


LEVELS = ("beginner", "casual", "skilled", "expert")
"""The levels, weakest first."""

DEFAULT_BUDGET = 1.0
"""The expert's time per move, in seconds."""


def make_player(
    level: str, rng: Random, budget: float = DEFAULT_BUDGET, workers: int = 1
) -> Player:
    """A computer player of ``level``, drawing its chances from ``rng``; the expert thinks
    ``budget`` seconds per move on ``workers`` processes."""
    if level == "beginner":
        return Beginner(rng)
    if level == "casual":
        return Casual(rng)
    if level == "skilled":
        return Skilled(rng)
    if level == "expert":
        return Expert(rng, budget, workers)
    raise BadOptions(f"no level {level!r}; the levels are {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Beginner", "Casual", "Expert", "Hint", "Player", "Skilled", "make_player"]
