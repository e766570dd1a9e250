"""A round of Mexican Train: the engine, a train per seat, markers, open doubles.

The round's double is the engine; whoever holds it sets it (if nobody does, seats draw in turn
from seat 0 until someone draws it) and plays first. In the first round of turns each player
plays as many tiles as fit their own train, and only there; who can play none draws one, plays
it if it fits, else marks their train. From then on a turn is one tile, on the player's own
train, a marked train or the public train; a double must be satisfied at once, and while one is
open everybody may play only on it. Who cannot play draws one tile and plays it if they can,
otherwise marks their own train and passes. The round ends when a player is out, or when every
player in turn has passed with the stock empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NoReturn

from kabes.board_facts import BoardFacts, TrainView
from kabes.copying import Fields, copy_state
from kabes.errors import IllegalMove
from kabes.events import Drew, DrewCount, EngineSet, Event, MarkerChanged, Passed
from kabes.hand import Hand
from kabes.moves import PUBLIC, Move, Play
from kabes.results import Ending, HandEnd
from kabes.tiles import Tile


@dataclass(slots=True)
class Train:
    """One train: the tiles laid from the engine outwards, each as (touching, open) half."""

    end: int
    laid: list[tuple[int, int]] = field(default_factory=list)

    def place(self, tile: Tile) -> None:
        """Lay ``tile`` on the open end; the caller has checked that it fits."""
        outer = tile.other(self.end)
        self.laid.append((self.end, outer))
        self.end = outer


class TrainHand(Hand):
    """One round of Mexican Train; see the module docstring for the table's own actions."""

    noun = "round"

    def __init__(
        self, deal: list[list[Tile]], stock: list[Tile], engine: Tile, public_train: bool
    ) -> None:
        self.players = len(deal)
        self.hands: list[list[Tile]] = [sorted(h) for h in deal]
        self.stock = list(stock)
        self.drawn = 0
        self.engine = engine
        self.trains = [Train(engine.low) for _ in range(self.players)]
        self.public: Train | None = Train(engine.low) if public_train else None
        self.marked = [False] * self.players
        self.open_double: str | None = None
        """The place (seat number or ``M``) of a double waiting to be satisfied."""
        self.first_turn_done = [False] * self.players
        self.drew_this_turn = False
        """Whether the seat to move has drawn this turn (it may draw only once)."""
        self.drawn_tile: Tile | None = None
        """The tile drawn this turn: the only one the player may still play."""
        self.empty_passes = 0
        self.leader = 0
        self.turn: int | None = None
        self.end: HandEnd | None = None
        self.moves: list[str] = []
        self.played: list[tuple[int, Play]] = []
        """Every tile played so far with its seat, as everybody saw it."""
        self.passes: list[tuple[int, tuple[int, ...]]] = []
        self.draw_counts = [0] * self.players

    def start(self) -> list[Event]:
        """Set the engine (drawing for it if nobody holds it) and start the first turn."""
        if self.turn is not None or self.end is not None:
            return []
        events: list[Event] = []
        setter = next((s for s, h in enumerate(self.hands) if self.engine in h), None)
        seat = 0
        while setter is None:
            tile = self._draw(seat)
            events += [Drew(seat, (tile,)), DrewCount(seat, 1)]
            if tile is self.engine:
                setter = seat
            seat = (seat + 1) % self.players
        self.hands[setter].remove(self.engine)
        self.leader = setter
        events.append(EngineSet(setter, self.engine))
        events += self._begin_turn(setter)
        return events

    def facts(self) -> BoardFacts:
        """The engine, every train with its marker, the open double and the turn's state."""
        trains = tuple(
            TrainView(owner, tuple(t.laid), t.end, self.marked[owner])
            for owner, t in enumerate(self.trains)
        )
        if self.public is not None:
            trains += (TrainView(None, tuple(self.public.laid), self.public.end, False),)
        return BoardFacts(
            voids=(frozenset(),) * self.players,
            engine=self.engine,
            trains=trains,
            open_double=self.open_double,
            first_turns_done=tuple(self.first_turn_done),
            drew_this_turn=self.drew_this_turn,
            empty_passes=self.empty_passes,
        )

    def places(self, seat: int) -> list[str]:
        """Where ``seat`` may play now, in first-fit order."""
        if not self.first_turn_done[seat]:
            return [str(seat)]
        if self.open_double is not None:
            return [self.open_double]
        out = [str(seat)]
        if self.public is not None:
            out.append(PUBLIC)
        out += [str(s) for s in range(self.players) if s != seat and self.marked[s]]
        return out

    def train(self, place: str) -> Train:
        """The train at ``place`` (a seat number or ``M``)."""
        if place == PUBLIC:
            assert self.public is not None
            return self.public
        return self.trains[int(place)]

    def legal_moves(self) -> list[Play]:
        """Every play of the seat to move: tiles ascending, places in first-fit order."""
        if self.turn is None:
            return []
        return self._moves(self.turn)

    def apply(self, move: Move) -> list[Event]:
        """Play ``move`` for the seat to move, then whatever the table does until a choice."""
        play, timed = self._resolve(move)
        seat = self.turn
        assert seat is not None and play.at is not None
        tile = play.tile
        self.train(play.at).place(tile)
        events: list[Event] = [self._lay(seat, play, timed)]
        self.empty_passes = 0
        self.drawn_tile = None
        if play.at == str(seat) and self.marked[seat]:
            self.marked[seat] = False
            events.append(MarkerChanged(seat, False))
        if not self.hands[seat]:
            self._finish(Ending.DOMINO, seat)
            return events
        if not self.first_turn_done[seat]:
            # A drawn tile ends the first turn; otherwise play on while a tile fits.
            if self.drew_this_turn or not self._moves(seat):
                return events + self._end_turn(seat)
            return events
        if tile.is_double:
            # A new obligation: satisfy it, drawing one more tile if need be.
            self.open_double = play.at
            self.drew_this_turn = False
            return events + self._continue(seat)
        if self.open_double == play.at:
            self.open_double = None
        return events + self._end_turn(seat)

    def copy(self) -> TrainHand:
        """An independent copy, for search and what-if; it shares nothing mutable with this
        round (kabes.copying: every attribute is declared in ``_COPIED``)."""
        return copy_state(self, _COPIED)

    # -- the table's own actions ------------------------------------------------------------

    def _moves(self, seat: int) -> list[Play]:
        tiles = [self.drawn_tile] if self.drawn_tile is not None else self.hands[seat]
        places = [(p, self.train(p).end) for p in self.places(seat)]
        return [Play(t, p, end) for t in tiles for p, end in places if t.has(end)]

    def _begin_turn(self, seat: int) -> list[Event]:
        self.turn = seat
        self.drawn_tile = None
        self.drew_this_turn = False
        return self._continue(seat)

    def _continue(self, seat: int) -> list[Event]:
        """Stop if the seat has a move; else draw one tile, or mark and pass."""
        if self._moves(seat):
            return []
        events: list[Event] = []
        if self.stock_left and not self.drew_this_turn:
            tile = self._draw(seat)
            self.drew_this_turn = True
            events += [Drew(seat, (tile,)), DrewCount(seat, 1)]
            self.drawn_tile = tile
            if self._moves(seat):
                return events
            self.drawn_tile = None
        elif not self.drew_this_turn:
            self.empty_passes += 1
        if not self.marked[seat]:
            self.marked[seat] = True
            events.append(MarkerChanged(seat, True))
        numbers = tuple(self.train(p).end for p in self.places(seat))
        self.passes.append((seat, numbers))
        events.append(Passed(seat, numbers))
        if self.empty_passes >= self.players:
            self._finish(Ending.BLOCKED, seat)
            return events
        return events + self._end_turn(seat)

    def _end_turn(self, seat: int) -> list[Event]:
        self.first_turn_done[seat] = True
        return self._begin_turn((seat + 1) % self.players)

    def _placed(self, seat: int, move: Play) -> Play:
        """The drawn tile only, after a draw, on a train it fits that the seat may use, named
        or the only one; else an IllegalMove with its reason and facts (see kabes.errors)."""
        tile = move.tile
        if self.drawn_tile is not None and tile is not self.drawn_tile:
            raise IllegalMove(
                f"after drawing, only the drawn tile {self.drawn_tile} may be played",
                "only_drawn_tile", {"tile": str(tile), "drawn": str(self.drawn_tile)},
            )
        places = self.places(seat)
        fitting = [p for p in places if tile.has(self.train(p).end)]
        at = move.at
        if at is None:
            if not fitting:
                ends = ", ".join(f"{p} ends in {self.train(p).end}" for p in places)
                facts = {"tile": str(tile),
                         "places": [{"train": p, "end": self.train(p).end} for p in places]}
                raise IllegalMove(f"{tile} fits no train you may play on ({ends})",
                                  "fits_no_train", facts)
            if len(fitting) > 1:
                where = ", ".join(fitting)
                example = f"{tile}@{fitting[0]}"
                raise IllegalMove(f"{tile} fits trains {where}: say which, like {example}",
                                  "say_which_train", {"tile": str(tile), "fits": fitting})
            at = fitting[0]
        elif at not in fitting:
            self._refuse(seat, tile, at)
        return Play(tile, at, self.train(at).end)

    def _refuse(self, seat: int, tile: Tile, at: str) -> NoReturn:
        """Why ``tile`` may not go on train ``at``, as an IllegalMove with its reason."""
        facts: dict[str, Any] = {"tile": str(tile), "train": at}
        if at == PUBLIC and self.public is None:
            raise IllegalMove("this table plays without a public train", "no_public_train", facts)
        if at != PUBLIC and (not at.isdigit() or int(at) >= self.players):
            raise IllegalMove(f"there is no train {at}: seats go from 0 to {self.players - 1}",
                              "no_such_train", {**facts, "players": self.players})
        if at not in self.places(seat):
            if not self.first_turn_done[seat]:
                raise IllegalMove("in the first round of turns you play only on your own train",
                                  "own_train_first_round", {**facts, "own": str(seat)})
            if self.open_double is not None:
                raise IllegalMove(
                    f"the double on train {self.open_double} must be satisfied first",
                    "double_open", {**facts, "double_train": self.open_double,
                                    "end": self.train(self.open_double).end},
                )
            raise IllegalMove(f"train {at} is not marked: you may not play on it",
                              "not_your_train", facts)
        end = self.train(at).end
        raise IllegalMove(f"{tile} does not fit train {at}, which ends in {end}",
                          "does_not_fit_train", {**facts, "end": end})


_COPIED = Fields(
    shared=("players", "drawn", "engine", "open_double", "drew_this_turn", "drawn_tile",
            "empty_passes", "leader", "turn", "end"),
    lists=("stock", "marked", "first_turn_done", "moves", "played", "passes", "draw_counts"),
    nested=("hands",),
    records=("trains", "public"),
)
