"""Puzzles: how many the computer's own matches hold, and what a proof costs.

For each line variant (with its usual seats), plays ``--records`` whole matches of the
computer against itself at mixed levels (``kabes.puzzles.matches``), finds their puzzles
(``kabes.puzzles.find``) and prints, per variant: the positions tried, the puzzles found per
1,000 records, the CPU time to prove a puzzle (median and mean), and the deals and search
nodes proven per CPU-second. Beside them, the random playouts of ``bench/playout.py`` in the
same run: Kabès's fastline and `dominoes` 6.1.0, hands per CPU-second.

Run: .venv/bin/python bench/puzzles.py [--records N] [--seed S] [--seconds T]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from kabes.puzzles.find import candidates, puzzle_at
from kabes.puzzles.matches import computer_records
from playout import dominoes_hands, kabes_hands

SEATINGS = [
    ("partnership", 4),
    ("plaza", 2),
    ("plaza-partners", 4),
    ("haitian", 2),
    ("haitian", 3),
    ("haitian", 4),
    ("haitian-partners", 4),
]


def measure(variant: str, players: int, records: int, seed: int) -> str:
    """One variant's line of figures."""
    tried = found = deals = nodes = 0
    proofs: list[float] = []
    searching = 0.0
    for index, record in enumerate(computer_records(variant, players, records, seed)):
        source = f"computer:{variant}:{seed + index}"
        for candidate in candidates(record):
            tried += 1
            start = time.process_time()
            puzzle = puzzle_at(candidate, record, source)
            spent = time.process_time() - start
            searching += spent
            if puzzle is not None:
                found += 1
                proofs.append(spent)
                deals += puzzle.proof.deals
                nodes += puzzle.proof.nodes
    proving = sum(proofs)
    median = statistics.median(proofs) * 1000 if proofs else 0.0
    mean = statistics.fmean(proofs) * 1000 if proofs else 0.0
    per_deal = deals / proving if proving else 0.0
    per_node = nodes / proving if proving else 0.0
    return (
        f"{variant + ' ' + str(players):<20} {tried:7d} {found:7d} {1000 * found / records:9.0f}"
        f" {median:9.1f} {mean:9.1f} {per_deal:10.0f} {per_node:11.0f} {searching:9.1f}"
    )


def main() -> None:
    """Print the puzzles' figures, then the playout rates of the same run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="CPU seconds for each playout rate")
    args = parser.parse_args()
    print(f"{args.records} computer records per variant, seed {args.seed}")
    print(f"{'variant':<20} {'tried':>7} {'puzzles':>7} {'per 1000':>9} {'median ms':>9}"
          f" {'mean ms':>9} {'deals/s':>10} {'nodes/s':>11} {'search s':>9}")
    for variant, players in SEATINGS:
        print(measure(variant, players, args.records, args.seed), flush=True)
    ours = kabes_hands(args.seconds)
    theirs = dominoes_hands(args.seconds)
    print(f"kabes fastline   {ours:10.0f} hands per CPU-second")
    print(f"dominoes 6.1.0   {theirs:10.0f} hands per CPU-second")


if __name__ == "__main__":
    main()
