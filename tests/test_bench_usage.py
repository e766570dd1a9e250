"""Every benchmark under ``bench/`` answers ``--help`` with its usage: a bench is run by hand,
rarely, so one whose arguments or imports broke would otherwise be found only when someone
needs its figure (``bench/store_append.py``, ``bench/engine.py`` and ``bench/playout.py``
took ``--help`` for a number and failed). This checks that each one starts and parses its
arguments, not its figures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py") if '__name__ == "__main__"' in p.read_text())
"""The benches run as programs (the others, like ``tournament_load.py``, are parts of one)."""


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_bench_prints_its_usage_on_help(script: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(BENCH.parent / "src")}
    done = subprocess.run([sys.executable, str(BENCH / script), "--help"], cwd=BENCH.parent,
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, f"{script} --help failed:\n{done.stderr[-2000:]}"
    assert "usage:" in done.stdout, f"{script} --help printed no usage:\n{done.stdout[:500]}"
