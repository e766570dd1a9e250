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

from kabes.lessons.library import lessons, next_lesson, path
from kabes.lessons.model import Lesson, Texts
from kabes.lessons.position import Attempt, position, read_on, try_choice, try_move
from kabes.match import Match
from kabes.rules import VARIANTS
from kabes.server.callers import Callers
from kabes.server.http_input import read_body
from kabes.server.lesson_messages import (
    Finished,
    LessonBody,
    LessonEntry,
    LessonPath,
    LessonPaths,
    LessonStep,
    LessonTry,
    StepTask,
    TryAnswer,
    answer_doc,
    openapi_schema,
)
from kabes.server.protocol import ErrorCode, Refused
from kabes.server.store import Store
from kabes.table import wire
from kabes.views import view
from kabes.words import LANGUAGES

Language = Annotated[str, Query(description="One of " + ", ".join(LANGUAGES) + ".")]


def lesson_routes(app: FastAPI, store: Store) -> None:
    """Add the lesson routes to ``app``."""

    callers = Callers(store)

    async def finished_by(request: Request) -> set[str]:
        caller = await callers.maybe(request)
        return set() if caller is None else await store.lessons_finished(caller.player)

    @app.get("/api/lessons", tags=["lessons"], response_model=None,
             responses=answer_doc(LessonPaths))
    async def lesson_paths(request: Request, lang: Language = "en") -> dict[str, Any]:
        """Every variant's path of lessons, with the ones the token's player finished."""
        language = _language(lang)
        done = await finished_by(request)
        paths: list[LessonPath] = []
        for variant, rules in VARIANTS.items():
            following = next_lesson(variant, done)
            paths.append(LessonPath(
                variant=variant, title=rules.title,
                next=None if following is None else following.id,
                lessons=[LessonEntry(
                    id=lesson.id, order=lesson.order, title=lesson.title[language],
                    summary=lesson.summary[language], topics=list(lesson.topics),
                    steps=len(lesson.steps), done=lesson.id in done,
                ) for lesson in path(variant)],
            ))
        return _out(LessonPaths(languages=list(LANGUAGES), paths=paths))

    @app.get("/api/lessons/{lesson_id}", tags=["lessons"], response_model=None,
             responses=answer_doc(LessonBody))
    async def lesson_body(lesson_id: str, lang: Language = "en") -> dict[str, Any]:
        """One lesson: each step's text, task and position (the learner's VIEW)."""
        language = _language(lang)
        lesson = _lesson(lesson_id)
        steps = [LessonStep(
            text=step.text[language],
            seat=step.seat,
            task=StepTask(
                kind=step.task.kind,
                choices=[c.text[language] for c in step.task.choices],
                hint=_say(step.task.hint, language),
                then=list(step.task.then),
            ),
            view=_view(_positions(lesson.id)[index], step.seat),
        ) for index, step in enumerate(lesson.steps)]
        return _out(LessonBody(
            id=lesson.id, variant=lesson.variant, players=lesson.players,
            order=lesson.order, title=lesson.title[language],
            summary=lesson.summary[language], topics=list(lesson.topics),
            steps=steps, remember=[t[language] for t in lesson.remember],
            next=_following(lesson),
        ))

    @app.post("/api/lessons/{lesson_id}/try", tags=["lessons"], response_model=None,
              responses=answer_doc(TryAnswer),
              openapi_extra={"requestBody": {"required": True, "content": {
                  "application/json": {"schema": openapi_schema(LessonTry)}}}})
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
        return _out(_answer(answer, step.seat, language))

    @app.post("/api/lessons/{lesson_id}/done", tags=["lessons"], response_model=None,
              responses=answer_doc(Finished))
    async def lesson_done(lesson_id: str, request: Request) -> dict[str, Any]:
        """Mark a lesson finished for the token's player (kept on the server)."""
        lesson = _lesson(lesson_id)
        caller = await callers.if_known(request)
        if caller is None:
            raise Refused(ErrorCode.BAD_TOKEN, "send the Authorization: Bearer token of a guest")
        await store.finish_lesson(caller.player, lesson.id)
        done = await store.lessons_finished(caller.player)
        following = next_lesson(lesson.variant, done)
        return _out(Finished(id=lesson.id, done=True,
                             next=None if following is None else following.id))


def _out(answer: msgspec.Struct) -> dict[str, Any]:
    """An answer as the JSON values every route returns (FastAPI writes them)."""
    out: dict[str, Any] = msgspec.to_builtins(answer)
    return out


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


def _answer(answer: Attempt, seat: int, language: str) -> TryAnswer:
    return TryAnswer(
        correct=answer.correct,
        text=_say(answer.text, language),
        reason=answer.reason,
        facts=dict(answer.facts),
        view=None if answer.after is None else _view(answer.after, seat),
        events=[wire.event_json(e) for e in answer.events if e.to is None or e.to == seat],
    )

