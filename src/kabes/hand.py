"""The contract every kind of hand keeps, whether played on a line or on trains.

A hand is dealt already (its tiles and stock are given), makes the forced draws and passes
itself, and stops at the first position where a player must choose. ``apply`` checks a move
completely before changing anything, so a refused move leaves the hand as it was.
"""

from __future__ import annotations

from typing import Protocol

from kabes.board_facts import BoardFacts
from kabes.events import Event
from kabes.moves import Move, Play
from kabes.results import HandEnd
from kabes.tiles import Tile


class Hand(Protocol):
    """One hand (or Mexican Train round) in progress."""

    players: int
    hands: list[list[Tile]]
    """Each seat's tiles, in hand order (ascending)."""
    leader: int
    turn: int | None
    """The seat to move, None once the hand is over."""
    end: HandEnd | None
    moves: list[str]
    """The moves so far, in record notation."""
    played: list[tuple[int, Play]]
    """Every tile played so far with its seat."""
    passes: list[tuple[int, tuple[int, ...]]]
    """Every pass so far: the seat, and the open numbers it could not match."""
    draw_counts: list[int]
    """Tiles drawn this hand, per seat."""

    def start(self) -> list[Event]:
        """Make what the table does before the first choice (the leader announced, draws
        for the engine, the engine set)."""
        ...

    def facts(self) -> BoardFacts:
        """What everybody sees of the board now (kabes.board_facts)."""
        ...

    def legal_moves(self) -> list[Play]:
        """Every move the seat to move may make, in first-fit order."""
        ...

    def timeout_move(self) -> Play:
        """The move the table makes when the clock runs out (the first-fit rule)."""
        ...

    def apply(self, move: Move) -> list[Event]:
        """Play ``move`` for the seat to move, then everything the table does until the next
        choice; IllegalMove (nothing changed) if the rules refuse it."""
        ...

    @property
    def stock_left(self) -> int:
        """How many tiles are still face down in the stock."""
        ...

    def copy(self) -> Hand:
        """An independent copy, for search and what-if."""
        ...
