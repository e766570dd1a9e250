"""The contract every kind of hand keeps, whether played on a line or on trains, and the
bookkeeping they keep alike.

A hand is dealt already (its tiles and stock are given), makes the forced draws and passes
itself, and stops at the first position where a player must choose. ``apply`` checks a move
completely before changing anything, so a refused move leaves the hand as it was.

``kabes.line_hand`` and ``kabes.trains`` subclass :class:`Hand` and inherit what they do the
same way: the refusals every kind of hand makes alike (a hand over, a tile not held), the
first-fit move of a timeout, a move written down, a tile drawn, the end. Each says where a
tile goes (:meth:`Hand._placed`) and everything else of its board.
"""

from __future__ import annotations

from bisect import insort
from typing import Protocol

from kabes.board_facts import BoardFacts
from kabes.errors import IllegalMove, MatchOver
from kabes.events import Event, Played
from kabes.moves import Move, Play, Timeout
from kabes.results import Ending, HandEnd
from kabes.tiles import Tile


class Hand(Protocol):
    """One hand (or Mexican Train round) in progress."""

    noun: str = "hand"
    """What the refusals call it: a hand, or (Mexican Train) a round."""

    players: int
    hands: list[list[Tile]]
    """Each seat's tiles, in hand order (ascending)."""
    stock: list[Tile]
    drawn: int
    """Tiles drawn from the stock so far: the next to draw is ``stock[drawn]``."""
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
        """The move the table makes when the clock runs out (the first-fit rule): the first
        of :meth:`legal_moves`."""
        moves = self.legal_moves()
        if not moves:
            raise MatchOver(f"the {self.noun} is over: nobody is to play", "hand_over")
        return moves[0]

    def apply(self, move: Move) -> list[Event]:
        """Play ``move`` for the seat to move, then everything the table does until the next
        choice; IllegalMove (nothing changed) if the rules refuse it."""
        ...

    @property
    def stock_left(self) -> int:
        """How many tiles are still face down in the stock."""
        return len(self.stock) - self.drawn

    def copy(self) -> Hand:
        """An independent copy, for search and what-if."""
        ...

    # -- what every kind of hand does alike, for its ``apply`` ---------------------------------

    def _resolve(self, move: Move) -> tuple[Play, bool]:
        """The full play ``move`` stands for, and whether the table chose it; or a refusal
        with its reason and facts (see kabes.errors)."""
        seat = self.turn
        if seat is None:
            raise MatchOver(f"the {self.noun} is over: nobody is to play", "hand_over")
        if isinstance(move, Timeout):
            return self.timeout_move(), True
        tile = move.tile
        if tile not in self.hands[seat]:
            raise IllegalMove(
                f"seat {seat} does not hold {tile}", "not_held", {"seat": seat, "tile": str(tile)}
            )
        return self._placed(seat, move), False

    def _placed(self, seat: int, move: Play) -> Play:
        """The full play of a tile ``seat`` holds, where this kind of hand places it; or an
        IllegalMove with its reason and facts."""
        ...

    def _lay(self, seat: int, play: Play, timed: bool) -> Played:
        """Take the tile of ``play`` from the seat's hand and write the move down (its
        board has placed it); the event that says so."""
        self.hands[seat].remove(play.tile)
        written = str(play)
        self.moves.append("timeout" if timed else written)
        self.played.append((seat, play))
        return Played(seat, play.tile, written, timed)

    def _draw(self, seat: int) -> Tile:
        """The next tile of the stock, into the seat's hand in order."""
        tile = self.stock[self.drawn]
        self.drawn += 1
        insort(self.hands[seat], tile)
        self.draw_counts[seat] += 1
        return tile

    def _finish(self, ending: Ending, seat: int, capicu: bool = False) -> None:
        hands = tuple(tuple(h) for h in self.hands)
        self.end = HandEnd(ending, seat, capicu, hands, self.leader)
        self.turn = None
