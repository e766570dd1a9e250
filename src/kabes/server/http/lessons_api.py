"""The lessons over HTTP (docs/lessons.md): the paths, a lesson, a try, a lesson finished.

The answers are kabes.local.lessons', the same JSON that a phone's worker answers with no
network (one source); their shapes are documented here with kabes.server.http.lesson_messages'
structs. Texts go out in the asked language only; each step's position goes out as the
learner seat's VIEW exactly as a table's ``update`` carries it, so a client draws it with its
game code. A try is judged by the engine on a copy of the position: nothing is stored but a
finished lesson, per player, so a guest's progress follows them to every device.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query, Request

from kabes.lessons.library import next_lesson
from kabes.local import lessons as answers
from kabes.server.common.protocol import ErrorCode, Refused
from kabes.server.http.callers import Callers
from kabes.server.http.http_input import read_body
from kabes.server.http.lesson_messages import (
    Finished,
    LessonBody,
    LessonPaths,
    LessonTry,
    TryAnswer,
    answer_doc,
    openapi_schema,
)
from kabes.server.store.store import Store
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
        answers.language(lang)
        return answers.lesson_paths(lang, await finished_by(request))

    @app.get("/api/lessons/{lesson_id}", tags=["lessons"], response_model=None,
             responses=answer_doc(LessonBody))
    async def lesson_body(lesson_id: str, lang: Language = "en") -> dict[str, Any]:
        """One lesson: each step's text, task and position (the learner's VIEW)."""
        return answers.lesson_body(lesson_id, lang)

    @app.post("/api/lessons/{lesson_id}/try", tags=["lessons"], response_model=None,
              responses=answer_doc(TryAnswer),
              openapi_extra={"requestBody": {"required": True, "content": {
                  "application/json": {"schema": openapi_schema(LessonTry)}}}})
    async def lesson_try(
        lesson_id: str, request: Request, lang: Language = "en"
    ) -> dict[str, Any]:
        """Judge a try at a step with the engine; nothing is stored."""
        attempt = await read_body(request, LessonTry)
        return answers.lesson_try(lesson_id, lang, attempt.step, attempt.move, attempt.choice)

    @app.post("/api/lessons/{lesson_id}/done", tags=["lessons"], response_model=None,
              responses=answer_doc(Finished))
    async def lesson_done(lesson_id: str, request: Request) -> dict[str, Any]:
        """Mark a lesson finished for the token's player (kept on the server)."""
        lesson = answers.find(lesson_id)
        caller = await callers.if_known(request)
        if caller is None:
            raise Refused(ErrorCode.BAD_TOKEN, "send the Authorization: Bearer token of a guest")
        await store.finish_lesson(caller.player, lesson.id)
        done = await store.lessons_finished(caller.player)
        following = next_lesson(lesson.variant, done)
        return {"id": lesson.id, "done": True,
                "next": None if following is None else following.id}
