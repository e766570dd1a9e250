"""How much the expert's worlds know of the hidden hands: the truth's share of its worlds.

The expert is as strong as what it knows of the hands (docs/levels.md: seeing them, it wins
83% of partnership hands against skilled, not 68%). This measures that knowledge directly,
without a match's noise: it plays partnership hands, the expert (``--worlds`` a move, seats 0
and 2) against the skilled level (seats 1 and 3), and at each of the expert's choices after
the first few plays draws ``--draws`` worlds three ways, as the expert's search would:

- ``uniform``: dealt at random, consistent with the counts and voids (``worlds.BitDealer``);
- ``read``: the walk through the worlds the plays make likely (``reading.Chain``, as
  ``ai.boards.line`` walks it);
- ``read, not the partner``: the same walk with the partner's plays left out of the reading
  (at these tables the partner is the expert, which plays like neither kind of player the
  reading assumes).

``--sharper BETA:COUNTING`` (repeatable) adds the walk with the reading's constants changed:
how sharply a counting seat prefers its better moves, the partner and the opponents alike
(``reading.BETA`` and ``reading.BETA_OPPONENTS``), and the prior share of counting players
(``reading.COUNTING``). Compiled, those are C constants, so this needs
``KABES_PURE_PYTHON=1``. The playing expert reads with the real constants.

For every hidden tile it takes the share of worlds that put it in the hand that truly holds
it, and prints the mean share over the tiles of the partner and of the opponents, by stage of
the hand (hidden tiles left), with the mean log2 of the share (clipped at 1/draws): a sharper
and truer reading gives the truth more of its worlds. Same seed, same hands and positions.

Run: .venv/bin/python bench/reading_truth.py [--hands 60] [--worlds 100] [--draws 300]
     [--seed 2026] [--sharper BETA:COUNTING ...]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kabes import native
from kabes.ai import Expert, Skilled, fastline
from kabes.ai import reading as read_module
from kabes.ai.boards.line import BURN_IN, STEPS
from kabes.ai.knowledge import unseen
from kabes.ai.reading import Chain, Reading
from kabes.ai.worlds import BitDealer
from kabes.match import Match
from kabes.views import View, view

Draw = Callable[[View, Random, int], list[list[int]]]
STAGES = ((15, 21, "early (15-21 hidden)"), (8, 14, "middle (8-14)"), (1, 7, "late (1-7)"))


def uniform(seen: View, rng: Random, draws: int) -> list[list[int]]:
    """Worlds dealt at random, consistent with the counts and voids."""
    dealer = BitDealer(seen, unseen(seen), fastline.BITS)
    return [dealer.deal(rng)[0] for _ in range(draws)]


def walked(partner_read: bool, constants: tuple[float, float] | None = None) -> Draw:
    """The expert's walk through likely worlds, reading the partner or not, with the
    reading's (BETA, COUNTING) changed to ``constants`` for the walk (pure Python)."""

    def draw(seen: View, rng: Random, draws: int) -> list[list[int]]:
        kept = read_module.BETA, read_module.BETA_OPPONENTS, read_module.COUNTING
        if constants is not None:
            beta, counting = constants
            read_module.BETA = read_module.BETA_OPPONENTS = beta  # type: ignore[misc]
            read_module.COUNTING = counting
        try:
            reading = Reading(seen)
            if not partner_read:
                mate = (seen.seat + 2) % 4
                kept_plays = [i for i, d in enumerate(reading.decisions) if d[0] != mate]
                reading.decisions = [reading.decisions[i] for i in kept_plays]
                reading.betas = [reading.betas[i] for i in kept_plays]
            start, stock = BitDealer(seen, unseen(seen), fastline.BITS).deal(rng)
            chain = Chain(reading, seen, start, sum(stock))
            chain.world(BURN_IN, rng.random)
            return [list(chain.world(STEPS, rng.random)[0]) for _ in range(draws)]
        finally:
            read_module.BETA, read_module.BETA_OPPONENTS, read_module.COUNTING = kept  # type: ignore[misc]

    return draw


def truth_shares(worlds: list[list[int]], hands: list[int], seat: int) -> dict[str, list[float]]:
    """Per hidden tile, the share of worlds holding it where it truly is, by holder."""
    shares: dict[str, list[float]] = {"partner": [], "opponents": []}
    for holder, hand in enumerate(hands):
        if holder == seat:
            continue
        role = "partner" if holder == (seat + 2) % 4 else "opponents"
        tiles = hand
        while tiles:
            bit = tiles & -tiles
            tiles ^= bit
            shares[role].append(sum(1 for w in worlds if w[holder] & bit) / len(worlds))
    return shares


def main() -> None:
    """Play the hands, measure each kind of world at every expert choice, print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=60, help="partnership hands played")
    parser.add_argument("--worlds", type=int, default=100, help="the playing expert's worlds")
    parser.add_argument("--draws", type=int, default=300, help="worlds drawn per position")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sharper", action="append", default=[], metavar="BETA:COUNTING",
                        help="also walk with these reading constants (pure Python only)")
    args = parser.parse_args()
    draws: dict[str, Draw] = {
        "uniform": uniform, "read": walked(True), "read, not the partner": walked(False)
    }
    for setting in args.sharper:
        if read_module.__name__ in native.running():
            parser.error("--sharper changes the reading's constants: run with "
                         "KABES_PURE_PYTHON=1 (compiled, they are C constants)")
        try:
            beta, counting = (float(x) for x in setting.split(":"))
        except ValueError:
            parser.error(f"--sharper {setting!r}: give BETA:COUNTING, e.g. 1.0:0.5")
        draws[f"read, beta {beta:g}, counting {counting:g}"] = walked(True, (beta, counting))
    kinds = list(draws)
    # kind -> stage -> role -> shares
    found: dict[str, dict[str, dict[str, list[float]]]] = {
        k: {s[2]: {"partner": [], "opponents": []} for s in STAGES} for k in kinds
    }
    positions = 0
    started = time.process_time()
    for number in range(args.hands):
        seed = args.seed * 1000 + number
        match = Match("partnership", 4, rng=Random(seed))
        expert = Expert(Random(seed), budget=60.0, max_worlds=args.worlds)
        skilled = Skilled(Random(seed))
        match.deal_hand()
        while match.hand_in_progress:
            seat = match.turn
            assert seat is not None and match.hand is not None
            seen = view(match, seat)
            if seat % 2 == 0 and len(seen.played) >= 4 and len(seen.legal) > 1:
                hidden = sum(c for s, c in enumerate(seen.counts) if s != seat)
                stage = next(name for low, high, name in STAGES if low <= hidden <= high)
                hands = [fastline.BITS.mask(h) for h in match.hand.hands]
                positions += 1
                for kind in kinds:
                    rng = Random(seed * 31 + positions)
                    shares = truth_shares(draws[kind](seen, rng, args.draws), hands, seat)
                    for role, values in shares.items():
                        found[kind][stage][role] += values
            move = (expert if seat % 2 == 0 else skilled).choose(seen)
            match.apply(seat, move)
    build = ", ".join(m.rpartition(".")[2] for m in native.running()) or "pure Python"
    print(f"{positions} expert choices in {args.hands} partnership hands (expert at "
          f"{args.worlds} worlds against skilled), {args.draws} worlds drawn each way, "
          f"compiled: {build}, {time.process_time() - started:.0f} CPU-s")
    floor = 1 / args.draws
    width = max(len(k) for k in kinds)
    print(f"{'stage':<22} {'worlds':<{width}} {'partner: share, log2':>22} "
          f"{'opponents: share, log2':>24}")
    for _, _, stage in STAGES:
        for kind in kinds:
            cells = []
            for role in ("partner", "opponents"):
                values = found[kind][stage][role]
                if not values:
                    cells.append("-")
                    continue
                share = sum(values) / len(values)
                bits = sum(math.log2(max(v, floor)) for v in values) / len(values)
                cells.append(f"{share:.3f} {bits:+.3f} ({len(values)})")
            print(f"{stage:<22} {kind:<{width}} {cells[0]:>22} {cells[1]:>24}")


if __name__ == "__main__":
    main()
