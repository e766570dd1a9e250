"""How fast the engine plays: whole hands per second of random legal play, per variant.

Run: .venv/bin/python bench/engine.py [SECONDS_PER_VARIANT]
Prints one line per variant; never fails on a slow machine.
"""

from __future__ import annotations

import argparse
import time
from random import Random

from kabes.match import Match

SETUPS = [
    ("partnership", 4),
    ("plaza", 2),
    ("plaza-partners", 4),
    ("haitian", 2),
    ("haitian", 3),
    ("haitian-partners", 4),
    ("mexican-train", 4),
]


def hands_per_second(variant: str, players: int, seconds: float) -> tuple[float, float]:
    """Hands and moves per CPU-second of random play through the full Match API."""
    rng = Random(1)
    hands = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        match = Match(variant, players, rng=Random(rng.random()))
        while not match.over:
            if not match.hand_in_progress:
                match.deal_hand()
                continue
            hand = match.hand
            assert hand is not None
            match.apply(None, rng.choice(hand.legal_moves()))
            moves += 1
            if not match.hand_in_progress:
                hands += 1
    spent = time.process_time() - start
    return hands / spent, moves / spent


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("seconds", nargs="?", type=float, default=2.0,
                        help="CPU seconds per variant (default 2)")
    seconds = parser.parse_args().seconds
    print(f"{'variant':<22}{'hands/s':>10}{'moves/s':>12}")
    for variant, players in SETUPS:
        hands, moves = hands_per_second(variant, players, seconds)
        print(f"{variant + f' ({players})':<22}{hands:>10.0f}{moves:>12.0f}")


if __name__ == "__main__":
    main()
