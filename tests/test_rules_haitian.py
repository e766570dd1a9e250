"""RULES.md, `haitian` and `haitian-partners` (seed 003): TONBE, 2 KABÈS, BLÒK and the Wa."""

from __future__ import annotations

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
    TONBE_4P,
    TONBE_4P_SCRIPT,
    blocked_hands,
    line_hand,
    line_of,
    of_type,
    play,
    start,
)
from kabes.errors import BadOptions, IllegalMove
from kabes.events import DrewCount, HandStarted, LeaderChosen, MatchEnded, Passed
from kabes.match import Match
from kabes.results import Ending, HandResult
from kabes.tiles import Tile

# Seat 0 goes out with 4-2 on ends 4 and 4; seat 1 keeps 5-5.
FOUR_FOUR = ["6-6 5-6 3-5 1-3 0-1 0-4 2-4", "2-6 2-2 0-2 0-0 0-3 3-4 5-5"]
FOUR_FOUR_SCRIPT = "6-6 6-2@R 6-5@L 2-2@R 5-3@L 2-0@R 3-1@L 0-0@R 1-0@L 0-3@R 0-4@L 3-4@R 4-2@L"

# Four players, leader 0, blocker 1 (BLOCK_SCRIPT); the comments give each seat's count.
S0_LOW_S1_HIGH = blocked_hands(  # 7, 33, 21, 29
    ["0-0 0-2 0-3 1-1", "5-5 4-4 3-5 3-4", "0-4 0-5 1-2 1-3 1-4", "1-5 2-2 2-4 2-5 3-3"]
)
S0_LOW_S2_HIGH = blocked_hands(  # 7, 16, 40, 27
    ["0-0 0-2 0-3 1-1", "0-4 0-5 1-2 1-3", "5-5 4-4 3-5 3-4 2-5", "1-4 1-5 2-2 2-4 3-3"]
)
S3_LOW_S1_HIGH = blocked_hands(  # 16, 33, 30, 11
    ["1-2 1-3 1-4 2-2", "5-5 4-4 3-5 3-4", "0-5 1-5 2-4 2-5 3-3", "0-0 0-2 0-3 1-1 0-4"]
)
S2_LOW_S1_S3_HIGH = blocked_hands(  # 21, 26, 17, 26
    ["3-3 2-4 2-2 0-5", "5-5 3-5 1-5 1-1", "4-4 1-2 0-4 0-2 0-0", "3-4 2-5 1-4 1-3 0-3"]
)
S1_S3_LOW = blocked_hands(  # 20, 17, 36, 17: the blocker among the lowest
    ["1-2 1-4 1-5 2-4", "0-4 1-3 2-2 0-5", "3-3 2-5 3-4 3-5 4-4", "0-0 0-2 1-1 0-3 5-5"]
)
S0_S3_LOW = blocked_hands(  # 17, 20, 36, 17: the blocker not among them
    ["0-4 1-3 2-2 0-5", "1-2 1-4 1-5 2-4", "3-3 2-5 3-4 3-5 4-4", "0-0 0-2 1-1 0-3 5-5"]
)
S2_S3_LOW = blocked_hands(  # 28, 26, 18, 18: lowest hands on both teams
    ["0-4 1-5 3-5 5-5", "2-4 3-3 2-5 3-4", "0-0 0-2 0-3 0-5 4-4", "1-1 1-2 1-3 2-2 1-4"]
)
S0_S2_LOW = blocked_hands(  # 17, 20, 17, 36: both partners of team 0 lowest
    ["0-4 1-3 2-2 0-5", "1-2 1-4 1-5 2-4", "0-0 0-2 1-1 0-3 5-5", "3-3 2-5 3-4 3-5 4-4"]
)

# Four players: seat 1 goes out (TONBE); seats 0 and 2 both keep 16, seat 3 keeps 14.
TIED_HIGH_4P = [
    "6-6 3-6 3-4 2-3 1-1 0-6 0-1",
    "5-5 3-5 1-6 1-5 1-4 1-3 0-5",
    "5-6 4-6 2-5 2-4 2-2 0-4 0-2",
    "4-5 4-4 3-3 2-6 1-2 0-3 0-0",
]
TIED_HIGH_4P_SCRIPT = (
    "6-6 6-1@R 5-6@L 1-2@R 2-3@R 3-1@R 2-5@L 6-2@L 1-0@R 0-5@R "
    "4-6@L 5-4@L 5-5@R 3-5@L 0-3@L 6-0@L 5-1@R 1-1@R 1-4@R"
)
# Three players: seat 1 (6-6) leads and goes out; seats 0 and 2 both keep 18.
TIED_HIGH_3P = [
    "4-6 4-4 3-5 2-5 1-5 1-2 0-3",
    "6-6 3-6 2-4 2-2 1-4 0-5 0-4",
    "5-6 3-3 2-6 2-3 1-3 1-1 0-1",
]
TIED_HIGH_3P_STOCK = "3-4 0-6 4-5 1-6 0-0 5-5"
TIED_HIGH_3P_SCRIPT = (
    "6-6 2-6@L 5-2@L 6-3@R 3-2@R 1-5@L 4-1@L 3-4@L 5-3@L 0-5@L "
    "1-0@L 2-1@L 2-4@R 4-5@R 5-5@R 2-2@L 5-6@R 6-4@R 4-0@R"
)


def result_of(match: Match) -> HandResult:
    result = match.log[-1].result
    assert result is not None
    return result


def blocked(variant: str, hands: list[str], match: Match | None = None, **kw: Any) -> Match:
    match, _ = start(variant, hands, match=match, **kw)
    play(match, BLOCK_SCRIPT)
    return match


# -- players, deal, leaders ------------------------------------------------------------------


def test_haitian_two_three_or_four_players_seven_each_stock_14_7_or_none() -> None:
    with pytest.raises(BadOptions):
        Match("haitian", 5)
    with pytest.raises(BadOptions):
        Match("haitian-partners", 2)
    _, two = start("haitian", KABES_2P)
    three_hands = blocked_hands(["0-0 0-2 1-1", "0-3 1-2 0-4 1-3", "5-5 4-4 3-5 3-4"])
    _, three = start("haitian", three_hands)
    _, four = start("haitian", KABES_4P)
    _, sosye = start("haitian-partners", KABES_4P)
    assert of_type(two, HandStarted)[0].stock == 14
    assert of_type(three, HandStarted)[0].stock == 7
    assert of_type(four, HandStarted)[0].stock == 0
    assert of_type(sosye, HandStarted)[0].stock == 0


def test_haitian_first_hand_led_with_the_highest_double_held_by_its_holder() -> None:
    # 6-6 lies in the stock; seat 1 holds 5-5, seat 0 only 4-4.
    hands = ["4-4 0-1 0-2 0-3 0-4 0-5 0-6", "5-5 1-2 1-3 1-4 1-5 1-6 2-3"]
    match, events = start("haitian", hands)
    assert of_type(events, LeaderChosen) == [LeaderChosen(1, Tile.of(5, 5))]
    with pytest.raises(IllegalMove):
        play(match, "1-6")
    play(match, "5-5")
    line = line_of(match)
    assert line.ends == (5, 5)


def test_haitian_first_hand_without_doubles_the_heaviest_tile_leads() -> None:
    # Every double is in the stock; seat 1 holds 6-5 (11).
    hands = ["4-6 0-1 0-2 0-3 0-4 1-2 1-3", "5-6 0-5 0-6 1-4 1-5 1-6 2-3"]
    _, events = start("haitian", hands)
    assert of_type(events, LeaderChosen) == [LeaderChosen(1, Tile.of(5, 6))]


def test_haitian_first_hand_equal_value_the_tile_with_the_higher_number_leads() -> None:
    # No double, no 6-5 or 6-4 dealt: 5-4 (seat 0) and 6-3 (seat 1) both weigh 9.
    hands = ["4-5 0-1 0-2 0-3 0-4 1-2 1-3", "3-6 0-5 0-6 1-4 1-5 1-6 2-3"]
    match, events = start("haitian", hands)
    assert of_type(events, LeaderChosen) == [LeaderChosen(1, Tile.of(3, 6))]
    with pytest.raises(IllegalMove):
        play(match, "1-6")


def test_haitian_later_hands_the_winner_of_the_last_hand_leads_with_any_tile() -> None:
    match = blocked("haitian", S3_LOW_S1_HIGH)  # seat 3 has the lowest count
    assert result_of(match).winner == 3
    assert result_of(match).next_leader == 3
    start("haitian", KABES_4P, match=match)  # 6-6 with seat 1
    assert match.turn == 3
    assert line_hand(match).forced_lead is None
    play(match, "3-3")
    line = line_of(match)
    assert line.ends == (3, 3)


# -- drawing and passing ---------------------------------------------------------------------


def test_haitian_cannot_play_draws_from_the_stock_until_a_tile_fits() -> None:
    match, _ = start("haitian", DRAWS, stock="1-3 2-3 0-6")
    events = play(match, "6-6")
    assert of_type(events, DrewCount) == [DrewCount(1, 3)]
    assert match.turn == 1
    assert match.hand is not None
    assert match.hand.stock_left == 11


def test_haitian_cannot_play_and_no_stock_left_passes() -> None:
    match, _ = start("haitian", NO_SIX)
    events = play(match, "6-6")
    assert match.hand is not None
    assert match.hand.draw_counts == [0, 14]
    assert of_type(events, Passed) == [Passed(1, (6, 6))]
    assert match.turn == 0


# -- endings ---------------------------------------------------------------------------------


def test_tonbe_going_out_with_a_last_tile_that_fits_only_one_end() -> None:
    match, _ = start("haitian", TONBE_2P)
    play(match, TONBE_2P_SCRIPT)  # 1-0 on ends 1 and 5
    assert result_of(match).ending is Ending.DOMINO
    assert result_of(match).name == "tonbe"


def test_two_kabes_needs_two_different_ends() -> None:
    match, _ = start("haitian", KABES_2P)
    play(match, KABES_2P_SCRIPT)  # 1-0 on ends 1 and 0
    assert result_of(match).name == "2-kabes"


def test_two_kabes_seed_example_ends_6_and_3_last_tile_6_3() -> None:
    match, _ = start("haitian", KABES_4P)
    play(match, KABES_4P_SCRIPT)  # 6-3 on ends 3 and 6
    assert result_of(match).name == "2-kabes"


def test_ends_4_and_4_with_4_2_is_tonbe() -> None:
    match, _ = start("haitian", FOUR_FOUR)
    play(match, FOUR_FOUR_SCRIPT)
    assert result_of(match).name == "tonbe"
    assert result_of(match).capicu is False


def test_blok_nobody_can_play_and_the_lowest_count_wins() -> None:
    match = blocked("haitian", S2_LOW_S1_S3_HIGH)
    assert result_of(match).ending is Ending.BLOCKED
    assert result_of(match).name == "blok"
    assert result_of(match).winner == 2


def test_blok_equal_lowest_counts_the_blocker_wins_if_among_them() -> None:
    match = blocked("haitian", S1_S3_LOW)  # seat 1 blocked; seats 1 and 3 have 17
    assert result_of(match).winner == 1


def test_blok_equal_lowest_counts_then_the_first_in_play_order_after_the_blocker() -> None:
    match = blocked("haitian", S0_S3_LOW)  # seat 1 blocked; seats 0 and 3 have 17
    assert result_of(match).winner == 3


# -- scores ----------------------------------------------------------------------------------


def test_haitian_two_players_tonbe_winner_gets_10() -> None:
    match, _ = start("haitian", TONBE_2P)
    play(match, TONBE_2P_SCRIPT)
    assert result_of(match).winner == 0
    assert result_of(match).points == (10, 0)


def test_haitian_two_players_two_kabes_winner_gets_15() -> None:
    match, _ = start("haitian", KABES_2P)
    play(match, KABES_2P_SCRIPT)
    assert result_of(match).points == (15, 0)


def test_haitian_two_players_blok_winner_gets_10() -> None:
    match = blocked("haitian", blocked_hands(["0-0 1-1", "2-2 3-3"]))
    # Seat 0 drew the whole stock: seat 1 (2-2 3-3) has the lower count.
    assert result_of(match).name == "blok"
    assert result_of(match).winner == 1
    assert result_of(match).points == (0, 10)


def test_haitian_four_players_tonbe_penalty_2_to_the_highest_count_only() -> None:
    match, _ = start("haitian", TONBE_4P)
    play(match, TONBE_4P_SCRIPT)  # counts 19, 0, 13, 29
    assert result_of(match).winner == 1
    assert result_of(match).points == (0, 0, 0, 2)


def test_haitian_four_players_two_kabes_penalty_8_to_the_highest_count() -> None:
    match, _ = start("haitian", KABES_4P)
    play(match, KABES_4P_SCRIPT)  # counts 18, 0, 23, 17
    assert result_of(match).points == (0, 0, 8, 0)


def test_haitian_four_players_blok_penalty_4_to_the_highest_count() -> None:
    match = blocked("haitian", S0_LOW_S2_HIGH)  # counts 7, 16, 40, 27
    assert result_of(match).winner == 0
    assert result_of(match).points == (0, 0, 4, 0)


def test_haitian_three_players_blok_penalty_counts_the_drawn_tiles() -> None:
    # Seat 0 blocks; seat 1 then draws the 7 stock tiles (39): 14 + 39 = 53.
    hands = blocked_hands(["0-0 0-2 1-1", "0-3 1-2 0-4 1-3", "5-5 4-4 3-5 3-4"])
    match = blocked("haitian", hands)
    assert match.hand is not None
    assert match.hand.draw_counts == [0, 7, 0]
    assert result_of(match).winner == 0
    assert result_of(match).points == (0, 4, 0)


def test_haitian_equal_highest_counts_first_in_play_order_after_the_winner_takes_it() -> None:
    match, _ = start("haitian", TIED_HIGH_4P)
    play(match, TIED_HIGH_4P_SCRIPT)  # seat 1 out; seats 0 and 2 keep 16
    assert result_of(match).points == (0, 0, 2, 0)


def test_haitian_three_players_equal_highest_counts_first_after_the_winner() -> None:
    match, _ = start("haitian", TIED_HIGH_3P, stock=TIED_HIGH_3P_STOCK)
    play(match, TIED_HIGH_3P_SCRIPT)  # seat 1 out; seats 0 and 2 keep 18
    assert result_of(match).winner == 1
    assert result_of(match).points == (0, 0, 2)


def test_haitian_equal_highest_counts_after_a_blok_same_rule() -> None:
    match = blocked("haitian", S2_LOW_S1_S3_HIGH)  # seat 2 wins; seats 1 and 3 have 26
    assert result_of(match).points == (0, 0, 0, 4)


def test_haitian_partners_tonbe_winning_team_gets_1() -> None:
    match, _ = start("haitian-partners", TONBE_4P)
    play(match, TONBE_4P_SCRIPT)
    assert result_of(match).winner == 1
    assert result_of(match).points == (0, 1)


def test_haitian_partners_two_kabes_winning_team_gets_2() -> None:
    match, _ = start("haitian-partners", KABES_4P)
    play(match, KABES_4P_SCRIPT)
    assert result_of(match).points == (0, 2)


def test_haitian_partners_blok_winning_team_gets_1() -> None:
    match = blocked("haitian-partners", S2_LOW_S1_S3_HIGH)
    assert result_of(match).winner == 0
    assert result_of(match).points == (1, 0)


def test_haitian_partners_losing_team_goes_back_to_0_when_it_loses_a_hand() -> None:
    match, _ = start("haitian-partners", KABES_4P)
    play(match, KABES_4P_SCRIPT)
    assert result_of(match).scores == (0, 2)
    # Seat 1 leads hand 2; seat 2 blocks; seat 2 (0-0 0-2 0-3 1-1) has the lowest hand.
    second = ["0-4 0-5 1-2 1-3 1-4", "5-5 4-4 3-5 3-4", "0-0 0-2 0-3 1-1", "1-5 2-2 2-4 2-5 3-3"]
    start("haitian-partners", blocked_hands(second, leader=1), match=match)
    play(match, BLOCK_SCRIPT)
    assert result_of(match).winner == 0
    assert result_of(match).scores == (1, 0)


def test_haitian_partners_blok_lowest_single_hand_wins_not_team_totals() -> None:
    # Seat 0 holds 7, the lowest hand, though team 0 totals 47 against team 1's 43.
    match = blocked("haitian-partners", S0_LOW_S2_HIGH)
    assert result_of(match).winner == 0
    assert result_of(match).points == (1, 0)


def test_haitian_partners_blok_lowest_hands_on_both_teams_blockers_team_wins() -> None:
    match = blocked("haitian-partners", S2_S3_LOW)  # seat 1 blocked; seats 2 and 3: 18
    assert result_of(match).winner == 1
    assert result_of(match).points == (0, 1)


def test_haitian_partners_after_blok_winning_partner_with_lower_count_leads() -> None:
    match = blocked("haitian-partners", S2_S3_LOW)  # team 1 wins: seat 1 26, seat 3 18
    assert result_of(match).next_leader == 3
    start("haitian-partners", KABES_4P, match=match)
    assert match.turn == 3


def test_haitian_partners_after_blok_equal_partners_first_in_play_order_from_blocker_leads(
) -> None:
    match = blocked("haitian-partners", S0_S2_LOW)  # team 0 wins, seats 0 and 2 both 17
    assert result_of(match).winner == 0
    assert result_of(match).next_leader == 2  # after the blocker, seat 1: 2, 3, 0


def test_haitian_partners_after_a_domino_the_player_who_went_out_leads() -> None:
    match, _ = start("haitian-partners", TONBE_4P)
    play(match, TONBE_4P_SCRIPT)
    assert result_of(match).next_leader == 1


# -- match end -------------------------------------------------------------------------------


def test_haitian_targets_two_players_100_partners_4_three_or_four_players_5_hands() -> None:
    assert Match("haitian", 2).options.target == 100
    assert Match("haitian-partners", 4).options.target == 4
    assert Match("haitian", 3).options.hands == 5
    assert Match("haitian", 4).options.hands == 5
    assert Match("haitian", 2).options.open_ended is False


def test_haitian_two_players_first_to_100_points_wins() -> None:
    match = Match("haitian", 2)
    for _ in range(6):
        start("haitian", KABES_2P, match=match)
        play(match, KABES_2P_SCRIPT)
    assert not match.over  # 6 x 15 = 90
    start("haitian", KABES_2P, match=match)
    play(match, KABES_2P_SCRIPT)
    assert match.result is not None
    assert match.result.winners == (0,)
    assert match.result.scores == (105, 0)


def test_haitian_partners_first_team_to_4_points_wins() -> None:
    match, _ = start("haitian-partners", KABES_4P)
    play(match, KABES_4P_SCRIPT)
    assert not match.over
    start("haitian-partners", KABES_4P, match=match)  # seat 1, the winner, leads 6-6 again
    play(match, KABES_4P_SCRIPT)
    assert match.result is not None
    assert match.result.winners == (1,)
    assert match.result.scores == (0, 4)


def test_haitian_four_players_five_hands_then_the_lowest_penalty_total_is_wa() -> None:
    match = Match("haitian", 4)
    for hand in range(5):
        assert not match.over, hand
        blocked("haitian", S0_LOW_S1_HIGH, match=match)  # seat 0 wins, seat 1 gets 4
    assert match.result is not None
    assert match.result.finished
    assert match.result.scores == (0, 20, 0, 0)
    assert match.result.winners == (0,)  # seats 0, 2, 3 at 0: seat 0 won 5 hands


def test_haitian_wa_tie_the_one_who_won_more_hands_is_wa() -> None:
    match = Match("haitian", 4, {"hands": 2})
    blocked("haitian", S0_LOW_S1_HIGH, match=match)  # seat 0 wins, seat 1 +4
    blocked("haitian", S0_LOW_S2_HIGH, match=match)  # seat 0 wins, seat 2 +4
    assert match.result is not None
    assert match.result.scores == (0, 4, 4, 0)
    assert match.result.winners == (0,)  # seat 3 is at 0 too, with no hand won


def test_haitian_wa_tie_with_equal_hands_won_they_are_all_wa() -> None:
    match = Match("haitian", 4, {"hands": 2})
    blocked("haitian", S0_LOW_S1_HIGH, match=match)  # seat 0 wins, seat 1 +4
    blocked("haitian", S3_LOW_S1_HIGH, match=match)  # seat 3 wins, seat 1 +4
    assert match.result is not None
    assert match.result.scores == (0, 8, 0, 0)
    assert match.result.winners == (0, 3)  # seat 2 is at 0 but won no hand


def test_haitian_open_ended_match_goes_on_past_the_target_until_finished() -> None:
    match = Match("haitian", 2, {"open_ended": True})
    for _ in range(8):
        start("haitian", KABES_2P, match=match)
        play(match, KABES_2P_SCRIPT)
    assert not match.over  # 120 points, no limit
    events = match.finish()
    assert match.result is not None
    assert match.result.finished
    assert match.result.winners == (0,)
    assert match.result.scores == (120, 0)
    assert isinstance(events[-1], MatchEnded)
    assert events[-1].result == match.result


def test_haitian_finish_match_equal_scores_share_the_win_and_a_hand_in_progress_does_not_count(
) -> None:
    match = Match("haitian", 2, {"open_ended": True})
    start("haitian", TONBE_2P, match=match)
    play(match, TONBE_2P_SCRIPT)  # seat 0 +10, leads next
    blocked("haitian", blocked_hands(["0-0 1-1", "2-2 3-3"]), match=match)  # seat 1 +10
    start("haitian", [KABES_2P[1], KABES_2P[0]], match=match)  # seat 1 leads
    play(match, "6-6 6-4@R 6-5@L")
    match.finish()
    assert match.result is not None
    assert match.result.scores == (10, 10)
    assert match.result.winners == (0, 1)


def test_haitian_finish_match_three_or_four_players_the_lowest_penalty_total_is_wa() -> None:
    match = Match("haitian", 4, {"open_ended": True})
    for _ in range(7):
        blocked("haitian", S0_LOW_S1_HIGH, match=match)
    assert not match.over  # more than 5 hands: no limit
    match.finish()
    assert match.result is not None
    assert match.result.scores == (0, 28, 0, 0)
    assert match.result.winners == (0,)


def test_haitian_partners_finish_match_highest_score_wins() -> None:
    match = Match("haitian-partners", 4, {"open_ended": True})
    start("haitian-partners", KABES_4P, match=match)
    play(match, KABES_4P_SCRIPT)
    start("haitian-partners", KABES_4P, match=match)
    play(match, KABES_4P_SCRIPT)
    start("haitian-partners", KABES_4P, match=match)
    play(match, KABES_4P_SCRIPT)
    assert not match.over  # 6 points, no limit
    match.finish()
    assert match.result is not None
    assert match.result.winners == (1,)
    assert match.result.scores == (0, 6)


def test_haitian_only_an_open_ended_match_can_be_finished() -> None:
    match, _ = start("haitian", KABES_2P)
    with pytest.raises(BadOptions):
        match.finish()
    assert not match.over
