"""Strength of the computer levels: each against the level below, and expert against casual.

Every pairing is a duplicate tournament (``kabes.ai.tournament``): each deal is played with
every side in every chair, so the luck of the deal cancels. Prints one table per variant and
seat count (all of them by default, or those named as ``VARIANT`` or ``VARIANT:PLAYERS``).
Beside each figure is what it is held to, never failing the run: the ladder (in every variant,
each level wins more than its fair share of the hands against the level below: a half head to
head or between teams, a third or a quarter per seat at three or four), and issue 10's targets
at 50 ms a move (the expert wins 65% of hands against skilled in partnership, 75% against
casual in partnership, plaza and haitian-partners).

Run: .venv/bin/python bench/strength.py [--matches M] [--expert-matches E] [--budget S]
     [--jobs J] [--pairs strong:weak,...] [--clock wall|thread] [VARIANT[:PLAYERS] ...]

``--clock thread`` counts the expert's budget in CPU time of its thread (``KABES_EXPERT_CLOCK``)
so that a figure does not depend on the other load of a shared machine; the default is the
server's wall clock. The clock used is printed with each table.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from kabes.ai.expert import CLOCK_ENV, Expert
from kabes.ai.tournament import Setup, party_count, run
from kabes.rules import VARIANTS

PAIRS = [("casual", "beginner"), ("skilled", "casual"), ("expert", "skilled"), ("expert", "casual")]
TRAIN_SEATS = (2, 4)
"""Mexican Train seats 2 to 8; these two are benched."""
SEATINGS = [
    (variant, players)
    for variant, rules in VARIANTS.items()
    for players in rules.seat_counts
    if rules.board != "trains" or players in TRAIN_SEATS
]
TARGETS = {
    ("partnership", "expert", "skilled"): 0.65,
    ("partnership", "expert", "casual"): 0.75,
    ("plaza", "expert", "casual"): 0.75,
    ("haitian-partners", "expert", "casual"): 0.75,
}
"""Issue 10's targets: hands won at 50 ms a move."""


def seatings(names: list[str]) -> list[tuple[str, int]]:
    """``VARIANT`` (every seat count benched) or ``VARIANT:PLAYERS``."""
    if not names:
        return SEATINGS
    chosen = []
    for name in names:
        variant, _, players = name.partition(":")
        if players:
            chosen.append((variant, int(players)))
        else:
            chosen += [s for s in SEATINGS if s[0] == variant]
    return chosen


def _fix_worlds(worlds: int) -> None:
    """Make every expert of this process (and of the processes it forks) stop at ``worlds``
    worlds a move."""
    init = Expert.__init__

    def fixed(self: Expert, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.max_worlds = worlds

    Expert.__init__ = fixed  # type: ignore[method-assign]


def main() -> None:
    """Run the pairings and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("variants", nargs="*", default=[])
    parser.add_argument("--matches", type=int, default=40, help="matches per pairing (even)")
    parser.add_argument(
        "--expert-matches", type=int, default=None, help="matches per pairing with the expert"
    )
    parser.add_argument("--budget", type=float, default=0.05, help="expert seconds per move")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--pairs", default=None, help="pairings as strong:weak, comma separated (default: all)"
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "thread"),
        default="wall",
        help="the expert's budget in wall-clock time (the server's) or its thread's CPU time",
    )
    parser.add_argument(
        "--worlds",
        type=int,
        default=None,
        help="the expert searches this many worlds a move, whatever the budget (to compare "
        "search changes without speed entering; the budget must then be ample)",
    )
    args = parser.parse_args()
    os.environ[CLOCK_ENV] = args.clock
    if args.worlds is not None:
        _fix_worlds(args.worlds)
    pairs = PAIRS
    if args.pairs:
        pairs = [(a, b) for a, _, b in (p.partition(":") for p in args.pairs.split(","))]
    for variant, players in seatings(args.variants):
        expert = args.matches if args.expert_matches is None else args.expert_matches
        print(f"\n{variant} ({players} players), {args.matches} matches per pairing "
              f"({expert} with the expert), expert budget {args.budget}s "
              f"({'CPU time of its thread' if args.clock == 'thread' else 'wall clock'}), "
              f"seed {args.seed}")
        print(f"{'pairing':<22}{'hands won':>10}{'95% CI':>16}{'matches won':>13}"
              f"{'95% CI':>16}{'target':>18}{'time':>8}")
        for strong, weak in pairs:
            started = time.perf_counter()
            setup = Setup(variant, players, (strong, weak), budget=args.budget, seed=args.seed)
            matches = args.matches
            if strong == "expert" and args.expert_matches is not None:
                matches = args.expert_matches
            tally = run(setup, matches, args.jobs)
            row = tally.report()["levels"][strong]
            wanted = TARGETS.get((variant, strong, weak))
            if wanted is not None:
                target = f"{wanted:.0%} hands"
                met = row["hand_wins"] >= wanted
            else:
                share = 1 / party_count(variant, players)
                target = f"ladder >{share:.0%}"
                met = row["hand_wins"] > share
            hand_ci = f"{row['hand_ci'][0]:.3f}-{row['hand_ci'][1]:.3f}"
            match_ci = f"{row['match_ci'][0]:.3f}-{row['match_ci'][1]:.3f}"
            print(f"{strong + ' v ' + weak:<22}{row['hand_wins']:>10.3f}{hand_ci:>16}"
                  f"{row['match_wins']:>13.3f}{match_ci:>16}"
                  f"{target + (' ok' if met else ' MISS'):>18}"
                  f"{time.perf_counter() - started:>7.0f}s", flush=True)


if __name__ == "__main__":
    main()
