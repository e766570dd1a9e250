"""The starter puzzles asked of the worker's one call (kabes.local.tables), by code that runs
the same in CPython and in Pyodide (offline/run.mjs): the daily puzzle of each line variant
on a few dates, and a right and a wrong try of every starter puzzle. Standard library and the
pack's ``kabes`` only."""

from __future__ import annotations

import json
from typing import Any

from kabes.local.tables import Tables
from kabes.puzzles.prove import LINE_VARIANTS
from kabes.puzzles.starter import starter

DAYS = ("2031-01-01", "2031-06-15", "2032-02-29")


def answers() -> list[Any]:
    """Every answer, in order."""
    phone = Tables(seed=1)

    def ask(**request: Any) -> Any:
        return json.loads(phone.call(json.dumps(request)))

    out: list[Any] = []
    for day in DAYS:
        for variant in [None, *sorted(LINE_VARIANTS)]:
            out.append(ask(op="puzzle_daily", day=day, variant=variant))
    for puzzle in starter():
        wrong = next(m for m in puzzle.view["legal"] if not puzzle.solves(m))
        for move in (puzzle.solution[0], wrong):
            out.append(ask(op="puzzle_try", puzzle=puzzle.key, move=move))
    return out


def run(_: str) -> str:
    """What offline/run.mjs calls: every answer, as JSON."""
    return json.dumps(answers())
