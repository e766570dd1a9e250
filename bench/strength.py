"""Strength of the computer levels: each against the level below, and expert against casual.

Every pairing is a duplicate tournament (``kabes.tournament``): each deal is played twice,
the sides swapped, so the luck of the deal cancels. Prints one table per variant; the
targets of issue 3 are shown beside the figures but never fail the run.

Run: .venv/bin/python bench/strength.py [--matches M] [--expert-matches E] [--budget S]
     [--jobs J] [VARIANT ...]
"""

from __future__ import annotations

import argparse
import time

from kabes.tournament import Setup, run

PAIRS = [("casual", "beginner"), ("skilled", "casual"), ("expert", "skilled"), ("expert", "casual")]
VARIANTS = {"partnership": 4, "haitian-partners": 4, "plaza": 2, "mexican-train": 2}
HAND_TARGET = 0.55
EXPERT_HAND_TARGET = 0.70
EXPERT_MATCH_TARGET = 0.85


def main() -> None:
    """Run the pairings and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--matches", type=int, default=40, help="matches per pairing (even)")
    parser.add_argument(
        "--expert-matches", type=int, default=None, help="matches per pairing with the expert"
    )
    parser.add_argument("--budget", type=float, default=0.1, help="expert seconds per move")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    for variant in args.variants:
        players = VARIANTS[variant]
        expert = args.matches if args.expert_matches is None else args.expert_matches
        print(f"\n{variant} ({players} players), {args.matches} matches per pairing "
              f"({expert} with the expert), expert budget {args.budget}s")
        print(f"{'pairing':<22}{'hands won':>10}{'95% CI':>16}{'matches won':>13}"
              f"{'95% CI':>16}{'target':>18}{'time':>8}")
        for strong, weak in PAIRS:
            started = time.perf_counter()
            setup = Setup(variant, players, (strong, weak), budget=args.budget, seed=args.seed)
            matches = args.matches
            if strong == "expert" and args.expert_matches is not None:
                matches = args.expert_matches
            tally = run(setup, matches, args.jobs)
            row = tally.report()["levels"][strong]
            if (strong, weak) == ("expert", "casual"):
                target = f"{EXPERT_HAND_TARGET:.0%}/{EXPERT_MATCH_TARGET:.0%}"
                met = (row["hand_wins"] >= EXPERT_HAND_TARGET
                       and row["match_wins"] >= EXPERT_MATCH_TARGET)
            else:
                target = f"{HAND_TARGET:.0%} hands"
                met = row["hand_wins"] >= HAND_TARGET
            hand_ci = f"{row['hand_ci'][0]:.3f}-{row['hand_ci'][1]:.3f}"
            match_ci = f"{row['match_ci'][0]:.3f}-{row['match_ci'][1]:.3f}"
            print(f"{strong + ' v ' + weak:<22}{row['hand_wins']:>10.3f}{hand_ci:>16}"
                  f"{row['match_wins']:>13.3f}{match_ci:>16}"
                  f"{target + (' ok' if met else ' MISS'):>18}"
                  f"{time.perf_counter() - started:>7.0f}s", flush=True)


if __name__ == "__main__":
    main()
