"""A hand reviewed for one seat (kabes.ai.review): the seat's own choices, replayed from the
record, and those where the expert would have played otherwise.

The crafted hands are records written out here; each test checks the position it relies on
before it checks the review, so a hand that stopped showing what it is meant to show fails
rather than passes for nothing.
"""

from __future__ import annotations

import copy
import json
import time
from random import Random
from typing import Any

import pytest

from deals import deal_of
from kabes.ai.knowledge import distinct
from kabes.ai.review import Decision, decisions, reconsider, review, same_choice, seeds
from kabes.errors import BadOptions, BadRecord
from kabes.match import Match
from kabes.moves import TIMEOUT, Play, parse_move
from kabes.records import replay, to_record
from kabes.table import wire
from kabes.tiles import full_set, parse_tile
from kabes.views import View, view

WORLDS = 300
"""Worlds the expert searches per position in these tests (with a budget that never runs
out first), so that every review here is repeatable."""
SLOW = 60.0
"""A budget no test waits for: the worlds cap ends every search."""

HELD_DOUBLE: dict[str, Any] = {
    "variant": "plaza", "players": 2, "options": {},
    "hands": [{
        "deal": [["1-1", "3-5", "6-6", "2-6", "3-3", "5-5", "0-1"],
                 ["2-4", "3-6", "2-2", "5-6", "4-4", "0-6", "1-3"]],
        "stock": ["0-3", "0-2", "0-0", "1-6", "1-5", "4-6", "4-5", "0-4", "0-5", "2-5", "3-4",
                  "1-2", "1-4", "2-3"],
        "leader": 1,
        "moves": ["5-6", "5-5@L", "6-3@R", "3-3@R", "3-1@R", "1-1@R", "1-6@R", "6-2@R", "2-0@R",
                  "0-1@R", "1-5@L", "1-2@R", "2-2@R", "2-5@R", "4-1@L", "3-4@L", "0-3@L", "5-3@R",
                  "0-0@L", "5-0@L", "3-2@R", "4-5@L", "2-4@R", "4-6@R", "4-4@L", "0-4@L",
                  "0-6@R"],
    }],
}
"""Plaza head to head. At move 25 the stock is empty, seat 0 holds 0-4 and 6-6 on ends 4
and 6, and seat 1 holds only 0-6, which fits whatever seat 0 plays: seat 0 keeps the 6-6
(12 pips to seat 1) where shedding it would have left 0-4 (4 pips)."""
HELD_AT = 25

FORCED: dict[str, Any] = {
    "variant": "plaza", "players": 2, "options": {},
    "hands": [{
        "deal": [["3-3", "3-4", "1-1", "2-3", "5-6", "0-2", "2-4"],
                 ["3-5", "1-6", "1-5", "4-6", "1-2", "2-2", "0-0"]],
        "stock": ["3-6", "1-4", "2-5", "0-5", "0-4", "0-6", "2-6", "4-5", "0-1", "0-3", "4-4",
                  "6-6", "1-3", "5-5"],
        "leader": 1,
        "moves": ["0-0", "2-0@L", "1-2@L", "1-1@L", "5-1@L", "6-5@L", "1-6@L", "4-1@L", "6-4@L",
                  "3-6@L", "5-3@L", "2-5@L", "2-2@L"],
    }],
}
"""Plaza head to head where seat 0 never has more than one tile it may play."""

SEATINGS = [("plaza", 2), ("haitian", 3), ("partnership", 4), ("haitian-partners", 4),
            ("mexican-train", 3)]


def played_out(variant: str, players: int, seed: int, hands: int = 1) -> Match:
    """A match of ``hands`` hands where everyone plays a random legal move, except that
    seat 0 lets its clock run out on its third turn of each hand."""
    rng = Random(seed)
    match = Match(variant, players, rng=Random(seed + 1))
    for _ in range(hands):
        match.deal_hand()
        turns = 0
        while match.hand_in_progress:
            turn = match.turn
            assert turn is not None and match.hand is not None
            if turn == 0:
                turns += 1
            move = TIMEOUT if turn == 0 and turns == 3 else rng.choice(match.hand.legal_moves())
            match.apply(turn, move)
    return match


def choices(seen: View) -> int:
    """How many different choices a view offers: tiles, times the places each may go (one
    place when both ends of the line show the same number)."""
    same_ends = seen.ends is not None and seen.ends[0] == seen.ends[1]
    return len({(m.tile, None if same_ends else m.at) for m in seen.legal})


def positions(record: dict[str, Any], seat: int, number: int) -> list[tuple[int, str, Match]]:
    """Every move of ``seat`` in hand ``number``: its index, its text, and the match just
    before it (each rebuilt by replaying the record up to that move)."""
    hand = record["hands"][number - 1]
    out = []
    for index, text in enumerate(hand["moves"]):
        cut = copy.deepcopy(record)
        cut["hands"] = [*cut["hands"][: number - 1], {**hand, "moves": hand["moves"][:index]}]
        cut.pop("result", None)
        cut["hands"][-1].pop("result", None)
        match = replay(cut)
        if match.turn == seat:
            out.append((index, text, match))
    return out


# What is reviewed -------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), SEATINGS)
def test_every_choice_of_the_seat_is_a_decision_and_nothing_else(
    variant: str, players: int
) -> None:
    match = played_out(variant, players, seed=7, hands=2)
    record = to_record(match)
    for number in (1, 2):
        for seat in range(players):
            found = {d.index: d for d in decisions(record, seat, number)}
            wanted = [
                (index, text, before) for index, text, before in positions(record, seat, number)
                if text != "timeout" and choices(view(before, seat)) >= 2
            ]
            assert sorted(found) == [index for index, _, _ in wanted]
            for index, text, before in wanted:
                decision = found[index]
                assert decision.view == view(before, seat)
                written = parse_move(text, before.rules.top)
                assert isinstance(written, Play) and written.tile is decision.played.tile
                assert decision.played in decision.view.legal  # its place named


def test_a_move_the_clock_made_is_not_the_seats_decision() -> None:
    match = played_out("haitian", 2, seed=3)
    moves = match.log[0].moves
    timed = [i for i, text in enumerate(moves) if text == "timeout"]
    assert timed, "seat 0 let its clock run out once"
    assert not {d.index for d in decisions(match, 0)} & set(timed)


def test_the_last_hand_is_reviewed_unless_another_is_named() -> None:
    match = played_out("plaza", 2, seed=11, hands=2)
    last = decisions(match, 1)
    assert last == decisions(match, 1, 2)
    assert all(d.view.hand_number == 2 for d in last)
    assert all(d.view.hand_number == 1 for d in decisions(match, 1, 1))


def test_a_match_and_its_record_are_reviewed_alike() -> None:
    match = played_out("haitian", 4, seed=5)
    assert review(match, 2, SLOW, seed=9, worlds=WORLDS) == review(
        to_record(match), 2, SLOW, seed=9, worlds=WORLDS
    )


# What the expert says ---------------------------------------------------------------------


def test_holding_back_the_heavy_double_at_the_end_is_reported_with_the_double() -> None:
    found = {d.index: d for d in decisions(HELD_DOUBLE, 0)}
    held = found[HELD_AT]
    seen = held.view
    assert seen.stock == 0 and set(seen.hand) == {parse_tile("0-4"), parse_tile("6-6")}
    assert seen.ends == (4, 6) and seen.counts[1] == 1
    assert held.played.tile is parse_tile("0-4")
    assert HELD_DOUBLE["hands"][0]["moves"][HELD_AT + 1] == "0-6@R"  # seat 1 went out on it
    reported = {a.index: a for a in review(HELD_DOUBLE, 0, SLOW, seed=1, worlds=WORLDS)}
    assert HELD_AT in reported
    better = reported[HELD_AT]
    assert better.better.tile is parse_tile("6-6") and better.better in seen.legal
    assert better.played == held.played and better.view == seen
    assert better.reason


def test_every_reported_move_is_another_legal_choice_with_a_reason() -> None:
    for variant, players in SEATINGS:
        match = played_out(variant, players, seed=21)
        for alternative in review(match, 0, SLOW, seed=2, worlds=60):
            seen = alternative.view
            assert alternative.better in seen.legal and alternative.played in seen.legal
            assert not same_choice(seen, alternative.played, alternative.better)
            assert alternative.reason


def test_a_hand_of_forced_moves_has_nothing_to_review() -> None:
    mine = positions(FORCED, 0, 1)
    assert len(mine) >= 5
    assert all(choices(view(before, 0)) == 1 for _, _, before in mine)
    assert decisions(FORCED, 0) == []
    started = time.perf_counter()
    assert review(FORCED, 0, budget=SLOW) == []  # nothing searched: no 60 s wait
    assert time.perf_counter() - started < 5


def test_a_review_is_the_same_for_the_same_seed() -> None:
    match = played_out("plaza-partners", 4, seed=13)
    first = review(match, 1, SLOW, seed=4, worlds=WORLDS)
    assert first == review(match, 1, SLOW, seed=4, worlds=WORLDS)
    found = decisions(match, 1)
    one_by_one = [reconsider(d, own, SLOW, WORLDS) for d, own in
                  zip(found, seeds(4, len(found)), strict=True)]
    assert [a for a in one_by_one if a is not None] == first


def test_either_end_showing_the_same_number_is_one_choice() -> None:
    match = Match("haitian", 2)
    deal, stock = deal_of(["6-6 6-3 2-3 1-1 0-0 0-1 0-2", "6-5 5-5 4-4 2-2 1-2 1-3 0-3"])
    match.start_hand(deal, stock)
    match.apply(0, parse_move("6-6"))
    seen = view(match, 1)
    assert seen.ends == (6, 6) and len(seen.legal) == 2 and len(distinct(seen)) == 1
    left, right = seen.legal
    assert same_choice(seen, left, right) and same_choice(seen, right, left)
    assert not same_choice(seen, left, Play(parse_tile("4-4"), "L", 4))
    match.apply(1, left)
    seen = view(match, 0)
    assert seen.ends == (5, 6)
    six_three = Play(parse_tile("6-3"), "R", 6)
    assert not same_choice(seen, six_three, Play(parse_tile("6-3"), "L", 3))
    assert same_choice(seen, six_three, Play(parse_tile("6-3"), "R", 3))  # how it is written


# What the positions show ------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), SEATINGS)
def test_the_positions_never_show_another_seats_hidden_tiles(variant: str, players: int) -> None:
    match = played_out(variant, players, seed=17)
    record = to_record(match)
    for seat in range(players):
        before = {index: m for index, _, m in positions(record, seat, 1)}
        found: list[Decision] = decisions(record, seat, 1)
        assert found, "every seat had a choice at least once"
        for decision in found:
            position = before[decision.index]
            assert position.hand is not None
            seen = decision.view
            assert seen.revealed is None and seen.seat == seat
            assert list(seen.hand) == position.hand.hands[seat]
            laid = {p.tile for _, p in position.hand.played} | {getattr(position.hand, "engine",
                                                                         None)}
            own = set(position.hand.hands[seat])
            hidden = [t for t in full_set(position.rules.top) if t not in own | laid]
            assert len(hidden) == sum(seen.counts) - len(own) + seen.stock
            text = json.dumps(wire.view_json(seen, None, None))
            for tile in hidden:
                halves = (tile.low, tile.high)
                for a, b in {halves, halves[::-1]}:
                    assert f'"{a}-{b}"' not in text, f"seat {seat} sees {tile} at {decision.index}"


# Bad input --------------------------------------------------------------------------------


def test_no_such_seat_or_hand_is_refused_by_name() -> None:
    with pytest.raises(BadOptions, match="seat 2 is not at this table"):
        decisions(HELD_DOUBLE, 2)
    with pytest.raises(BadOptions, match="no hand 2 to review"):
        decisions(HELD_DOUBLE, 0, 2)
    with pytest.raises(BadOptions, match="none has been dealt"):
        decisions({"variant": "plaza", "players": 2, "hands": []}, 0)


def test_a_record_that_breaks_a_rule_is_refused_naming_the_move() -> None:
    broken = copy.deepcopy(HELD_DOUBLE)
    broken["hands"][0]["moves"][3] = "6-6@R"
    with pytest.raises(BadRecord, match=r"hand 1, move 4 \('6-6@R'\)"):
        decisions(broken, 0)
