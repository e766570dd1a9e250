"""Search speed: worlds the expert searches per move at a fixed budget, beside the yardstick.

The expert is as strong as the worlds it fits into its budget (docs/levels.md). This takes
the same partnership positions every run (seat 0's choices in hands played by skilled
players, from the lead to the last tiles, some late enough for the endgame search), has the
expert evaluate each with ``--budget`` seconds on one process, and prints the worlds per move
(mean, and split between early and late positions; a busy machine gives the expert less of
its wall-clock budget, so worlds per CPU-second are printed too), then dominoes 6.1.0's random
hands per CPU-second (bench/playout.py) of the same run, the yardstick no change of ours
moves. It says which code ran: the compiled modules (``kabes.native``) or pure Python
(``KABES_PURE_PYTHON=1``).

``--clock thread`` counts the budget in CPU time of the searching thread
(``KABES_EXPERT_CLOCK``) rather than the server's wall clock; the clock is printed.

Run: .venv/bin/python bench/search.py [--budget 0.05 | --worlds 200] [--positions 60]
     [--variant partnership] [--clock wall|thread]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kabes import native
from kabes.ai import Expert, make_player
from kabes.ai.expert import CLOCK_ENV
from kabes.match import Match
from kabes.views import View, view
from playout import dominoes_hands


def positions(variant: str, players: int, count: int) -> list[View]:
    """Seat 0's views at its choices (two moves or more) in hands played by skilled seats."""
    found: list[View] = []
    seed = 0
    while len(found) < count:
        seed += 1
        match = Match(variant, players, rng=Random(seed))
        match.deal_hand()
        seats = [make_player("skilled", Random(seed * 10 + s)) for s in range(players)]
        while match.hand_in_progress and len(found) < count:
            seat = match.turn
            assert seat is not None
            seen = view(match, seat)
            if seat == 0 and len(seen.legal) > 1:
                found.append(seen)
            match.apply(seat, seats[seat].choose(seen))
    return found


def main() -> None:
    """Search every position once and print the worlds per move."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--variant", default="partnership")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--yardstick-seconds", type=float, default=3.0)
    parser.add_argument(
        "--worlds",
        type=int,
        default=None,
        help="search this many worlds a move whatever the time (CPU per world, not worlds "
        "per budget: on a crowded machine a wall-clock budget buys little CPU)",
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "thread"),
        default="wall",
        help="the budget in wall-clock time (the server's) or the thread's CPU time",
    )
    args = parser.parse_args()
    os.environ[CLOCK_ENV] = args.clock
    seen = positions(args.variant, args.players, args.positions)
    seconds = args.budget if args.worlds is None else 3600.0
    expert = Expert(Random(1), budget=seconds, max_worlds=args.worlds)
    early: list[int] = []
    late: list[int] = []
    cpu = time.process_time()
    for position in seen:
        _, worlds = expert.evaluate(position, list(position.legal))
        (late if sum(position.counts) <= 16 else early).append(worlds)
    cpu = time.process_time() - cpu
    every = early + late
    rate = dominoes_hands(args.yardstick_seconds)
    code = ", ".join(m.rpartition(".")[2] for m in native.running()) or "none (pure Python)"
    print(f"compiled modules: {code}")
    clock = "thread CPU" if args.clock == "thread" else "wall clock"
    at = f"{args.budget * 1000:.0f} ms ({clock})" if args.worlds is None else "a fixed count"
    print(
        f"{args.variant}: {statistics.mean(every):.1f} worlds per move at {at} over"
        f" {len(every)} positions (early {statistics.mean(early or [0]):.1f},"
        f" late {statistics.mean(late or [0]):.1f}); CPU {cpu / len(every) * 1000:.1f} ms a move,"
        f" {sum(every) / cpu:.0f} worlds per CPU-second = {sum(every) / cpu / rate:.2f} per"
        f" dominoes-hand"
    )
    budget = ""
    if args.worlds is None:
        budget = f": a move's budget is {args.budget * rate:.0f} dominoes-hands"
    print(f"dominoes 6.1.0 {rate:.0f} hands per CPU-second (this run){budget}")


if __name__ == "__main__":
    main()
