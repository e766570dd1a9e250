"""How the terminal shows and tells every kind of board, by the name variants give it in
``Rules.board``.

A new variant played on a line or on trains is one module under ``kabes.rules`` that names
its board; a new kind of board is one module here (a :class:`kabes.cli.boards.base.Board`)
and a line in ``BOARDS``, beside what the levels make of it in ``kabes.ai.boards``. The
screen, the input and the narrator reach a board through :func:`board_of`.
"""

from __future__ import annotations

from kabes.cli.boards.base import Board
from kabes.cli.boards.line import LineBoard
from kabes.cli.boards.trains import TrainBoard
from kabes.rules import get_rules

BOARDS: dict[str, Board] = {board.name: board for board in (LineBoard(), TrainBoard())}
"""Every kind of board as the terminal shows it, by its ``Rules.board`` key."""


def board_of(variant: str) -> Board:
    """How the terminal shows the board ``variant`` is played on."""
    return BOARDS[get_rules(variant).board]


__all__ = ["BOARDS", "Board", "board_of"]
