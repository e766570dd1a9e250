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
- The local table (kabes.local, what the page's worker runs): from opening a table to its
  first hand dealt, through its messages (open, hello, start), and its time a change (a
  move applied, kept and its update encoded), over beginner-only matches with a random
  person, in Pyodide and here.
- The expert at a phone's budget (kabes.local.computer.PHONE_EXPERT_BUDGET): the worlds it
  searches a move over the same positions (plaza, haitian-partners, mexican-train) in
  Pyodide at that budget, and here at the server's EXPERT_FLOOR (0.05 s), the budget whose
  strength docs/levels.md promises.
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
                           "fastline": kabes_hands(asked["seconds"]),
                           "local": local_table(), "worlds": worlds(asked["phone"])}
    if asked.get("strength"):
        tally = run(Setup("plaza", 2, ("expert", "skilled"), budget=asked["budget"], seed=7),
                    asked["strength"])
        out["strength"] = tally.report()
    return json.dumps(out)


def local_table() -> dict[str, float]:
    """A local table's ms from its opening to a dealt hand (open, hello, start), and its ms a
    change over whole beginner-only matches (the person playing at random)."""
    from random import Random

    from kabes.local.computer import Budgets
    from kabes.local.tables import Tables

    now = [1000.0]
    tables = Tables(lambda: now[0], Budgets(computer_delay=0.0), seed=3)

    def call(**request: Any) -> Any:
        return json.loads(tables.call(json.dumps(request)))

    start = time.perf_counter()
    code = call(op="open", player=1, name="P", table={
        "variant": "haitian", "players": 4,
        "computers": {"1": "beginner", "2": "beginner", "3": "beginner"}})["answer"]["code"]
    call(op="send", code=code, socket=1, text='{"type":"hello","token":"t"}')
    call(op="send", code=code, socket=1, text='{"type":"start","id":"s"}')
    dealt = time.perf_counter() - start
    changes, spent, rng = 0, 0.0, Random(5)
    for variant, players in (("haitian", 4), ("mexican-train", 4)):
        computers = {str(n): "beginner" for n in range(1, players)}
        start = time.perf_counter()
        code = call(op="open", player=1, name="P", table={
            "variant": variant, "players": players, "computers": computers})["answer"]["code"]
        got = call(op="send", code=code, socket=1, text='{"type":"hello","token":"t"}')
        got = call(op="send", code=code, socket=1, text='{"type":"start","id":"s"}')
        view = table = None
        while True:
            for out in got["out"]:
                message = json.loads(out["text"])
                if message["type"] == "update":
                    view, table, changes = message["view"], message["table"], changes + 1
            assert view is not None and table is not None
            if table["status"] == "over":
                break
            if table["status"] == "playing" and view["turn"] == 0:
                text = json.dumps({"type": "play", "id": f"m{changes}",
                                   "move": rng.choice(view["legal"])})
                got = call(op="send", code=code, socket=1, text=text)
            elif table["status"] == "between_hands":
                got = call(op="send", code=code, socket=1,
                           text=f'{{"type":"next_hand","id":"n{changes}"}}')
            else:
                got = call(op="tick")
        spent += time.perf_counter() - start
    return {"dealt_ms": dealt * 1000, "change_ms": spent / changes * 1000, "changes": changes}


def worlds(budget: float) -> dict[str, float]:
    """The worlds the expert searches a move at ``budget`` seconds, on average, over the
    same positions (the skilled level's turns with a choice, a few matches of each of three
    variants, seeded)."""
    from random import Random

    from kabes.ai import Skilled
    from kabes.ai.expert import Expert
    from kabes.ai.knowledge import distinct
    from kabes.match import Match
    from kabes.views import view

    out: dict[str, float] = {}
    for variant, players in (("plaza", 2), ("haitian-partners", 4), ("mexican-train", 4)):
        match = Match(variant, players, rng=Random(11))
        match.deal_hand()
        player = Skilled(Random(1))
        found: list[int] = []  # worlds searched at each chosen position
        while len(found) < 4 and match.hand_in_progress:
            seat = match.turn
            assert seat is not None
            seen = view(match, seat)
            if len(distinct(seen)) > 1 and len(match.hand.played) > 2:  # type: ignore[union-attr]
                found.append(Expert(Random(len(found)), budget).evaluate(
                    seen, distinct(seen))[1])
            match.apply(seat, player.choose(seen))
        out[variant] = sum(found) / max(1, len(found))
    return out


def in_pyodide(asked: dict[str, Any]) -> dict[str, Any]:
    """:func:`measure` run by Node in the pack's Pyodide, with Node's own figures."""
    import subprocess

    from kabes.server.http.offline_pack import PACK

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

    from kabes.local.computer import PHONE_EXPERT_BUDGET
    from kabes.server.compute.computers import EXPERT_FLOOR
    from kabes.server.http.offline_pack import PACK, read_manifest
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
             "budget": args.budget, "phone": PHONE_EXPERT_BUDGET}
    start = time.perf_counter()
    there = in_pyodide(asked)
    whole = time.perf_counter() - start
    native = json.loads(measure(json.dumps({**asked, "strength": 0,
                                            "phone": EXPERT_FLOOR})))
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
    local, here = answer["local"], native["local"]
    print()
    print(f"the local table (kabes.local): opened to a dealt hand {local['dealt_ms']:.1f} ms "
          f"(here {here['dealt_ms']:.1f} ms); a change {local['change_ms']:.2f} ms "
          f"(here {here['change_ms']:.2f} ms; {local['changes']:.0f} changes)")
    print(f"the expert's worlds a move: in Pyodide at the phone's {PHONE_EXPERT_BUDGET} s, "
          f"here at the server's floor {EXPERT_FLOOR} s")
    for variant, count in answer["worlds"].items():
        print(f"  {variant:20} {count:8.0f} {native['worlds'][variant]:8.0f}")
    if "strength" in answer:
        expert = answer["strength"]["levels"]["expert"]
        low, high = expert["match_ci"]
        print()
        print(f"expert against skilled in Pyodide, plaza, {answer['strength']['matches']} "
              f"matches at {args.budget} s a move: {expert['match_wins']:.1%} of matches "
              f"(95% {low:.1%} to {high:.1%}), {expert['hand_wins']:.1%} of hands")


if __name__ == "__main__":
    main()
