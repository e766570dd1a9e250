"""A lesson file read into typed values (the format is docs/lessons.md).

A lesson is data: a variant, a seat count, options, a few steps and its "remember" points. A
step is a text, a position written as a game record's hand (deal, stock, leader, the moves that
lead to it) and a task: read on, play a move, or choose an answer. Reading checks the shape
only, naming the file, the step and the field at fault; whether the positions and moves are
what the rules say is :mod:`kabes.lessons.check`'s job, with the real engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from kabes.errors import KabesError

# The clients' languages (kabes.words), in the picker's order: every lesson text is in each.
from kabes.words import LANGUAGES as LANGUAGES

TOPICS: Final = (
    "matching", "doubles", "leading", "must-play", "passes", "drawing", "going-out",
    "counting", "blocked", "capicu", "kochon", "tonbe", "2-kabes", "blok", "wa", "clock",
    "engine", "own-train", "first-round", "satisfy-double", "marker", "public-train",
    "reading",
)
"""What lessons teach, as tags: the tests check that each variant's path covers the topics
its rules have."""

TaskKind = Literal["read", "play", "choose"]
TASK_KINDS: Final = ("read", "play", "choose")


class BadLesson(KabesError):
    """A lesson file that does not follow docs/lessons.md."""

    code = "bad_lesson"


Texts = Mapping[str, str]
"""One text in every language, by language code."""


@dataclass(frozen=True, slots=True)
class HandSpec:
    """A hand as a record writes it; ``stock`` None: the tiles not dealt, ascending."""

    deal: list[list[str]]
    stock: list[str] | None
    leader: int | None
    moves: list[str]


@dataclass(frozen=True, slots=True)
class Wrong:
    """Tries the lesson answers with its own words; ``reason``: the engine's refusal code
    these moves get (checked), for a try that the rules refuse outright."""

    moves: list[str]
    text: Texts
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Choice:
    """An answer of a ``choose`` task, with what the lesson says when it is picked."""

    text: Texts
    right: bool
    why: Texts


@dataclass(frozen=True, slots=True)
class Task:
    """What the learner does at a step."""

    kind: TaskKind
    accept: list[str] = field(default_factory=list)
    """``play``: the moves that do what the step asks (record notation)."""
    wrong: list[Wrong] = field(default_factory=list)
    others: Texts | None = None
    """``play``: what the lesson says of any other legal move."""
    choices: list[Choice] = field(default_factory=list)
    hint: Texts | None = None
    """Offered after two wrong tries."""
    done: Texts | None = None
    """Said when the task is done (why the move was right)."""
    then: list[str] = field(default_factory=list)
    """Moves the table makes after the learner's (the other seats' answers), shown to them."""
    expect_hand: Mapping[str, Any] | None = None
    """Fields of the hand's ``result`` (DESIGN.md) that must hold once ``then`` is played."""
    expect_match: Mapping[str, Any] | None = None
    """Fields of the match's ``result`` that must hold once ``then`` is played."""


@dataclass(frozen=True, slots=True)
class Step:
    """A text, a position and a task. ``hand`` None: the position goes on from the step
    before, after its first accepted move and its ``then``, plus ``moves``."""

    text: Texts
    seat: int
    hand: HandSpec | None
    moves: list[str]
    task: Task


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson of a variant's path."""

    id: str
    variant: str
    order: int
    players: int
    options: Mapping[str, Any]
    before: list[Mapping[str, Any]]
    """Whole hands (record form) played before the steps' hands: the match so far."""
    topics: list[str]
    title: Texts
    summary: Texts
    steps: list[Step]
    remember: list[Texts]


def read_lesson(data: Any, name: str) -> Lesson:
    """The lesson in ``data`` (parsed JSON); BadLesson naming ``name`` and the place if its
    shape is not the one docs/lessons.md gives."""
    r = _Reader(name)
    top = r.obj(data, "the lesson", LESSON_FIELDS)
    steps_data = r.get(top, "steps", list, "the lesson")
    if not steps_data:
        raise BadLesson(f"{name}: a lesson has at least one step")
    steps = [r.step(item, f"step {n}") for n, item in enumerate(steps_data, 1)]
    if steps[0].hand is None:
        raise BadLesson(f"{name}, step 1: the first step needs a 'hand' (nothing to go on from)")
    before = r.get(top, "before", list, "the lesson", [])
    for n, hand in enumerate(before, 1):
        r.obj(hand, f"before, hand {n}", ("deal", "stock", "leader", "moves"))
    return Lesson(
        id=r.get(top, "id", str, "the lesson"),
        variant=r.get(top, "variant", str, "the lesson"),
        order=r.get(top, "order", int, "the lesson"),
        players=r.get(top, "players", int, "the lesson"),
        options=r.get(top, "options", dict, "the lesson", {}),
        before=before,
        topics=r.topics(top),
        title=r.texts(top, "title", "the lesson"),
        summary=r.texts(top, "summary", "the lesson"),
        steps=steps,
        remember=[r.text(t, f"remember {n}") for n, t in
                  enumerate(r.get(top, "remember", list, "the lesson"), 1)],
    )


LESSON_FIELDS: Final = ("id", "variant", "order", "players", "options", "before", "topics",
                        "title", "summary", "steps", "remember")
STEP_FIELDS: Final = ("text", "seat", "hand", "moves", "task")
TASK_FIELDS: Final = ("kind", "accept", "wrong", "others", "choices", "hint", "done", "then",
                      "expect")
_MISSING: Final = object()


class _Reader:
    """Reads one file's JSON, naming the file and the place in every error."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, where: str, what: str) -> BadLesson:
        return BadLesson(f"{self.name}, {where}: {what}")

    def obj(self, data: Any, where: str, known: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(where, "must be an object")
        for key in data:
            if key not in known:
                raise self.fail(where, f"unknown field {key!r} (known: {', '.join(known)})")
        return data

    def get(self, data: Mapping[str, Any], key: str, kind: type, where: str,
            default: Any = _MISSING) -> Any:
        if key not in data:
            if default is _MISSING:
                raise self.fail(where, f"has no {key!r}")
            return default
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(where, f"{key!r} must be a {_KINDS.get(kind, kind.__name__)}")
        return value

    def text(self, data: Any, where: str) -> Texts:
        if not isinstance(data, dict):
            raise self.fail(where, "a text is an object of languages")
        missing = [lang for lang in LANGUAGES if not isinstance(data.get(lang), str)
                   or not data[lang].strip()]
        if missing:
            raise self.fail(where, f"no text in {', '.join(missing)}")
        extra = [key for key in data if key not in LANGUAGES]
        if extra:
            raise self.fail(where, f"unknown languages {', '.join(map(repr, extra))} "
                                   f"(known: {', '.join(LANGUAGES)})")
        return dict(data)

    def texts(self, data: Mapping[str, Any], key: str, where: str) -> Texts:
        if key not in data:
            raise self.fail(where, f"has no {key!r}")
        return self.text(data[key], f"{where}, {key}")

    def strings(self, data: Mapping[str, Any], key: str, where: str) -> list[str]:
        items = self.get(data, key, list, where, [])
        if not all(isinstance(i, str) for i in items):
            raise self.fail(where, f"{key!r} must be a list of strings")
        return list(items)

    def topics(self, data: Mapping[str, Any]) -> list[str]:
        topics = self.strings(data, "topics", "the lesson")
        unknown = [t for t in topics if t not in TOPICS]
        if unknown:
            raise self.fail("the lesson", f"unknown topics {', '.join(map(repr, unknown))} "
                                          f"(known: {', '.join(TOPICS)})")
        return topics

    def step(self, data: Any, where: str) -> Step:
        obj = self.obj(data, where, STEP_FIELDS)
        hand = None
        if "hand" in obj:
            h = self.obj(obj["hand"], f"{where}, hand", ("deal", "stock", "leader", "moves"))
            deal = self.get(h, "deal", list, f"{where}, hand")
            if not all(isinstance(s, list) and all(isinstance(t, str) for t in s) for s in deal):
                raise self.fail(f"{where}, hand", "'deal' is a list of lists of tiles")
            stock = h.get("stock")
            if stock is not None and not (isinstance(stock, list)
                                          and all(isinstance(t, str) for t in stock)):
                raise self.fail(f"{where}, hand", "'stock' is a list of tiles")
            leader = self.get(h, "leader", int, f"{where}, hand", None) if "leader" in h else None
            hand = HandSpec(deal, stock, leader, self.strings(h, "moves", f"{where}, hand"))
        return Step(
            text=self.texts(obj, "text", where),
            seat=self.get(obj, "seat", int, where, 0),
            hand=hand,
            moves=self.strings(obj, "moves", where),
            task=self.task(self.get(obj, "task", dict, where), f"{where}, task"),
        )

    def task(self, data: dict[str, Any], where: str) -> Task:
        obj = self.obj(data, where, TASK_FIELDS)
        kind = self.get(obj, "kind", str, where)
        if kind not in TASK_KINDS:
            raise self.fail(where, f"kind {kind!r} is not one of {', '.join(TASK_KINDS)}")
        optional = {key: self.text(obj[key], f"{where}, {key}")
                    for key in ("others", "hint", "done") if key in obj}
        wrong = []
        for n, item in enumerate(self.get(obj, "wrong", list, where, []), 1):
            at = f"{where}, wrong {n}"
            w = self.obj(item, at, ("moves", "text", "reason"))
            wrong.append(Wrong(self.strings(w, "moves", at), self.texts(w, "text", at),
                               self.get(w, "reason", str, at, None)))
        choices = []
        for n, item in enumerate(self.get(obj, "choices", list, where, []), 1):
            at = f"{where}, choice {n}"
            c = self.obj(item, at, ("text", "right", "why"))
            choices.append(Choice(self.texts(c, "text", at), self.get(c, "right", bool, at),
                                  self.texts(c, "why", at)))
        expect = self.obj(obj.get("expect", {}), f"{where}, expect", ("hand", "match"))
        task = Task(
            kind=kind,  # checked against TASK_KINDS above
            accept=self.strings(obj, "accept", where),
            wrong=wrong,
            choices=choices,
            then=self.strings(obj, "then", where),
            expect_hand=self.get(expect, "hand", dict, f"{where}, expect", None),
            expect_match=self.get(expect, "match", dict, f"{where}, expect", None),
            **optional,
        )
        self.task_shape(task, where)
        return task

    def task_shape(self, task: Task, where: str) -> None:
        if task.kind == "play":
            if not task.accept:
                raise self.fail(where, "a 'play' task accepts at least one move")
            if task.choices:
                raise self.fail(where, "only a 'choose' task has choices")
        elif task.kind == "choose":
            if len(task.choices) < 2 or not any(c.right for c in task.choices):
                raise self.fail(where, "a 'choose' task has two choices or more, one right")
            if task.accept or task.wrong or task.others:
                raise self.fail(where, "a 'choose' task has no moves to accept or refuse")
        elif task.accept or task.wrong or task.choices or task.others or task.hint:
            raise self.fail(where, "a 'read' task has nothing to accept, refuse or hint")
        if task.kind != "read" and task.hint is None:
            raise self.fail(where, "a task the learner can get wrong needs a 'hint'")


_KINDS: dict[type, str] = {str: "string", int: "whole number", list: "list", dict: "object",
                           bool: "true or false"}
