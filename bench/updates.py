"""Every seat's update after a move: the CPU of ``kabes.table.outbox.updates`` in one process.

Plays partnership matches at random on a ``TableState`` (four seats, every one connected, no
watcher, as at the flat-out tables of bench/load.py) and at each move times the outbox telling
the four seats, two ways alternated on the same moves: with msgspec's encoder as the server
hands it (each update put together from the pieces of one encoding with holes,
``Encoder.hole``), and with the same encoder without its hole (each update encoded whole,
as before). Prints the microseconds a move of each, and bench/playout.py's yardstick
(`dominoes` 6.1.0's random hands per CPU-second) from the same run. Which modules run
compiled is printed first (``kabes.native``: the outbox and the wire are).

Run: .venv/bin/python bench/updates.py [--matches 30] [--seed 2026]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

from kabes import native
from kabes.server.common.protocol import MSGSPEC
from kabes.table import actions, outbox
from kabes.table.entries import Entry
from kabes.table.state import Status, TableState, Timing

sys.path.insert(0, str(Path(__file__).parent))
from playout import dominoes_hands  # bench/ is not a package

SEATS = [0, 1, 2, 3]


class Whole:
    """msgspec's encoder without its hole: every update encoded whole."""

    encode = staticmethod(MSGSPEC.encode)
    shared = staticmethod(MSGSPEC.shared)
    hole = None


def play(seed: int, spent: dict[str, float]) -> int:
    """One match to 500; adds each way's seconds to ``spent``; returns the moves timed."""
    rng = Random(seed)
    state = TableState("BENCHUP", Timing(45.0, 5.0, 30.0))
    moves = 0
    ways: list[tuple[str, Any]] = [("pieces", MSGSPEC), ("whole", Whole())]

    def commit(kind: str, data: dict[str, Any], seat: int | None = None,
               action: str | None = None) -> None:
        nonlocal moves
        change = state.apply(Entry(state.seq + 1, kind, data, 1.7e9 + state.seq, seat, action))
        if kind != "move":
            return
        moves += 1
        ways.reverse()  # alternate which way goes first
        for name, encoder in ways:
            began = time.process_time()
            for _ in outbox.updates(state, change.news, change.events, SEATS, bool,
                                    1.7e9 + state.seq, encoder):
                pass
            spent[name] += time.process_time() - began

    commit("created", {"variant": "partnership", "players": 4, "options": {"target": 500},
                       "computers": {}, "player": 1, "name": "A"})
    for number in range(1, 4):
        joined = actions.join(state, 100 + number, f"S{number}")
        assert not isinstance(joined, int)
        commit(*joined)
    commit(*actions.start(state, 0, rng), 0, "start")
    while state.status != Status.OVER:
        if state.status == Status.BETWEEN_HANDS:
            commit(*actions.next_hand(state, 0, rng), 0, f"n{state.seq}")
            continue
        assert state.match is not None and state.match.hand is not None
        turn = state.turn
        assert turn is not None
        move = str(rng.choice(state.match.hand.legal_moves()))
        commit(*actions.play(state, turn, move), turn, f"m{state.seq}")
    return moves


def main() -> None:
    """Play, time, print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"compiled modules: {', '.join(m.rsplit('.', 1)[1] for m in native.running())}"
          if native.running() else "pure Python")
    spent = {"pieces": 0.0, "whole": 0.0}
    moves = sum(play(args.seed + n, spent) for n in range(args.matches))
    theirs = dominoes_hands(3.0)
    for name, seconds in spent.items():
        us = seconds / moves * 1e6
        print(f"{name:<7} {us:6.1f} us a move = {us / 1e6 * theirs:.3f} dominoes-hands "
              f"({moves} moves)")
    print(f"dominoes 6.1.0 {theirs:.0f} hands per CPU-second, this run")


if __name__ == "__main__":
    main()
