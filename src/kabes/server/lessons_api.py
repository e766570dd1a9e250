"""The lessons over HTTP (docs/lessons.md): the paths, a lesson, a try, a lesson finished.

Texts go out in the asked language only; each step's position goes out as the learner seat's
VIEW exactly as a table's ``update`` carries it, so a client draws it with its game code. A try
is judged by the engine (kabes.lessons.position) on a copy of the position: nothing is stored
but a finished lesson, per player, so a guest's progress follows them to every device.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

import msgspec
from fastapi import FastAPI, Query, Request
from pydantic import BaseModel

from kabes.lessons.library import lessons, next_lesson, path
from kabes.lessons.model import Lesson, Texts
from kabes.lessons.position import Attempt, position, read_on, try_choice, try_move
from kabes.match import Match
from kabes.rules import VARIANTS
from kabes.server import wire
from kabes.server.callers import Callers
from kabes.server.http_input import read_body
from kabes.server.protocol import ErrorCode, LessonTry, Refused
from kabes.server.store import Store
from kabes.views import view
from kabes.words import LANGUAGES

TRY_SCHEMA = msgspec.json.schema_components([LessonTry])[1]["LessonTry"]
"""The try's body in the OpenAPI document (it is read by msgspec, as every input is)."""
Language = Annotated[str, Query(description="One of " + ", ".join(LANGUAGES) + ".")]


class LessonEntry(BaseModel):
    """A lesson as its variant's path lists it."""

    id: str
    order: int
    title: str
    summary: str
    topics: list[str]
    steps: int
    done: bool


class LessonPath(BaseModel):
    """One variant's lessons in the order they are taught, and the next one to take."""

    variant: str
    title: str
    next: str | None
    lessons: list[LessonEntry]


class LessonPaths(BaseModel):
    """Every variant's path."""

    languages: list[str]
    paths: list[LessonPath]


class StepTask(BaseModel):
    """What the learner does at a step: its kind, a choose task's answers, the hint."""

    kind: str
    choices: list[str]
    hint: str | None
    then: list[str]
    """The moves the table makes once the task is done (a read step's are shown by trying
    it: the answer carries the position after them)."""


class LessonStep(BaseModel):
    """A step: its text, the learner's seat, its task and the position as a VIEW."""

    text: str
    seat: int
    task: StepTask
    view: dict[str, Any]


class LessonBody(BaseModel):
    """A whole lesson in one language."""

    id: str
    variant: str
    players: int
    order: int
    title: str
    summary: str
    topics: list[str]
    steps: list[LessonStep]
    remember: list[str]
    next: str | None


class TryAnswer(BaseModel):
    """The engine's and the lesson's answer to a try."""

    correct: bool
    text: str | None
    reason: str | None
    facts: dict[str, Any]
    view: dict[str, Any] | None
    events: list[dict[str, Any]]


class Finished(BaseModel):
    """A lesson marked finished, and the next of its path."""

    id: str
    done: bool
    next: str | None


def lesson_routes(app: FastAPI, store: Store) -> None:
    """Add the lesson routes to ``app``."""

    callers = Callers(store)

    async def finished_by(request: Request) -> set[str]:
        caller = await callers.maybe(request)
        return set() if caller is None else await store.lessons_finished(caller.player)

    @app.get("/api/lessons", tags=["lessons"], response_model=LessonPaths)
    async def lesson_paths(request: Request, lang: Language = "en") -> dict[str, Any]:
        """Every variant's path of lessons, with the ones the token's player finished."""
        language = _language(lang)
        done = await finished_by(request)
        paths: list[dict[str, Any]] = []
        for variant, rules in VARIANTS.items():
            taught = path(variant)
            following = next_lesson(variant, done)
            paths.append({
                "variant": variant,
                "title": rules.title,
                "next": None if following is None else following.id,
                "lessons": [{
                    "id": lesson.id, "order": lesson.order,
                    "title": lesson.title[language], "summary": lesson.summary[language],
                    "topics": list(lesson.topics), "steps": len(lesson.steps),
                    "done": lesson.id in done,
                } for lesson in taught],
            })
        return {"languages": list(LANGUAGES), "paths": paths}

    @app.get("/api/lessons/{lesson_id}", tags=["lessons"], response_model=LessonBody)
    async def lesson_body(lesson_id: str, lang: Language = "en") -> dict[str, Any]:
        """One lesson: each step's text, task and position (the learner's VIEW)."""
        language = _language(lang)
        lesson = _lesson(lesson_id)
        steps: list[dict[str, Any]] = []
        for index, step in enumerate(lesson.steps):
            task = step.task
            steps.append({
                "text": step.text[language],
                "seat": step.seat,
                "task": {
                    "kind": task.kind,
                    "choices": [c.text[language] for c in task.choices],
                    "hint": _say(task.hint, language),
                    "then": list(task.then),
                },
                "view": _view(_positions(lesson.id)[index], step.seat),
            })
        return {
            "id": lesson.id, "variant": lesson.variant, "players": lesson.players,
            "order": lesson.order, "title": lesson.title[language],
            "summary": lesson.summary[language], "topics": list(lesson.topics),
            "steps": steps, "remember": [t[language] for t in lesson.remember],
            "next": _following(lesson),
        }

    @app.post("/api/lessons/{lesson_id}/try", tags=["lessons"], response_model=TryAnswer,
              openapi_extra={"requestBody": {"required": True, "content": {
                  "application/json": {"schema": TRY_SCHEMA}}}})
    async def lesson_try(
        lesson_id: str, request: Request, lang: Language = "en"
    ) -> dict[str, Any]:
        """Judge a try at a step with the engine; nothing is stored."""
        attempt = await read_body(request, LessonTry)
        language = _language(lang)
        lesson = _lesson(lesson_id)
        if attempt.step >= len(lesson.steps):
            raise Refused(ErrorCode.BAD_STEP,
                           f"{lesson.id} has {len(lesson.steps)} steps, counted from 0")
        step = lesson.steps[attempt.step]
        kind = step.task.kind
        if kind == "play" and attempt.move is not None and attempt.choice is None:
            answer = try_move(lesson, attempt.step, attempt.move,
                              _positions(lesson.id)[attempt.step])
        elif kind == "choose" and attempt.choice is not None and attempt.move is None:
            if attempt.choice >= len(step.task.choices):
                raise Refused(ErrorCode.BAD_STEP, f"step {attempt.step} has "
                               f"{len(step.task.choices)} choices, counted from 0")
            answer = try_choice(lesson, attempt.step, attempt.choice,
                                _positions(lesson.id)[attempt.step])
        elif kind == "read" and attempt.move is None and attempt.choice is None:
            answer = read_on(lesson, attempt.step, _positions(lesson.id)[attempt.step])
        else:
            wanted = {"play": "a 'move'", "choose": "a 'choice'"}.get(kind)
            raise Refused(ErrorCode.BAD_STEP, f"step {attempt.step} is a {kind!r} step"
                           + (f": send {wanted} and nothing else" if wanted else
                              ": send the step alone to go on"))
        return _answer(answer, step.seat, language)

    @app.post("/api/lessons/{lesson_id}/done", tags=["lessons"], response_model=Finished)
    async def lesson_done(lesson_id: str, request: Request) -> dict[str, Any]:
        """Mark a lesson finished for the token's player (kept on the server)."""
        lesson = _lesson(lesson_id)
        caller = await callers.if_known(request)
        if caller is None:
            raise Refused(ErrorCode.BAD_TOKEN, "send the Authorization: Bearer token of a guest")
        await store.finish_lesson(caller.player, lesson.id)
        done = await store.lessons_finished(caller.player)
        following = next_lesson(lesson.variant, done)
        return {"id": lesson.id, "done": True,
                "next": None if following is None else following.id}


def _language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise Refused(ErrorCode.BAD_LANGUAGE,
                       f"no language {lang!r}; the languages are {', '.join(LANGUAGES)}")
    return lang


def _lesson(lesson_id: str) -> Lesson:
    found = lessons().get(lesson_id)
    if found is None:
        raise Refused(ErrorCode.NOT_FOUND, f"no lesson {lesson_id!r}")
    return found


def _following(lesson: Lesson) -> str | None:
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


def _say(text: Texts | None, language: str) -> str | None:
    return None if text is None else text[language]


def _answer(answer: Attempt, seat: int, language: str) -> dict[str, Any]:
    return {
        "correct": answer.correct,
        "text": _say(answer.text, language),
        "reason": answer.reason,
        "facts": dict(answer.facts),
        "view": None if answer.after is None else _view(answer.after, seat),
        "events": [wire.event_json(e) for e in answer.events if e.to is None or e.to == seat],
    }

