"""The beginner: a random legal move, the gentlest opponent."""

from __future__ import annotations

from random import Random

from kabes.moves import Move
from kabes.views import View


class Beginner:
    """Plays any legal move, chosen at random."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, view: View) -> Move:
        """A random one of the seat's legal moves."""
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no move to make: it is not its turn")
        return self.rng.choice(view.legal)
