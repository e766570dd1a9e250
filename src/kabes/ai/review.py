"""A hand reviewed for one seat: the decisions where the expert would have played otherwise.

:func:`decisions` replays a finished hand (from a match, or from its game record with the
hands before it, which give the scores the expert plays for) and lists the seat's own choices:
every move it made with two or more distinct legal moves, each with the index of the move in
the hand's ``moves`` (from 0), the move as the table played it (its end or train named), and
the seat's :class:`~kabes.views.View` just before it, the one place where hidden tiles are
hidden. A forced move, and a move the table made for the seat when its clock ran out
(``timeout``), are not the seat's choice and are not listed.

:func:`reconsider` asks the expert (:class:`kabes.ai.expert.Expert`) about one decision and
returns an :class:`Alternative` when its move puts a different tile, or the same tile in a
different place (:meth:`kabes.moves.Play.same_place`; both ends of a line showing the same
number are one place), with the expert's reason. :func:`review` does both for a whole hand,
one position after another; the server searches the positions at once in its workers.

Each position gets its own seed, drawn in order from the review's ``seed``. The expert
searches as many worlds as its time ``budget`` allows, which depends on the machine; with
``worlds`` given (and a budget that does not run out first) a review is exactly repeatable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from random import Random
from typing import Any, Final

from kabes.ai.expert import Expert
from kabes.ai.knowledge import distinct
from kabes.errors import BadOptions, BadRecord, KabesError
from kabes.match import Match
from kabes.moves import LEFT, RIGHT, Play, Timeout, parse_move
from kabes.records import replay, to_record
from kabes.views import View, view

REVIEW_BUDGET: Final = 0.25
"""Seconds the expert searches each position of a review: about a quarter of the 1 s it takes
over a move at the table, since a hand has several positions to review and the answer is
awaited between hands. Enough for its choice to be clear where a move is clearly worse."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice the seat made: where, what it played, and what it could see then."""

    index: int
    """The move's index in the hand's ``moves`` (0 for the hand's first move)."""
    played: Play
    """The move as the table played it (its end or train named)."""
    view: View
    """The seat's view just before the move."""


@dataclass(frozen=True, slots=True)
class Alternative:
    """A decision where the expert would have played otherwise, and its reason."""

    index: int
    """The move's index in the hand's ``moves`` (0 for the hand's first move)."""
    played: Play
    better: Play
    """The expert's move in the same position."""
    reason: str
    """The expert's reason for its move, in English."""
    view: View
    """The seat's view just before the move."""


Game = Match | Mapping[str, Any]
"""A match, or its game record (kabes.records)."""


def decisions(game: Game, seat: int, hand: int | None = None) -> list[Decision]:
    """The seat's choices in hand number ``hand`` (1 for the first; the last hand dealt if
    None): every move it made with two or more distinct legal moves. BadOptions if there is
    no such seat or hand; BadRecord if the record breaks a rule."""
    record = to_record(game) if isinstance(game, Match) else game
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands:
        raise BadOptions("there is no hand to review: none has been dealt")
    number = len(hands) if hand is None else hand
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(hands):
        raise BadOptions(f"there is no hand {hand} to review (hands 1 to {len(hands)})")
    reviewed = hands[number - 1]
    if not isinstance(reviewed, Mapping):
        raise BadRecord(f"hand {number} must be an object")
    moves = reviewed.get("moves")
    if not isinstance(moves, list):
        raise BadRecord(f"hand {number} has no list of moves")
    start = {**reviewed, "moves": [], "result": None}
    match = replay({**record, "hands": [*hands[: number - 1], start], "result": None})
    if not 0 <= seat < match.players:
        raise BadOptions(f"seat {seat} is not at this table (0 to {match.players - 1})")
    top = match.rules.top
    out: list[Decision] = []
    for index, text in enumerate(moves):
        at = f"hand {number}, move {index + 1} ({text!r})"
        if not isinstance(text, str):
            raise BadRecord(f"{at}: a move is a string")
        if match.hand is None or not match.hand_in_progress:
            raise BadRecord(f"{at}: the hand is already over")
        mover = match.hand.turn
        before = view(match, seat) if mover == seat else None
        try:
            move = parse_move(text, top)
            match.apply(None, move)
        except KabesError as err:
            raise BadRecord(f"{at}: {err.message}") from None
        if before is None or isinstance(move, Timeout) or len(distinct(before)) < 2:
            continue
        played = match.hand.played[-1][1]
        out.append(Decision(index, played, before))
    return out


def reconsider(
    decision: Decision, seed: int, budget: float = REVIEW_BUDGET, worlds: int | None = None
) -> Alternative | None:
    """The expert's move in the decision's position, if it differs from the one played
    (another tile, or another place); None when the expert agrees."""
    hint = Expert(Random(seed), budget, max_worlds=worlds).hint(decision.view)
    better = hint.move
    assert isinstance(better, Play), "the expert plays a tile, never a timeout"
    if same_choice(decision.view, decision.played, better):
        return None
    return Alternative(decision.index, decision.played, better, hint.reason, decision.view)


def same_choice(seen: View, one: Play, other: Play) -> bool:
    """Whether two plays are the same choice in ``seen``: the same tile in the same place,
    both ends of a line that show the same number being one place."""
    if one.tile is not other.tile:
        return False
    if seen.ends is not None and seen.ends[0] == seen.ends[1]:
        return _end(one) == _end(other)
    return one.same_place(other)


def _end(play: Play) -> str | None:
    """Where the play goes, the right end counted as the left (both show one number)."""
    return LEFT if play.at == RIGHT else play.at


def seeds(seed: int, count: int) -> list[int]:
    """Each position's seed, drawn in order from the review's ``seed``."""
    rng = Random(seed)
    return [rng.getrandbits(64) for _ in range(count)]


def review(
    game: Game,
    seat: int,
    budget: float = REVIEW_BUDGET,
    seed: int = 0,
    hand: int | None = None,
    worlds: int | None = None,
) -> list[Alternative]:
    """The decisions of ``seat`` in hand ``hand`` (the last if None) where the expert, given
    ``budget`` seconds (and at most ``worlds`` worlds) for each, would have played otherwise,
    in the order they were played; empty when it agrees with every move."""
    found = decisions(game, seat, hand)
    out = []
    for decision, own in zip(found, seeds(seed, len(found)), strict=True):
        alternative = reconsider(decision, own, budget, worlds)
        if alternative is not None:
            out.append(alternative)
    return out
