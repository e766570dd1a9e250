"""What everybody sees of a board, as each kind of hand reports it for the views.

A line hand and a Mexican Train round show different things (the line and its ends, or the
trains, markers and the open double); each hand says what it shows through
:meth:`kabes.hand.Hand.facts`, so :mod:`kabes.views` fills a view without asking which kind of
hand it holds. Fields a board does not have keep the neutral values of :func:`no_board`.
"""

from __future__ import annotations

from dataclasses import dataclass

from kabes.moves import PUBLIC
from kabes.tiles import Tile


@dataclass(frozen=True, slots=True)
class TrainView:
    """One train as everybody sees it: owner (None for the public train), tiles, end."""

    owner: int | None
    laid: tuple[tuple[int, int], ...]
    end: int
    marked: bool

    @property
    def place(self) -> str:
        """The train's name in moves: the owner's seat, or ``M``."""
        return PUBLIC if self.owner is None else str(self.owner)


@dataclass(frozen=True, slots=True)
class BoardFacts:
    """The public state of a board; see :class:`kabes.views.View` for each field."""

    voids: tuple[frozenset[int], ...]
    line: tuple[tuple[int, int], ...] | None = None
    ends: tuple[int, int] | None = None
    forced_lead: Tile | None = None
    last_player: int | None = None
    engine: Tile | None = None
    trains: tuple[TrainView, ...] = ()
    open_double: str | None = None
    first_turns_done: tuple[bool, ...] = ()
    drew_this_turn: bool = False
    empty_passes: int = 0


def no_board(players: int) -> BoardFacts:
    """What a view shows before the first deal: no board at all."""
    return BoardFacts(voids=(frozenset(),) * players)
