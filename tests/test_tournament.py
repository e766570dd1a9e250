"""Tournaments: duplicate seating, confidence intervals, and the simulate command's output."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kabes.ai.tournament import Setup, _hand_winner, play_match, run, seating, wilson
from kabes.cli.app import app
from kabes.errors import BadOptions
from kabes.results import Ending, HandResult

runner = CliRunner()


def test_each_deal_is_played_with_the_sides_swapped() -> None:
    setup = Setup("partnership", 4, ("skilled", "casual"), seed=10)
    assert seating(setup, 0) == (10, ("skilled", "casual"))
    assert seating(setup, 1) == (10, ("casual", "skilled"))
    assert seating(setup, 2) == (11, ("skilled", "casual"))


def test_levels_rotate_through_every_chair_with_three_players() -> None:
    setup = Setup("haitian", 3, ("expert", "skilled", "casual"), seed=0)
    chairs = [seating(setup, i)[1] for i in range(3)]
    assert {c[0] for c in chairs} == {"expert", "skilled", "casual"}
    assert {seating(setup, i)[0] for i in range(3)} == {0}


def test_fewer_levels_than_sides_are_repeated_in_turn() -> None:
    setup = Setup("haitian", 4, ("skilled", "casual"))
    assert seating(setup, 0)[1] == ("skilled", "casual", "skilled", "casual")


def test_duplicate_matches_swap_the_sides() -> None:
    setup = Setup("plaza", 2, ("skilled", "casual"), seed=4)
    one, two = play_match(setup, 0), play_match(setup, 1)
    assert one.party_levels == ("skilled", "casual")
    assert two.party_levels == ("casual", "skilled")


def test_wilson_interval_of_known_proportions() -> None:
    assert wilson(50, 100) == (0.404, 0.596)
    assert wilson(0, 10) == (0.0, 0.278)
    assert wilson(10, 10) == (0.722, 1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_blocked_mexican_round_is_won_by_the_lowest_penalty() -> None:
    blocked = HandResult(Ending.BLOCKED, None, False, None, (12, 30), (12, 30), 0, None, (12, 30))
    assert _hand_winner(blocked, penalties=True) == 0
    tie = HandResult(Ending.BLOCKED, None, False, None, (12, 12), (12, 12), 0, None, (12, 12))
    assert _hand_winner(tie, penalties=True) is None
    plaza_tie = HandResult(Ending.BLOCKED, None, False, None, (0, 0), (5, 5), 0, 1, (9, 9))
    assert _hand_winner(plaza_tie, penalties=False) is None


def test_open_ended_tables_cannot_be_simulated() -> None:
    with pytest.raises(BadOptions, match="never ends by itself"):
        run(Setup("haitian", 2, ("skilled",), (("open_ended", True),)), 2)


def test_too_many_levels_are_refused() -> None:
    with pytest.raises(BadOptions, match="give 1 to 2 levels"):
        run(Setup("plaza", 2, ("skilled", "casual", "expert")), 2)


def test_a_run_counts_every_match_and_hand() -> None:
    tally = run(Setup("plaza", 2, ("skilled", "beginner"), seed=3), 4)
    report = tally.report()
    assert report["matches"] == 4
    skilled, beginner = report["levels"]["skilled"], report["levels"]["beginner"]
    assert tally.levels["skilled"].matches == 4
    assert skilled["match_wins"] + beginner["match_wins"] == pytest.approx(1.0)
    assert tally.levels["skilled"].hands == report["hands"]


def test_simulate_json_prints_exactly_the_documented_fields() -> None:
    result = runner.invoke(
        app,
        [
            "simulate", "--variant", "plaza", "--levels", "skilled,casual",
            "--matches", "4", "--jobs", "2", "--seed", "5", "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert list(report) == ["variant", "matches", "hands", "levels"]
    assert report["variant"] == "plaza" and report["matches"] == 4
    assert list(report["levels"]) == ["skilled", "casual"]
    for row in report["levels"].values():
        assert list(row) == ["match_wins", "match_ci", "hand_wins", "hand_ci", "points_per_hand"]
        assert row["match_ci"][0] <= row["match_wins"] <= row["match_ci"][1]
        assert row["hand_ci"][0] <= row["hand_wins"] <= row["hand_ci"][1]


def test_simulate_is_repeatable_with_a_seed() -> None:
    args = ["simulate", "-v", "haitian", "-p", "3", "-l", "skilled,casual,beginner",
            "-m", "3", "--seed", "9", "--json"]
    first = runner.invoke(app, args)
    second = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout


def test_simulate_refuses_an_unknown_level() -> None:
    result = runner.invoke(app, ["simulate", "-v", "plaza", "-l", "wizard", "-m", "2"])
    assert result.exit_code == 2
    assert "no level 'wizard'" in result.output
