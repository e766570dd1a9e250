"""Computer players: each level receives a seat's view, never the full state, and returns a move.

The levels live in their own modules; ``LEVELS`` maps their ids to their classes.
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from kabes.ai.beginner import Beginner
from kabes.moves import Move
from kabes.views import View


class Player(Protocol):
    """Anything that picks a move from what its seat can see."""

    def choose(self, view: View) -> Move:
        """The move to make; called only when it is this seat's turn."""
        ...


LEVELS: dict[str, type[Beginner]] = {"beginner": Beginner}


def make_player(level: str, rng: Random) -> Player:
    """A computer player of ``level``, drawing its chances from ``rng``."""
    try:
        return LEVELS[level](rng)
    except KeyError:
        known = ", ".join(LEVELS)
        raise ValueError(f"no level {level!r}; the levels are {known}") from None


__all__ = ["LEVELS", "Beginner", "Player", "make_player"]
