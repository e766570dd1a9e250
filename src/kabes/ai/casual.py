"""The casual player: "bota gorda", it plays its heaviest tile, doubles first on a tie."""

from __future__ import annotations

from random import Random

from kabes.ai.knowledge import Hint, distinct
from kabes.moves import Move
from kabes.views import View


class Casual:
    """Sheds the heaviest playable tile, so as to be caught with few pips."""

    id = "casual"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, view: View) -> Move:
        """The heaviest legal tile (a double before a non-double of the same value)."""
        return self.hint(view).move

    def hint(self, view: View) -> Hint:
        """The heaviest tile, and why."""
        moves = distinct(view)
        if not moves:
            raise ValueError(f"seat {view.seat} has no move to make: it is not its turn")
        best = max(moves, key=lambda m: (m.tile.value, m.tile.is_double))
        tile = best.tile
        why = f"{tile} is your heaviest playable tile"
        if tile.is_double:
            why += ", and a double is hard to place later"
        return Hint(best, why)
