"""Python run in Node's Pyodide from the offline pack, as the page runs it (offline/run.mjs):
the offline tests' one way there.

Skipped, saying why, where Node or the pack is missing (npm was missing at setup); never
under CI, where both are a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from kabes.server.http.offline_pack import PACK, read_manifest, stale

TREE = Path(__file__).resolve().parents[2]
RUNNER = TREE / "offline" / "run.mjs"
UNDER_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def missing() -> str:
    """Why the pack cannot be run here, or ''. A pack older than the sources is a failure:
    its tests would run older code."""
    if shutil.which("node") is None:
        return "there is no node"
    manifest = read_manifest(PACK)
    if manifest is None:
        return f"there is no offline pack in {PACK} (./scripts/setup builds it with npm)"
    assert not stale(manifest), ("the offline pack is older than src/kabes: build it again "
                                 "(.venv/bin/python -m kabes.server.http.offline_pack)")
    return ""


def run_in_pyodide(module: Path, function: str, asked: Any, timeout: float = 300
                   ) -> dict[str, Any]:
    """``function`` of ``module`` (a file beside this one) called in Pyodide with ``asked``
    as JSON: run.mjs's line (its timings and the ``answer``), and ``seconds`` it all took.
    Skips the test where the pack cannot be run (fails under CI)."""
    why = missing()
    if why:
        if UNDER_CI:
            raise RuntimeError(f"CI must run the offline pack's tests, but {why}")
        pytest.skip(f"offline pack tests skipped: {why}")
    start = time.perf_counter()
    done = subprocess.run(["node", str(RUNNER), str(PACK), str(module), function,
                           json.dumps(asked)], capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, Any] = json.loads(done.stdout)
    out["seconds"] = time.perf_counter() - start
    return out
