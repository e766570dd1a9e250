"""Every refusal of a move has a stable reason and its facts, so any client can word it.

One test per reason (docs/rules.md, "Refusals"): the error class keeps its protocol code
(``illegal_move``, ``not_your_turn``...), ``reason`` says exactly what was refused, and
``facts`` hold what a client needs to say it in its own words: the tile, the ends, the places
it would fit, whose turn it is. A refused move never changes the match.
"""

from __future__ import annotations

from typing import Any

import pytest

from deals import KABES_4P, play, start
from kabes.errors import BadMove, IllegalMove, KabesError, MatchOver, NotYourTurn
from kabes.match import Match
from kabes.moves import parse_move
from test_rules_common import BOTH_ENDS
from test_rules_mexican_train import PUBLIC, train_start


def refused(match: Match, move: str, kind: type[KabesError] = IllegalMove,
            seat: int | None = None) -> tuple[str, dict[str, Any]]:
    """The reason and facts of the refusal of ``move``; the match must not change."""
    top = match.rules.top
    hand = match.hand
    assert hand is not None
    before = (match.turn, [list(h) for h in hand.hands], list(hand.moves))
    with pytest.raises(kind) as caught:
        match.apply(seat, parse_move(move, top))
    hand = match.hand
    assert hand is not None
    assert (match.turn, [list(h) for h in hand.hands], list(hand.moves)) == before
    return caught.value.reason, caught.value.facts


def ends_5_and_3() -> Match:
    """Partnership, ends 5 and 3, seat 2 to play with 3-5 1-1 1-2 2-2 2-4 4-4 0-4."""
    match, _ = start("partnership", BOTH_ENDS)
    play(match, "5-6 6-3@R")
    return match


# -- the line --------------------------------------------------------------------------------


def test_refused_a_tile_not_held_says_not_held_with_the_seat_and_tile() -> None:
    assert refused(ends_5_and_3(), "6-5@L") == ("not_held", {"seat": 2, "tile": "5-6"})


def test_refused_a_tile_fitting_neither_end_says_does_not_fit_with_the_ends() -> None:
    assert refused(ends_5_and_3(), "4-2@L") == ("does_not_fit", {"tile": "2-4", "ends": [5, 3]})


def test_refused_a_tile_fitting_both_ends_without_one_says_say_which_end() -> None:
    reason, facts = refused(ends_5_and_3(), "5-3")
    assert reason == "say_which_end"
    assert facts == {"tile": "3-5", "ends": [5, 3], "fits": ["L", "R"]}


def test_refused_the_wrong_end_says_wrong_end_with_what_it_shows_and_where_it_fits() -> None:
    match, _ = start("partnership", BOTH_ENDS)
    play(match, "5-6")  # ends 5 and 6; seat 1 holds 3-6
    reason, facts = refused(match, "6-3@L")
    assert reason == "wrong_end"
    assert facts == {"tile": "3-6", "ends": [5, 6], "fits": ["R"], "end": "L", "shows": 5}


def test_refused_a_train_named_on_a_line_says_no_such_end() -> None:
    match, _ = start("partnership", BOTH_ENDS)
    play(match, "5-6")
    reason, facts = refused(match, "6-3@M")
    assert reason == "no_such_end"
    assert facts["at"] == "M" and facts["tile"] == "3-6"


def test_refused_a_lead_with_an_end_says_lead_has_no_end() -> None:
    match, _ = start("partnership", BOTH_ENDS)
    assert refused(match, "5-6@L") == ("lead_has_no_end", {"tile": "5-6", "at": "L"})


def test_refused_another_lead_than_the_forced_one_says_must_lead() -> None:
    match, _ = start("plaza-partners", KABES_4P)
    assert refused(match, "4-6") == ("must_lead", {"tile": "4-6", "forced": "6-6"})


def test_refused_out_of_turn_says_not_your_turn_with_whose_turn_it_is() -> None:
    match, _ = start("partnership", BOTH_ENDS)
    reason, facts = refused(match, "0-0", NotYourTurn, seat=1)
    assert (reason, facts) == ("not_your_turn", {"seat": 1, "turn": 0})


def test_refused_after_the_hand_ended_says_no_hand() -> None:
    match, _ = start("partnership", KABES_4P)
    play(match, "6-6 6-2@R 2-4@R 4-6@R 5-6@L 6-0@R 2-5@L 0-3@R 3-2@R")
    play(match, "2-2@R 0-2@L 2-1@R 1-1@R 1-6@R 5-0@L 1-5@L 3-1@L 6-3@L")
    with pytest.raises(MatchOver) as caught:
        match.apply(None, parse_move("0-0"))
    assert caught.value.reason == "no_hand"


def test_refused_unreadable_text_says_unreadable_with_the_text() -> None:
    with pytest.raises(BadMove) as caught:
        parse_move("6-x")
    assert (caught.value.reason, caught.value.facts) == ("unreadable", {"move": "6-x"})


def test_a_refused_move_keeps_the_protocol_code_illegal_move() -> None:
    with pytest.raises(IllegalMove) as caught:
        play(ends_5_and_3(), "4-2@L")
    assert caught.value.code == "illegal_move"
    assert caught.value.message == "2-4 fits neither end (5 and 3)"


# -- the trains ------------------------------------------------------------------------------


def test_refused_on_trains_a_tile_not_held_says_not_held() -> None:
    match, _ = train_start(["12-12 11-12", "10-12"])
    assert refused(match, "12-10@0") == ("not_held", {"seat": 0, "tile": "10-12"})


def test_refused_after_drawing_another_tile_says_only_drawn_tile() -> None:
    match, _ = train_start(["12-12 11-12 9-12", "10-12"], stock="11-9", options=PUBLIC)
    play(match, "12-11@0 12-10@1 12-9@M")  # seat 1 draws 9-11, which fits the public train
    assert match.hand is not None
    other = next(t for t in match.hand.hands[1] if str(t) != "9-11")
    reason, facts = refused(match, f"{other}")
    assert (reason, facts) == ("only_drawn_tile", {"tile": str(other), "drawn": "9-11"})


def test_refused_a_tile_fitting_no_train_says_fits_no_train_with_every_place() -> None:
    match, _ = train_start(["12-12 11-12 10-11 9-12", "10-12 9-10"])
    reason, facts = refused(match, "11-10")
    assert reason == "fits_no_train"
    assert facts == {"tile": "10-11", "places": [{"train": "0", "end": 12}]}


def test_refused_a_tile_fitting_two_trains_without_one_says_say_which_train() -> None:
    match, _ = train_start(["12-12 11-12 10-12 5-12", ""], options=PUBLIC)
    play(match, "12-11@0")  # seat 1 draws, cannot play, marks its train
    assert refused(match, "12-10") == ("say_which_train", {"tile": "10-12", "fits": ["M", "1"]})


def test_refused_the_public_train_where_there_is_none_says_no_public_train() -> None:
    match, _ = train_start(["12-12 11-12 10-12", ""])
    play(match, "12-11@0")
    assert refused(match, "12-10@M") == ("no_public_train", {"tile": "10-12", "train": "M"})


def test_refused_a_train_beyond_the_seats_says_no_such_train() -> None:
    match, _ = train_start(["12-12 11-12 10-12", ""])
    reason, facts = refused(match, "12-11@5")
    assert (reason, facts) == ("no_such_train", {"tile": "11-12", "train": "5", "players": 2})


def test_refused_another_train_in_the_first_round_says_own_train_first_round() -> None:
    match, _ = train_start(["12-12 11-12 10-12", "9-12"])
    reason, facts = refused(match, "12-11@1")
    assert (reason, facts) == (
        "own_train_first_round", {"tile": "11-12", "train": "1", "own": "0"}
    )


def test_refused_elsewhere_while_a_double_is_open_says_double_open() -> None:
    s1 = "12-5 9-12 10-11 0-0 0-1 0-2 0-3 0-4 0-6 0-7 0-8 1-1 1-2 1-3 1-4"
    match, _ = train_start(["12-12 10-12", s1], stock="10-10", options=PUBLIC)
    play(match, "12-10@0 12-5@1 10-10@0")
    reason, facts = refused(match, "12-9@M")
    assert reason == "double_open"
    assert facts == {"tile": "9-12", "train": "M", "double_train": "0", "end": 10}


def test_refused_an_unmarked_train_of_another_says_not_your_train() -> None:
    match, _ = train_start(["12-12 11-12 9-12 9-10", "10-12"], options=PUBLIC)
    play(match, "12-11@0 12-10@1")
    assert refused(match, "10-9@1") == ("not_your_train", {"tile": "9-10", "train": "1"})


def test_refused_a_tile_that_does_not_match_the_train_says_does_not_fit_train() -> None:
    match, _ = train_start(["12-12 11-12 10-11 9-12", "10-12 9-10"])
    reason, facts = refused(match, "11-10@0")
    assert (reason, facts) == ("does_not_fit_train", {"tile": "10-11", "train": "0", "end": 12})


def test_refused_an_end_named_on_trains_says_no_such_train() -> None:
    match, _ = train_start(["12-12 11-12 10-12", ""])
    reason, facts = refused(match, "12-11@L")
    assert (reason, facts) == ("no_such_train", {"tile": "11-12", "train": "L", "players": 2})
