"""What the computer players make of every kind of board, by the name variants give it in
``Rules.board``.

A new variant played on a line or on trains is one module under ``kabes.rules`` that names
its board; a new kind of board is one module here (a :class:`kabes.ai.boards.base.Tactics`)
and a line in ``TACTICS``, beside its drawing in ``kabes.cli.boards``. The levels reach a
board's tactics through :func:`tactics_for`, so no level asks which kind a game is played on.
"""

from __future__ import annotations

from kabes.ai.boards.base import Playout, Searched, Tactics
from kabes.ai.boards.line import LineTactics
from kabes.ai.boards.trains import TrainTactics
from kabes.rules import get_rules
from kabes.views import View

TACTICS: dict[str, Tactics] = {tactics.name: tactics for tactics in (LineTactics(), TrainTactics())}
"""Every kind of board's tactics, by its ``Rules.board`` key."""


def tactics_for(view: View) -> Tactics:
    """What the levels make of the board ``view`` is played on."""
    return TACTICS[get_rules(view.variant).board]


__all__ = ["TACTICS", "Playout", "Searched", "Tactics", "tactics_for"]
