"""The lessons' answers (docs/lessons.md, "Served over HTTP"), as the JSON values a client
reads: every variant's path, a lesson in one language, a try judged by the engine.

One source for both places a lesson is taken: the server's ``/api/lessons`` routes
(kabes.server.http.lessons_api, which documents these shapes with its msgspec structs in
kabes.server.http.lesson_messages) answer with these, and so does the local table's worker on a
phone with no network. Texts go out in the asked language only; each step's position goes
out as the learner seat's VIEW exactly as a table's ``update`` carries it; a try is judged on
a copy of the step's position (kabes.lessons.position), and nothing is kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from kabes.lessons.library import lessons, next_lesson, path
from kabes.lessons.model import Lesson, Texts
from kabes.lessons.position import Attempt, position, read_on, try_choice, try_move
from kabes.match import Match
from kabes.rules import VARIANTS
from kabes.table import wire
from kabes.table.refusals import ErrorCode, Refused
from kabes.views import view
from kabes.words import LANGUAGES


def language(lang: str) -> str:
    """``lang`` if the lessons are written in it, else Refused ``bad_language``."""
    if lang not in LANGUAGES:
        raise Refused(ErrorCode.BAD_LANGUAGE,
                      f"no language {lang!r}; the languages are {', '.join(LANGUAGES)}")
    return lang


def lesson_paths(lang: str, done: Iterable[str] = ()) -> dict[str, Any]:
    """Every variant's path of lessons, with those of ``done`` marked done
    (``GET /api/lessons``)."""
    lang, finished = language(lang), set(done)
    paths = []
    for variant, rules in VARIANTS.items():
        following = next_lesson(variant, finished)
        paths.append({
            "variant": variant, "title": rules.title,
            "next": None if following is None else following.id,
            "lessons": [{
                "id": lesson.id, "order": lesson.order, "title": lesson.title[lang],
                "summary": lesson.summary[lang], "topics": list(lesson.topics),
                "steps": len(lesson.steps), "done": lesson.id in finished,
            } for lesson in path(variant)],
        })
    return {"languages": list(LANGUAGES), "paths": paths}


def lesson_body(lesson_id: str, lang: str) -> dict[str, Any]:
    """One lesson: each step's text, task and position (``GET /api/lessons/{id}``)."""
    lang = language(lang)
    lesson = find(lesson_id)
    positions = _positions(lesson.id)
    steps = [{
        "text": step.text[lang],
        "seat": step.seat,
        "task": {"kind": step.task.kind, "choices": [c.text[lang] for c in step.task.choices],
                 "hint": _say(step.task.hint, lang), "then": list(step.task.then)},
        "view": _view(positions[index], step.seat),
    } for index, step in enumerate(lesson.steps)]
    return {"id": lesson.id, "variant": lesson.variant, "players": lesson.players,
            "order": lesson.order, "title": lesson.title[lang],
            "summary": lesson.summary[lang], "topics": list(lesson.topics), "steps": steps,
            "remember": [t[lang] for t in lesson.remember], "next": following(lesson)}


def lesson_try(lesson_id: str, lang: str, step: int, move: str | None = None,
               choice: int | None = None) -> dict[str, Any]:
    """A try at a step judged by the engine (``POST /api/lessons/{id}/try``): ``move`` at a
    ``play`` step, ``choice`` at a ``choose`` step, neither at a ``read`` step; Refused
    ``bad_step`` for a step, a choice or a try that does not fit."""
    lang = language(lang)
    lesson = find(lesson_id)
    if step >= len(lesson.steps):
        raise Refused(ErrorCode.BAD_STEP,
                      f"{lesson.id} has {len(lesson.steps)} steps, counted from 0")
    task = lesson.steps[step].task
    at = _positions(lesson.id)[step]
    if task.kind == "play" and move is not None and choice is None:
        answer = try_move(lesson, step, move, at)
    elif task.kind == "choose" and choice is not None and move is None:
        if choice >= len(task.choices):
            raise Refused(ErrorCode.BAD_STEP,
                          f"step {step} has {len(task.choices)} choices, counted from 0")
        answer = try_choice(lesson, step, choice, at)
    elif task.kind == "read" and move is None and choice is None:
        answer = read_on(lesson, step, at)
    else:
        wanted = {"play": "a 'move'", "choose": "a 'choice'"}.get(task.kind)
        raise Refused(ErrorCode.BAD_STEP, f"step {step} is a {task.kind!r} step"
                      + (f": send {wanted} and nothing else" if wanted else
                         ": send the step alone to go on"))
    return _answer(answer, lesson.steps[step].seat, lang)


def find(lesson_id: str) -> Lesson:
    """The lesson ``lesson_id``, or Refused ``not_found``."""
    found = lessons().get(lesson_id)
    if found is None:
        raise Refused(ErrorCode.NOT_FOUND, f"no lesson {lesson_id!r}")
    return found


def following(lesson: Lesson) -> str | None:
    """The lesson after this one in its path."""
    taught = path(lesson.variant)
    at = taught.index(lesson)
    return taught[at + 1].id if at + 1 < len(taught) else None


@cache
def _positions(lesson_id: str) -> tuple[Match, ...]:
    """Each step's position, built once per process (lessons do not change while it runs;
    the positions are only read, and tries work on copies)."""
    lesson = lessons()[lesson_id]
    return tuple(position(lesson, index) for index in range(len(lesson.steps)))


def _view(match: Match, seat: int) -> dict[str, Any]:
    return wire.view_json(view(match, seat), None, None)


def _say(text: Texts | None, lang: str) -> str | None:
    return None if text is None else text[lang]


def _answer(answer: Attempt, seat: int, lang: str) -> dict[str, Any]:
    return {
        "correct": answer.correct,
        "text": _say(answer.text, lang),
        "reason": answer.reason,
        "facts": dict(answer.facts),
        "view": None if answer.after is None else _view(answer.after, seat),
        "events": [wire.event_json(e) for e in answer.events if e.to is None or e.to == seat],
    }
