"""The puzzles on a phone with no network (kabes.local.puzzles): Node loads the offline pack,
which ships the puzzles' engine and the starter set, and answers the daily puzzle of every
line variant on a few dates and a right and a wrong try of every starter puzzle exactly as
CPython does (offline_puzzles.py). That CPython answers as the server does is
tests/server/test_server_local_puzzles.py's."""

from __future__ import annotations

from pathlib import Path

import offline_puzzles
from node_runs import run_in_pyodide

from kabes.puzzles.starter import starter

ASKED = Path(__file__).with_name("offline_puzzles.py")


def test_the_pack_answers_the_starter_puzzles_as_cpython_does() -> None:
    here = offline_puzzles.answers()
    there = run_in_pyodide(ASKED, "run", None)["answer"]
    assert len(here) == len(offline_puzzles.DAYS) * 6 + 2 * len(starter())
    assert all("answer" in a for a in here)
    assert there == here
