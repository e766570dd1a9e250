"""A puzzle as stored and sent: JSON and back, a stable key, moves compared by meaning."""

from __future__ import annotations

import json
from dataclasses import replace

import puzzle_corpus
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kabes.puzzles.find import find_puzzles
from kabes.puzzles.model import MoveProof, Proof, Puzzle, move_class


def a_puzzle() -> Puzzle:
    found = puzzle_corpus.puzzles()
    assert found
    puzzle = found[0].puzzle
    assert puzzle is not None
    return puzzle


def test_a_puzzle_goes_to_json_and_back_unchanged() -> None:
    for found in puzzle_corpus.puzzles():
        puzzle = found.puzzle
        assert puzzle is not None
        text = json.dumps(puzzle.to_dict())
        again = Puzzle.from_dict(json.loads(text))
        assert again == puzzle
        assert again.key == puzzle.key
        assert again.to_dict() == puzzle.to_dict()


@given(
    st.integers(-99, 99), st.integers(-99, 99), st.integers(0, 6000),
    st.integers(0, 99), st.integers(1, 6000),
)
def test_a_proof_goes_to_json_and_back_unchanged(
    worst: int, spread: int, behind: int, most: int, deals: int
) -> None:
    move = MoveProof("6-3@L", worst, worst + abs(spread), worst + abs(spread) / 3, behind, most)
    proof = Proof(deals, (move,), deals * 7)
    assert Proof.from_dict(json.loads(json.dumps(proof.to_dict()))) == proof
    assert set(proof.to_dict()) == {"deals", "moves", "nodes"}
    assert set(move.to_dict()) == {"move", "worst", "best", "mean", "behind", "most_behind"}


def test_the_same_position_found_twice_has_the_same_key() -> None:
    _, record = puzzle_corpus.records()[0]
    first = [p.key for p in find_puzzles(record, source="one")]
    second = [p.key for p in find_puzzles(record, source="two")]
    assert first and first == second


def test_the_key_depends_on_the_position_not_on_how_it_is_written() -> None:
    puzzle = a_puzzle()
    view = dict(puzzle.view, hand=list(reversed(puzzle.view["hand"])))
    assert replace(puzzle, view=view).key == puzzle.key
    assert replace(puzzle, source="elsewhere", difficulty=0).key == puzzle.key
    assert replace(puzzle, moves=[*puzzle.moves, "0-0@L"]).key != puzzle.key
    assert replace(puzzle, seat=(puzzle.seat + 1) % puzzle.players).key != puzzle.key


def test_keys_of_different_puzzles_differ() -> None:
    keys = [f.puzzle.key for f in puzzle_corpus.puzzles() if f.puzzle is not None]
    assert len(keys) == len(set(keys))


def test_a_solution_is_recognised_however_it_is_written() -> None:
    puzzle = a_puzzle()
    for move in puzzle.solution:
        assert puzzle.solves(move)
        tile, _, at = move.partition("@")
        low, high = tile.split("-")
        assert puzzle.solves(f"{high}-{low}@{at}")
    for proof in puzzle.proof.moves:
        assert puzzle.solves(proof.move) == (proof.move in puzzle.solution)


@pytest.mark.parametrize("move", ["", "6-6@X", "9-9@L", "timeout", "lots of nonsense"])
def test_a_move_that_cannot_be_read_solves_nothing(move: str) -> None:
    assert not a_puzzle().solves(move)


def test_a_tile_on_either_end_showing_one_number_is_one_move() -> None:
    assert move_class("5-3@L", (5, 5)) == move_class("3-5@R", (5, 5))
    assert move_class("5-3@L", (5, 2)) != move_class("5-2@R", (5, 2))
    assert move_class("5-3", (5, 2)) == move_class("5-3@L", (5, 2))
    assert move_class("5-3", (5, 3)) is None  # both ends fit: records name the end
    assert move_class("6-6@L", (5, 3)) is None  # does not fit
