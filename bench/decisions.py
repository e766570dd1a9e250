"""How long each level takes to decide: median, 95th percentile and worst, per variant.

Positions come from matches played by the skilled level; every position where the seat has
more than one distinct move is timed for each level. Targets (issue 3): casual and skilled
under 5 ms, the expert's 95th percentile within its budget.

Run: .venv/bin/python bench/decisions.py [--positions N] [--budget S] [--workers W]
"""

from __future__ import annotations

import argparse
import statistics
import time
from random import Random

from kabes.ai import Casual, Expert, Skilled
from kabes.ai.knowledge import distinct
from kabes.match import Match
from kabes.views import View, view

SETUPS = [("partnership", 4), ("plaza", 2), ("haitian", 3), ("mexican-train", 4)]


def positions(variant: str, players: int, wanted: int, seed: int) -> list[View]:
    """Views of seats with a real choice to make."""
    rng = Random(seed)
    found: list[View] = []
    chooser = Skilled(rng)
    while len(found) < wanted:
        match = Match(variant, players, rng=Random(rng.random()))
        match.deal_hand()
        while match.hand_in_progress and len(found) < wanted:
            seat = match.turn
            assert seat is not None
            seen = view(match, seat)
            if len(distinct(seen)) > 1:
                found.append(seen)
            match.apply(seat, chooser.choose(seen))
    return found


def main() -> None:
    """Time every level on the same positions and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    levels = {
        "casual": Casual(Random(1)),
        "skilled": Skilled(Random(1)),
        "expert": Expert(Random(1), args.budget, args.workers),
    }
    print(f"{'variant':<18}{'level':<9}{'median ms':>11}{'p95 ms':>9}{'worst ms':>10}")
    for variant, players in SETUPS:
        views = positions(variant, players, args.positions, seed=5)
        for name, level in levels.items():
            sample = views if name != "expert" else views[: max(5, args.positions // 4)]
            times = []
            for seen in sample:
                start = time.perf_counter()
                level.choose(seen)
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(f"{variant:<18}{name:<9}{statistics.median(times):>11.2f}{p95:>9.2f}"
                  f"{times[-1]:>10.2f}", flush=True)


if __name__ == "__main__":
    main()
