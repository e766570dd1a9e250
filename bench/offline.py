"""The offline pack measured (issue 26, docs/offline.md): what a phone downloads, how long
Pyodide takes to start, how fast each level plays in it against native CPython, and memory.

- The pack's bytes over the wire, from its manifest: each file as it is, gzipped and in
  brotli (goal: at most 7 MB).
- Node's Pyodide (offline/run.mjs, the pack's own files): ``loadPyodide``, unpacking the kabes
  archive and importing the engine, then a first hand dealt; the process's memory and the
  WebAssembly memory's size.
- Each level's time a move (every move it is asked for, forced ones too) over every variant
  and seat count (tests/offline/offline_matches.py's games), the expert searching a fixed
  number of worlds a move (``--worlds``), so that both do the same work: in Pyodide and here.
- ``bench/playout.py``'s yardstick beside them: random partnership hands a CPU-second through
  the expert's playout path, in Pyodide and here, and the `dominoes` library's here.
- With ``--strength N``: the expert's match win rate against skilled in Pyodide, plaza, N
  matches at ``--budget`` seconds a move (the seats rotated, as ``kabes simulate`` does).

Run: .venv/bin/python bench/offline.py [--worlds 32] [--seconds 3] [--strength 0] [--budget 0.25]
Needs node and the pack that ./scripts/setup builds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TREE = HERE.parent
GAMES = TREE / "tests" / "offline" / "offline_matches.py"
sys.path[:0] = [str(HERE), str(GAMES.parent)]
WIRE_GOAL = 7_000_000


def measure(text: str) -> str:
    """The figures one Python measures of itself, the same code in Pyodide and here: a first
    hand dealt, each level's moves and seconds, the playout rate, and with ``strength`` the
    expert's results against skilled."""
    from offline_matches import every_game, play

    from kabes.ai.tournament import Setup, run
    from kabes.match import Match
    from playout import kabes_hands

    asked = json.loads(text)
    start = time.perf_counter()
    Match("haitian", 4).deal_hand()
    first = time.perf_counter() - start
    levels: dict[str, list[float]] = {}
    for game in every_game():
        for level, (moves, seconds) in play(game, {"budget": 60.0, "worlds": asked["worlds"]}
                                            )["spent"].items():
            totals = levels.setdefault(level, [0, 0.0])
            totals[0] += moves
            totals[1] += seconds
    out: dict[str, Any] = {"first_deal_ms": first * 1000, "levels": levels,
                           "fastline": kabes_hands(asked["seconds"])}
    if asked.get("strength"):
        tally = run(Setup("plaza", 2, ("expert", "skilled"), budget=asked["budget"], seed=7),
                    asked["strength"])
        out["strength"] = tally.report()
    return json.dumps(out)


def in_pyodide(asked: dict[str, Any]) -> dict[str, Any]:
    """:func:`measure` run by Node in the pack's Pyodide, with Node's own figures."""
    import subprocess

    from kabes.server.offline_pack import PACK

    done = subprocess.run(
        ["node", str(TREE / "offline" / "run.mjs"), str(PACK), __file__, "measure",
         json.dumps(asked), str(GAMES), str(HERE / "playout.py")],
        capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(done.stderr[-2000:])
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def main() -> None:
    """Print the pack's size, Pyodide's start, and each figure in Pyodide beside CPython's."""
    import resource

    from kabes.server.offline_pack import PACK, read_manifest
    from playout import dominoes_hands

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--strength", type=int, default=0)
    parser.add_argument("--budget", type=float, default=0.25)
    args = parser.parse_args()
    manifest = read_manifest(PACK)
    if manifest is None:
        sys.exit(f"no offline pack in {PACK}: run ./scripts/setup (it needs npm)")
    print(f"Pyodide {manifest['pyodide']['version']} (CPython {manifest['pyodide']['python']})"
          f", {manifest['kabes']}")
    print(f"{'file':44} {'bytes':>11} {'gzip':>11} {'brotli':>11}")
    for path, entry in manifest["files"].items():
        print(f"{path:44} {entry['bytes']:11,} {entry['gzip']:11,} {entry['br']:11,}")
    print(f"{'over the wire (goal 7,000,000)':44} {manifest['bytes']:11,} "
          f"{manifest['gzip']:11,} {manifest['br']:11,}"
          f"  {'within' if manifest['gzip'] <= WIRE_GOAL else 'OVER'} the goal")

    asked = {"worlds": args.worlds, "seconds": args.seconds, "strength": args.strength,
             "budget": args.budget}
    start = time.perf_counter()
    there = in_pyodide(asked)
    whole = time.perf_counter() - start
    native = json.loads(measure(json.dumps({**asked, "strength": 0})))
    answer = there["answer"]
    print()
    print(f"Node: loadPyodide {there['load_ms']:.0f} ms, kabes unpacked and imported "
          f"{there['import_ms']:.0f} ms, a first hand dealt {answer['first_deal_ms']:.1f} ms "
          f"(here {native['first_deal_ms']:.1f} ms); the run took {whole:.0f} s")
    print(f"memory: Node's resident {there['rss'] / 2**20:.0f} MiB, of which WebAssembly "
          f"{there['heap'] / 2**20:.0f} MiB; this CPython's peak resident "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    print()
    print(f"ms a move (the expert at {args.worlds} worlds)  {'Pyodide':>10} {'CPython':>10} "
          f"{'slower':>8} {'moves':>7}")
    for level, (moves, seconds) in answer["levels"].items():
        ours = native["levels"][level][1] / native["levels"][level][0] * 1000
        theirs = seconds / moves * 1000
        print(f"{level:36} {theirs:10.3f} {ours:10.3f} {theirs / ours:7.2f}x {moves:7.0f}")
    rival = dominoes_hands(args.seconds)
    print()
    print("playout yardstick (bench/playout.py), random partnership hands a CPU-second:")
    print(f"  kabes fastline in Pyodide {answer['fastline']:10.0f}")
    print(f"  kabes fastline in CPython {native['fastline']:10.0f}"
          f"  ({native['fastline'] / answer['fastline']:.2f}x Pyodide)")
    print(f"  dominoes 6.1.0 in CPython {rival:10.0f}"
          f"  (Pyodide's fastline is {answer['fastline'] / rival:.1f}x it)")
    if "strength" in answer:
        expert = answer["strength"]["levels"]["expert"]
        low, high = expert["match_ci"]
        print()
        print(f"expert against skilled in Pyodide, plaza, {answer['strength']['matches']} "
              f"matches at {args.budget} s a move: {expert['match_wins']:.1%} of matches "
              f"(95% {low:.1%} to {high:.1%}), {expert['hand_wins']:.1%} of hands")


if __name__ == "__main__":
    main()
