"""Every kind of board, by the name variants give it in ``Rules.board``.

A new variant played on a line or on trains is one module under ``kabes.rules`` that names
its board; a new kind of board is one module here (a :class:`kabes.boards.base.Board`) and a
line in ``BOARDS``. The levels and the terminal reach a board through :func:`board_of` and
import this package as a module (``from kabes import boards``), as the boards themselves are
built on the levels' knowledge of a view.
"""

from __future__ import annotations

from kabes.boards.base import Board
from kabes.boards.line import LineBoard
from kabes.boards.trains import TrainBoard
from kabes.rules import get_rules

BOARDS: dict[str, Board] = {board.name: board for board in (LineBoard(), TrainBoard())}


def board_of(variant: str) -> Board:
    """The board ``variant`` is played on."""
    return BOARDS[get_rules(variant).board]
