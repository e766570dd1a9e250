"""The compiled modules (``kabes.native``) play exactly as the pure Python they are built from,
are used only while they match it, and give way to it when ``KABES_PURE_PYTHON`` is set.

Each side runs in a process of its own (a process runs one kind of code throughout), with
the same deals, seeds and moves; the tests that need a build skip where there is none
(``python -m kabes.cli.compiled`` builds it; ``scripts/test`` does so before the tests;
under CI a missing build fails where there is a C compiler).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kabes import native
from kabes.cli import compiled

SRC = Path(__file__).resolve().parents[1] / "src"

GAMES = r"""
import json, sys
from random import Random
from kabes import native
from kabes.ai import Expert, fastline, endgame
from kabes.ai.worlds import BitDealer
from kabes.ai.knowledge import unseen
from kabes.match import Match
from kabes.views import view

out = {"moves": [], "values": [], "playouts": [], "solved": [], "deals": []}
for variant, players, seed in [("partnership", 4, 1), ("plaza", 2, 2), ("haitian", 3, 3)]:
    match = Match(variant, players, rng=Random(seed))
    experts = [Expert(Random(seed * 10 + s), budget=60.0, max_worlds=10) for s in range(players)]
    for _ in range(2):
        if match.over:
            break
        match.deal_hand()
        while match.hand_in_progress:
            seat = match.turn
            seen = view(match, seat)
            moves = list(seen.legal)
            if len(moves) > 1:
                values, worlds = experts[seat].evaluate(seen, moves)
                out["values"].append([repr(v) for v in values] + [worlds])
                if seen.variant != "haitian":
                    dealer = BitDealer(seen, unseen(seen), fastline.BITS)
                    out["deals"].append(dealer.deal(Random(seed)))
            move = experts[seat].choose(seen)
            out["moves"].append(str(move))
            match.apply(seat, move)
rng = Random(7)
deck = [1 << i for i in range(28)]
for n in range(300):
    rng.shuffle(deck)
    hands = [sum(deck[7 * s : 7 * s + 7]) for s in range(4)]
    bit = hands[0] & -hands[0]
    hands[0] ^= bit
    tile = fastline.TILES[bit.bit_length() - 1]
    end = fastline.playout(list(hands), tile.low, tile.high, 1, [], 0, rng.random, 0.5)
    out["playouts"].append([end[0].name, end[1], end[2], end[3]])
    if n % 10 == 0:
        small = [sum(deck[s * 3 : s * 3 + 3]) for s in range(4)]
        pips = fastline.pips
        solved = endgame.solve(small, tile.low, tile.high, 1, [], 0, 0b0101,
                               lambda e: float(pips(e[3][1] | e[3][3]) - pips(e[3][0] | e[3][2])))
        out["solved"].append(None if solved is None else [solved[0].name, *solved[1:]])
# A table's changes and every seat's messages (the server's part compiled: state, views, wire).
import hashlib
from kabes.server.common.protocol import MSGSPEC
from kabes.table import actions, outbox
from kabes.table.entries import Entry
from kabes.table.state import Status, TableState, Timing
rng = Random(11)
state = TableState("COMPILE", Timing(45.0, 5.0, 30.0))
sent = hashlib.sha256()
def commit(kind, data, seat=None, action=None):
    change = state.apply(Entry(state.seq + 1, kind, data, 1.7e9 + state.seq, seat, action))
    for number, data_out in outbox.updates(state, change.news, change.events, [0, 1, 2, 3],
                                           lambda s: s != 2, 1.7e9 + state.seq, MSGSPEC,
                                           watchers=1, watching=True):
        sent.update(repr(number).encode() + data_out)
commit("created", {"variant": "partnership", "players": 4, "options": {"target": 150},
                   "computers": {}, "player": 1, "name": "A", "watch": True})
for number in range(1, 4):
    commit(*actions.join(state, 100 + number, f"S{number}"))
commit(*actions.start(state, 0, rng), 0, "start")
while state.status != Status.OVER:
    if state.status == Status.BETWEEN_HANDS:
        commit(*actions.next_hand(state, 0, rng), 0, f"n{state.seq}")
        continue
    legal = outbox.seat_view(state, state.turn, (None, None)).legal
    commit(*actions.play(state, state.turn, rng.choice(legal)), state.turn, f"m{state.seq}")
out["table"] = [state.seq, sent.hexdigest()]
out["running"] = native.running()
json.dump(out, sys.stdout)
"""

WHICH = ("import json, kabes.ai.expert, kabes.table.outbox, kabes.native as n;"
         " print(json.dumps(n.running()))")


def run(code: str, **env: str) -> str:
    """Run ``code`` in a fresh interpreter on these sources, with ``env`` added."""
    environ = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    environ["PYTHONPATH"] = str(SRC)
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return done.stdout


UNDER_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def built() -> None:
    """Skip unless a fresh build is at hand; under CI, where a C compiler is, fail instead
    (``scripts/setup`` builds before the tests, so a missing build is a broken build)."""
    if native.pure_forced():
        pytest.skip(f"{native.PURE_ENV} is set")
    fresh, why = native.status()
    if not fresh:
        if UNDER_CI and native.compiler() is not None:
            pytest.fail(f"CI has a C compiler but no fresh compiled build: {why}")
        pytest.skip(f"no compiled build to compare ({why}): python -m kabes.cli.compiled")


def test_compiled_and_pure_python_give_the_same_results_for_the_same_deals_seeds_moves() -> None:
    built()
    fast = json.loads(run(GAMES))
    pure = json.loads(run(GAMES, KABES_PURE_PYTHON="1"))
    assert fast.pop("running") == list(native.COMPILED)
    assert pure.pop("running") == []
    assert len(fast["values"]) > 20 and any(s is not None for s in fast["solved"])
    assert fast == pure


def test_kabes_pure_python_forces_pure_python_where_a_build_is_fresh() -> None:
    built()
    assert json.loads(run(WHICH)) == list(native.COMPILED)
    assert json.loads(run(WHICH, KABES_PURE_PYTHON="1")) == []


def test_a_build_whose_sources_changed_is_not_used(tmp_path: Path) -> None:
    built()
    copy = tmp_path / "build"
    shutil.copytree(native.compiled_dir(), copy)
    manifest = json.loads((copy / native.MANIFEST).read_text())
    manifest["sources"]["kabes.ai.endgame"] = "0" * 64
    (copy / native.MANIFEST).write_text(json.dumps(manifest))
    assert json.loads(run(WHICH, KABES_COMPILED_DIR=str(copy))) == []
    build = native.Build.read(str(copy))
    assert build is not None and build.stale() == ["kabes.ai.endgame"]


def test_a_build_for_another_python_is_not_used(tmp_path: Path) -> None:
    (tmp_path / native.MANIFEST).write_text(
        json.dumps({"tag": "cpython-29", "files": {"kabes.ai.fastline": "f.so"}, "sources": {}})
    )
    build = native.Build.read(str(tmp_path))
    assert build is not None
    finder = native.CompiledFinder(build)
    assert finder.find_spec("kabes.ai.fastline", None) is None
    assert "built for cpython-29" in finder.reason


def test_the_finder_serves_only_the_compiled_modules_of_a_fresh_build(tmp_path: Path) -> None:
    hashes = {m: native.digest(native.source_of(m)) for m in native.COMPILED}
    files = {m: m + ".so" for m in native.COMPILED}
    for name in files.values():
        (tmp_path / name).write_bytes(b"")
    build = native.Build(str(tmp_path), files, hashes, native.platform_tag())
    finder = native.CompiledFinder(build)
    spec = finder.find_spec("kabes.ai.fastline", None)
    assert spec is not None and spec.origin == str(tmp_path / "kabes.ai.fastline.so")
    assert finder.find_spec("kabes.ai.expert", None) is None


def test_the_setup_line_says_pure_python_and_why_when_it_is_forced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert compiled.ensure() == "kabes: pure Python (KABES_PURE_PYTHON is set)"


def test_the_setup_line_says_pure_python_and_why_without_a_c_compiler(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.setenv(native.DIR_ENV, str(tmp_path / "none"))
    monkeypatch.setattr(native, "compiler", lambda: None)
    assert compiled.ensure() == "kabes: pure Python (no C compiler)"
    assert not (tmp_path / "none").exists()
