"""RULES.md, `partnership` (seed 000): the online partnership table."""

from __future__ import annotations

import pytest

from deals import (
    BLOCK_SCRIPT,
    KABES_4P,
    KABES_4P_SCRIPT,
    blocked_hands,
    line_hand,
    line_of,
    of_type,
    play,
    play_out,
    start,
)
from kabes.errors import BadOptions, IllegalMove
from kabes.events import HandStarted, LeaderChosen
from kabes.match import Match
from kabes.results import Ending

# Leader 0, blocker 1. Team 0: 7 + 21 = 28; team 1: 33 + 29 = 62.
LOW_TEAM_0 = ["0-0 0-2 0-3 1-1", "5-5 4-4 3-5 3-4", "0-4 0-5 1-2 1-3 1-4", "1-5 2-2 2-4 2-5 3-3"]
# Leader 0, blocker 1. Team 0: 7 + 38 = 45; team 1: 16 + 29 = 45.
TIED = ["0-0 0-2 0-3 1-1", "0-4 1-2 1-3 1-4", "5-5 4-4 3-5 2-5 0-5", "1-5 2-2 2-4 3-3 3-4"]
# Leader 3, blocker 0. Team 0: 16 + 29 = 45; team 1: 38 + 7 = 45.
TIED_TEAM_0_BLOCKS = [
    "0-4 1-2 1-3 1-4",
    "5-5 4-4 3-5 2-5 0-5",
    "1-5 2-2 2-4 3-3 3-4",
    "0-0 0-2 0-3 1-1",
]


def test_partnership_is_four_players_with_no_stock_and_nobody_draws() -> None:
    with pytest.raises(BadOptions):
        Match("partnership", 2)
    match, events = start("partnership", KABES_4P)
    assert of_type(events, HandStarted)[0].stock == 0
    play(match, KABES_4P_SCRIPT)
    assert match.hand is not None
    assert match.hand.draw_counts == [0, 0, 0, 0]


def test_partnership_first_hand_six_six_holder_leads_any_tile() -> None:
    hands = [KABES_4P[3], KABES_4P[0], KABES_4P[1], KABES_4P[2]]  # 6-6 with seat 2
    match, events = start("partnership", hands)
    assert match.turn == 2
    assert of_type(events, LeaderChosen) == [LeaderChosen(2, None)]
    play(match, "0-2")  # not the 6-6
    line = line_of(match)
    assert line.ends == (0, 2)


def test_partnership_later_hands_lead_passes_to_next_seat_after_previous_leader() -> None:
    match, _ = start("partnership", KABES_4P)
    play(match, KABES_4P_SCRIPT)  # led and won by seat 1
    assert match.log[-1].result is not None
    assert match.log[-1].result.next_leader == 2
    start("partnership", KABES_4P, match=match)  # seat 1 holds 6-6 again
    assert match.turn == 2
    play_out(match)
    start("partnership", KABES_4P, match=match)
    assert match.turn == 3


def test_partnership_domino_team_scores_the_two_opponents_hands_not_the_partners() -> None:
    match, _ = start("partnership", KABES_4P)
    play(match, KABES_4P_SCRIPT)
    result = match.log[-1].result
    assert result is not None
    # Seat 1 went out: team 1 scores seat 0 (18) + seat 2 (23); seat 3's 17 does not count.
    assert result.ending is Ending.DOMINO
    assert result.winner == 1
    assert result.points == (0, 41)
    assert result.scores == (0, 41)


def test_partnership_blocked_team_with_lower_total_scores_the_others_total() -> None:
    match, _ = start("partnership", blocked_hands(LOW_TEAM_0))
    play(match, BLOCK_SCRIPT)
    result = match.log[-1].result
    assert result is not None
    assert result.ending is Ending.BLOCKED
    assert result.winner == 0
    assert result.points == (62, 0)


def test_partnership_blocked_tie_goes_to_team_that_played_last() -> None:
    match, _ = start("partnership", blocked_hands(TIED))
    play(match, BLOCK_SCRIPT)  # seat 1 plays the last tile
    assert match.log[-1].result is not None
    assert match.log[-1].result.winner == 1
    assert match.log[-1].result.points == (0, 45)

    match, _ = start("partnership", blocked_hands(TIED_TEAM_0_BLOCKS, leader=3))
    play(match, BLOCK_SCRIPT)  # seat 0 plays the last tile
    assert match.log[-1].result is not None
    assert match.log[-1].result.winner == 0
    assert match.log[-1].result.points == (45, 0)


def test_partnership_target_is_100_by_default_from_50_to_500_in_steps_of_50() -> None:
    assert Match("partnership").options.target == 100
    for target in (50, 250, 500):
        assert Match("partnership", 4, {"target": target}).options.target == target
    for target in (0, 75, 550, 1000):
        with pytest.raises(BadOptions):
            Match("partnership", 4, {"target": target})


def test_partnership_first_team_at_or_over_target_wins_and_keeps_points_over() -> None:
    match, _ = start("partnership", blocked_hands(LOW_TEAM_0), options={"target": 50})
    play(match, BLOCK_SCRIPT)
    assert match.over
    assert match.result is not None
    assert match.result.finished
    assert match.result.winners == (0,)
    assert match.result.scores == (62, 0)


def test_partnership_match_goes_on_below_target_and_scores_add_up() -> None:
    match, _ = start("partnership", blocked_hands(LOW_TEAM_0))
    play(match, BLOCK_SCRIPT)
    assert not match.over
    assert match.current_result().scores == (62, 0)
    # Hand 2 is led by seat 1; seat 2 blocks; team 0 (7 + 21) beats team 1 (33 + 29).
    second = ["0-4 0-5 1-2 1-3 1-4", "5-5 4-4 3-5 3-4", "0-0 0-2 0-3 1-1", "1-5 2-2 2-4 2-5 3-3"]
    start("partnership", blocked_hands(second, leader=1), match=match)
    assert match.turn == 1
    play(match, BLOCK_SCRIPT)
    assert match.result is not None
    assert match.result.winners == (0,)
    assert match.result.scores == (124, 0)


def test_partnership_leader_may_not_lead_a_tile_they_do_not_hold() -> None:
    match, _ = start("partnership", KABES_4P)
    with pytest.raises(IllegalMove):
        play(match, "5-5")  # held by seat 2
    assert line_hand(match).line is None
    assert match.turn == 1
