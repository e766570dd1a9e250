"""Each stored puzzle's proof, recomputed by a plain solver written for the test
(``plain_minimax``: every deal, every line, no pruning), on a sample of found puzzles."""

from __future__ import annotations

import plain_minimax
import puzzle_corpus

SAMPLE_NODES = 3000
"""Puzzles whose proof searched at most this many positions are recomputed: the plain
solver visits every line of every deal, thousands of times as many."""


def sample() -> list[tuple[puzzle_corpus.Found, dict[str, list[int]]]]:
    """Found puzzles small enough for the plain solver, with its scores per move per deal."""
    found = [
        (f, plain_minimax.plain_scores(puzzle_corpus.match_at(f.record, f.candidate)))
        for f in puzzle_corpus.puzzles()
        if f.puzzle is not None and f.puzzle.proof.nodes <= SAMPLE_NODES
    ]
    assert len(found) >= 8, "too few puzzles to sample"
    return found


def test_the_plain_solver_finds_the_same_deals_worst_best_and_mean_for_every_move() -> None:
    for found, scores in sample():
        puzzle = found.puzzle
        assert puzzle is not None
        assert {len(s) for s in scores.values()} == {puzzle.proof.deals}, found.source
        proven = {m.move: (m.worst, m.best, m.mean) for m in puzzle.proof.moves}
        assert proven == plain_minimax.numbers(scores), found.source


def test_the_plain_solver_finds_the_solution_at_least_as_good_in_every_deal() -> None:
    for found, scores in sample():
        puzzle = found.puzzle
        assert puzzle is not None
        solution = scores[puzzle.solution[0]]
        for move, theirs in scores.items():
            if puzzle.solves(move):
                assert theirs == solution, (found.source, move)
                continue
            assert all(a >= b for a, b in zip(solution, theirs, strict=True)), found.source
            assert any(a > b for a, b in zip(solution, theirs, strict=True)), found.source
            behind = sum(1 for a, b in zip(solution, theirs, strict=True) if a > b)
            proof = puzzle.proof.of(move)
            assert proof is not None
            assert proof.behind == behind, (found.source, move)
            assert proof.most_behind == max(a - b for a, b in zip(solution, theirs,
                                                                    strict=True))
