"""Every lesson shipped with Kabès, by id and as one path per variant.

Lessons are files under ``kabes/lessons/data/``, one per lesson, named by the lesson's id
(``haitian-1.json``). A variant's path is its lessons in their ``order``; the next lesson
offered is the first one of the path not yet finished. The files are read once per process.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from kabes.lessons.model import BadLesson, Lesson, read_lesson
from kabes.rules import VARIANTS


def read_file(path: Path) -> Lesson:
    """The lesson in ``path``; BadLesson naming the file if it cannot be read or its id is
    not its file name."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise BadLesson(f"cannot read {path}: {err.strerror}") from None
    except json.JSONDecodeError as err:
        raise BadLesson(f"{path.name} is not JSON: {err.msg} at line {err.lineno}") from None
    lesson = read_lesson(data, path.name)
    if lesson.id != path.stem:
        raise BadLesson(f"{path.name}: its id is {lesson.id!r}, not its file name")
    return lesson


@cache
def lessons() -> dict[str, Lesson]:
    """Every shipped lesson, by id, each variant's path in order."""
    folder = resources.files("kabes.lessons") / "data"
    found = [read_file(Path(str(item))) for item in folder.iterdir()
             if item.name.endswith(".json")]
    found.sort(key=lambda lesson: (list(VARIANTS).index(lesson.variant)
                                   if lesson.variant in VARIANTS else len(VARIANTS),
                                   lesson.order, lesson.id))
    return {lesson.id: lesson for lesson in found}


def path(variant: str) -> list[Lesson]:
    """The lessons of ``variant``, in the order they are taught."""
    return [lesson for lesson in lessons().values() if lesson.variant == variant]


def next_lesson(variant: str, finished: Iterable[str]) -> Lesson | None:
    """The first lesson of ``variant``'s path not in ``finished`` (None: all done)."""
    done = set(finished)
    return next((lesson for lesson in path(variant) if lesson.id not in done), None)
