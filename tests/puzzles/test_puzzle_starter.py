"""The starter set shipped with Kabès (kabes.puzzles.starter): every puzzle in it is still a
puzzle under today's rules and solver, its stored proof the one ``prove`` computes now (so a
rule or solver change that makes the file stale fails here: regenerate it as docs/puzzles.md
says); it covers every line variant at every seat count; the file is written the same from
the same puzzles; it ships as package data."""

from __future__ import annotations

import fnmatch
import functools
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from kabes.puzzles.find import candidates, skilled_move
from kabes.puzzles.matches import computer_record
from kabes.puzzles.model import Puzzle, move_class
from kabes.puzzles.prove import Proven, dominant, prove
from kabes.puzzles.starter import STARTER, dumps, seatings, starter, starter_bytes
from kabes.views import View

ROOT = Path(__file__).resolve().parents[2]
AT_LEAST = 30
"""Puzzles the set must hold for each line variant at each seat count (it is made with 40)."""


@dataclass(frozen=True)
class Again:
    """A starter puzzle with its position rebuilt from the match it names, proven again."""

    puzzle: Puzzle
    seen: View
    proven: Proven | None


def position(puzzle: Puzzle, record: dict[str, object]) -> View:
    """The seat's view at the puzzle's position in ``record`` (its source names the hand)."""
    hand = int(puzzle.source.rsplit(":", 1)[1])
    found = [c for c in candidates(record) if c.hand == hand and c.moves == puzzle.moves]
    assert len(found) == 1, f"{puzzle.source}: the position is not in its match"
    return found[0].view


@functools.cache
def proven_again() -> tuple[Again, ...]:
    """Every starter puzzle, its match played again from the seed its source names (the
    computer's matches depend only on the seed) and its position proven now."""
    records: dict[tuple[str, int, int], dict[str, object]] = {}
    again: list[Again] = []
    for puzzle in starter():
        kind, variant, seed, _ = puzzle.source.split(":")
        assert kind == "computer" and variant == puzzle.variant, puzzle.source
        at = (variant, puzzle.players, int(seed))
        if at not in records:
            records[at] = computer_record(variant, puzzle.players, int(seed))
        seen = position(puzzle, records[at])
        again.append(Again(puzzle, seen, prove(seen)))
    return tuple(again)


def test_every_starter_puzzles_proof_is_the_one_prove_computes_now() -> None:
    for it in proven_again():
        assert it.proven is not None, it.puzzle.source
        assert it.proven.proof == it.puzzle.proof, it.puzzle.source
        assert it.proven.solution == it.puzzle.solution, it.puzzle.source


def test_every_starter_puzzles_solution_dominates_every_other_move_in_every_deal() -> None:
    for it in proven_again():
        assert it.proven is not None, it.puzzle.source
        best = dominant({c: list(s) for c, s in it.proven.scores.items()})
        assert best is not None, it.puzzle.source
        assert best == move_class(it.puzzle.solution[0], it.seen.ends), it.puzzle.source


def test_no_starter_puzzle_is_solved_by_the_skilled_levels_move() -> None:
    for it in proven_again():
        assert not it.puzzle.solves(skilled_move(it.seen)), it.puzzle.source


def test_the_starter_set_covers_every_line_variant_at_every_seat_count() -> None:
    held = Counter((p.variant, p.players) for p in starter())
    for seating in seatings():
        assert held[seating] >= AT_LEAST, f"{seating}: only {held[seating]} puzzles"
    assert set(held) == set(seatings())
    assert ("haitian", 3) in held and ("haitian", 4) in held


def test_the_starter_file_is_its_puzzles_sorted_by_key_and_written_the_same_again() -> None:
    puzzles = starter()
    keys = [p.key for p in puzzles]
    assert keys == sorted(set(keys))
    assert dumps(reversed(puzzles)) == starter_bytes()


def test_the_starter_set_ships_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["kabes"]
    assert any(fnmatch.fnmatch(f"puzzles/data/{STARTER}", p) for p in patterns)
