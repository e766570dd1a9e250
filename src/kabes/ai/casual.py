"""The casual player: "bota gorda", it plays its heaviest tile, doubles first on a tie.

Between tiles of the same weight, and between the two ends for one tile, it leaves open the
number it holds most of, as any casual player would.
"""

from __future__ import annotations

from kabes.ai.boards import tactics_for
from kabes.ai.knowledge import Hint
from kabes.ai.level import Level
from kabes.moves import Play
from kabes.views import View


class Casual(Level):
    """Sheds the heaviest playable tile, so as to be caught with few pips."""

    id = "casual"

    def decide(self, view: View, moves: list[Play]) -> Hint:
        """The heaviest legal tile (a double before a non-double of the same value)."""
        tactics = tactics_for(view)
        best = max(
            moves, key=lambda m: (m.tile.value, m.tile.is_double, tactics.follow(view, m))
        )
        tile = best.tile
        why = f"{tile} is your heaviest playable tile"
        if tile.is_double:
            why += ", and a double is hard to place later"
        return Hint(best, why)
