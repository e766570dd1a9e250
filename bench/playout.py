"""Playout speed: random partnership hands per CPU-second, Kabès against `dominoes` 6.1.0.

Both deal 28 tiles to four players and play random legal moves to the end of the hand (domino
or block), the 6-6 holder leading. Kabès goes through ``kabes.ai.fastline`` (its deal and
playout), the path the expert uses for its search, compiled where ``kabes.native`` has a
build (it says which; ``KABES_PURE_PYTHON=1`` for pure Python). The dominoes rate is the
yardstick every report prints beside its figures: a third party's speed, which no change
of ours moves. `dominoes` is installed into a temporary folder for this run
only, if it is not importable already.

Run: .venv/bin/python bench/playout.py [SECONDS]
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from random import Random
from types import ModuleType

from kabes import native
from kabes.ai.fastline import BIT, TILES, deal, playout
from kabes.tiles import Tile

DOUBLE_SIX = BIT[Tile.of(6, 6)]


def kabes_hands(seconds: float) -> float:
    """Random partnership hands per CPU-second through the bit-set playout path."""
    rng = Random(1)
    random = rng.random
    hands_played = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        # The clock is read every 64 hands: reading the process's CPU time is a system call,
        # and read at every hand it took 45% of the time measured once the playouts were
        # compiled (the dominoes library's hands are a hundred times longer).
        for _ in range(64):
            hands = deal(random, 4, 7)
            leader = next(s for s in range(4) if hands[s] & DOUBLE_SIX)
            lead = hands[leader]
            for _ in range(int(random() * 7)):
                lead &= lead - 1
            bit = lead & -lead
            hands[leader] ^= bit
            tile = TILES[bit.bit_length() - 1]
            playout(hands, tile.low, tile.high, (leader + 1) % 4, [], leader, random, 0.0)
        hands_played += 64
    return hands_played / (time.process_time() - start)


def dominoes_module() -> ModuleType:
    """`dominoes` 6.1.0, installed into a temporary folder if need be."""
    try:
        return importlib.import_module("dominoes")
    except ImportError:
        folder = tempfile.mkdtemp(prefix="kabes-bench-")
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--target", folder, "dominoes==6.1.0"],
            check=True,
        )
        sys.path.insert(0, folder)
        return importlib.import_module("dominoes")


def dominoes_hands(seconds: float) -> float:
    """Random hands per CPU-second with the `dominoes` library's own random player."""
    dominoes = dominoes_module()
    import random

    random.seed(1)
    hands_played = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = dominoes.Game.new()
        while game.result is None:
            dominoes.players.random(game)
            game.make_move(*game.valid_moves[0])
        hands_played += 1
    return hands_played / (time.process_time() - start)


def main() -> None:
    """Print both figures and their ratio."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seconds", nargs="?", type=float, default=5.0,
                        help="CPU seconds each side plays for (default 5)")
    seconds = parser.parse_args().seconds
    ours = kabes_hands(seconds)
    theirs = dominoes_hands(seconds)
    code = ", ".join(m.rpartition(".")[2] for m in native.running()) or "none (pure Python)"
    print(f"compiled modules: {code}")
    print(f"kabes fastline   {ours:10.0f} hands per CPU-second")
    print(f"dominoes 6.1.0   {theirs:10.0f} hands per CPU-second")
    print(f"ratio            {ours / theirs:10.2f}x")


if __name__ == "__main__":
    main()
