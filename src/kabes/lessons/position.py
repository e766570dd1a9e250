"""A lesson's positions built by the engine, and a learner's try judged by it.

Every step's position is a game record (the lesson's seat count, options and earlier hands,
then the step's hand with the moves that lead to it), replayed by :func:`kabes.records.replay`
exactly as a record of a game is: a lesson cannot show a position the rules would not reach,
nor accept a move they would refuse. A try is applied to a copy of the position; the lesson's
words come with the engine's own refusal (its stable ``reason`` and ``facts``), so a client
can say why in the learner's language and notation.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from kabes.errors import BadRecord, KabesError
from kabes.events import Event
from kabes.lessons.model import Lesson, Step, Texts
from kabes.match import Match
from kabes.moves import Play, parse_move
from kabes.records import replay
from kabes.tiles import full_set, parse_tile


def step_records(lesson: Lesson) -> list[dict[str, Any]]:
    """The record of each step's position, in step order (see :class:`Step` for how a step
    without a hand goes on from the one before)."""
    records: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for step in lesson.steps:
        if step.hand is not None:
            deal = [list(seat) for seat in step.hand.deal]
            stock = step.hand.stock if step.hand.stock is not None else _rest(lesson, deal)
            hand: dict[str, Any] = {"deal": deal, "stock": list(stock),
                                    "moves": list(step.hand.moves)}
            if step.hand.leader is not None:
                hand["leader"] = step.hand.leader
            current = {"variant": lesson.variant, "players": lesson.players,
                       "options": dict(lesson.options),
                       "hands": [dict(h) for h in lesson.before] + [hand]}
        else:
            assert current is not None  # model.read_lesson: the first step has a hand
            before = lesson.steps[len(records) - 1].task
            current = copy.deepcopy(current)
            current["hands"][-1]["moves"] += before.accept[:1] + before.then
        current["hands"][-1]["moves"] += step.moves
        records.append(copy.deepcopy(current))
    return records


def _rest(lesson: Lesson, deal: list[list[str]]) -> list[str]:
    """The tiles not dealt, ascending: the stock a lesson leaves out."""
    top = Match(lesson.variant, lesson.players, lesson.options).rules.top
    dealt = set()
    for seat in deal:
        for text in seat:
            try:
                dealt.add(parse_tile(text, top))
            except KabesError:
                return []  # the replay names the bad tile
    return [str(t) for t in full_set(top) if t not in dealt]


def position(lesson: Lesson, index: int) -> Match:
    """The match at step ``index`` (0 for the first); BadRecord naming the step if the
    rules do not reach it."""
    record = step_records(lesson)[index]
    try:
        return replay(record)
    except BadRecord as err:
        raise BadRecord(f"{lesson.id}, step {index + 1}: {err.message}") from None


@dataclass(slots=True)
class Attempt:
    """The engine's and the lesson's answer to one try."""

    correct: bool
    text: Texts | None
    """The lesson's words: its ``done`` when right, its answer to this try when wrong."""
    reason: str | None = None
    """The engine's refusal code when the rules refuse the move outright."""
    facts: dict[str, Any] = field(default_factory=dict)
    message: str | None = None
    """The engine's refusal in English (for logs and tests)."""
    after: Match | None = None
    """When right: the position after the move and the table's ``then`` moves."""
    events: list[Event] = field(default_factory=list)
    """When right: everything that happened, the learner's move first."""


def try_move(lesson: Lesson, index: int, text: str, match: Match | None = None) -> Attempt:
    """Judge the learner's ``text`` (record notation) at a ``play`` step. ``match``: that
    step's position if the caller already has it (it is not changed)."""
    step = lesson.steps[index]
    task = step.task
    if task.kind != "play":
        raise ValueError(f"step {index + 1} of {lesson.id} is not a 'play' task")
    before = match if match is not None else position(lesson, index)
    here = copy.deepcopy(before)
    top = here.rules.top
    try:
        move = parse_move(text, top)
        events = here.apply(step.seat, move)
    except KabesError as err:
        return Attempt(False, _wrong_text(step, text, before), err.reason, dict(err.facts),
                       err.message)
    if not isinstance(move, Play) or not any(
        _places(before, move) & _places(before, parse_move(a, top)) for a in task.accept
    ):
        return Attempt(False, _wrong_text(step, text, before) or task.others)
    for then in task.then:
        events += here.apply(None, parse_move(then, top))
    return Attempt(True, task.done, after=here, events=events)


def try_choice(lesson: Lesson, index: int, choice: int, match: Match | None = None) -> Attempt:
    """Judge answer number ``choice`` (0 for the first) at a ``choose`` step; when right,
    with the position after the table's ``then`` moves."""
    task = lesson.steps[index].task
    if task.kind != "choose":
        raise ValueError(f"step {index + 1} of {lesson.id} is not a 'choose' task")
    if not 0 <= choice < len(task.choices):
        raise ValueError(f"step {index + 1} of {lesson.id} has {len(task.choices)} choices")
    picked = task.choices[choice]
    if not picked.right:
        return Attempt(False, picked.why)
    after, events = table_moves(lesson, index, match)
    return Attempt(True, picked.why, after=after, events=events)


def read_on(lesson: Lesson, index: int, match: Match | None = None) -> Attempt:
    """Go on from a ``read`` step: its ``done`` words and the position after the table's
    ``then`` moves (a read step can show how a hand goes on or ends)."""
    task = lesson.steps[index].task
    if task.kind != "read":
        raise ValueError(f"step {index + 1} of {lesson.id} is not a 'read' task")
    after, events = table_moves(lesson, index, match)
    return Attempt(True, task.done, after=after, events=events)


def table_moves(lesson: Lesson, index: int, match: Match | None = None
                ) -> tuple[Match, list[Event]]:
    """The position after step ``index``'s ``then`` moves (on a copy), and their events."""
    after = copy.deepcopy(match if match is not None else position(lesson, index))
    events: list[Event] = []
    for move in lesson.steps[index].task.then:
        events += after.apply(None, parse_move(move, after.rules.top))
    return after, events


def _places(match: Match, move: Any) -> set[tuple[Any, str | None]]:
    """Where ``move`` puts its tile, among the legal moves of ``match``: a move that leaves
    out an end names the end it can only go on (or both, where both show its number)."""
    if not isinstance(move, Play) or match.hand is None:
        return set()
    return {(m.tile, m.at) for m in match.hand.legal_moves()
            if m.tile is move.tile and (move.at is None or m.at == move.at)}


def _wrong_text(step: Step, text: str, match: Match) -> Texts | None:
    """The lesson's words for a try, if it names that move."""
    top = match.rules.top
    try:
        move = parse_move(text, top)
    except KabesError:
        return None
    for wrong in step.task.wrong:
        for listed in wrong.moves:
            if _same_try(match, move, parse_move(listed, top)):
                return wrong.text
    return None


def _same_try(match: Match, move: Any, listed: Any) -> bool:
    """A listed wrong move matches a try of that tile at that place (a try that leaves out
    the place matches where the tile can only go); a listed bare tile matches the tile
    wherever it is tried."""
    if not isinstance(move, Play) or not isinstance(listed, Play) or move.tile is not listed.tile:
        return False
    if listed.at is None or listed.at == move.at:
        return True
    return bool(move.at is None and _places(match, move) & _places(match, listed))
