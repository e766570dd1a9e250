"""The definition of a puzzle, one rule per test (docs/puzzles.md, PROTOCOL.md "Puzzles").

The positions are those of ``puzzle_corpus``: the records in tests/data and a few matches the
computer played against itself."""

from __future__ import annotations

import functools
import json
from math import comb

import puzzle_corpus
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kabes.ai.bits import DOUBLE_SIX
from kabes.ai.knowledge import unseen
from kabes.puzzles.find import candidates, skilled_move
from kabes.puzzles.model import move_class
from kabes.puzzles.prove import Position, Proven, deal_count, dominant, plain_count, prove
from kabes.records import replay
from kabes.tiles import Tile, parse_tile
from kabes.views import view

SMALL = 200
"""Positions with at most this many deals are proven in full here (every test may afford
them)."""


@functools.cache
def deals_of(index: int) -> int:
    """The deal count of position ``index`` of the corpus."""
    return deal_count(puzzle_corpus.positions()[index].candidate.view)


@functools.cache
def small_positions() -> tuple[tuple[puzzle_corpus.Found, Proven], ...]:
    """The corpus's positions of at most ``SMALL`` deals, each with its full proof."""
    found = []
    for index, position in enumerate(puzzle_corpus.positions()):
        if deals_of(index) <= SMALL:
            proven = prove(position.candidate.view)
            assert proven is not None
            found.append((position, proven))
    assert len(found) >= 50
    return tuple(found)


def tiles(text: str) -> list[Tile]:
    return [parse_tile(t) for t in text.split()]


def tiles_of(mask: int) -> tuple[Tile, ...]:
    return DOUBLE_SIX.tiles_of(mask)


def test_a_non_dominant_move_is_never_a_solution() -> None:
    solved = 0
    for found, proven in small_positions():
        for cls, ours in proven.scores.items():
            others = [s for c, s in proven.scores.items() if c != cls]
            dominates = all(
                all(a >= b for a, b in zip(ours, theirs, strict=True))
                and any(a > b for a, b in zip(ours, theirs, strict=True))
                for theirs in others
            )
            solves = bool(proven.solution) and move_class(proven.solution[0],
                                                          found.candidate.view.ends) == cls
            assert solves == dominates, found.source
            solved += solves
    assert solved >= 10


def test_a_move_tied_everywhere_or_beaten_somewhere_is_not_dominant() -> None:
    a, b, c = ("1-2", (1, 2)), ("3-4", (3, 4)), ("5-6", (5, 6))
    assert dominant({a: [2, 2], b: [2, 2]}) is None
    assert dominant({a: [3, 1], b: [2, 2]}) is None
    assert dominant({a: [3, 2], b: [2, 2], c: [3, 2]}) is None
    assert dominant({a: [3, 2], b: [2, 2], c: [1, 1]}) == a


def test_the_skilled_move_is_never_a_solution() -> None:
    puzzles = puzzle_corpus.puzzles()
    assert len(puzzles) >= 10
    for found in puzzles:
        assert found.puzzle is not None
        assert not found.puzzle.solves(skilled_move(found.candidate.view)), found.source


def test_a_position_whose_solution_the_skilled_level_plays_is_no_puzzle() -> None:
    skipped = 0
    for found, proven in small_positions():
        view = found.candidate.view
        skilled = move_class(skilled_move(view), view.ends)
        solution = {move_class(m, view.ends) for m in proven.solution}
        is_puzzle = bool(solution) and skilled not in solution
        assert (found.puzzle is not None) == is_puzzle, found.source
        skipped += bool(solution) and not is_puzzle
    assert skipped >= 1


def test_passes_restrict_the_deals() -> None:
    checked = 0
    for index, found in enumerate(puzzle_corpus.positions()):
        view = found.candidate.view
        passed = [(s, ns) for s, ns in view.passes if s != view.seat]
        if not passed or deals_of(index) > 2000:
            continue
        for deal in Position(view).deals():
            for seat, numbers in passed:
                assert not any(t.has(n) for t in tiles_of(deal[seat]) for n in numbers)
        checked += 1
    assert checked >= 5


def test_one_seat_that_passed_takes_its_tiles_from_those_it_may_hold() -> None:
    checked = 0
    for index, found in enumerate(puzzle_corpus.positions()):
        view = found.candidate.view
        lacking = [s for s in range(view.players) if s != view.seat and view.voids[s]]
        if len(lacking) != 1:
            continue
        seat = lacking[0]
        hidden = unseen(view)
        allowed = sum(1 for t in hidden if not any(t.has(n) for n in view.voids[seat]))
        expected = comb(allowed, view.counts[seat])
        left = len(hidden) - view.counts[seat]
        for other in range(view.players):
            if other not in (seat, view.seat):
                expected *= comb(left, view.counts[other])
                left -= view.counts[other]
        assert deals_of(index) == expected, found.source
        checked += 1
    assert checked >= 5


def test_the_deals_counted_are_the_multinomial_of_the_unseen_tiles_over_the_hands() -> None:
    checked = 0
    for index, found in enumerate(puzzle_corpus.positions()):
        view = found.candidate.view
        if any(view.voids[s] for s in range(view.players) if s != view.seat):
            continue
        hidden = len(unseen(view))
        others = [view.counts[s] for s in range(view.players) if s != view.seat]
        expected = 1
        for count in others:
            expected *= comb(hidden, count)
            hidden -= count
        assert deals_of(index) == plain_count(view) == expected, found.source
        checked += 1
    assert checked >= 5


def test_every_deal_is_counted_once() -> None:
    for found, _ in small_positions():
        deals = [tuple(d) for d in Position(found.candidate.view).deals()]
        assert len(deals) == len(set(deals))


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 10**6))
def test_the_proof_does_not_depend_on_the_order_the_deals_are_searched(
    rng: object, pick: int
) -> None:
    shown = [f for f, p in small_positions() if p.proof.deals >= 5]
    view = shown[pick % len(shown)].candidate.view
    straight = prove(view)

    def shuffled(deals: list[list[int]]) -> list[list[int]]:
        out = list(deals)
        rng.shuffle(out)  # type: ignore[attr-defined]
        return out

    again = prove(view, order=shuffled)
    assert straight is not None and again is not None
    assert again.proof == straight.proof
    assert again.solution == straight.solution
    assert again.depth == straight.depth
    assert {c: sorted(s) for c, s in again.scores.items()} == {
        c: sorted(s) for c, s in straight.scores.items()}


def test_a_position_past_the_limits_is_not_proven() -> None:
    big = [f for i, f in enumerate(puzzle_corpus.positions()) if deals_of(i) > 50]
    assert big
    view = big[0].candidate.view
    assert prove(view, max_deals=50) is None
    assert prove(view, max_unseen=len(unseen(view)) - 1) is None
    assert prove(view, max_nodes=10) is None


def test_only_line_variants_with_the_stock_empty_are_searched() -> None:
    train = json.loads((puzzle_corpus.RECORDS / "mexican-train-3-two-rounds.json").read_text())
    assert candidates(train) == []
    for found in puzzle_corpus.positions():
        view = found.candidate.view
        assert view.variant != "mexican-train"
        assert view.stock == 0
        assert view.turn == view.seat
        assert len({move_class(str(m), view.ends) for m in view.legal}) >= 2


def test_a_position_with_a_stock_is_refused_by_name() -> None:
    _, record = next(r for r in puzzle_corpus.records() if r[1]["variant"] == "plaza")
    match = replay({**record, "hands": []})
    hand = record["hands"][0]
    match.start_hand([tiles(" ".join(s)) for s in hand["deal"]], tiles(" ".join(hand["stock"])),
                     hand.get("leader"))
    seat = match.turn
    assert seat is not None
    with pytest.raises(ValueError, match="no stock"):
        prove(view(match, seat))
