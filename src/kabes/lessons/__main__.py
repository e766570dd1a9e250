"""``python -m kabes.lessons FILE...``: check lesson files as they are written.

For each step it prints what the engine makes of the position (whose turn, the ends or the
trains, the learner's hand and legal moves), then every problem :func:`check.problems` finds.
Exit status 1 if any file has a problem.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kabes.errors import KabesError
from kabes.lessons.check import problems
from kabes.lessons.library import read_file
from kabes.lessons.position import position
from kabes.views import view


def main(argv: list[str]) -> int:
    """Check each file named; print positions and problems."""
    failed = False
    for name in argv:
        try:
            lesson = read_file(Path(name))
        except KabesError as err:
            print(f"{name}: {err.message}")
            failed = True
            continue
        print(f"{lesson.id} ({lesson.variant}, {lesson.players} players)")
        for index, step in enumerate(lesson.steps):
            try:
                seen = view(position(lesson, index), step.seat)
            except KabesError as err:
                print(f"  step {index + 1}: {err.message}")
                break
            if seen.ends is not None:
                board = f"ends {list(seen.ends)}"
            elif seen.trains:
                board = "trains " + "; ".join(f"{t.owner}:{t.end}{'*' if t.marked else ''}"
                                              for t in seen.trains)
            else:
                board = "nothing laid yet"
            print(f"  step {index + 1} ({step.task.kind}): turn {seen.turn}, {board}, "
                  f"open double {seen.open_double}, stock {seen.stock}, "
                  f"hand {' '.join(map(str, seen.hand))}, "
                  f"legal {' '.join(map(str, seen.legal)) or '-'}, scores {list(seen.scores)}")
        found = problems(lesson)
        for problem in found:
            print(f"  PROBLEM {problem}")
        failed = failed or bool(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
