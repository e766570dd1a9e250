"""Table options and seat counts, variant by variant, as RULES.md allows them."""

from __future__ import annotations

import re
from random import Random
from typing import Any

import pytest

from kabes.errors import BadOptions
from kabes.match import Match
from kabes.moves import TIMEOUT
from kabes.records import to_record
from kabes.rules.mexican_train import MexicanTrainOptions
from kabes.rules.plaza import PlazaOptions

VARIANT_IDS = (
    "partnership",
    "plaza",
    "plaza-partners",
    "haitian",
    "haitian-partners",
    "mexican-train",
)
SEATS = {
    "partnership": (4,),
    "plaza": (2,),
    "plaza-partners": (4,),
    "haitian": (2, 3, 4),
    "haitian-partners": (4,),
    "mexican-train": (2, 3, 4, 5, 6, 7, 8),
}


def refused(variant: str, players: int | None, options: dict[str, Any] | None) -> str:
    """The BadOptions message for this table."""
    with pytest.raises(BadOptions) as caught:
        Match(variant, players, options)
    return caught.value.message


def numbers_in(message: str) -> set[int]:
    """The whole numbers a message mentions."""
    return {int(n) for n in re.findall(r"\d+", message)}


def play_out(match: Match, seed: int = 0) -> Match:
    """Play a match to its end with random legal moves."""
    choose = Random(seed)
    for _ in range(20_000):
        if match.over:
            return match
        if not match.hand_in_progress:
            match.deal_hand()
        else:
            assert match.hand is not None
            match.apply(None, choose.choice(match.hand.legal_moves()))
    raise AssertionError("the match did not end")


# -- partnership ----------------------------------------------------------------------------


def test_partnership_target_defaults_to_100() -> None:
    """The host sets the target; 100 if not changed."""
    assert Match("partnership", 4).options.target == 100


@pytest.mark.parametrize("target", range(50, 501, 50))
def test_partnership_target_from_50_to_500_in_steps_of_50(target: int) -> None:
    """Every multiple of 50 from 50 to 500 is a target."""
    match = Match("partnership", 4, {"target": target})
    assert match.options.target == target


@pytest.mark.parametrize("target", [0, 25, 75, 120, 501, 550, 1000, -50])
def test_partnership_other_targets_are_refused_naming_the_allowed_values(target: int) -> None:
    """75, 550, 0 ... are refused, and the message says what is allowed: 50 to 500 by 50."""
    message = refused("partnership", 4, {"target": target})
    assert "target" in message
    assert str(target) in message
    assert {50, 500} <= numbers_in(message)
    assert "step" in message or all(n in numbers_in(message) for n in range(50, 501, 50))


def test_partnership_target_decides_the_end() -> None:
    """A match to 50 ends as soon as a team is at or over 50, and not before."""
    match = play_out(Match("partnership", 4, {"target": 50}, rng=Random(8)), 8)
    assert match.result is not None
    assert max(match.result.scores) >= 50
    for log in match.log[:-1]:
        assert log.result is not None and max(log.result.scores) < 50


# -- plaza ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["plaza", "plaza-partners"])
def test_plaza_defaults(variant: str) -> None:
    """Classic 100, no capicú bonus, both house rules off."""
    options = Match(variant).options
    assert isinstance(options, PlazaOptions)
    assert options.target == 100
    assert options.capicu_bonus == 0
    assert options.score_losers_only is False
    assert options.blocker_wins_block is False


@pytest.mark.parametrize("variant", ["plaza", "plaza-partners"])
@pytest.mark.parametrize("target", [50, 100, 150, 200, 500])
def test_plaza_targets(variant: str, target: int) -> None:
    """Short 50, Classic 100, Long 200, and 150 or 500."""
    assert Match(variant, None, {"target": target}).options.target == target


@pytest.mark.parametrize("variant", ["plaza", "plaza-partners"])
@pytest.mark.parametrize("target", [0, 75, 250, 300, 400, 1000])
def test_plaza_other_targets_are_refused(variant: str, target: int) -> None:
    """Other targets are refused, naming the five allowed."""
    message = refused(variant, None, {"target": target})
    assert {50, 100, 150, 200, 500} <= numbers_in(message)


@pytest.mark.parametrize("variant", ["plaza", "plaza-partners"])
@pytest.mark.parametrize("bonus", [0, 25, 30])
def test_plaza_capicu_bonus(variant: str, bonus: int) -> None:
    """The capicú bonus is 0 (default), 25 or 30."""
    options = Match(variant, None, {"capicu_bonus": bonus}).options
    assert isinstance(options, PlazaOptions)
    assert options.capicu_bonus == bonus


@pytest.mark.parametrize("variant", ["plaza", "plaza-partners"])
@pytest.mark.parametrize("bonus", [5, 10, 20, 50, 100, -25])
def test_plaza_other_capicu_bonuses_are_refused(variant: str, bonus: int) -> None:
    """Any other bonus is refused, naming 0, 25 and 30."""
    message = refused(variant, None, {"capicu_bonus": bonus})
    assert "capicu_bonus" in message
    assert {0, 25, 30} <= numbers_in(message)


@pytest.mark.parametrize("variant", ["plaza", "plaza-partners"])
@pytest.mark.parametrize("name", ["score_losers_only", "blocker_wins_block"])
def test_plaza_house_rules_are_yes_or_no(variant: str, name: str) -> None:
    """The two house rules are flags."""
    assert getattr(Match(variant, None, {name: True}).options, name) is True
    assert getattr(Match(variant, None, {name: False}).options, name) is False
    message = refused(variant, None, {name: 1})
    assert name in message


# -- haitian --------------------------------------------------------------------------------


def test_haitian_two_players_play_to_100() -> None:
    """2 players: first to 100 points, and no other target."""
    assert Match("haitian", 2).options.target == 100
    assert Match("haitian", 2, {"target": 100}).options.target == 100


@pytest.mark.parametrize("target", [50, 150, 200, 4])
def test_haitian_two_players_other_targets_are_refused(target: int) -> None:
    """Another target is refused, naming 100."""
    message = refused("haitian", 2, {"target": target})
    assert 100 in numbers_in(message)


def test_haitian_two_players_have_no_hands_option() -> None:
    """A number of hands is for 3 or 4 players only."""
    message = refused("haitian", 2, {"hands": 5})
    assert "hands" in message


def test_haitian_partners_play_to_4() -> None:
    """Partners: first team to 4 points, and no other target."""
    assert Match("haitian-partners", 4).options.target == 4
    assert Match("haitian-partners", 4, {"target": 4}).options.target == 4


@pytest.mark.parametrize("target", [1, 3, 5, 100])
def test_haitian_partners_other_targets_are_refused(target: int) -> None:
    """Another target is refused, naming 4."""
    message = refused("haitian-partners", 4, {"target": target})
    assert 4 in numbers_in(message)


@pytest.mark.parametrize("players", [3, 4])
def test_haitian_three_or_four_play_five_hands_by_default(players: int) -> None:
    """3 or 4 players: 5 hands, and the lowest penalty total is Wa."""
    match = Match("haitian", players)
    assert match.options.hands == 5
    assert match.changed_options == {}
    done = play_out(Match("haitian", players, rng=Random(players)), players)
    assert len(done.log) == 5


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("hands", [1, 3, 7])
def test_haitian_three_or_four_hands_option(players: int, hands: int) -> None:
    """The table may choose another number of hands; the match is that many hands."""
    match = Match("haitian", players, {"hands": hands}, rng=Random(hands))
    assert match.options.hands == hands
    assert match.changed_options == {"hands": hands}
    assert len(play_out(match, hands).log) == hands


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("hands", [0, -1])
def test_haitian_three_or_four_no_hands_is_refused(players: int, hands: int) -> None:
    """A match of no hands is refused."""
    message = refused("haitian", players, {"hands": hands})
    assert "hands" in message


@pytest.mark.parametrize("players", [3, 4])
def test_haitian_three_or_four_have_no_target(players: int) -> None:
    """3 or 4 players count hands, not points."""
    message = refused("haitian", players, {"target": 100})
    assert "target" in message


@pytest.mark.parametrize(
    ("variant", "players"),
    [("haitian", 2), ("haitian", 3), ("haitian", 4), ("haitian-partners", 4)],
)
def test_haitian_online_tables_are_open_ended(variant: str, players: int) -> None:
    """Online with friends there is no limit: an open-ended match never ends by itself."""
    assert Match(variant, players).options.open_ended is False
    match = Match(variant, players, {"open_ended": True}, rng=Random(1))
    assert match.changed_options == {"open_ended": True}
    choose = Random(2)
    while len(match.log) < 30 or match.hand_in_progress:
        assert not match.over
        if not match.hand_in_progress:
            match.deal_hand()
        else:
            assert match.hand is not None
            match.apply(None, choose.choice(match.hand.legal_moves()))
    assert not match.over
    match.finish()
    assert match.over and match.result is not None
    assert match.result.winners


@pytest.mark.parametrize("variant", ["partnership", "plaza", "mexican-train"])
def test_open_ended_is_only_haitian(variant: str) -> None:
    """The open-ended online table is seed 003's; other variants refuse the option."""
    message = refused(variant, None, {"open_ended": True})
    assert "open_ended" in message


# -- mexican train --------------------------------------------------------------------------


def test_mexican_train_house_rules_are_off_by_default() -> None:
    """The public train and 0-0 counting 50 are off unless chosen."""
    options = Match("mexican-train", 4).options
    assert isinstance(options, MexicanTrainOptions)
    assert options.mexican_train is False
    assert options.double_blank_50 is False


@pytest.mark.parametrize("name", ["mexican_train", "double_blank_50"])
def test_mexican_train_house_rules_are_flags(name: str) -> None:
    """Either can be turned on; they are yes/no."""
    match = Match("mexican-train", 4, {name: True})
    assert getattr(match.options, name) is True
    assert match.changed_options == {name: True}
    assert name in refused("mexican-train", 4, {name: "on"})


@pytest.mark.parametrize("name", ["target", "capicu_bonus", "hands"])
def test_mexican_train_has_no_target_bonus_or_hands(name: str) -> None:
    """A match is 13 rounds, lowest total wins: no target, no bonus."""
    assert name in refused("mexican-train", 4, {name: 100})


# -- every variant --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANT_IDS)
@pytest.mark.parametrize("name", ["speed", "Target", "stock", ""])
def test_unknown_option_is_refused(variant: str, name: str) -> None:
    """An option the variant does not have is refused, naming it."""
    message = refused(variant, None, {name: 1})
    assert repr(name) in message or (name and name in message)


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("partnership", {"target": "100"}),
        ("partnership", {"target": 100.0}),
        ("partnership", {"target": True}),
        ("partnership", {"target": None}),
        ("plaza", {"target": [100]}),
        ("plaza", {"capicu_bonus": "25"}),
        ("plaza", {"capicu_bonus": 25.0}),
        ("plaza", {"score_losers_only": "true"}),
        ("plaza", {"blocker_wins_block": 1}),
        ("plaza-partners", {"blocker_wins_block": 0}),
        ("haitian", {"target": "100"}),
        ("haitian", {"open_ended": "yes"}),
        ("haitian-partners", {"target": 4.0}),
        ("mexican-train", {"mexican_train": 1}),
        ("mexican-train", {"double_blank_50": None}),
    ],
)
def test_option_of_the_wrong_type_is_refused(variant: str, options: dict[str, Any]) -> None:
    """Whole numbers are whole numbers (not text, floats or booleans); flags are booleans."""
    message = refused(variant, None, options)
    assert next(iter(options)) in message


def test_haitian_three_players_hands_of_the_wrong_type_are_refused() -> None:
    """hands is a whole number."""
    assert "hands" in refused("haitian", 3, {"hands": "5"})
    assert "hands" in refused("haitian", 3, {"hands": True})


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_allowed_seat_counts(variant: str) -> None:
    """Each variant seats exactly the players RULES.md names."""
    for players in SEATS[variant]:
        assert Match(variant, players).players == players


@pytest.mark.parametrize(
    ("variant", "players"),
    [
        ("partnership", 2),
        ("partnership", 3),
        ("partnership", 5),
        ("plaza", 1),
        ("plaza", 3),
        ("plaza", 4),
        ("plaza-partners", 2),
        ("plaza-partners", 3),
        ("haitian", 1),
        ("haitian", 5),
        ("haitian-partners", 2),
        ("haitian-partners", 3),
        ("mexican-train", 1),
        ("mexican-train", 9),
        ("mexican-train", 0),
    ],
)
def test_wrong_seat_counts_are_refused(variant: str, players: int) -> None:
    """Partnership with 3 players (and the like) is refused, naming the count."""
    message = refused(variant, players, None)
    assert str(players) in message


@pytest.mark.parametrize("variant", ["", "cuban", "Partnership", "mexican_train", "haitian-3"])
def test_unknown_variant_is_refused(variant: str) -> None:
    """An id not in RULES.md is refused, naming the variants there are."""
    message = refused(variant, None, None)
    assert "partnership" in message and "mexican-train" in message


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_no_options_means_no_changed_options(variant: str) -> None:
    """A table with the defaults changes nothing."""
    for players in SEATS[variant]:
        assert Match(variant, players).changed_options == {}


@pytest.mark.parametrize(
    ("variant", "players", "options", "changed"),
    [
        ("partnership", 4, {"target": 100}, {}),
        ("partnership", 4, {"target": 250}, {"target": 250}),
        ("plaza", 2, {"target": 100, "capicu_bonus": 0}, {}),
        (
            "plaza",
            2,
            {"target": 200, "capicu_bonus": 0, "score_losers_only": True},
            {"target": 200, "score_losers_only": True},
        ),
        (
            "plaza-partners",
            4,
            {"capicu_bonus": 30, "blocker_wins_block": False},
            {"capicu_bonus": 30},
        ),
        ("haitian", 2, {"target": 100, "open_ended": False}, {}),
        ("haitian", 3, {"hands": 5}, {}),
        ("haitian", 4, {"hands": 9}, {"hands": 9}),
        ("haitian-partners", 4, {"target": 4, "open_ended": True}, {"open_ended": True}),
        (
            "mexican-train",
            6,
            {"mexican_train": False, "double_blank_50": True},
            {"double_blank_50": True},
        ),
    ],
)
def test_changed_options_lists_only_what_differs_from_the_defaults(
    variant: str, players: int, options: dict[str, Any], changed: dict[str, Any]
) -> None:
    """Records keep only the options that differ from the variant's defaults."""
    match = Match(variant, players, options, rng=Random(0))
    assert match.changed_options == changed
    match.deal_hand()
    assert match.hand is not None
    match.apply(None, TIMEOUT)
    assert to_record(match)["options"] == changed
