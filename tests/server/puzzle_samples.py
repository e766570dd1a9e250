"""Puzzles to store and serve in the server's tests: real positions of partnership hands
(a match walked by random legal moves to the fourth move, seen from the seat to move), each
given its first legal move as the solution and a proof in the shape the solver writes.

They are not proven (the solver's own tests prove puzzles, kabes.puzzles); these tests are
about keeping, serving and judging them, which needs a real VIEW with real legal moves."""

from __future__ import annotations

from random import Random

from kabes.match import Match
from kabes.puzzles.model import MoveProof, Proof, Puzzle
from kabes.table.wire import view_json
from kabes.views import view


def sample_puzzle(seed: int, difficulty: int = 3) -> Puzzle:
    """A partnership position after four random moves, the first legal move its
    solution (the others behind it in a third of 1,680 deals)."""
    match = Match("partnership", 4, rng=Random(seed))
    rng = Random(seed + 1)
    match.deal_hand()
    hand = match.hand
    assert hand is not None
    played: list[str] = []
    for _ in range(4):
        move = rng.choice(hand.legal_moves())
        played.append(str(move))
        match.apply(None, move)
    seat = hand.turn
    assert seat is not None
    seen = view_json(view(match, seat))
    legal = [str(m) for m in seen["legal"]]
    assert len(legal) >= 2, "a sample needs a wrong move beside the right one"
    moves = tuple(
        MoveProof(m, 0 if n == 0 else -20, 40, 12.5 - n, 0 if n == 0 else 560,
                  0 if n == 0 else 20)
        for n, m in enumerate(legal))
    return Puzzle("partnership", 4, {}, seat, seen, played, (legal[0],),
                  Proof(1680, moves, 123_456), difficulty, 8, f"test:{seed}")


def sample_puzzles(count: int) -> list[Puzzle]:
    """``count`` samples of different positions (seeds with two legal moves or more)."""
    found: list[Puzzle] = []
    seed = 0
    while len(found) < count:
        seed += 1
        try:
            found.append(sample_puzzle(seed, difficulty=seed % 7))
        except AssertionError:
            continue
    return found
