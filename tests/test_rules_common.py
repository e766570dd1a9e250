"""RULES.md, "Common to the double-six variants", and the clock's first-fit rule for lines."""

from __future__ import annotations

import pytest

from deals import (
    BLOCK_SCRIPT,
    KABES_2P,
    KABES_2P_SCRIPT,
    blocked_hands,
    deal_of,
    line_hand,
    line_of,
    of_type,
    play,
    start,
    tiles,
)
from kabes.errors import BadMove, BadRecord, IllegalMove, MatchOver, NotYourTurn
from kabes.events import Drew, DrewCount, HandEnded, HandStarted, Passed, Played
from kabes.match import Match
from kabes.moves import TIMEOUT, parse_move
from kabes.results import Ending
from kabes.tiles import Tile, count, full_set

# Seat 0 holds 6-6 and leads; seat 1 holds no 6, seat 3 holds neither 0 nor 6.
FOUR = [
    "6-6 5-6 4-6 1-2 1-3 1-4 1-5",
    "0-0 0-1 0-2 0-3 0-4 0-5 1-1",
    "0-6 1-6 2-6 3-6 2-2 2-3 2-4",
    "2-5 3-3 3-4 3-5 4-4 4-5 5-5",
]

# Seat 0 (6-6) leads 5-6, seat 1 answers 6-3 on the right: ends 5 and 3. Seat 2's first tile
# in hand order that fits is 3-5, which fits both ends.
BOTH_ENDS = [
    "5-6 6-6 0-3 0-5 1-3 1-5 2-3",
    "3-6 2-5 3-3 3-4 0-0 0-1 0-2",
    "3-5 1-1 1-2 2-2 2-4 4-4 0-4",
    "0-6 1-4 1-6 2-6 4-5 4-6 5-5",
]


def test_double_six_set_holds_28_tiles_from_0_0_to_6_6_each_once() -> None:
    tiles_ = full_set(6)
    assert len(tiles_) == 28
    assert len(set(tiles_)) == 28
    assert tiles_[0] is Tile.of(0, 0)
    assert tiles_[-1] is Tile.of(6, 6)


def test_tile_value_is_sum_of_halves_and_hand_count_is_sum_of_values() -> None:
    assert Tile.of(6, 6).value == 12
    assert Tile.of(0, 0).value == 0
    assert Tile.of(6, 3).value == 9
    assert count(tiles("6-6 0-0 5-2")) == 19


def test_every_player_is_dealt_seven_and_the_rest_is_the_stock() -> None:
    match, events = start("haitian", KABES_2P)
    started = of_type(events, HandStarted)[0]
    assert started.counts == (7, 7)
    assert started.stock == 14
    assert match.hand is not None
    assert match.hand.stock_left == 14


def test_a_deal_must_hold_every_tile_once_and_seven_each() -> None:
    match = Match("haitian", 2)
    deal, stock = deal_of(KABES_2P)
    with pytest.raises(BadRecord):
        match.start_hand(deal, stock[1:])  # a tile missing
    with pytest.raises(BadRecord):
        match.start_hand(deal, [*stock, stock[0]])  # a tile twice
    with pytest.raises(BadRecord):
        match.start_hand([[*deal[0], stock[0]], deal[1]], stock[1:])  # 8 tiles
    assert match.hand is None


def test_play_passes_to_the_next_seat() -> None:
    extras = ["0-0 0-2 0-3 1-1", "5-5 4-4 3-5 3-4", "0-4 0-5 1-2 1-3 1-4", "1-5 2-2 2-4 2-5 3-3"]
    match, _ = start("partnership", blocked_hands(extras))
    turns: list[int | None] = []
    for move in BLOCK_SCRIPT.split()[:6]:
        match.apply(None, parse_move(move))
        turns.append(match.turn)
    assert turns == [1, 2, 3, 0, 1, 2]


def test_the_lead_sets_both_ends() -> None:
    match, _ = start("partnership", BOTH_ENDS)
    play(match, "5-6")
    line = line_of(match)
    assert line.ends == (5, 6)


def test_a_tile_touches_with_the_matching_half_and_its_other_half_becomes_the_end() -> None:
    match, _ = start("partnership", BOTH_ENDS)
    play(match, "5-6 6-3@R")
    line = line_of(match)
    assert line.ends == (5, 3)
    assert line.laid == [(5, 6), (6, 3)]


def test_a_tile_fitting_both_ends_goes_on_the_end_the_player_chooses() -> None:
    left, _ = start("partnership", BOTH_ENDS)
    play(left, "5-6 6-3@R 3-5@L")
    line = line_of(left)
    assert line.ends == (3, 3)
    right, _ = start("partnership", BOTH_ENDS)
    play(right, "5-6 6-3@R 3-5@R")
    line = line_of(right)
    assert line.ends == (5, 5)


def test_doubles_never_branch_the_line_keeps_two_ends() -> None:
    match, _ = start("partnership", FOUR)
    # 6-6 lead, seat 1 passes, 0-6 left, seat 3 passes, 6-5 right, 0-1 left.
    play(match, "6-6 0-6@L 6-5@R 0-1@L")
    line = line_of(match)
    assert line.laid == [(1, 0), (0, 6), (6, 6), (6, 5)]
    assert line.ends == (1, 5)
    assert match.turn == 2
    with pytest.raises(IllegalMove):
        play(match, "6-2@L")  # no third end on the 6-6


def test_a_tile_fitting_no_end_is_refused_and_nothing_changes() -> None:
    match, _ = start("partnership", BOTH_ENDS)
    play(match, "5-6 6-3@R")
    hands = [list(h) for h in line_hand(match).hands]
    with pytest.raises(IllegalMove):
        play(match, "2-4@L")
    with pytest.raises(IllegalMove):
        play(match, "1-1@R")
    with pytest.raises(IllegalMove):
        play(match, "5-6@L")  # not even held
    assert match.turn == 2
    line = line_of(match)
    assert line.ends == (5, 3)
    assert line_hand(match).hands == hands
    assert line_hand(match).moves == ["5-6", "6-3@R"]


def test_a_move_out_of_turn_is_refused_and_nothing_changes() -> None:
    match, _ = start("partnership", BOTH_ENDS)
    play(match, "5-6")
    with pytest.raises(NotYourTurn):
        match.apply(2, parse_move("3-5@L"))
    assert match.turn == 1
    line = line_of(match)
    assert line.ends == (5, 6)
    assert Tile.of(3, 5) in line_hand(match).hands[2]


def test_a_player_must_play_when_able_there_is_no_pass_move() -> None:
    with pytest.raises(BadMove):
        parse_move("pass")
    match, _ = start("partnership", FOUR)
    play(match, "6-6 0-6@L")
    # Seat 3 has neither 0 nor 6 and is passed; seat 0 can play and must.
    assert match.turn == 0
    assert match.hand is not None
    assert match.hand.passes == [(1, (6, 6)), (3, (0, 6))]


def test_a_forced_pass_is_made_by_the_table_and_shows_the_two_ends_to_all() -> None:
    match, _ = start("partnership", FOUR)
    events = play(match, "6-6")
    passed = of_type(events, Passed)
    assert passed == [Passed(1, (6, 6))]
    assert passed[0].to is None
    assert match.turn == 2


def test_the_leader_never_passes() -> None:
    match, _ = start("partnership", FOUR)
    assert match.turn == 0
    assert match.hand is not None
    assert match.hand.passes == []
    assert match.hand.legal_moves()


def test_a_hand_ends_when_a_player_plays_their_last_tile_and_all_hands_are_shown() -> None:
    match, _ = start("haitian", KABES_2P)
    events = play(match, KABES_2P_SCRIPT)
    ended = of_type(events, HandEnded)
    assert len(ended) == 1
    assert ended[0].to is None
    assert ended[0].hands == ((), (Tile.of(5, 5),))
    assert ended[0].result.ending is Ending.DOMINO
    assert match.turn is None
    with pytest.raises(MatchOver):
        play(match, "5-5")


def test_a_hand_is_blocked_when_nobody_can_play_and_nobody_can_draw() -> None:
    match, _ = start("haitian", blocked_hands(["0-0 1-1", "2-2 3-3"]))
    play(match, " ".join(BLOCK_SCRIPT.split()[:9]))
    assert match.hand_in_progress
    events = play(match, "5-6@L")
    # Seat 0 holds no 6: it draws the whole stock (no 6 in it), then nobody can play.
    assert match.hand is not None
    assert match.hand.stock_left == 0
    assert match.hand.draw_counts == [14, 0]
    assert of_type(events, HandEnded)[0].result.ending is Ending.BLOCKED
    assert len(of_type(events, HandEnded)[0].hands[0]) == 16


def test_forced_draws_are_made_by_the_table_drawer_sees_tiles_others_see_how_many() -> None:
    hands = blocked_hands(["0-0 1-1", "2-2 3-3"])
    match, _ = start("haitian", hands, stock="0-3 0-2")
    events = play(match, BLOCK_SCRIPT)
    drew = of_type(events, Drew)
    assert len(drew) == 1
    assert drew[0].to == 0
    assert drew[0].tiles[:2] == (Tile.of(0, 3), Tile.of(0, 2))
    assert len(drew[0].tiles) == 14
    counted = of_type(events, DrewCount)
    assert counted == [DrewCount(0, 14)]
    assert counted[0].to is None


def test_timeout_plays_the_first_fitting_tile_in_ascending_hand_order() -> None:
    match, _ = start("partnership", FOUR)
    play(match, "6-6 0-6@L")
    # Seat 0 holds 1-2 1-3 1-4 1-5 4-6 5-6; the ends are 0 and 6: 4-6 is the first to fit.
    events = match.apply(0, TIMEOUT)
    played = of_type(events, Played)[0]
    assert played.tile is Tile.of(4, 6)
    assert played.timeout is True
    line = line_of(match)
    assert line.ends == (0, 4)
    assert line_hand(match).moves[-1] == "timeout"


def test_timeout_tries_the_left_end_first() -> None:
    match, _ = start("partnership", BOTH_ENDS)
    play(match, "5-6 6-3@R")
    match.apply(2, TIMEOUT)
    # 3-5 fits both ends (5 left, 3 right): on the left it leaves 3 and 3.
    line = line_of(match)
    assert line.ends == (3, 3)


def test_timeout_lead_lays_the_lower_number_on_the_left() -> None:
    match, _ = start("partnership", BOTH_ENDS)
    match.apply(0, TIMEOUT)
    # Seat 0's lowest tile is 0-3.
    line = line_of(match)
    assert line.ends == (0, 3)
    assert Tile.of(0, 3) not in line_hand(match).hands[0]


@pytest.mark.parametrize(
    "text", ["6-3@\u00b2", "\u00b2-\u00b2", "\u0666-3", "6-\uff13", "6-3@\u0661"]
)
def test_tiles_and_trains_are_written_in_ascii_digits_only(text: str) -> None:
    """Other scripts' digits (superscripts, Arabic-Indic, full-width) are unreadable moves,
    refused like any other, never a crash."""
    with pytest.raises(BadMove) as refused:
        parse_move(text, 12)
    assert refused.value.reason == "unreadable"
