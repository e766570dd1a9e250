"""RULES.md, `plaza` and `plaza-partners` (seed 002): La Plaza rules, as in the FID rule book."""

from __future__ import annotations

from collections.abc import MutableSequence
from random import Random
from typing import Any

import pytest

from deals import (
    BLOCK_SCRIPT,
    DRAWS,
    KABES_2P,
    KABES_2P_SCRIPT,
    KABES_4P,
    KABES_4P_SCRIPT,
    NO_SIX,
    TONBE_2P,
    TONBE_2P_SCRIPT,
    blocked_hands,
    line_hand,
    line_of,
    of_type,
    play,
    start,
    tiles,
)
from kabes.errors import BadOptions, BadRecord, IllegalMove
from kabes.events import DrewCount, HandStarted, LeadDrawn, LeaderChosen, Passed
from kabes.match import Match
from kabes.results import Ending
from kabes.rules.plaza import PlazaOptions
from kabes.tiles import Tile

# Seat 0 leads and goes out; seat 1 drew 9 tiles and keeps 0-3 0-5 2-2 3-3 3-4 4-4 4-5 4-6
# 5-6 6-6 (75 pips, drawn tiles included); 5 tiles stay in the stock.
DREW_DOMINO = ["2-6 2-3 1-5 1-3 1-2 0-2 0-0", "6-6 4-5 2-4 2-2 1-6 0-4 0-1"]
DREW_DOMINO_STOCK = "5-6 4-6 3-4 4-4 2-5 0-5 3-3 0-3 1-1"
DREW_DOMINO_SCRIPT = "2-3 4-2@L 3-1@R 1-6@R 6-2@R 0-4@L 0-0@L 1-0@L 2-1@R 1-1@L 5-1@L 2-5@L 0-2@L"

# Seat 0 leads; seat 1 goes out; seat 0 keeps 82 pips.
SEAT_1_OUT = ["6-6 4-4 3-6 3-4 1-3 1-2 0-6", "5-6 5-5 4-5 3-3 2-5 1-5 0-5"]
SEAT_1_OUT_STOCK = "0-4 2-4 0-2 3-5 2-2 2-3 2-6 4-6 0-1 1-1 1-4 1-6 0-3 0-0"
SEAT_1_OUT_SCRIPT = "3-4 4-5@R 1-3@L 5-1@R 1-2@R 2-5@R 5-3@R 3-3@R 3-6@R 6-5@R 0-1@L 5-0@L 5-5@R"

# Seat 1 leads; seat 0 plays the blocking 5-4; both keep 45 pips.
TIED_BLOCK = ["5-6 4-4 2-3 2-2 1-1 0-5 0-2", "4-6 3-4 2-4 1-5 1-4 1-2 0-4"]
TIED_BLOCK_STOCK = "0-6 3-6 1-3 0-0 2-6 6-6 4-5 1-6 0-3 0-1 3-3 5-5 2-5 3-5"
TIED_BLOCK_SCRIPT = "2-4 3-2@L 4-3@L 4-4@L 1-4@L 1-1@L 4-6@R 6-5@R 5-1@L 0-5@L 4-0@L 5-4@R"

# Head to head, seat 0 leads, seat 1 blocks: seat 1 keeps 2-2 3-3 (10); seat 0 keeps 0-0 1-1
# and draws the 14 tiles of the stock (78): 80. All pips left: 90.
BLOCK_2P = blocked_hands(["0-0 1-1", "2-2 3-3"])

# Four players, seat 0 leads, seat 1 blocks. Team 0: 7 + 21 = 28; team 1: 33 + 29 = 62.
LOW_TEAM_0 = blocked_hands(
    ["0-0 0-2 0-3 1-1", "5-5 4-4 3-5 3-4", "0-4 0-5 1-2 1-3 1-4", "1-5 2-2 2-4 2-5 3-3"]
)
# Four players, seat 0 leads, seat 1 blocks. Team 0: 7 + 38 = 45; team 1: 16 + 29 = 45.
TIED_TEAMS = blocked_hands(
    ["0-0 0-2 0-3 1-1", "0-4 1-2 1-3 1-4", "5-5 4-4 3-5 2-5 0-5", "1-5 2-2 2-4 3-3 3-4"]
)


class Turned(Random):
    """Stands in for random.Random: the first shuffle turns up ``turned`` for the seats."""

    def __init__(self, turned: str) -> None:
        self.turned = tiles(turned)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        front, self.turned = self.turned, []
        items[:] = front + [t for t in items if t not in front]


# -- head to head ----------------------------------------------------------------------------


def test_plaza_head_to_head_seven_each_and_fourteen_in_the_stock() -> None:
    with pytest.raises(BadOptions):
        Match("plaza", 4)
    _, events = start("plaza", KABES_2P, leader=0)
    started = of_type(events, HandStarted)[0]
    assert started.counts == (7, 7)
    assert started.stock == 14


def test_plaza_player_with_nothing_that_fits_draws_until_a_tile_fits_then_plays_it() -> None:
    match, _ = start("plaza", DRAWS, stock="1-3 2-3 0-6", leader=0)
    events = play(match, "6-6")
    assert of_type(events, DrewCount) == [DrewCount(1, 3)]
    assert match.hand is not None
    assert match.hand.draw_counts == [0, 3]
    assert match.hand.stock_left == 11
    assert match.turn == 1
    assert {m.tile for m in match.hand.legal_moves()} == {Tile.of(0, 6)}
    assert of_type(events, Passed) == []


def test_plaza_drawing_while_holding_a_playable_tile_is_not_allowed() -> None:
    match, _ = start("plaza", DRAWS, stock="1-3 2-3 0-6", leader=0)
    play(match, "6-6 0-6@L 6-5@R")
    # Ends 0 and 5: seat 1 holds 0-1, 0-2, 0-3: it plays, and draws nothing.
    assert match.turn == 1
    assert match.hand is not None
    assert match.hand.stock_left == 11
    assert match.hand.draw_counts == [0, 3]


def test_plaza_pass_boude_only_when_the_stock_is_empty_and_nothing_fits() -> None:
    match, _ = start("plaza", NO_SIX, leader=0)
    events = play(match, "6-6")
    assert match.hand is not None
    assert match.hand.draw_counts == [0, 14]
    assert match.hand.stock_left == 0
    assert of_type(events, Passed) == [Passed(1, (6, 6))]
    assert match.turn == 0


def test_plaza_first_hand_draw_for_lead_higher_value_opens_with_any_tile() -> None:
    match = Match("plaza", 2, rng=Turned("4-4 6-3"))  # values 8 and 9
    events = match.deal_hand()
    assert of_type(events, LeadDrawn) == [LeadDrawn((Tile.of(4, 4), Tile.of(3, 6)), 1)]
    assert match.turn == 1
    assert of_type(events, LeaderChosen) == [LeaderChosen(1, None)]
    assert match.hand is not None
    lowest = match.hand.hands[1][0]
    match.apply(1, match.hand.legal_moves()[0])  # any tile: here the lowest held
    assert lowest not in match.hand.hands[1]


def test_plaza_draw_for_lead_equal_value_larger_high_half_opens() -> None:
    match = Match("plaza", 2, rng=Turned("6-1 5-2"))
    events = match.deal_hand()
    assert of_type(events, LeadDrawn)[0].leader == 0
    match = Match("plaza", 2, rng=Turned("5-2 6-1"))
    events = match.deal_hand()
    assert of_type(events, LeadDrawn)[0].leader == 1


def test_plaza_first_hand_leader_is_drawn_for_later_ones_follow_the_rules() -> None:
    match = Match("plaza", 2)
    with pytest.raises(BadRecord):
        start("plaza", KABES_2P, match=match)  # the first leader must be given
    start("plaza", KABES_2P, leader=0, match=match)
    play(match, KABES_2P_SCRIPT)
    with pytest.raises(BadRecord):
        start("plaza", KABES_2P, leader=0, match=match)  # the second must not


def test_plaza_domino_winner_scores_every_pip_in_losers_hand_drawn_tiles_included() -> None:
    match, _ = start("plaza", DREW_DOMINO, stock=DREW_DOMINO_STOCK, leader=0)
    play(match, DREW_DOMINO_SCRIPT)
    result = match.log[-1].result
    assert result is not None
    assert match.hand is not None
    assert match.hand.stock_left == 5  # the stock never counts
    assert result.ending is Ending.DOMINO
    assert result.winner == 0
    assert result.points == (75, 0)
    assert result.scores == (75, 0)


def test_plaza_blocked_lower_count_wins_and_scores_all_pips_of_both_hands() -> None:
    match, _ = start("plaza", BLOCK_2P, leader=0)
    play(match, BLOCK_SCRIPT)
    result = match.log[-1].result
    assert result is not None
    assert result.ending is Ending.BLOCKED
    assert result.winner == 1
    assert result.points == (0, 90)


def test_plaza_blocked_equal_counts_nobody_scores() -> None:
    match, _ = start("plaza", TIED_BLOCK, stock=TIED_BLOCK_STOCK, leader=1)
    play(match, TIED_BLOCK_SCRIPT)
    result = match.log[-1].result
    assert result is not None
    assert result.ending is Ending.BLOCKED
    assert result.winner is None
    assert result.points == (0, 0)
    assert result.scores == (0, 0)


def test_plaza_winner_of_last_hand_leads_next_with_any_tile() -> None:
    match, _ = start("plaza", SEAT_1_OUT, stock=SEAT_1_OUT_STOCK, leader=0)
    play(match, SEAT_1_OUT_SCRIPT)
    assert match.log[-1].result is not None
    assert match.log[-1].result.winner == 1
    assert match.log[-1].result.next_leader == 1
    start("plaza", KABES_2P, match=match)
    assert match.turn == 1
    play(match, "0-0")
    line = line_of(match)
    assert line.ends == (0, 0)


def test_plaza_after_a_block_the_player_who_played_the_blocking_tile_leads() -> None:
    match, _ = start("plaza", TIED_BLOCK, stock=TIED_BLOCK_STOCK, leader=1)
    play(match, TIED_BLOCK_SCRIPT)  # nobody wins; seat 0 played the last tile
    assert match.log[-1].result is not None
    assert match.log[-1].result.next_leader == 0
    start("plaza", KABES_2P, match=match)
    assert match.turn == 0


def test_plaza_capicu_is_announced_and_recorded_with_no_bonus_by_default() -> None:
    match, _ = start("plaza", KABES_2P, leader=0)
    play(match, KABES_2P_SCRIPT)
    result = match.log[-1].result
    assert result is not None
    assert result.capicu is True
    assert result.points == (10, 0)  # seat 1's 5-5


def test_plaza_going_out_on_one_end_only_is_no_capicu() -> None:
    match, _ = start("plaza", TONBE_2P, leader=0, options={"capicu_bonus": 25})
    play(match, TONBE_2P_SCRIPT)
    result = match.log[-1].result
    assert result is not None
    assert result.capicu is False
    assert result.points == (10, 0)


@pytest.mark.parametrize(("bonus", "points"), [(0, 10), (25, 35), (30, 40)])
def test_plaza_capicu_bonus_option_adds_0_25_or_30(bonus: int, points: int) -> None:
    match, _ = start("plaza", KABES_2P, leader=0, options={"capicu_bonus": bonus})
    play(match, KABES_2P_SCRIPT)
    assert match.log[-1].result is not None
    assert match.log[-1].result.points == (points, 0)


def test_plaza_capicu_bonus_only_0_25_or_30() -> None:
    defaults = Match("plaza").options
    assert isinstance(defaults, PlazaOptions)
    assert defaults.capicu_bonus == 0
    for bonus in (10, 20, 50):
        with pytest.raises(BadOptions):
            Match("plaza", 2, {"capicu_bonus": bonus})


def test_plaza_kochon_winning_the_match_while_the_other_side_is_at_zero() -> None:
    match, _ = start("plaza", BLOCK_2P, leader=0, options={"target": 50})
    play(match, BLOCK_SCRIPT)
    assert match.result is not None
    assert match.result.finished
    assert match.result.winners == (1,)
    assert match.result.scores == (0, 90)
    assert match.result.kochon is True


def test_plaza_no_kochon_when_the_other_side_has_scored() -> None:
    match, _ = start("plaza", KABES_2P, leader=0, options={"target": 50})
    play(match, KABES_2P_SCRIPT)  # seat 0: 10, and leads next
    start("plaza", BLOCK_2P, match=match)
    play(match, BLOCK_SCRIPT)  # seat 1: 90
    assert match.result is not None
    assert match.result.winners == (1,)
    assert match.result.scores == (10, 90)
    assert match.result.kochon is False


def test_plaza_score_losers_only_option_scores_only_the_losing_sides_pips() -> None:
    defaults = Match("plaza").options
    assert isinstance(defaults, PlazaOptions)
    assert defaults.score_losers_only is False
    match, _ = start("plaza", BLOCK_2P, leader=0, options={"score_losers_only": True})
    play(match, BLOCK_SCRIPT)
    assert match.log[-1].result is not None
    assert match.log[-1].result.points == (0, 80)


def test_plaza_blocker_wins_block_option_gives_the_block_to_the_blocker() -> None:
    defaults = Match("plaza").options
    assert isinstance(defaults, PlazaOptions)
    assert defaults.blocker_wins_block is False
    options = {"blocker_wins_block": True}
    match, _ = start("plaza", TIED_BLOCK, stock=TIED_BLOCK_STOCK, leader=1, options=options)
    play(match, TIED_BLOCK_SCRIPT)
    assert match.log[-1].result is not None
    assert match.log[-1].result.winner == 0
    assert match.log[-1].result.points == (90, 0)


def test_plaza_targets_classic_100_short_50_long_200_or_150_or_500() -> None:
    assert Match("plaza").options.target == 100
    for target in (50, 150, 200, 500):
        assert Match("plaza", 2, {"target": target}).options.target == target
    for target in (75, 250, 300, 1000):
        with pytest.raises(BadOptions):
            Match("plaza", 2, {"target": target})


def test_plaza_points_add_up_hand_after_hand_until_a_side_reaches_the_target() -> None:
    match, _ = start("plaza", KABES_2P, leader=0)
    play(match, KABES_2P_SCRIPT)
    start("plaza", TONBE_2P, match=match)
    play(match, TONBE_2P_SCRIPT)
    assert not match.over
    assert match.current_result().scores == (20, 0)
    start("plaza", BLOCK_2P, match=match)
    play(match, BLOCK_SCRIPT)
    assert not match.over  # 90 is short of the classic 100
    assert match.current_result().scores == (20, 90)
    start("plaza", [KABES_2P[1], KABES_2P[0]], match=match)  # seat 1 blocked: it leads
    play(match, KABES_2P_SCRIPT)  # seat 1 goes out, seat 0 keeps 5-5: 90 + 10 = 100
    assert match.result is not None
    assert match.result.winners == (1,)
    assert match.result.scores == (20, 100)


# -- with partners ---------------------------------------------------------------------------


def test_plaza_partners_four_players_seven_each_no_stock() -> None:
    with pytest.raises(BadOptions):
        Match("plaza-partners", 2)
    _, events = start("plaza-partners", KABES_4P)
    started = of_type(events, HandStarted)[0]
    assert started.counts == (7, 7, 7, 7)
    assert started.stock == 0


def test_plaza_partners_first_hand_six_six_holder_must_lead_the_six_six() -> None:
    match, events = start("plaza-partners", KABES_4P)
    assert match.turn == 1
    assert of_type(events, LeaderChosen) == [LeaderChosen(1, Tile.of(6, 6))]
    with pytest.raises(IllegalMove):
        play(match, "4-6")
    assert line_hand(match).line is None
    play(match, "6-6")
    line = line_of(match)
    assert line.ends == (6, 6)


def test_plaza_partners_domino_winning_side_scores_all_pips_partners_included() -> None:
    match, _ = start("plaza-partners", KABES_4P)
    play(match, KABES_4P_SCRIPT)
    result = match.log[-1].result
    assert result is not None
    # Seat 1 out: seat 0 18 + seat 2 23 + partner seat 3 17.
    assert result.winner == 1
    assert result.points == (0, 58)
    assert result.capicu is True


def test_plaza_partners_score_losers_only_leaves_out_the_partners_pips() -> None:
    match, _ = start("plaza-partners", KABES_4P, options={"score_losers_only": True})
    play(match, KABES_4P_SCRIPT)
    assert match.log[-1].result is not None
    assert match.log[-1].result.points == (0, 41)


def test_plaza_partners_capicu_bonus_is_added_to_the_winning_side() -> None:
    match, _ = start("plaza-partners", KABES_4P, options={"capicu_bonus": 30})
    play(match, KABES_4P_SCRIPT)
    assert match.log[-1].result is not None
    assert match.log[-1].result.points == (0, 88)


def test_plaza_partners_blocked_lower_team_total_wins_and_scores_all_pips() -> None:
    match, _ = start("plaza-partners", LOW_TEAM_0)
    play(match, BLOCK_SCRIPT)
    result = match.log[-1].result
    assert result is not None
    assert result.ending is Ending.BLOCKED
    assert result.winner == 0
    assert result.points == (90, 0)


def test_plaza_partners_blocked_equal_totals_nobody_scores() -> None:
    match, _ = start("plaza-partners", TIED_TEAMS)
    play(match, BLOCK_SCRIPT)
    result = match.log[-1].result
    assert result is not None
    assert result.winner is None
    assert result.points == (0, 0)


def test_plaza_partners_blocker_wins_block_option_gives_the_block_to_the_blockers_side() -> None:
    match, _ = start("plaza-partners", LOW_TEAM_0, options={"blocker_wins_block": True})
    play(match, BLOCK_SCRIPT)  # seat 1 blocks; team 1 holds the higher total
    result = match.log[-1].result
    assert result is not None
    assert result.winner == 1
    assert result.points == (0, 90)


def test_plaza_partners_after_a_block_the_blocker_leads_whoever_won() -> None:
    match, _ = start("plaza-partners", LOW_TEAM_0)
    play(match, BLOCK_SCRIPT)  # team 0 wins, seat 1 blocked
    assert match.log[-1].result is not None
    assert match.log[-1].result.next_leader == 1
    start("plaza-partners", LOW_TEAM_0, match=match)  # 6-6 with seat 0 this time
    assert match.turn == 1


def test_plaza_partners_after_the_first_hand_the_winner_leads_with_any_tile() -> None:
    match, _ = start("plaza-partners", KABES_4P)
    play(match, KABES_4P_SCRIPT)  # seat 1 went out
    start("plaza-partners", LOW_TEAM_0, match=match)  # 6-6 with seat 0
    assert match.turn == 1
    assert line_hand(match).forced_lead is None
    play(match, "6-0")
    line = line_of(match)
    assert line.ends == (6, 0)


def test_plaza_partners_kochon_when_the_other_team_is_still_at_zero() -> None:
    match, _ = start("plaza-partners", LOW_TEAM_0, options={"target": 50})
    play(match, BLOCK_SCRIPT)
    assert match.result is not None
    assert match.result.winners == (0,)
    assert match.result.scores == (90, 0)
    assert match.result.kochon is True
