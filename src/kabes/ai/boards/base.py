"""What the computer players make of one kind of board, owned by one class per kind.

The engine's side of a board is its hand (``kabes.line_hand``, ``kabes.trains``): the moves,
and what everybody sees of it (``Hand.facts``); the terminal draws it (``kabes.cli.boards``).
What the levels make of it is here, so that no level asks which kind a game is played on:
the casual player's follow-up, the skilled player's features, and the expert's worlds, each
kind in one :class:`Tactics` found by ``Rules.board`` (``kabes.ai.boards.tactics_for``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from random import Random

from kabes.ai.features import Feature
from kabes.ai.reading import Reading
from kabes.moves import Play
from kabes.results import HandEnd
from kabes.tiles import Tile
from kabes.views import View

Judge = Callable[[View, Play], list[Feature]]
"""The skilled player's features of one move in one view."""

Valued = Callable[[Hashable, Callable[[], HandEnd]], float]
"""What an end of the hand is worth to the searching side, from its key
(``Searched.keys``) and, where that key was not valued yet, the end itself."""


@dataclass(frozen=True, slots=True)
class Playout:
    """What the expert's search asks of a board for every world it plays: the same object
    for all the worlds of one search, so a board may recognise the search under way."""

    view: View
    """The searching seat's view: the worlds are dealt consistently with it."""
    moves: list[Play]
    """The candidate moves, each played out in every world."""
    rng: Random
    """The search's chances: the worlds dealt and the playouts' choices."""
    pool: list[Tile]
    """The tiles the seat has not seen (``knowledge.unseen``), dealt into the worlds."""
    greedy: float
    """How often a playout player plays its heaviest tile rather than a random one."""
    reading: Reading | None = None
    """The other seats' plays read (``kabes.ai.reading``): worlds drawn as likely as they
    make them; None: every consistent world alike."""
    valued: Valued | None = None
    """The value of an end to the searching side, for boards that search the last tiles
    exactly; None: played out only."""


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


class Tactics(ABC):
    """What the levels make of one kind of board; a variant names its kind in
    ``Rules.board``."""

    name: str
    """The key variants use for it (``Rules.board``)."""

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
    def play_world(self, playout: Playout) -> Searched:
        """The expert's search: one world dealt consistently with the view (the pool being
        the tiles it has not seen), drawn as likely as it makes the plays seen where there is
        a reading, and the end of the hand after each move in it, played out by quick players
        who play the heaviest tile ``greedy`` of the time, or searched exactly to the best end
        by ``valued`` where the board can (few tiles left)."""
