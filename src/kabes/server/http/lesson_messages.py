"""The lessons' HTTP messages, both ways (docs/lessons.md, "Served over HTTP"): msgspec structs
as every client message of kabes.server.common.protocol is, so a lesson's shapes are
declared the one way the server declares a message, and read with the same refusals
(``protocol.decode_as``).

They live beside protocol.py rather than in it to keep that module readable (it holds the
table's client messages); nothing else writes a lesson answer's shape. The answers are documented
in the OpenAPI document by :func:`openapi_schema`, since FastAPI documents only the models
of its own validation library, which the server does not use.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec


class LessonTry(msgspec.Struct):
    """``POST /api/lessons/{id}/try``: ``move`` at a ``play`` step, ``choice`` at a
    ``choose`` step, neither at a ``read`` step."""

    step: Annotated[int, msgspec.Meta(ge=0)]
    move: Annotated[str, msgspec.Meta(max_length=32)] | None = None
    choice: Annotated[int, msgspec.Meta(ge=0)] | None = None


class LessonEntry(msgspec.Struct):
    """A lesson as its variant's path lists it."""

    id: str
    order: int
    title: str
    summary: str
    topics: list[str]
    steps: int
    done: bool


class LessonPath(msgspec.Struct):
    """One variant's lessons in the order they are taught, and the next one to take."""

    variant: str
    title: str
    next: str | None
    lessons: list[LessonEntry]


class LessonPaths(msgspec.Struct):
    """Every variant's path."""

    languages: list[str]
    paths: list[LessonPath]


class StepTask(msgspec.Struct):
    """What the learner does at a step: its kind, a choose task's answers, the hint."""

    kind: str
    choices: list[str]
    hint: str | None
    then: list[str]
    """The moves the table makes once the task is done (a read step's are shown by trying
    it: the answer carries the position after them)."""


class LessonStep(msgspec.Struct):
    """A step: its text, the learner's seat, its task and the position as a VIEW."""

    text: str
    seat: int
    task: StepTask
    view: dict[str, Any]


class LessonBody(msgspec.Struct):
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


class TryAnswer(msgspec.Struct):
    """The engine's and the lesson's answer to a try."""

    correct: bool
    text: str | None
    reason: str | None
    facts: dict[str, Any]
    view: dict[str, Any] | None
    events: list[dict[str, Any]]


class Finished(msgspec.Struct):
    """A lesson marked finished, and the next of its path."""

    id: str
    done: bool
    next: str | None


def openapi_schema(kind: type[msgspec.Struct]) -> dict[str, Any]:
    """``kind``'s JSON schema with every struct it holds written in place (titled by its
    name), so a route can name it in the OpenAPI document without a components section of
    its own."""
    (schema,), components = msgspec.json.schema_components([kind])

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                return inline(components[ref.rpartition("/")[2]])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(value) for value in node]
        return node

    return dict(inline(schema))


def answer_doc(kind: type[msgspec.Struct]) -> dict[int | str, dict[str, Any]]:
    """A route's ``responses``: its 200 answer is ``kind``."""
    return {200: {"description": "Successful Response",
                  "content": {"application/json": {"schema": openapi_schema(kind)}}}}
