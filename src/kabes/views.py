"""A seat's view of a match: the one place where hidden information is hidden.

Everything a player, a computer player or a client is shown goes through :func:`view`. A seat
sees its own tiles, the others' tile counts, the line (or the trains, markers and the open
double), the stock size, every pass with its numbers, every draw's size, the scores, whose turn
it is and, when it is this seat's turn, its legal moves. Once a hand is over, every hand is
shown face up.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from kabes.board_facts import TrainView, no_board
from kabes.errors import BadOptions
from kabes.explain import Explanation
from kabes.hand import Hand
from kabes.match import Match
from kabes.moves import Play
from kabes.options import Options
from kabes.results import HandResult, MatchResult
from kabes.tiles import Tile

__all__ = ["OWN_FIELDS", "Own", "TrainView", "View", "own_view", "view", "views_of"]

OWN_FIELDS = ("seat", "hand", "legal")
"""The fields in which one seat's view differs from another's at the same moment: its own
tiles and its own moves. Everything else a view holds is public."""


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may know of a match at this moment."""

    variant: str
    players: int
    seat: int
    teams: bool
    options: Options
    hand_number: int
    """1 for the first hand (or round); 0 before any deal."""
    hand: tuple[Tile, ...]
    counts: tuple[int, ...]
    """Tiles in each seat's hand."""
    stock: int
    turn: int | None
    leader: int | None
    legal: tuple[Play, ...]
    """This seat's legal moves, when it is this seat's turn."""
    line: tuple[tuple[int, int], ...] | None
    ends: tuple[int, int] | None
    forced_lead: Tile | None
    engine: Tile | None
    trains: tuple[TrainView, ...]
    open_double: str | None
    played: tuple[tuple[int, Play], ...]
    """Every tile played this hand, in order, with the seat that played it."""
    passes: tuple[tuple[int, tuple[int, ...]], ...]
    draws: tuple[int, ...]
    """How many tiles each seat has drawn this hand."""
    voids: tuple[frozenset[int], ...]
    """Numbers each seat is publicly known not to hold (from its passes and draws)."""
    scores: tuple[int, ...]
    hands_played: int
    """Hands (or rounds) finished so far in the match."""
    hand_wins: tuple[int, ...]
    """Hands won so far, per party (the Wa tie-break)."""
    last_player: int | None
    """Who played the last tile on the line (the blocker, if the hand blocks now)."""
    first_turns_done: tuple[bool, ...]
    """Mexican Train: which seats have had their first turn of the round."""
    drew_this_turn: bool
    """Mexican Train: the seat to move has already drawn this turn."""
    empty_passes: int
    """Mexican Train: passes in a row made with the stock empty."""
    revealed: tuple[tuple[Tile, ...], ...] | None
    """Every hand face up, once the hand is over."""
    last_result: HandResult | None
    last_explanation: Explanation | None
    """How the last hand's result follows from its end (kabes.explain), once it is over."""
    match_result: MatchResult | None

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to move."""
        return self.turn == self.seat

    def party(self, seat: int) -> int:
        """The team (seats 0 and 2 are team 0) or the seat itself."""
        return seat % 2 if self.teams else seat


def view(match: Match, seat: int) -> View:
    """What ``seat`` may see of ``match`` now."""
    if not 0 <= seat < match.players:
        raise BadOptions(f"seat {seat} is not at this table (0 to {match.players - 1})")
    return _seat_view(match, _public(match), seat)


@dataclass(frozen=True, slots=True)
class Own:
    """What one seat's view holds that another's does not (:data:`OWN_FIELDS`)."""

    seat: int
    hand: tuple[Tile, ...]
    legal: tuple[Play, ...]


def views_of(match: Match) -> tuple[View, tuple[Own, ...]]:
    """Every seat's view of ``match`` now, worked out once (a server tells every seat of a
    change): seat 0's whole view, and each seat's own part, seat 0's included. Seat ``s``'s
    view is seat 0's with ``s``'s own part in its place (``own_view``), exactly :func:`view`."""
    hand = match.hand
    owns = tuple(
        Own(seat,
            () if hand is None else tuple(hand.hands[seat]),
            tuple(hand.legal_moves()) if hand is not None and hand.turn == seat else ())
        for seat in range(match.players)
    )
    first = owns[0]
    return View(seat=0, hand=first.hand, legal=first.legal, **_public(match)), owns


def own_view(first: View, own: Own) -> View:
    """A seat's whole view from seat 0's and its own part (see :func:`views_of`)."""
    return replace(first, seat=own.seat, hand=own.hand, legal=own.legal)


def _seat_view(match: Match, public: dict[str, Any], seat: int) -> View:
    """``seat``'s view: the public part, and its own tiles and moves (:data:`OWN_FIELDS`)."""
    hand = match.hand
    return View(
        seat=seat,
        hand=() if hand is None else tuple(hand.hands[seat]),
        legal=tuple(hand.legal_moves()) if hand is not None and hand.turn == seat else (),
        **public,
    )


def _public(match: Match) -> dict[str, Any]:
    """What every seat is shown alike: every field of a view but :data:`OWN_FIELDS`."""
    hand = match.hand
    board = no_board(match.players) if hand is None else hand.facts()
    nobody = (0,) * match.players
    return {
        "variant": match.variant,
        "players": match.players,
        "teams": match.rules.teams,
        "options": match.options,
        "hand_number": len(match.log),
        "counts": nobody if hand is None else tuple(len(h) for h in hand.hands),
        "stock": 0 if hand is None else hand.stock_left,
        "turn": None if hand is None else hand.turn,
        "leader": None if hand is None else hand.leader,
        "line": board.line,
        "ends": board.ends,
        "forced_lead": board.forced_lead,
        "engine": board.engine,
        "trains": board.trains,
        "open_double": board.open_double,
        "played": () if hand is None else tuple(hand.played),
        "passes": () if hand is None else tuple(hand.passes),
        "draws": nobody if hand is None else tuple(hand.draw_counts),
        "voids": board.voids,
        "scores": tuple(match.state.scores),
        "hands_played": match.state.hands_played,
        "hand_wins": tuple(match.state.hand_wins),
        "last_player": board.last_player,
        "first_turns_done": board.first_turns_done,
        "drew_this_turn": board.drew_this_turn,
        "empty_passes": board.empty_passes,
        "revealed": _face_up(hand),
        "last_result": match.log[-1].result if match.log else None,
        "last_explanation": match.log[-1].explanation if match.log else None,
        "match_result": match.result,
    }


def _face_up(hand: Hand | None) -> tuple[tuple[Tile, ...], ...] | None:
    """Every hand, but only once the hand is over."""
    if hand is None or hand.end is None:
        return None
    return tuple(tuple(h) for h in hand.hands)
