"""Head to head: Kabès's expert against `dominoes` 6.1.0's ``probabilistic_alphabeta``.

Single ``partnership`` hands (4 players, 7 tiles each, no stock; the 6-6 holder leads any
tile) are dealt by the Kabès engine, which also judges them. Every deal is played twice, the
expert's team on seats 0 and 2, then on 1 and 3 (duplicate play: the luck of the deal
cancels). The `dominoes` player sees only what its seat may see: it is handed a
``dominoes.Game`` rebuilt from the seat's ``View`` alone, with its own hand, the board's two
ends, every play and pass in order (from which the library reads the numbers each seat
lacks) and, for the other seats, tiles dealt at random from the seat's unseen tiles with the
right counts. Its ``probabilistic_alphabeta`` draws its own possible hands from those (only
the pool and the counts matter to it), solves each by alpha-beta to the end of the hand and
plays the move most often best. It maximises the library's points (a blocked tie scores
nobody there; in Kabès it goes to the team that played last): its objective, not its
knowledge, differs slightly from the hand won here.

Prints the expert's share of hands won with its 95% (Wilson) interval, and each side's CPU
time per move (``time.process_time``, moves with more than one choice only).

Deals are shared out over ``--jobs`` processes, each timing its own moves.

``--clock thread`` counts the expert's budget in CPU time of its thread
(``KABES_EXPERT_CLOCK``), so that the other load of a shared machine does not take it; the
default is the server's wall clock. The clock is printed with the figures.

Run: .venv/bin/python bench/versus_dominoes.py [--deals N] [--budget S] [--sample-size K]
     [--jobs J] [--clock wall|thread]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from random import Random
from types import ModuleType
from typing import Any

from kabes.ai import Expert
from kabes.ai.expert import CLOCK_ENV
from kabes.ai.knowledge import distinct
from kabes.ai.tournament import wilson
from kabes.ai.worlds import deal_world
from kabes.match import Match
from kabes.moves import LEFT, RIGHT, Move
from kabes.views import View, view

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from playout import dominoes_module  # bench/playout.py installs `dominoes` for the run


def dominoes_game(lib: ModuleType, seen: View, rng: Random) -> Any:
    """A ``dominoes.Game`` holding only what ``seen``'s seat may know (see the docstring)."""
    assert seen.leader is not None
    moves: list[Any] = []
    board = lib.SkinnyBoard()
    previous: int | None = None
    for seat, play in seen.played:
        if previous is not None:
            between = (previous + 1) % 4
            while between != seat:
                moves.append(None)
                between = (between + 1) % 4
        tile = play.tile
        if not board:
            first = tile.low if play.first is None else play.first
            move = (lib.Domino(first, tile.other(first)), True)
        else:
            move = (lib.Domino(tile.low, tile.high), play.at != RIGHT)
        board.add(*move)
        moves.append(move)
        previous = seat
    if previous is not None:
        between = (previous + 1) % 4
        while between != seen.seat:
            moves.append(None)
            between = (between + 1) % 4
    if seen.ends is not None:
        assert (board.left_end(), board.right_end()) == seen.ends, "board rebuilt wrongly"
    sampled, _ = deal_world(seen, rng)
    hands = [
        lib.Hand([lib.Domino(t.low, t.high) for t in (seen.hand if s == seen.seat else h)])
        for s, h in enumerate(sampled)
    ]
    game = lib.Game(board, hands, moves, seen.seat, (), seen.leader, None)
    if board:
        game._update_valid_moves()
    else:
        game.valid_moves = tuple((d, True) for d in hands[seen.seat])
    return game


def dominoes_chooser(
    lib: ModuleType, player: Callable[[Any], None], rng: Random
) -> Callable[[View], Move]:
    """A Kabès chooser that asks the `dominoes` player, and maps its move back."""

    def choose(seen: View) -> Move:
        game = dominoes_game(lib, seen, rng)
        player(game)
        domino, left = game.valid_moves[0]
        wanted = {domino.first, domino.second}
        fits = [m for m in seen.legal if {m.tile.low, m.tile.high} == wanted]
        if seen.ends is not None:
            at = LEFT if left else RIGHT
            fits = [m for m in fits if m.at == at] or fits
        assert fits, f"{domino} is not among the legal moves"
        return fits[0]

    return choose


def play_hand(
    seed: int, expert_party: int, budget: float, sample_size: int, lib: ModuleType
) -> tuple[bool, list[float], list[float]]:
    """One hand of deal ``seed``; whether the expert's team won, and each side's CPU
    seconds per decision with a real choice."""
    match = Match("partnership", 4, rng=Random(seed))
    expert = Expert(Random(seed * 7 + expert_party), budget)
    theirs = dominoes_chooser(
        lib, lib.players.probabilistic_alphabeta(sample_size=sample_size), Random(seed)
    )
    lib_random = __import__("random")
    lib_random.seed(seed * 11 + expert_party)  # the library draws its worlds from `random`
    ours: list[float] = []
    others: list[float] = []
    match.deal_hand()
    while match.hand_in_progress:
        seat = match.turn
        assert seat is not None
        seen = view(match, seat)
        started = time.process_time()
        if seat % 2 == expert_party:
            move = expert.choose(seen)
            spent = ours
        else:
            move = theirs(seen)
            spent = others
        if len(distinct(seen)) > 1:
            spent.append(time.process_time() - started)
        match.apply(seat, move)
    result = match.log[0].result
    assert result is not None
    return result.winner == expert_party, ours, others


def play_deal(
    seed: int, budget: float, sample_size: int
) -> tuple[int, list[float], list[float]]:
    """Both hands of deal ``seed`` (the expert's team on seats 0 and 2, then 1 and 3): hands
    the expert won, and each side's CPU seconds per decision."""
    lib = dominoes_module()
    wins = 0
    ours: list[float] = []
    others: list[float] = []
    for party in (0, 1):
        won, mine, theirs = play_hand(seed, party, budget, sample_size, lib)
        wins += won
        ours += mine
        others += theirs
    return wins, ours, others


def main() -> None:
    """Play the deals both ways round and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=50, help="deals, each played twice")
    parser.add_argument("--budget", type=float, default=0.05, help="expert seconds per move")
    parser.add_argument(
        "--sample-size", type=int, default=1, help="worlds the dominoes player solves per move"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1, help="processes playing deals")
    parser.add_argument(
        "--clock",
        choices=("wall", "thread"),
        default="wall",
        help="the expert's budget in wall-clock time (the server's) or its thread's CPU time",
    )
    args = parser.parse_args()
    os.environ[CLOCK_ENV] = args.clock
    dominoes_module()  # installed once, before the processes start
    wins = hands = 0
    ours: list[float] = []
    others: list[float] = []
    seeds = [args.seed + deal for deal in range(args.deals)]
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=get_context("fork")) as pool:
        played = pool.map(
            play_deal, seeds, [args.budget] * args.deals, [args.sample_size] * args.deals
        )
        for deal, (won, mine, theirs) in enumerate(played):
            wins += won
            hands += 2
            ours += mine
            others += theirs
            if (deal + 1) % 5 == 0:
                print(f"  {deal + 1} deals: {wins}/{hands}, CPU per move: expert "
                      f"{1000 * sum(ours) / max(1, len(ours)):.1f} ms, dominoes "
                      f"{1000 * sum(others) / max(1, len(others)):.1f} ms", flush=True)
    low, high = wilson(wins, hands)
    clock = "CPU time of its thread" if args.clock == "thread" else "wall clock"
    print(f"expert (budget {args.budget}s, {clock}) against dominoes 6.1.0 probabilistic_alphabeta "
          f"(sample_size={args.sample_size}), partnership, {args.deals} deals x 2 seatings")
    print(f"hands won by the expert  {wins / hands:.3f}  95% CI {low:.3f}-{high:.3f}  "
          f"({wins} of {hands})")
    print(f"CPU per move: expert {1000 * sum(ours) / len(ours):.1f} ms, "
          f"dominoes {1000 * sum(others) / len(others):.1f} ms")


if __name__ == "__main__":
    main()
