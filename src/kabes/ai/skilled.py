"""The skilled player: it counts.

It weighs every legal move by the features the board it is played on gives it
(``kabes.ai.boards``: on a line, the tiles out, the numbers each seat lacks, a partner's suit;
on trains, the longest train it can build and where to shed the rest). Each consideration is a
scored feature with a sentence; the best move's strongest feature is its hint.
"""

from __future__ import annotations

from math import fsum

from kabes.ai.boards import tactics_for
from kabes.ai.boards.trains import longest_train
from kabes.ai.knowledge import Hint
from kabes.ai.level import Level
from kabes.moves import Play
from kabes.views import View

__all__ = ["Skilled", "longest_train"]


class Skilled(Level):
    """Counts tiles and reads passes; see the module docstring."""

    id = "skilled"

    def decide(self, view: View, moves: list[Play]) -> Hint:
        """The move with the best total of features, explained by its strongest one. The
        total is ``fsum``'s, exactly rounded: ``sum`` of floats rounds otherwise since Python
        3.12, and a near tie would then go another way on the phone (Pyodide's CPython 3.14)
        than on a server running 3.11."""
        judge = tactics_for(view).judge(view)
        judged = [(m, judge(view, m)) for m in moves]
        move, features = max(judged, key=lambda mf: fsum(f.score for f in mf[1]))
        best = max(features, key=lambda f: f.score)
        return Hint(move, best.why)
