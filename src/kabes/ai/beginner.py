"""The beginner: a random legal move, the gentlest opponent."""

from __future__ import annotations

from random import Random

from kabes.ai.knowledge import Hint
from kabes.moves import Move
from kabes.views import View


class Beginner:
    """Plays any legal move, chosen at random."""

    id = "beginner"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, view: View) -> Move:
        """A random one of the seat's legal moves."""
        return self.hint(view).move

    def hint(self, view: View) -> Hint:
        """A random legal move; the reason says as much."""
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no move to make: it is not its turn")
        move = self.rng.choice(view.legal)
        return Hint(move, f"{move.tile} can be played")
