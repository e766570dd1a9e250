"""What every computer level shares: it decides from a view, and can say why."""

from __future__ import annotations

from abc import ABC, abstractmethod
from random import Random

from kabes.ai.knowledge import Hint, distinct
from kabes.moves import Move, Play
from kabes.views import View


class Level(ABC):
    """A computer player: ``decide`` picks among the distinct legal moves, with a reason."""

    id: str

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, view: View) -> Move:
        """The move to make; called only when it is this seat's turn."""
        return self.hint(view).move

    def hint(self, view: View) -> Hint:
        """The move this level would make, with a reason a person can read."""
        moves = distinct(view)
        if not moves:
            raise ValueError(f"seat {view.seat} has no move to make: it is not its turn")
        return self.decide(view, moves)

    @abstractmethod
    def decide(self, view: View, moves: list[Play]) -> Hint:
        """The best of ``moves`` (never empty) for this level, and why."""
