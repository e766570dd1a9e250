"""The beginner: a random legal move, the gentlest opponent."""

from __future__ import annotations

from kabes.ai.knowledge import Hint
from kabes.ai.level import Level
from kabes.moves import Play
from kabes.views import View


class Beginner(Level):
    """Plays any legal move, chosen at random."""

    id = "beginner"

    def decide(self, view: View, moves: list[Play]) -> Hint:
        """A random one of the legal moves."""
        move = self.rng.choice(moves)
        return Hint(move, f"{move.tile} can be played")
