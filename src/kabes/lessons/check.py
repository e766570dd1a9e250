"""Everything a lesson claims, checked against the engine.

For every step: its position replays as a record; at a ``play`` step it is the learner's
turn, every accepted move is legal and does what the step claims (the ``expect`` fields of the
hand's and the match's result, after the table's ``then`` moves), every other legal move gets
the lesson's words, and every listed wrong move the rules refuse is refused for the reason the
lesson gives. :func:`problems` lists what is wrong, in words an author can act on; the tests
run it on every lesson, and ``kabes learn --check FILE`` on a lesson being written.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from kabes.errors import KabesError
from kabes.lessons.model import Lesson
from kabes.lessons.position import position, try_move
from kabes.match import Match
from kabes.moves import parse_move
from kabes.rules import VARIANTS

HAND_RESULT_FIELDS = ("ending", "name", "capicu", "winner", "points", "scores", "leader",
                      "next_leader", "counts")
MATCH_RESULT_FIELDS = ("finished", "winners", "scores", "kochon")


def problems(lesson: Lesson) -> list[str]:
    """What in ``lesson`` the engine does not bear out (empty when it all holds)."""
    if lesson.variant not in VARIANTS:
        return [f"{lesson.id}: no variant {lesson.variant!r}"]
    out: list[str] = []
    for index, step in enumerate(lesson.steps):
        where = f"{lesson.id}, step {index + 1}"
        try:
            match = position(lesson, index)
        except KabesError as err:
            out.append(err.message)
            break  # the steps after it go on from it
        if not 0 <= step.seat < lesson.players:
            out.append(f"{where}: seat {step.seat} is not at a table of {lesson.players}")
            continue
        nxt = lesson.steps[index + 1] if index + 1 < len(lesson.steps) else None
        if nxt is not None and nxt.hand is None and len(step.task.accept) > 1:
            out.append(f"{where}: the next step goes on from this one, so accept one move")
        if step.task.kind == "read" and step.task.done is not None and not step.task.then:
            out.append(f"{where}: a read step's 'done' is said when the table plays its "
                       "'then' moves; with none, put those words in 'text'")
        if step.task.kind == "play":
            out += _play_problems(lesson, index, match, where)
        else:
            out += _outcome_problems(lesson, index, match, None, where)
    return out


def _play_problems(lesson: Lesson, index: int, match: Match, where: str) -> list[str]:
    step = lesson.steps[index]
    task = step.task
    if match.turn != step.seat:
        return [f"{where}: the learner (seat {step.seat}) is not to play here "
                f"(turn: {match.turn})"]
    out: list[str] = []
    top = match.rules.top
    for text in task.accept:
        attempt = try_move(lesson, index, text, match)
        if not attempt.correct:
            why = attempt.message or "the lesson does not accept it"
            out.append(f"{where}: accepted move {text!r} is refused: {why}")
            continue
        out += _outcome_problems(lesson, index, match, text, where)
    assert match.hand is not None  # it is the learner's turn
    for legal in match.hand.legal_moves():
        attempt = try_move(lesson, index, str(legal), match)
        if not attempt.correct and attempt.text is None:
            out.append(f"{where}: legal move {legal} has no words (list it in 'wrong' or "
                       "give 'others')")
    for wrong in task.wrong:
        for text in wrong.moves:
            try:
                parse_move(text, top)
            except KabesError as err:
                out.append(f"{where}: wrong move {text!r}: {err.message}")
                continue
            attempt = try_move(lesson, index, text, match)
            if attempt.correct:
                out.append(f"{where}: wrong move {text!r} is one the step accepts")
            elif wrong.reason is not None and attempt.reason != wrong.reason:
                out.append(f"{where}: wrong move {text!r} is refused for "
                           f"{attempt.reason or 'no rule'} ({attempt.message or 'legal'}), "
                           f"not {wrong.reason}")
            elif wrong.reason is None and attempt.reason is not None:
                out.append(f"{where}: wrong move {text!r} is refused by the rules "
                           f"({attempt.reason}): say so with \"reason\"")
    return out


def _outcome_problems(lesson: Lesson, index: int, match: Match, move: str | None,
                      where: str) -> list[str]:
    """The step's ``then`` moves and ``expect`` claims, after ``move`` (if any)."""
    task = lesson.steps[index].task
    here = copy.deepcopy(match)
    top = here.rules.top
    after = f" after {move}" if move else ""
    try:
        if move is not None:
            here.apply(None, parse_move(move, top))
        for then in task.then:
            if not here.hand_in_progress:
                return [f"{where}: 'then' move {then!r}{after}: the hand is already over"]
            here.apply(None, parse_move(then, top))
    except KabesError as err:
        return [f"{where}: 'then'{after}: {err.message}"]
    out: list[str] = []
    if task.expect_hand is not None:
        result = here.log[-1].result if here.log else None
        if result is None or here.hand_in_progress:
            out.append(f"{where}: expects a hand result{after}, but the hand is not over")
        else:
            out += _differences(task.expect_hand, result.to_json(), HAND_RESULT_FIELDS,
                                f"{where}{after}, hand result")
    if task.expect_match is not None:
        out += _differences(task.expect_match, here.current_result().to_json(),
                            MATCH_RESULT_FIELDS, f"{where}{after}, match result")
    return out


def _differences(claimed: Mapping[str, Any], actual: Mapping[str, Any],
                 known: tuple[str, ...], where: str) -> list[str]:
    out = []
    for key, value in claimed.items():
        if key not in known:
            out.append(f"{where}: no field {key!r} (known: {', '.join(known)})")
        elif actual[key] != value:
            out.append(f"{where}: {key} is {actual[key]!r}, the lesson says {value!r}")
    return out

