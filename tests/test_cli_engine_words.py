"""The terminal words every explanation code and refusal reason the engine gives.

The codes are read from docs/rules.md's two tables ("How a result explains itself",
"Refusals"), so a code added there without a sentence in the terminal fails here. Each code is
worded from sample facts shaped as the engine gives them, and the sentence must carry the facts
a player needs (the seat, the tile, the points).
"""

from __future__ import annotations

import re
from pathlib import Path
from random import Random
from typing import Any

import pytest

from deals import start
from kabes import words
from kabes.cli.explain import word_explanation, word_step
from kabes.cli.play import HUMAN
from kabes.cli.refusals import REFUSALS, Refusal, refusal_of, word_refusal
from kabes.cli.words import Names
from kabes.errors import KabesError
from kabes.explain import CODES, Step, step
from kabes.match import Match
from kabes.moves import parse_move

RULES = Path(__file__).parent.parent / "docs" / "rules.md"
NAMES = Names(3, False, 0, {1: "skilled", 2: "expert"})
TEAMS = Names(4, True, 0, {1: "skilled", 2: "expert", 3: "casual"})


def table_codes(heading: str) -> list[str]:
    """The codes in the first column of the table under ``heading`` in docs/rules.md."""
    text = RULES.read_text(encoding="utf-8").split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
    codes: list[str] = []
    for line in text.splitlines():
        if line.startswith("| `"):
            codes += re.findall(r"`([a-z0-9_]+)`", line.split("|")[1])
    return codes


EXPLANATIONS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "went_out": ({"seat": 1, "party": 1, "tile": "6-3"}, ["Skilled 1", "6-3"]),
    "blocked": ({"seat": 2, "party": 2}, ["blocked", "Expert 2"]),
    "round_blocked": ({"seat": 1}, ["blocked", "Skilled 1"]),
    "capicu": ({"seat": 0, "tile": "6-3"}, ["Capicú", "6-3"]),
    "named": ({"name": "2-kabes"}, ["2 KABÈS"]),
    "counts": ({"counts": [3, 12, 0], "totals": [3, 12, 0]}, ["You 3", "Skilled 1 12"]),
    "lower_total_wins": ({"party": 1, "totals": [9, 4, 20]}, ["lower", "Skilled 1", "4"]),
    "tie_to_last_player": ({"party": 0, "seat": 2, "total": 15}, ["Equal", "15", "You"]),
    "tie_nobody_scores": ({"total": 8, "totals": [8, 8]}, ["nobody scores", "8"]),
    "blocker_wins_block": ({"party": 2, "seat": 2}, ["last tile", "Expert 2"]),
    "scores_pips": ({"party": 0, "seats": [1, 2], "pips": 16, "rule": "losers_only"},
                    ["You score", "16"]),
    "capicu_bonus": ({"party": 0, "bonus": 25}, ["Capicú bonus", "+25"]),
    "lowest_hand_wins": ({"seat": 2, "party": 2, "count": 3}, ["lowest", "Expert 2", "3"]),
    "tie_blocker_wins": ({"seat": 1, "party": 1, "count": 4, "seats": [0, 1], "blocker": 1},
                         ["blocker", "Skilled 1", "4"]),
    "tie_first_after_blocker": ({"seat": 2, "party": 2, "count": 4, "seats": [0, 2],
                                 "blocker": 1}, ["first", "Expert 2", "Skilled 1"]),
    "tie_across_teams_blocker": ({"seat": 1, "party": 1, "count": 4, "seats": [0, 1],
                                  "blocker": 1}, ["both teams", "blocker", "Skilled 1"]),
    "winner_points": ({"party": 0, "points": 15, "name": "2-kabes"}, ["2 KABÈS", "+15", "You"]),
    "losing_team_reset": ({"party": 1, "score_before": 3}, ["back to 0", "3"]),
    "penalty_to_highest": ({"seat": 1, "count": 20, "points": 4, "name": "blok"},
                           ["Skilled 1", "20", "+4", "BLÒK"]),
    "penalty_tie_first_after_winner": ({"seat": 2, "seats": [1, 2], "winner": 0, "count": 9},
                                       ["9", "after the winner", "Expert 2"]),
    "fewest_pips": ({"seats": [2], "pips": 7}, ["fewest", "Expert 2", "7"]),
    "nobody_wins": ({}, ["no winner"]),
    "double_blank_50": ({"seat": 1, "points": 50}, ["0-0", "50", "Skilled 1"]),
    "penalty_pips": ({"seat": 1, "pips": 7, "points": 57}, ["penalty", "Skilled 1 57"]),
    "next_leader": ({"seat": 1, "rule": "rotation", "previous": 0}, ["Skilled 1 opens"]),
    "target_reached": ({"party": 0, "score": 110, "target": 100}, ["110", "100", "You"]),
    "lowest_total": ({"total": 6, "parties": [2]}, ["lowest total", "Expert 2", "6"]),
    "highest_score": ({"score": 40, "parties": [0]}, ["highest score", "You", "40"]),
    "wa_tie_hand_wins": ({"seats": [0, 2], "hand_wins": [2, 1]}, ["Wa", "You 2", "Expert 2 1"]),
    "wa_shared": ({"seats": [0, 2]}, ["all Wa", "Expert 2"]),
    "wa": ({"seats": [2], "total": 4}, ["Wa", "Expert 2", "4"]),
    "match_won": ({"winners": [1]}, ["match", "Skilled 1"]),
    "kochon": ({"winners": [0], "at_zero": [1, 2]}, ["Kochon", "You", "0"]),
    "finished_by_host": ({}, ["host"]),
}
"""Sample facts per code, as the engine gives them, and what the sentence must say."""

REFUSED: dict[str, tuple[dict[str, Any], list[str]]] = {
    "not_held": ({"seat": 0, "tile": "6-3"}, ["You don't have 6-3."]),
    "lead_has_no_end": ({"tile": "6-3", "at": "L"}, ["6-3", "without an end"]),
    "must_lead": ({"tile": "6-3", "forced": "6-6"}, ["6-6", "not 6-3"]),
    "does_not_fit": ({"tile": "6-3", "ends": [1, 2]}, ["6-3 fits neither end", "1 and 2"]),
    "say_which_end": ({"tile": "6-3", "ends": [6, 3], "fits": ["L", "R"]},
                      ["Left or right?", "L shows 6"]),
    "wrong_end": ({"tile": "6-3", "ends": [6, 1], "fits": ["L"], "end": "R", "shows": 1},
                  ["right end", "shows 1"]),
    "no_such_end": ({"tile": "6-3", "ends": [6, 1], "fits": ["L"], "at": "2"}, ["L", "R"]),
    "only_drawn_tile": ({"tile": "6-3", "drawn": "9-9"}, ["You drew 9-9"]),
    "fits_no_train": ({"tile": "6-3", "places": [{"train": "0", "end": 12},
                                                 {"train": "2", "end": 7}]},
                      ["6-3 fits nowhere", "your train ends in 12", "Expert 2's train ends in 7"]),
    "say_which_train": ({"tile": "6-3", "fits": ["0", "M"]},
                        ["Which train?", "your train (0)", "the public train (M)"]),
    "no_public_train": ({"tile": "6-3", "train": "M"}, ["without a public train"]),
    "no_such_train": ({"tile": "6-3", "train": "5", "players": 3}, ["no train 5", "0 to 2"]),
    "own_train_first_round": ({"tile": "6-3", "train": "1", "own": "0"}, ["own train (0)"]),
    "double_open": ({"tile": "6-3", "train": "0", "double_train": "1", "end": 9},
                    ["double on Skilled 1's train", "9"]),
    "not_your_train": ({"tile": "6-3", "train": "2"}, ["Expert 2's train has no marker"]),
    "does_not_fit_train": ({"tile": "6-3", "train": "1", "end": 11},
                           ["6-3 doesn't fit Skilled 1's train", "11"]),
    "not_your_turn": ({"seat": 0, "turn": 2}, ["Expert 2's turn"]),
    "unreadable": ({"move": "6-3@Q"}, ["'6-3@Q' is not a move"]),
    "hand_over": ({}, ["over"]),
    "no_hand": ({}, ["No hand"]),
}
"""Sample facts per refusal reason and what its sentence must say."""


def test_the_documented_explanation_codes_are_the_engines() -> None:
    assert set(table_codes("How a result explains itself")) == CODES


@pytest.mark.parametrize("code", table_codes("How a result explains itself"))
def test_every_explanation_code_is_worded_by_the_terminal(code: str) -> None:
    assert code in words.steps(), f"web/steps.js does not say how {code!r} is told"
    facts, says = EXPLANATIONS[code]
    sentence = word_step(Step(code, facts), NAMES)
    for part in says:
        assert part in sentence


@pytest.mark.parametrize("reason", table_codes("Refusals"))
def test_every_refusal_reason_is_worded_by_the_terminal(reason: str) -> None:
    assert reason in REFUSALS, f"the terminal has no wording for {reason!r}"
    facts, says = REFUSED[reason]
    sentence = word_refusal(Refusal(reason, facts), NAMES)
    for part in says:
        assert part in sentence


def test_a_team_hand_shows_each_teams_count_added_up() -> None:
    steps = [step("counts", counts=[10, 16, 0, 20], totals=[10, 36])]
    assert word_explanation(steps, TEAMS) == [
        "Left in hand: You and Expert 2 hold 10 + 0 = 10, Skilled 1 and Casual 3 hold "
        "16 + 20 = 36."
    ]


def test_the_engines_refusal_names_the_tile_as_the_player_typed_it() -> None:
    match, _ = start("plaza", ["0-1 0-2 0-3 0-4 0-5 0-6 1-1", "6-6 5-5 4-4 3-3 2-2 1-2 1-3"],
                     leader=HUMAN)
    with pytest.raises(KabesError) as refused:
        match.apply(HUMAN, parse_move("6-3", 6))
    assert word_refusal(refusal_of(refused.value, 6), NAMES) == "You don't have 6-3."
    assert word_refusal(refusal_of(refused.value, 3), NAMES) == "You don't have 3-6."


def test_a_finished_match_is_worded_from_the_engines_own_steps() -> None:
    match = Match("haitian", 3, {"open_ended": True}, Random(1))
    match.finish()
    lines = word_explanation(match.explanation, NAMES)
    assert lines[0].startswith("The host finished the match")
    assert any(line.startswith("Wa:") for line in lines)
