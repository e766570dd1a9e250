"""How the terminal shows and tells one kind of board, owned by one class per kind.

The engine's side of a board is its hand (``kabes.line_hand``, ``kabes.trains``), what the
computer players make of it is in ``kabes.ai.boards``. The terminal's side is here, so that
neither the screen, the input nor the narrator asks which kind a game is played on: how a
board is drawn and its places typed, its help, and the words the narrator tells it with.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from rich.console import RenderableType

from kabes.cli.words import Names
from kabes.views import View


class Board(ABC):
    """One kind of board at the terminal; a variant names its kind in ``Rules.board``."""

    name: str
    """The key variants use for it (``Rules.board``)."""
    hand_word: str
    """What one deal is called: "hand" or "round"."""
    places_word: str
    """The places a tile may go, as the terminal asks for them."""
    help: str
    """The terminal's help for games on this board."""
    intro: str | None = None
    """Said once, before the first deal's play, where the board needs it."""
    runs: bool
    """Whether tiles a seat lays one after another on one place are told as one deed (a
    first turn's run on one's own train)."""
    passes_name_numbers: bool
    """Whether a pass is told with the numbers the seat lacks (the two ends it could not
    match); on a board of many places it is just a pass."""
    placeless_lead: bool
    """Whether a tile laid with no place is the deal's opening lead, told as such."""

    @abstractmethod
    def valid_place(self, at: str) -> bool:
        """Whether ``at`` (typed after a tile) can name a place on this board."""

    @abstractmethod
    def panel(self, view: View, names: Names) -> RenderableType:
        """The board as the terminal draws it."""
