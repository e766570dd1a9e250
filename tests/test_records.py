"""Game records (DESIGN.md, "Game records", normative): replay, results, round trips, errors.

The example records live in ``tests/data/records`` (copies of ``shared/records``), each with
the results a replay must print; every test here works on copies of them or on matches played
with random legal moves.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

from deals import line_hand, line_of, with_counts
from kabes.errors import BadRecord
from kabes.match import Match
from kabes.moves import TIMEOUT, parse_move
from kabes.records import (
    disagreements,
    filled,
    load_record,
    replay,
    save_record,
    to_record,
)
from kabes.tiles import full_set, parse_tile

DATA = Path(__file__).resolve().parent / "data" / "records"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "records"
RECORD_NAMES = sorted(p.name for p in DATA.glob("*.json"))

HAND_RESULT_FIELDS = {
    "ending",
    "name",
    "capicu",
    "winner",
    "points",
    "scores",
    "leader",
    "next_leader",
    "counts",
}
MATCH_RESULT_FIELDS = {"finished", "winners", "scores", "kochon"}

CONFIGS = [
    ("partnership", 4, {}),
    ("partnership", 4, {"target": 50}),
    ("plaza", 2, {}),
    ("plaza", 2, {"capicu_bonus": 30, "score_losers_only": True, "blocker_wins_block": True}),
    ("plaza-partners", 4, {}),
    ("plaza-partners", 4, {"capicu_bonus": 25, "target": 50}),
    ("haitian", 2, {}),
    ("haitian", 3, {}),
    ("haitian", 4, {"hands": 3}),
    ("haitian-partners", 4, {}),
    *[("mexican-train", n, {}) for n in range(2, 9)],
    ("mexican-train", 4, {"mexican_train": True, "double_blank_50": True}),
]


def load(name: str) -> dict[str, Any]:
    """A fresh copy of an example record."""
    record: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return record


def stripped(record: dict[str, Any]) -> dict[str, Any]:
    """The record without any ``result``: what a player would write down."""
    out = {k: v for k, v in copy.deepcopy(record).items() if k != "result"}
    out["hands"] = [{k: v for k, v in h.items() if k != "result"} for h in out["hands"]]
    return out


def named(message: str, hand: int, move: int | None = None) -> bool:
    """Whether an error message names ``hand N`` (and ``move M``), as whole numbers."""
    ok = re.search(rf"\bhand {hand}\b", message) is not None
    if move is not None:
        ok = ok and re.search(rf"\bmove {move}\b", message) is not None
    return ok


def bad(record: dict[str, Any]) -> str:
    """The BadRecord message a replay of ``record`` must give (filled() must refuse too)."""
    with pytest.raises(BadRecord) as caught:
        filled(record)
    return caught.value.message


def walk(record: dict[str, Any]) -> Iterator[tuple[int, int, Match]]:
    """Replay a record by hand; yield (hand number, move index, match) before each move."""
    match = Match(record["variant"], record["players"], record.get("options", {}))
    top = match.rules.top
    for number, hand in enumerate(record["hands"], 1):
        deal = [[parse_tile(t, top) for t in seat] for seat in hand["deal"]]
        stock = [parse_tile(t, top) for t in hand["stock"]]
        match.start_hand(deal, stock, hand.get("leader"))
        for index, text in enumerate(hand["moves"]):
            yield number, index, match
            match.apply(None, parse_move(text, top))


def play_random(
    variant: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    max_hands: int | None = None,
    stop_mid_hand: bool = False,
) -> Match:
    """A match played with random legal moves (and some timeouts) from a seeded Random."""
    match = Match(variant, players, options, rng=Random(seed))
    choose = Random(seed * 7919 + 1)
    while True:
        if match.over:
            break
        if not match.hand_in_progress:
            if max_hands is not None and len(match.log) >= max_hands:
                break
            match.deal_hand()
            continue
        assert match.hand is not None
        if (
            stop_mid_hand
            and max_hands is not None
            and len(match.log) == max_hands
            and len(match.hand.moves) >= 5
        ):
            break
        legal = match.hand.legal_moves()
        move = TIMEOUT if choose.random() < 0.15 else choose.choice(legal)
        match.apply(None, move)
    return match


# -- the example records --------------------------------------------------------------------


def test_example_records_are_there() -> None:
    """One example per variant (and the 3-player Haitian game) is shipped with the tests."""
    variants = {load(name)["variant"] for name in RECORD_NAMES}
    assert len(RECORD_NAMES) == 7
    assert variants == {
        "partnership",
        "plaza",
        "plaza-partners",
        "haitian",
        "haitian-partners",
        "mexican-train",
    }


@pytest.mark.skipif(not SHARED.is_dir(), reason="no shared/ beside the repository")
@pytest.mark.parametrize("name", RECORD_NAMES)
def test_example_copies_match_the_shared_records(name: str) -> None:
    """tests/data/records is an exact copy of shared/records."""
    assert json.loads((SHARED / name).read_text(encoding="utf-8")) == load(name)


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_replay_prints_the_same_results(name: str) -> None:
    """filled() gives exactly the record as the file holds it: same results, same fields,
    and each hand's ``counts`` (which the example files leave out)."""
    record = with_counts(load(name))
    out = filled(record)
    assert set(out) == set(record)
    assert out["result"] == record["result"]
    assert set(out["result"]) == MATCH_RESULT_FIELDS
    assert len(out["hands"]) == len(record["hands"])
    for number, (got, want) in enumerate(zip(out["hands"], record["hands"], strict=True), 1):
        assert set(got) == set(want), f"hand {number}"
        assert set(got["result"]) == HAND_RESULT_FIELDS, f"hand {number}"
        assert got["result"] == want["result"], f"hand {number}"
        assert got == want, f"hand {number}"
    assert out == record


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_results_are_computed_not_copied_from_the_file(name: str) -> None:
    """With every result taken out (or made wrong), the replay still prints the file's."""
    record = with_counts(load(name))
    out = filled(stripped(record))
    assert out == record

    wrong = copy.deepcopy(record)
    wrong["result"] = {"finished": not record["result"]["finished"], "winners": [9]}
    for hand in wrong["hands"]:
        hand["result"] = {"ending": "domino", "winner": 7, "points": [999]}
    assert filled(wrong) == record


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_written_orientation_of_a_played_tile_does_not_matter(name: str) -> None:
    """``6-3`` and ``3-6`` are the same tile: after the lead, flipping it changes nothing."""
    record = load(name)
    flipped = copy.deepcopy(record)
    changed = 0
    for hand in flipped["hands"]:
        for index, move in enumerate(hand["moves"]):
            lead = index == 0 and record["variant"] != "mexican-train"
            if move == "timeout" or lead:
                continue
            tile, sep, at = move.partition("@")
            a, b = tile.split("-")
            if a != b:
                changed += 1
            hand["moves"][index] = f"{b}-{a}{sep}{at}"
    assert changed > 0
    out = filled(flipped)
    assert out["result"] == record["result"]
    want = with_counts(record)
    assert [h["result"] for h in out["hands"]] == [h["result"] for h in want["hands"]]


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_end_may_be_left_out_where_only_one_place_fits(name: str) -> None:
    """An end (or train) may be left out where only one fits: the replay is the same."""
    record = load(name)
    short = copy.deepcopy(record)
    dropped = 0
    for number, index, match in walk(record):
        text = record["hands"][number - 1]["moves"][index]
        if text == "timeout" or "@" not in text:
            continue
        assert match.hand is not None
        tile = parse_tile(text.partition("@")[0], match.rules.top)
        places = {m.at for m in match.hand.legal_moves() if m.tile is tile}
        if len(places) == 1:
            short["hands"][number - 1]["moves"][index] = text.partition("@")[0]
            dropped += 1
    assert dropped > 0
    counted = with_counts(record)
    assert filled(short)["hands"] == [
        {**h, "moves": s["moves"]} for h, s in zip(counted["hands"], short["hands"], strict=True)
    ]
    assert filled(short)["result"] == record["result"]


@pytest.mark.parametrize("seed", range(5))
def test_lead_lays_the_first_written_number_on_the_left(seed: int) -> None:
    """``6-3`` as a lead lays 6 on the left and 3 on the right; ``3-6`` the other way round;
    a ``timeout`` lead lays the lower number on the left."""

    def first_hand() -> Match:
        match = Match("partnership", rng=Random(seed))
        match.deal_hand()
        return match

    match = first_hand()
    assert match.hand is not None and match.turn is not None
    held = list(match.hand.hands[match.turn])
    for tile in [t for t in held if not t.is_double][:3]:
        for left, right in ((tile.high, tile.low), (tile.low, tile.high)):
            match = first_hand()
            match.apply(None, parse_move(f"{left}-{right}", 6))
            line = line_of(match)
            assert (line.left, line.right) == (left, right)
            assert line_hand(match).moves == [f"{left}-{right}"]
    match = first_hand()
    match.apply(None, TIMEOUT)
    line = line_of(match)
    lowest = min(held)
    assert (line.left, line.right) == (lowest.low, lowest.high)
    assert line_hand(match).moves == ["timeout"]


# -- unfinished records ---------------------------------------------------------------------


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_a_hand_cut_short_has_no_result(name: str) -> None:
    """Moves stopping before the end of a hand: that hand's result is None, the match is
    unfinished with no winners, and the scores are those after the last complete hand."""
    record = load(name)
    cut = len(record["hands"]) // 2
    short = copy.deepcopy(record)
    short["hands"] = short["hands"][: cut + 1]
    moves = short["hands"][cut]["moves"]
    short["hands"][cut]["moves"] = moves[: len(moves) // 2]
    out = filled(stripped(short))
    counted = with_counts(record)
    for number in range(cut):
        assert out["hands"][number]["result"] == counted["hands"][number]["result"]
    assert out["hands"][cut]["result"] is None
    assert out["result"]["finished"] is False
    assert out["result"]["winners"] == []
    assert out["result"]["kochon"] is False
    before = (
        record["hands"][cut - 1]["result"]["scores"]
        if cut
        else [0] * len(record["result"]["scores"])
    )
    assert out["result"]["scores"] == before


def test_a_hand_with_no_moves_yet_has_no_result() -> None:
    """A hand just dealt (no move yet) has result None; the match is unfinished."""
    record = stripped(load("partnership-4.json"))
    record["hands"] = record["hands"][:1]
    record["hands"][0]["moves"] = []
    out = filled(record)
    assert out["hands"][0]["result"] is None
    assert out["result"] == {"finished": False, "winners": [], "scores": [0, 0], "kochon": False}


def test_complete_hands_of_an_unfinished_match() -> None:
    """Whole hands, but fewer than the match needs: every hand scored, match unfinished."""
    record = load("haitian-2.json")
    record["hands"] = record["hands"][:4]
    out = filled(stripped(record))
    want = with_counts(record)
    assert [h["result"] for h in out["hands"]] == [h["result"] for h in want["hands"]]
    assert out["result"]["finished"] is False
    assert out["result"]["winners"] == []
    assert out["result"]["scores"] == record["hands"][3]["result"]["scores"]
    assert out["hands"][3]["result"]["next_leader"] is not None


def test_an_abandoned_match_keeps_its_finished_hands_and_replays_to_the_same_result() -> None:
    """A server ends a match nobody is left at (PROTOCOL.md, "Safe for strangers"): the
    hand in progress is dropped, the finished hands stand, nobody wins, and the record's
    result says ``abandoned``; replaying that record gives the same result."""
    record = stripped(load("haitian-2.json"))
    record["hands"] = record["hands"][:5]
    moves = record["hands"][4]["moves"]
    record["hands"][4]["moves"] = moves[: len(moves) // 2]
    match = replay(record)
    assert match.hand_in_progress
    match.abandon()
    assert match.over and match.hand is None
    out = to_record(match)
    assert len(out["hands"]) == 4
    scores = filled(stripped(load("haitian-2.json")))["hands"][3]["result"]["scores"]
    assert out["result"] == {"finished": False, "winners": [], "scores": scores,
                             "kochon": False, "abandoned": True}
    assert filled(out) == out
    assert disagreements(out, filled(out)) == []
    assert "abandoned" not in filled(record)["result"]  # only a result that says so


# -- round trips of matches played here ------------------------------------------------------


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_saved_record_replays_exactly(
    variant: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """to_record -> JSON -> filled gives back the same record, results included."""
    rounds = 3 if variant == "mexican-train" and seed != 1 else None
    match = play_random(variant, players, options, seed, max_hands=rounds)
    record = to_record(match)
    again = filled(json.loads(json.dumps(record)))
    assert again == record
    assert record["result"]["finished"] is match.over
    defaults = {name: spec.default for name, spec in Match(variant, players).specs.items()}
    assert record["options"] == {k: v for k, v in options.items() if v != defaults[k]}
    if match.over:
        assert record["result"]["winners"]
    else:
        assert record["result"]["winners"] == []


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS)
def test_a_record_saved_mid_hand_replays_exactly(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    """A match saved in the middle of a hand replays to the same unfinished record."""
    match = play_random(variant, players, options, 11, max_hands=2, stop_mid_hand=True)
    assert match.hand_in_progress
    record = to_record(match)
    assert record["hands"][-1]["result"] is None
    assert record["result"]["finished"] is False
    assert record["result"]["winners"] == []
    assert filled(json.loads(json.dumps(record))) == record


def test_save_record_and_load_record(tmp_path: Path) -> None:
    """save_record writes a file that load_record reads back into a record that replays."""
    match = play_random("plaza", 2, {"capicu_bonus": 25}, 5)
    path = tmp_path / "match.json"
    save_record(match, path)
    record = load_record(path)
    assert record == to_record(match)
    assert filled(record) == record
    assert "leader" in record["hands"][0]
    assert all("leader" not in h for h in record["hands"][1:])


def test_replay_rebuilds_the_same_position() -> None:
    """Same deal + same moves = same state: the replayed match holds the same hands."""
    match = play_random("haitian", 3, {}, 4, max_hands=2, stop_mid_hand=True)
    again = replay(json.loads(json.dumps(to_record(match))))
    assert again.hand is not None and match.hand is not None
    assert again.hand.hands == match.hand.hands
    assert again.turn == match.turn
    assert again.hand.legal_moves() == match.hand.legal_moves()


def test_a_host_finished_match_replays_exactly() -> None:
    """An open-ended match the host finished is saved as finished; its replay should agree."""
    match = Match("haitian", 2, {"open_ended": True}, rng=Random(3))
    choose = Random(4)
    while len(match.log) < 3 or match.hand_in_progress:
        if not match.hand_in_progress:
            match.deal_hand()
        else:
            assert match.hand is not None
            match.apply(None, choose.choice(match.hand.legal_moves()))
    match.finish()
    record = to_record(match)
    assert record["result"]["finished"] is True
    assert filled(json.loads(json.dumps(record))) == record


def test_only_an_open_ended_record_can_say_the_host_finished_it() -> None:
    """``finished`` is read from the file only for an open-ended table (the host's "Finish
    match"); a record of a table with a target that claims to be finished early is not."""
    record = load("haitian-2.json")
    record["hands"] = record["hands"][:3]
    record["result"] = {"finished": True, "winners": [0], "scores": [0, 0], "kochon": False}
    out = filled(record)
    assert out["result"]["finished"] is False
    assert out["result"]["winners"] == []

    open_ended = copy.deepcopy(record)
    open_ended["options"] = {"open_ended": True}
    without = filled(stripped(open_ended))
    assert without["result"]["finished"] is False
    assert without["result"]["winners"] == []
    finished = filled(open_ended)
    assert finished["result"]["finished"] is True
    scores = finished["result"]["scores"]
    assert scores == record["hands"][2]["result"]["scores"]
    assert finished["result"]["winners"] == [p for p, v in enumerate(scores) if v == max(scores)]


# -- records refused, with the hand and the move named --------------------------------------


def _illegal_alternative(record: dict[str, Any], hand_no: int) -> tuple[int, str]:
    """The first move of hand ``hand_no`` that can be replaced by a tile the mover holds but
    cannot play; returns (move index, that tile written as a move)."""
    for number, index, match in walk(record):
        if number != hand_no or index == 0:
            continue
        assert match.hand is not None and match.turn is not None
        playable = {m.tile for m in match.hand.legal_moves()}
        stuck = [t for t in match.hand.hands[match.turn] if t not in playable]
        if stuck:
            return index, str(stuck[0])
    raise AssertionError("no position with an unplayable tile")


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_illegal_move_is_refused_naming_hand_and_move(name: str) -> None:
    """A tile that fits no end (no train the player may use) is refused."""
    record = stripped(load(name))
    hand_no = 2
    index, tile = _illegal_alternative(record, hand_no)
    record["hands"][hand_no - 1]["moves"][index] = tile
    message = bad(record)
    assert named(message, hand_no, index + 1), message
    assert tile in message or tile[::-1] in message, message


def test_tile_not_held_is_refused_naming_hand_and_move() -> None:
    """Playing a tile already on the table (not in the player's hand) is refused."""
    record = stripped(load("partnership-4.json"))
    moves = record["hands"][2]["moves"]
    moves[1] = moves[0].partition("@")[0] + "@L"
    message = bad(record)
    assert named(message, 3, 2), message
    assert "hold" in message, message


def test_wrong_end_is_refused_naming_hand_and_move() -> None:
    """A tile named on an end it does not fit is refused."""
    record = stripped(load("plaza-partners-4.json"))
    for number, index, match in walk(record):
        if index == 0:
            continue
        assert match.hand is not None
        legal = match.hand.legal_moves()
        for move in legal:
            ends = {m.at for m in legal if m.tile is move.tile}
            if len(ends) == 1:
                other = "R" if move.at == "L" else "L"
                record["hands"][number - 1]["moves"][index] = f"{move.tile}@{other}"
                message = bad(record)
                assert named(message, number, index + 1), message
                return
    raise AssertionError("no move fitting only one end")


def test_unreadable_move_is_refused_naming_hand_and_move() -> None:
    """A move that is not written as a move (``6-3@X``) is refused."""
    record = stripped(load("haitian-3.json"))
    record["hands"][1]["moves"][3] = "6-3@X"
    message = bad(record)
    assert named(message, 2, 4), message


def test_move_that_is_not_a_string_is_refused() -> None:
    """Moves are strings."""
    record = stripped(load("haitian-3.json"))
    record["hands"][0]["moves"][2] = 63
    message = bad(record)
    assert named(message, 1, 3), message


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_move_after_the_hand_ended_is_refused(name: str) -> None:
    """A move written after the last tile of a hand is refused, naming hand and move."""
    record = stripped(load(name))
    record["hands"][0]["moves"].append("timeout")
    count = len(record["hands"][0]["moves"])
    message = bad(record)
    assert named(message, 1, count), message


def test_hand_after_an_unfinished_hand_is_refused() -> None:
    """A hand cannot follow one whose moves stop before its end."""
    record = stripped(load("plaza-2.json"))
    record["hands"][2]["moves"] = record["hands"][2]["moves"][:-1]
    message = bad(record)
    assert named(message, 3) and named(message, 4), message


@pytest.mark.parametrize("name", ["partnership-4.json", "plaza-2.json", "haitian-3.json"])
def test_tile_dealt_twice_is_refused(name: str) -> None:
    """The same tile in two places (and so another missing) is refused, naming the hand."""
    record = stripped(load(name))
    hand = record["hands"][1]
    hand["deal"][1][0] = hand["deal"][0][0]
    message = bad(record)
    assert named(message, 2), message
    assert "twice" in message, message
    assert hand["deal"][0][0] in message or hand["deal"][0][0][::-1] in message, message


def test_tile_missing_is_refused() -> None:
    """A stock one tile short is refused, naming the hand and the missing tile."""
    record = stripped(load("plaza-2.json"))
    gone = record["hands"][3]["stock"].pop()
    message = bad(record)
    assert named(message, 4), message
    assert "missing" in message, message
    assert gone in message or gone[::-1] in message, message


def test_tile_not_in_the_set_is_refused() -> None:
    """A 7-1 is not a double-six tile."""
    record = stripped(load("haitian-2.json"))
    record["hands"][0]["stock"][0] = "7-1"
    message = bad(record)
    assert named(message, 1), message


@pytest.mark.parametrize(
    "name", ["partnership-4.json", "haitian-2.json", "mexican-train-3-two-rounds.json"]
)
def test_wrong_hand_size_is_refused(name: str) -> None:
    """A seat dealt one tile too many (another one too few) is refused, naming the hand."""
    record = stripped(load(name))
    hand = record["hands"][0]
    hand["deal"][1].append(hand["deal"][0].pop())
    message = bad(record)
    assert named(message, 1), message
    assert "seat 0" in message, message


def test_wrong_number_of_hands_in_the_deal_is_refused() -> None:
    """A deal must have one hand per seat."""
    record = stripped(load("haitian-3.json"))
    hand = record["hands"][0]
    hand["stock"] += hand["deal"].pop()
    message = bad(record)
    assert named(message, 1), message


def test_unknown_variant_is_refused() -> None:
    """An id that is not in RULES.md is refused, and the message names it."""
    record = stripped(load("partnership-4.json"))
    record["variant"] = "cuban"
    message = bad(record)
    assert "cuban" in message, message


def test_wrong_seat_count_is_refused() -> None:
    """partnership is for 4 players."""
    record = stripped(load("partnership-4.json"))
    record["players"] = 3
    message = bad(record)
    assert "3" in message, message


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("partnership-4.json", {"target": 75}),
        ("plaza-partners-4.json", {"capicu_bonus": 20}),
        ("haitian-2.json", {"target": 50}),
        ("plaza-2.json", {"score_losers_only": "yes"}),
        ("haitian-3.json", {"hands": 0}),
    ],
)
def test_bad_option_value_is_refused(name: str, options: dict[str, Any]) -> None:
    """An option value the variant does not allow is refused, naming the option."""
    record = stripped(load(name))
    record["options"] = options
    message = bad(record)
    assert next(iter(options)) in message, message


def test_unknown_option_is_refused() -> None:
    """An option the variant does not have is refused."""
    record = stripped(load("partnership-4.json"))
    record["options"] = {"capicu_bonus": 25}
    message = bad(record)
    assert "capicu_bonus" in message, message


def test_plaza_first_hand_without_leader_is_refused() -> None:
    """Head to head, chance picks the first leader: the record must give it."""
    record = stripped(load("plaza-2.json"))
    del record["hands"][0]["leader"]
    message = bad(record)
    assert named(message, 1), message
    assert "leader" in message, message


@pytest.mark.parametrize("leader", [-1, 2, 5])
def test_plaza_leader_that_is_no_seat_is_refused(leader: int) -> None:
    """The drawn leader is a seat of the table."""
    record = stripped(load("plaza-2.json"))
    record["hands"][0]["leader"] = leader
    message = bad(record)
    assert named(message, 1), message


@pytest.mark.parametrize(
    ("name", "hand_no"),
    [
        ("partnership-4.json", 1),
        ("plaza-2.json", 2),
        ("plaza-partners-4.json", 1),
        ("haitian-2.json", 1),
        ("haitian-partners-4.json", 3),
        ("mexican-train-3-two-rounds.json", 2),
    ],
)
def test_leader_given_where_the_rules_pick_it_is_refused(name: str, hand_no: int) -> None:
    """``leader`` is only for plaza's first hand; anywhere else it is refused."""
    record = stripped(load(name))
    record["hands"][hand_no - 1]["leader"] = 0
    message = bad(record)
    assert named(message, hand_no), message
    assert "leader" in message, message


@pytest.mark.parametrize("name", [n for n in RECORD_NAMES if "two-rounds" not in n])
def test_hands_after_the_match_is_over_are_refused(name: str) -> None:
    """Once a side has won, no hand may follow."""
    record = stripped(load(name))
    extra = copy.deepcopy(record["hands"][-1])
    extra.pop("leader", None)
    record["hands"].append(extra)
    message = bad(record)
    assert named(message, len(record["hands"])), message
    assert "over" in message, message


@pytest.mark.parametrize("field", ["comment", "date", "seed"])
def test_unknown_record_field_is_refused(field: str) -> None:
    """Only the fields DESIGN.md names are allowed at the top."""
    record = stripped(load("haitian-3.json"))
    record[field] = "x"
    message = bad(record)
    assert field in message, message


@pytest.mark.parametrize("field", ["comment", "winner", "clock"])
def test_unknown_hand_field_is_refused(field: str) -> None:
    """Only the fields DESIGN.md names are allowed in a hand, and the hand is named."""
    record = stripped(load("haitian-3.json"))
    record["hands"][2][field] = 1
    message = bad(record)
    assert field in message, message
    assert named(message, 3), message


@pytest.mark.parametrize("field", ["variant", "players", "hands"])
def test_missing_record_field_is_refused(field: str) -> None:
    """variant, players and hands are required."""
    record = stripped(load("haitian-3.json"))
    del record[field]
    message = bad(record)
    assert field in message, message


@pytest.mark.parametrize("field", ["deal", "stock", "moves"])
def test_missing_hand_field_is_refused(field: str) -> None:
    """deal, stock and moves are required in every hand."""
    record = stripped(load("haitian-3.json"))
    del record["hands"][1][field]
    message = bad(record)
    assert field in message, message
    assert named(message, 2), message


@pytest.mark.parametrize(
    ("field", "value"), [("players", "3"), ("players", True), ("hands", {}), ("variant", 3)]
)
def test_field_of_the_wrong_type_is_refused(field: str, value: Any) -> None:
    """Fields have the types DESIGN.md shows."""
    record = stripped(load("haitian-3.json"))
    record[field] = value
    bad(record)


def test_non_json_file_is_refused(tmp_path: Path) -> None:
    """load_record refuses a file that is not JSON, naming the file."""
    path = tmp_path / "notes.json"
    path.write_text("variant: partnership\nplayers: 4\n", encoding="utf-8")
    with pytest.raises(BadRecord) as caught:
        load_record(path)
    assert "notes.json" in caught.value.message


def test_json_that_is_not_an_object_is_refused(tmp_path: Path) -> None:
    """A record is a JSON object."""
    path = tmp_path / "list.json"
    path.write_text("[1, 2, 3]", encoding="utf-8")
    with pytest.raises(BadRecord):
        load_record(path)


def test_missing_file_is_refused(tmp_path: Path) -> None:
    """A file that is not there is a BadRecord too, naming it."""
    with pytest.raises(BadRecord) as caught:
        load_record(tmp_path / "absent.json")
    assert "absent.json" in caught.value.message


def test_load_record_reads_an_example() -> None:
    """load_record reads the example files as they are."""
    for name in RECORD_NAMES:
        assert load_record(DATA / name) == load(name)


def test_full_sets_are_what_the_examples_deal() -> None:
    """Sanity of the examples themselves: every hand deals each tile of the set once."""
    for name in RECORD_NAMES:
        record = load(name)
        top = 12 if record["variant"] == "mexican-train" else 6
        every = sorted(full_set(top))
        for hand in record["hands"]:
            seen = [parse_tile(t, top) for seat in hand["deal"] for t in seat]
            seen += [parse_tile(t, top) for t in hand["stock"]]
            assert sorted(seen) == every, name
