"""A hand of the double-six games: the lead, plays on two ends, forced draws and passes.

Shared by ``partnership``, ``plaza``, ``plaza-partners``, ``haitian`` and ``haitian-partners``;
what differs between them (who leads, with what, and how a hand is scored) lives in
``kabes.rules``. A player who cannot play draws from the stock until a tile fits, if there is
a stock, and otherwise passes; the table does both at once. The hand is blocked as soon as the
stock is empty and no player holds a tile for either end, which is the same as every player
passing in turn.
"""

from __future__ import annotations

from typing import Any

from kabes.board_facts import BoardFacts
from kabes.copying import Fields, copy_state
from kabes.errors import IllegalMove
from kabes.events import Drew, DrewCount, Event, LeaderChosen, Passed
from kabes.hand import Hand
from kabes.line import Line
from kabes.moves import LEFT, RIGHT, Move, Play
from kabes.results import Ending, HandEnd
from kabes.tiles import Tile

ENDS = (LEFT, RIGHT)


class LineHand(Hand):
    """One hand on a line of play; see the module docstring for what the table does itself."""

    def __init__(
        self,
        deal: list[list[Tile]],
        stock: list[Tile],
        leader: int,
        forced_lead: Tile | None = None,
    ) -> None:
        self.players = len(deal)
        self.hands: list[list[Tile]] = [sorted(h) for h in deal]
        self.stock = list(stock)
        self.drawn = 0
        self.leader = leader
        self.forced_lead = forced_lead
        self.turn: int | None = leader
        self.line: Line | None = None
        self.passes: list[tuple[int, tuple[int, ...]]] = []
        self.draw_counts = [0] * self.players
        self.voids: list[frozenset[int]] = [frozenset()] * self.players
        """Numbers each seat is known (by everyone) not to hold: those it could not match
        when it last drew, and at every pass since."""
        self.last_player: int | None = None
        self.end: HandEnd | None = None
        self.moves: list[str] = []
        self.played: list[tuple[int, Play]] = []
        """Every tile played so far with its seat, as everybody saw it."""

    def start(self) -> list[Event]:
        """Only the leader is announced (with the tile it must lead, if any): the leader
        always has a tile to lead."""
        return [LeaderChosen(self.leader, self.forced_lead)]

    def facts(self) -> BoardFacts:
        """The line, its ends (or the tile the lead must be), the voids, the last player."""
        line = self.line
        return BoardFacts(
            voids=tuple(self.voids),
            line=None if line is None else tuple(line.laid),
            ends=None if line is None else line.ends,
            forced_lead=self.forced_lead if line is None else None,
            last_player=self.last_player,
        )

    def legal_moves(self) -> list[Play]:
        """Every play of the seat to move, tiles ascending, left end before right."""
        if self.turn is None:
            return []
        hand = self.hands[self.turn]
        if self.line is None:
            tiles = [self.forced_lead] if self.forced_lead is not None else hand
            return [Play(t, None, t.low) for t in tiles]
        # Line.fits and _written_first, inlined: a server works out the legal moves at every
        # change of every table (each seat's view), and the expert at every node it reads.
        left, right = self.line.left, self.line.right
        out: list[Play] = []
        for t in hand:
            low, high = t.low, t.high
            if low == left:
                out.append(Play(t, LEFT, high))
            elif high == left:
                out.append(Play(t, LEFT, low))
            if low == right or high == right:
                out.append(Play(t, RIGHT, right))
        return out

    def apply(self, move: Move) -> list[Event]:
        """Play ``move`` for the seat to move, then draw and pass for the others as needed."""
        play, timed = self._resolve(move)
        seat = self.turn
        assert seat is not None  # _resolve refused a move on a finished hand
        tile = play.tile
        line = self.line
        if line is None:
            assert play.first is not None
            self.line = Line.lead(tile, play.first)
            capicu = False
        else:
            left, right = line.ends
            capicu = not tile.is_double and left != right and tile.has(left) and tile.has(right)
            assert play.at is not None
            line.place(tile, play.at)
        events: list[Event] = [self._lay(seat, play, timed)]
        self.last_player = seat
        if not self.hands[seat]:
            self._finish(Ending.DOMINO, seat, capicu)
            return events
        events += self._advance(seat)
        return events

    def can_play(self, seat: int) -> bool:
        """Whether ``seat`` holds a tile for either end."""
        line = self.line
        if line is None:
            return True
        left, right = line.ends
        return any(t.has(left) or t.has(right) for t in self.hands[seat])

    def copy(self) -> LineHand:
        """An independent copy, for search and what-if; it shares nothing mutable with this
        hand (kabes.copying: every attribute is declared in ``_COPIED``)."""
        return copy_state(self, _COPIED)

    def _placed(self, seat: int, move: Play) -> Play:
        """A lead (the forced one, if any) or a tile on an end it fits, named or the only
        one; else an IllegalMove with its reason and facts (see kabes.errors)."""
        tile = move.tile
        line = self.line
        if line is None:
            if move.at is not None:
                raise IllegalMove(f"{move}: the lead is a bare tile, with no end",
                                  "lead_has_no_end", {"tile": str(tile), "at": move.at})
            if self.forced_lead is not None and tile is not self.forced_lead:
                raise IllegalMove(f"this hand must be led with {self.forced_lead}, not {tile}",
                                  "must_lead", {"tile": str(tile), "forced": str(self.forced_lead)})
            first = move.first if move.first is not None and tile.has(move.first) else tile.low
            return Play(tile, None, first)
        fitting = [end for end in ENDS if line.fits(tile, end)]
        facts: dict[str, Any] = {"tile": str(tile), "ends": [line.left, line.right]}
        if not fitting:
            raise IllegalMove(f"{tile} fits neither end ({line.left} and {line.right})",
                              "does_not_fit", facts)
        facts["fits"] = fitting
        end = move.at
        if end is None:
            if len(fitting) == 2 and line.left != line.right:
                raise IllegalMove(f"{tile} fits both ends: say which, {tile}@L or {tile}@R",
                                  "say_which_end", facts)
            end = fitting[0]
        elif end not in ENDS:
            raise IllegalMove(f"{move}: a tile goes on the left (@L) or the right (@R) end",
                              "no_such_end", {**facts, "at": end})
        elif end not in fitting:
            side, number = ("left", line.left) if end == LEFT else ("right", line.right)
            raise IllegalMove(f"{tile} does not fit the {side} end, which shows {number}",
                              "wrong_end", {**facts, "end": end, "shows": number})
        return Play(tile, end, _written_first(line, tile, end))

    def _advance(self, seat: int) -> list[Event]:
        """Move the turn on, drawing and passing for those who cannot play, or block."""
        events: list[Event] = []
        while True:
            seat = (seat + 1) % self.players
            if self.can_play(seat):
                self.turn = seat
                return events
            if self.stock_left:
                drawn = self._draw_until_fit(seat)
                events += [Drew(seat, drawn), DrewCount(seat, len(drawn))]
                if self.can_play(seat):
                    self.turn = seat
                    return events
            if not any(self.can_play(s) for s in range(self.players)):
                assert self.last_player is not None
                self._finish(Ending.BLOCKED, self.last_player, False)
                return events
            assert self.line is not None
            self.passes.append((seat, self.line.ends))
            self.voids[seat] = self.voids[seat] | frozenset(self.line.ends)
            events.append(Passed(seat, self.line.ends))

    def _draw_until_fit(self, seat: int) -> tuple[Tile, ...]:
        assert self.line is not None
        left, right = self.line.ends
        drawn: list[Tile] = []
        while self.stock_left:
            tile = self._draw(seat)
            drawn.append(tile)
            if tile.has(left) or tile.has(right):
                break
        # Drawn tiles may hold any number: only the ends just missed are known to be void.
        self.voids[seat] = frozenset((left, right))
        return tuple(drawn)


_COPIED = Fields(
    shared=("players", "drawn", "leader", "forced_lead", "turn", "last_player", "end"),
    lists=("stock", "passes", "draw_counts", "voids", "moves", "played"),
    nested=("hands",),
    records=("line",),
)


def _written_first(line: Line, tile: Tile, end: str) -> int:
    """Write a placed tile as it reads in the line: outer half first on the left end."""
    return tile.other(line.left) if end == LEFT else line.right
