"""What differs between kinds of board outside the engine, owned by one class per kind.

The engine's side of a board is its hand (``kabes.line_hand``, ``kabes.trains``): the moves,
and what everybody sees of it (``Hand.facts``). Everything else that depends on the kind of
board is here, so that nothing else asks which kind a game is played on: how the terminal
draws it and names its places, and what the computer players make of it (the casual player's
follow-up, the skilled player's features, the expert's worlds).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING

from rich.console import RenderableType

from kabes.cli.words import Names
from kabes.moves import Play
from kabes.results import HandEnd
from kabes.tiles import Tile
from kabes.views import View

if TYPE_CHECKING:  # the levels' package imports the boards: only its name is needed here
    from kabes.ai.features import Feature
    from kabes.ai.reading import Reading

Judge = Callable[[View, Play], "list[Feature]"]
"""The skilled player's features of one move in one view."""

Valued = Callable[[Hashable, Callable[[], HandEnd]], float]
"""What an end of the hand is worth to the searching side, from its key
(``Searched.keys``) and, where that key was not valued yet, the end itself."""


@dataclass(slots=True)
class Searched:
    """One world the expert searched: the end of the hand after each candidate move in it.
    Worlds come as likely as the plays seen make them (``reading.Chain``), so each counts
    the same."""

    keys: list[Hashable | None]
    """Per move, all that the variant's scoring reads of its end (None: the whole end), so
    that ends alike are valued once: most playouts end in a handful of ways."""
    end: Callable[[int], HandEnd]
    """The engine's end of the hand after move ``i``, built only when it must be scored."""


class Board(ABC):
    """One kind of board; a variant names its kind in ``Rules.board``."""

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

    @abstractmethod
    def follow(self, view: View, move: Play) -> int:
        """The casual player's tie-break: how many tiles in hand fit after ``move``."""

    @abstractmethod
    def judge(self, view: View) -> Judge:
        """The skilled player's features for this view's moves, with what every move shares
        worked out once."""

    def read(self, view: View) -> Reading | None:
        """The other seats' past plays, ready to weigh the expert's worlds
        (``kabes.ai.reading``); None where this board's plays are not read."""
        return None

    @abstractmethod
    def play_world(
        self,
        view: View,
        moves: list[Play],
        rng: Random,
        pool: list[Tile],
        greedy: float,
        reading: Reading | None = None,
        valued: Valued | None = None,
    ) -> Searched:
        """The expert's search: one world dealt consistently with ``view`` (``pool`` the
        tiles it has not seen), drawn as likely as it makes the plays seen where there is a
        ``reading``, and the end of the hand after each of ``moves`` in it, played out by quick
        players who play the heaviest tile ``greedy`` of the time, or searched exactly to
        the best end by ``valued`` where the board can (few tiles left)."""
