"""Every hand's result explains itself: ``counts`` and the steps of kabes.explain.

One test per ending and scoring rule of RULES.md, each on a crafted hand (the same hands the
rule tests play), checking the pips left per seat and the codes and facts that say how the
points follow from them: who won and why, which hands were counted for whom, bonuses,
penalties, ties, who leads next, and why the match was won.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from deals import (
    BLOCK_SCRIPT,
    KABES_2P,
    KABES_2P_SCRIPT,
    KABES_4P,
    KABES_4P_SCRIPT,
    SEATINGS,
    TONBE_2P,
    TONBE_2P_SCRIPT,
    TONBE_4P,
    TONBE_4P_SCRIPT,
    blocked_hands,
    play,
    start,
)
from kabes.explain import CODES, explanation_json
from kabes.match import Match
from kabes.moves import TIMEOUT
from test_rules_haitian import (
    S0_LOW_S1_HIGH,
    S0_LOW_S2_HIGH,
    S0_S2_LOW,
    S0_S3_LOW,
    S1_S3_LOW,
    S2_S3_LOW,
    S3_LOW_S1_HIGH,
    TIED_HIGH_4P,
    TIED_HIGH_4P_SCRIPT,
)
from test_rules_mexican_train import hands_with
from test_rules_partnership import LOW_TEAM_0, TIED
from test_rules_plaza import (
    BLOCK_2P,
    DREW_DOMINO,
    DREW_DOMINO_SCRIPT,
    DREW_DOMINO_STOCK,
    TIED_BLOCK,
    TIED_BLOCK_SCRIPT,
    TIED_BLOCK_STOCK,
    TIED_TEAMS,
)

OUT_IN_FIRST_TURN = [
    "12-12 11-12 10-11 9-10 8-9 7-8 6-7 5-6 4-5 3-4 2-3 1-2 1-1 1-3 3-3",
    "0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 2-2 4-4",
]
OUT_IN_FIRST_TURN_SCRIPT = (
    "12-11@0 11-10@0 10-9@0 9-8@0 8-7@0 7-6@0 6-5@0 5-4@0 4-3@0 3-2@0 2-1@0 1-1@0 1-3@0 3-3@0"
)
"""Mexican Train: seat 0 goes out in its first turn; seat 1 keeps 90 pips, 0-0 among them."""


def codes(match: Match) -> list[str]:
    """The codes of the last hand's explanation, in order."""
    explanation = match.log[-1].explanation
    assert explanation is not None
    return [s.code for s in explanation]


def facts(match: Match, code: str) -> dict[str, Any]:
    """The facts of the one step with ``code`` in the last hand's explanation."""
    explanation = match.log[-1].explanation
    assert explanation is not None
    found = [s.facts for s in explanation if s.code == code]
    assert len(found) == 1, f"{code}: {codes(match)}"
    return found[0]


def counts(match: Match) -> list[int]:
    """The last hand's ``counts``, as the record and the explanation both carry them."""
    result = match.log[-1].result
    assert result is not None
    assert facts(match, "counts")["counts"] == list(result.counts)
    assert result.to_json()["counts"] == list(result.counts)
    return list(result.counts)


def blocked(variant: str, hands: list[str], match: Match | None = None, **kw: Any) -> Match:
    match, _ = start(variant, hands, match=match, **kw)
    play(match, BLOCK_SCRIPT)
    return match


# -- partnership -----------------------------------------------------------------------------


def test_explained_partnership_domino_team_scores_the_two_opponents_hands() -> None:
    match, _ = start("partnership", KABES_4P)
    play(match, KABES_4P_SCRIPT)
    assert counts(match) == [18, 0, 23, 17]
    assert facts(match, "went_out") == {"seat": 1, "party": 1, "tile": "3-6"}
    assert facts(match, "counts")["totals"] == [41, 17]
    assert facts(match, "scores_pips") == {"party": 1, "seats": [0, 2], "pips": 41}
    assert facts(match, "next_leader") == {"seat": 2, "rule": "rotation", "previous": 1}


def test_explained_partnership_blocked_lower_total_scores_the_others_total() -> None:
    match = blocked("partnership", blocked_hands(LOW_TEAM_0))
    assert counts(match) == [7, 33, 21, 29]
    assert codes(match)[:3] == ["blocked", "counts", "lower_total_wins"]
    assert facts(match, "blocked") == {"seat": 1, "party": 1}
    assert facts(match, "lower_total_wins") == {"party": 0, "totals": [28, 62]}
    assert facts(match, "scores_pips") == {"party": 0, "seats": [1, 3], "pips": 62}


def test_explained_partnership_blocked_tie_goes_to_team_that_played_last() -> None:
    match = blocked("partnership", blocked_hands(TIED))
    assert facts(match, "tie_to_last_player") == {"party": 1, "seat": 1, "total": 45}
    assert facts(match, "scores_pips") == {"party": 1, "seats": [0, 2], "pips": 45}
    assert "lower_total_wins" not in codes(match)


def test_explained_partnership_target_reached_wins_the_match() -> None:
    match = blocked("partnership", blocked_hands(LOW_TEAM_0), options={"target": 50})
    assert facts(match, "target_reached") == {"party": 0, "score": 62, "target": 50}
    assert facts(match, "match_won") == {"winners": [0]}
    assert "next_leader" not in codes(match)


# -- plaza -----------------------------------------------------------------------------------


def test_explained_plaza_domino_winner_scores_every_pip_left() -> None:
    match, _ = start("plaza", DREW_DOMINO, stock=DREW_DOMINO_STOCK, leader=0)
    play(match, DREW_DOMINO_SCRIPT)
    assert counts(match) == [0, 75]
    assert facts(match, "scores_pips") == {
        "party": 0, "seats": [0, 1], "pips": 75, "rule": "all_hands"
    }
    assert facts(match, "next_leader") == {"seat": 0, "rule": "went_out"}


def test_explained_plaza_blocked_lower_count_scores_all_pips_and_the_blocker_leads() -> None:
    match, _ = start("plaza", BLOCK_2P, leader=0)
    play(match, BLOCK_SCRIPT)
    assert counts(match) == [80, 10]
    assert facts(match, "lower_total_wins") == {"party": 1, "totals": [80, 10]}
    assert facts(match, "scores_pips") == {
        "party": 1, "seats": [0, 1], "pips": 90, "rule": "all_hands"
    }
    assert facts(match, "next_leader") == {"seat": 1, "rule": "last_tile"}


def test_explained_plaza_blocked_equal_counts_nobody_scores() -> None:
    match, _ = start("plaza", TIED_BLOCK, stock=TIED_BLOCK_STOCK, leader=1)
    play(match, TIED_BLOCK_SCRIPT)
    assert counts(match) == [45, 45]
    assert facts(match, "tie_nobody_scores") == {"total": 45, "totals": [45, 45]}
    assert "scores_pips" not in codes(match)
    assert facts(match, "next_leader") == {"seat": 0, "rule": "last_tile"}


def test_explained_plaza_capicu_is_announced_and_its_bonus_added() -> None:
    match, _ = start("plaza", KABES_2P, leader=0, options={"capicu_bonus": 25})
    play(match, KABES_2P_SCRIPT)
    assert counts(match) == [0, 10]
    assert facts(match, "capicu") == {"seat": 0, "tile": "0-1"}
    assert facts(match, "capicu_bonus") == {"party": 0, "bonus": 25}

    match, _ = start("plaza", KABES_2P, leader=0)
    play(match, KABES_2P_SCRIPT)
    assert "capicu" in codes(match)
    assert "capicu_bonus" not in codes(match)  # no bonus by default


def test_explained_plaza_score_losers_only_counts_only_the_losing_hand() -> None:
    match, _ = start("plaza", BLOCK_2P, leader=0, options={"score_losers_only": True})
    play(match, BLOCK_SCRIPT)
    assert facts(match, "scores_pips") == {
        "party": 1, "seats": [0], "pips": 80, "rule": "losers_only"
    }


def test_explained_plaza_blocker_wins_block_gives_the_block_to_the_blockers_side() -> None:
    options = {"blocker_wins_block": True}
    match, _ = start("plaza", TIED_BLOCK, stock=TIED_BLOCK_STOCK, leader=1, options=options)
    play(match, TIED_BLOCK_SCRIPT)
    assert facts(match, "blocker_wins_block") == {"party": 0, "seat": 0}
    assert facts(match, "scores_pips")["pips"] == 90
    assert "tie_nobody_scores" not in codes(match)


def test_explained_plaza_kochon_the_match_won_while_the_other_side_is_at_zero() -> None:
    match, _ = start("plaza", BLOCK_2P, leader=0, options={"target": 50})
    play(match, BLOCK_SCRIPT)
    assert codes(match)[-3:] == ["target_reached", "match_won", "kochon"]
    assert facts(match, "kochon") == {"winners": [1], "at_zero": [0]}
    explanation = match.log[-1].explanation
    assert explanation is not None
    assert match.explanation == explanation[-3:]


def test_explained_plaza_partners_domino_winning_side_scores_all_hands_partners_included() -> None:
    match, _ = start("plaza-partners", KABES_4P)
    play(match, KABES_4P_SCRIPT)
    assert counts(match) == [18, 0, 23, 17]
    assert facts(match, "scores_pips") == {
        "party": 1, "seats": [0, 1, 2, 3], "pips": 58, "rule": "all_hands"
    }
    assert facts(match, "next_leader") == {"seat": 1, "rule": "went_out"}


def test_explained_plaza_partners_blocked_equal_team_totals_nobody_scores() -> None:
    match = blocked("plaza-partners", TIED_TEAMS)
    assert facts(match, "counts")["totals"] == [45, 45]
    assert facts(match, "tie_nobody_scores") == {"total": 45, "totals": [45, 45]}


# -- haitian ---------------------------------------------------------------------------------


def test_explained_haitian_two_players_tonbe_winner_gets_10() -> None:
    match, _ = start("haitian", TONBE_2P)
    play(match, TONBE_2P_SCRIPT)
    assert counts(match) == [0, 10]
    assert facts(match, "named") == {"name": "tonbe"}
    assert facts(match, "winner_points") == {"party": 0, "points": 10, "name": "tonbe"}
    assert facts(match, "next_leader") == {"seat": 0, "rule": "winner"}


def test_explained_haitian_two_players_two_kabes_winner_gets_15() -> None:
    match, _ = start("haitian", KABES_2P)
    play(match, KABES_2P_SCRIPT)
    assert facts(match, "named") == {"name": "2-kabes"}
    assert facts(match, "capicu") == {"seat": 0, "tile": "0-1"}
    assert facts(match, "winner_points") == {"party": 0, "points": 15, "name": "2-kabes"}


def test_explained_haitian_blok_the_lowest_hand_wins() -> None:
    match = blocked("haitian", blocked_hands(["0-0 1-1", "2-2 3-3"]))
    assert counts(match) == [80, 10]
    assert codes(match)[:3] == ["blocked", "named", "counts"]
    assert facts(match, "lowest_hand_wins") == {"seat": 1, "party": 1, "count": 10}
    assert facts(match, "winner_points") == {"party": 1, "points": 10, "name": "blok"}


def test_explained_haitian_blok_tie_the_blocker_wins_if_among_the_lowest() -> None:
    match = blocked("haitian", S1_S3_LOW)
    assert counts(match) == [20, 17, 36, 17]
    assert facts(match, "tie_blocker_wins") == {
        "seat": 1, "party": 1, "count": 17, "seats": [1, 3], "blocker": 1
    }


def test_explained_haitian_blok_tie_then_the_first_in_play_order_after_the_blocker() -> None:
    match = blocked("haitian", S0_S3_LOW)
    assert facts(match, "tie_first_after_blocker") == {
        "seat": 3, "party": 3, "count": 17, "seats": [0, 3], "blocker": 1
    }


def test_explained_haitian_penalty_to_the_highest_count_only() -> None:
    match, _ = start("haitian", TONBE_4P)
    play(match, TONBE_4P_SCRIPT)
    assert counts(match) == [19, 0, 13, 29]
    assert facts(match, "penalty_to_highest") == {
        "seat": 3, "count": 29, "points": 2, "name": "tonbe"
    }
    assert "penalty_tie_first_after_winner" not in codes(match)


def test_explained_haitian_penalty_tie_goes_to_the_first_after_the_winner() -> None:
    match, _ = start("haitian", TIED_HIGH_4P)
    play(match, TIED_HIGH_4P_SCRIPT)
    assert counts(match) == [16, 0, 16, 14]
    assert facts(match, "penalty_to_highest")["seat"] == 2
    assert facts(match, "penalty_tie_first_after_winner") == {
        "seat": 2, "seats": [2, 0], "winner": 1, "count": 16
    }


def test_explained_haitian_blok_penalty_is_4() -> None:
    match = blocked("haitian", S0_LOW_S2_HIGH)
    assert facts(match, "penalty_to_highest") == {
        "seat": 2, "count": 40, "points": 4, "name": "blok"
    }


def test_explained_haitian_partners_winning_team_gets_1_and_the_losers_go_back_to_0() -> None:
    match, _ = start("haitian-partners", KABES_4P)
    play(match, KABES_4P_SCRIPT)
    assert facts(match, "winner_points") == {"party": 1, "points": 2, "name": "2-kabes"}
    assert facts(match, "losing_team_reset") == {"party": 0, "score_before": 0}
    second = ["0-4 0-5 1-2 1-3 1-4", "5-5 4-4 3-5 3-4", "0-0 0-2 0-3 1-1", "1-5 2-2 2-4 2-5 3-3"]
    start("haitian-partners", blocked_hands(second, leader=1), match=match)
    play(match, BLOCK_SCRIPT)
    assert facts(match, "winner_points") == {"party": 0, "points": 1, "name": "blok"}
    assert facts(match, "losing_team_reset") == {"party": 1, "score_before": 2}


def test_explained_haitian_partners_blok_lowest_hands_on_both_teams_the_blockers_team_wins(
) -> None:
    match = blocked("haitian-partners", S2_S3_LOW)
    assert counts(match) == [28, 26, 18, 18]
    assert facts(match, "tie_across_teams_blocker") == {
        "seat": 1, "party": 1, "count": 18, "seats": [2, 3], "blocker": 1
    }
    assert facts(match, "next_leader") == {
        "seat": 3, "rule": "team_lower_hand", "seats": [1, 3], "counts": [26, 18],
        "tie": False, "blocker": 1,
    }


def test_explained_haitian_partners_blok_equal_partners_first_from_the_blocker_leads() -> None:
    match = blocked("haitian-partners", S0_S2_LOW)
    assert facts(match, "next_leader") == {
        "seat": 2, "rule": "team_lower_hand", "seats": [0, 2], "counts": [17, 17],
        "tie": True, "blocker": 1,
    }


def test_explained_haitian_wa_lowest_penalty_total_then_more_hands_won() -> None:
    match = Match("haitian", 4, {"hands": 2})
    blocked("haitian", S0_LOW_S1_HIGH, match=match)
    blocked("haitian", S0_LOW_S2_HIGH, match=match)
    assert codes(match)[-4:] == ["lowest_total", "wa_tie_hand_wins", "wa", "match_won"]
    assert facts(match, "lowest_total") == {"total": 0, "parties": [0, 3]}
    assert facts(match, "wa_tie_hand_wins") == {"seats": [0, 3], "hand_wins": [2, 0]}
    assert facts(match, "wa") == {"seats": [0], "total": 0}


def test_explained_haitian_wa_shared_when_hands_won_are_equal_too() -> None:
    match = Match("haitian", 4, {"hands": 2})
    blocked("haitian", S0_LOW_S1_HIGH, match=match)
    blocked("haitian", S3_LOW_S1_HIGH, match=match)
    assert facts(match, "wa_tie_hand_wins") == {"seats": [0, 2, 3], "hand_wins": [1, 0, 1]}
    assert facts(match, "wa_shared") == {"seats": [0, 3]}
    assert facts(match, "wa") == {"seats": [0, 3], "total": 0}


def test_explained_haitian_finished_by_the_host_the_highest_score_wins() -> None:
    match, _ = start("haitian", TONBE_2P, options={"open_ended": True})
    play(match, TONBE_2P_SCRIPT)
    match.finish()
    assert [s.code for s in match.explanation] == ["finished_by_host", "highest_score",
                                                   "match_won"]
    assert match.explanation[1].facts == {"score": 10, "parties": [0]}


# -- mexican train ---------------------------------------------------------------------------


def test_explained_mexican_train_every_seat_pays_its_pips_and_the_next_double_leads() -> None:
    match, _ = start("mexican-train", OUT_IN_FIRST_TURN)
    play(match, OUT_IN_FIRST_TURN_SCRIPT)
    assert counts(match) == [0, 90]
    assert facts(match, "went_out") == {"seat": 0, "party": 0, "tile": "3-3"}
    explanation = match.log[-1].explanation
    assert explanation is not None
    steps = [s.facts for s in explanation if s.code == "penalty_pips"]
    assert steps == [{"seat": 0, "pips": 0, "points": 0}, {"seat": 1, "pips": 90, "points": 90}]
    assert facts(match, "next_leader") == {"seat": None, "rule": "engine_double",
                                           "double": "11-11"}


def test_explained_mexican_train_double_blank_50_counts_0_0_as_50() -> None:
    match, _ = start("mexican-train", OUT_IN_FIRST_TURN, options={"double_blank_50": True})
    play(match, OUT_IN_FIRST_TURN_SCRIPT)
    assert counts(match) == [0, 90]  # counts are pips: 0-0 is 0 there
    assert facts(match, "double_blank_50") == {"seat": 1, "points": 50}
    explanation = match.log[-1].explanation
    assert explanation is not None
    steps = [s.facts for s in explanation if s.code == "penalty_pips"]
    assert steps[1] == {"seat": 1, "pips": 90, "points": 140}


def test_explained_mexican_train_blocked_round_nobody_wins_and_says_the_fewest_pips() -> None:
    loops0 = "12-12 0-12 0-1 1-12 2-12 2-3 3-12 4-12 4-5 5-12"
    loops1 = "6-12 6-7 7-12 8-12 8-9 9-12 10-12 10-11 11-12"
    match, _ = start("mexican-train", hands_with([loops0, loops1]))
    play(match, "12-0@0 0-1@0 1-12@0 12-2@0 2-3@0 3-12@0 12-4@0 4-5@0 5-12@0")
    play(match, "12-6@1 6-7@1 7-12@1 12-8@1 8-9@1 9-12@1 12-10@1 10-11@1 11-12@1")
    result = match.log[-1].result
    left = counts(match)
    assert codes(match)[:4] == ["round_blocked", "counts", "fewest_pips", "nobody_wins"]
    low = min(left)
    assert facts(match, "fewest_pips") == {
        "seats": [s for s in range(2) if left[s] == low], "pips": low
    }
    assert result is not None
    assert result.winner is None


def test_explained_mexican_train_after_13_rounds_the_lowest_total_wins() -> None:
    match = Match("mexican-train", 2, rng=Random(3))
    while not match.over:
        if not match.hand_in_progress:
            match.deal_hand()
        else:
            match.apply(None, TIMEOUT)
    assert codes(match)[-2:] == ["lowest_total", "match_won"]
    assert "next_leader" not in codes(match)
    assert match.result is not None
    assert facts(match, "lowest_total")["total"] == min(match.result.scores)


# -- every variant ---------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), SEATINGS)
def test_every_hand_is_explained_with_known_codes_and_its_counts(
    variant: str, players: int
) -> None:
    """Random matches: each hand's explanation uses only documented codes, its counts are
    the pips left, and it is plain JSON."""
    match = Match(variant, players, rng=Random(players))
    rng = Random(7)
    for _ in range(3):
        match.deal_hand()
        while match.hand_in_progress:
            hand = match.hand
            assert hand is not None
            match.apply(None, rng.choice(hand.legal_moves()))
        log = match.log[-1]
        assert log.explanation is not None and log.result is not None
        assert {s.code for s in log.explanation} <= CODES
        hand = match.hand
        assert hand is not None and hand.end is not None
        hands = hand.end.hands
        assert list(log.result.counts) == [sum(t.low + t.high for t in h) for h in hands]
        assert facts(match, "counts")["counts"] == list(log.result.counts)
        assert all(isinstance(s["facts"], dict) for s in explanation_json(log.explanation))
        if match.over:
            break
