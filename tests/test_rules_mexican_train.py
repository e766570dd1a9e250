"""RULES.md, `mexican-train` (seeds 001, 004): double-twelve, trains, markers, 13 rounds.

Most hands here are a few tiles that matter plus fillers, tiles whose two halves are 0..8;
the trains end in 9..12, so fillers never fit. The stock is the named tiles first, then the
rest ascending, which starts with the fillers nobody was dealt (0-0, 0-1, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random

import pytest

from deals import of_type, play, start, tiles, train_hand
from kabes.errors import BadOptions, BadRecord, IllegalMove
from kabes.events import (
    Drew,
    EngineSet,
    Event,
    HandEnded,
    HandStarted,
    MarkerChanged,
    Passed,
    Played,
)
from kabes.match import Match
from kabes.moves import TIMEOUT, parse_move
from kabes.results import Ending
from kabes.rules.mexican_train import MexicanTrainOptions
from kabes.tiles import Tile, count, full_set

FILLERS = [f"{a}-{b}" for a in range(8, -1, -1) for b in range(8, a - 1, -1)]

PUBLIC = {"mexican_train": True}


def hands_with(specials: list[str], stock: str = "", size: int = 15) -> list[str]:
    """Each seat's special tiles, filled up to ``size`` with fillers not named elsewhere."""
    taken = {t for text in [*specials, stock] for t in tiles(text)}
    pool = [f for f in FILLERS if tiles(f)[0] not in taken]
    out = []
    for text in specials:
        hand = text.split()
        while len(hand) < size:
            hand.append(pool.pop(0))
        out.append(" ".join(hand))
    return out


def train_start(
    specials: list[str], stock: str = "", options: Mapping[str, bool] | None = None
) -> tuple[Match, list[Event]]:
    return start("mexican-train", hands_with(specials, stock), stock=stock, options=options)


def trail(number: int, length: int = 14) -> list[Tile]:
    """A line of tiles from ``number`` (not using the double ``number``), lowest first."""
    used = {Tile.of(number, number)}
    out = []
    end = number
    for _ in range(length):
        tile = min(t for t in full_set(12) if t not in used and t.has(end))
        used.add(tile)
        out.append(tile)
        end = tile.other(end)
    return out


def quick_round(match: Match, number: int) -> int:
    """Seat 0 holds double ``number`` and a trail from it and goes out in its first turn;
    seat 1 holds the next 15 tiles. Returns seat 1's count."""
    line = trail(number)
    seat0 = [Tile.of(number, number), *line]
    seat1 = [t for t in full_set(12) if t not in seat0][:15]
    rest = [t for t in full_set(12) if t not in seat0 and t not in seat1]
    match.start_hand([seat0, seat1], rest)
    end = number
    for tile in line:
        play(match, f"{tile.written(end)}@0")
        end = tile.other(end)
    return count(seat1)


# -- set, seats, deal ------------------------------------------------------------------------


def test_mexican_train_double_twelve_set_of_91_tiles() -> None:
    tiles_ = full_set(12)
    assert len(tiles_) == 91
    assert len(set(tiles_)) == 91
    assert tiles_[-1] is Tile.of(12, 12)


def test_mexican_train_is_for_2_to_8_players() -> None:
    for players in (1, 9):
        with pytest.raises(BadOptions):
            Match("mexican-train", players)
    for players in range(2, 9):
        assert Match("mexican-train", players).players == players


@pytest.mark.parametrize(
    ("players", "size"), [(2, 15), (3, 15), (4, 15), (5, 12), (6, 12), (7, 10), (8, 10)]
)
def test_mexican_train_deal_15_each_up_to_4_players_12_for_5_or_6_10_for_7_or_8(
    players: int, size: int
) -> None:
    every = full_set(12)
    deal = [every[seat * size : (seat + 1) * size] for seat in range(players)]
    match = Match("mexican-train", players)
    events = match.start_hand(deal, every[players * size :])
    started = of_type(events, HandStarted)[0]
    assert started.counts == (size,) * players
    assert started.stock == 91 - players * size
    wrong = size + 1
    deal = [every[seat * wrong : (seat + 1) * wrong] for seat in range(players)]
    with pytest.raises(BadRecord):
        Match("mexican-train", players).start_hand(deal, every[players * wrong :])


# -- the engine ------------------------------------------------------------------------------


def test_mexican_train_holder_of_the_round_double_sets_the_engine_and_plays_first() -> None:
    match, events = train_start(["11-12", "12-12 10-12"])
    assert of_type(events, EngineSet) == [EngineSet(1, Tile.of(12, 12))]
    assert match.turn == 1
    assert Tile.of(12, 12) not in train_hand(match).hands[1]
    assert len(train_hand(match).hands[1]) == 14


def test_mexican_train_nobody_holds_the_engine_players_draw_in_turn_from_seat_0() -> None:
    pool = [str(t) for t in full_set(12) if not t.has(12)]
    hands = [" ".join(pool[0:15]), " ".join([*pool[15:29], "11-12"]), " ".join(pool[29:44])]
    stock = " ".join([*pool[44:48], "12-12"])
    match, events = start("mexican-train", hands, stock=stock)
    drew = of_type(events, Drew)
    assert [d.seat for d in drew] == [0, 1, 2, 0, 1]
    assert drew[-1].tiles == (Tile.of(12, 12),)
    assert of_type(events, EngineSet) == [EngineSet(1, Tile.of(12, 12))]
    assert match.turn == 1
    assert train_hand(match).draw_counts == [2, 2, 1]


# -- the first round of turns ----------------------------------------------------------------


def test_mexican_train_a_train_starts_with_the_engines_number_then_follows_its_open_end() -> None:
    match, _ = train_start(["12-12 11-12 10-11 9-12", "10-12 9-10"], options=PUBLIC)
    with pytest.raises(IllegalMove):
        play(match, "11-10@0")  # the engine shows 12
    play(match, "12-11@0")
    with pytest.raises(IllegalMove):
        play(match, "12-9@0")  # the train's open end is 11 now
    play(match, "11-10@0")
    assert train_hand(match).trains[0].laid == [(12, 11), (11, 10)]


def test_mexican_train_first_round_plays_as_many_tiles_as_fit_on_own_train_only() -> None:
    match, _ = train_start(["12-12 11-12 10-11 9-12", "10-12 9-10"], options=PUBLIC)
    play(match, "12-11@0")
    assert match.turn == 0  # 10-11 still fits: the turn goes on
    with pytest.raises(IllegalMove):
        play(match, "11-10@1")  # only on their own train
    with pytest.raises(IllegalMove):
        play(match, "12-9@M")  # nor on the public train
    play(match, "11-10@0")
    assert match.turn == 1  # nothing fits 10 any more
    play(match, "12-10@1")
    assert match.turn == 1
    play(match, "10-9@1")
    assert match.turn == 0  # seat 0 now has 9-12 for the public train
    assert train_hand(match).trains[0].end == 10
    assert train_hand(match).trains[1].end == 9


def test_mexican_train_first_round_nothing_fits_draw_one_play_it_and_the_turn_ends() -> None:
    match, _ = train_start(["12-12 11-12 10-12", "9-9"], stock="9-12", options=PUBLIC)
    events = play(match, "12-11@0")
    assert of_type(events, Drew) == [Drew(1, (Tile.of(9, 12),))]
    assert [str(m) for m in train_hand(match).legal_moves()] == ["12-9@1"]
    play(match, "12-9@1")
    assert match.turn == 0  # 9-9 would fit, but the drawn tile ends the turn (0 has 10-12)
    assert Tile.of(9, 9) in train_hand(match).hands[1]


def test_mexican_train_first_round_drawn_tile_that_does_not_fit_marks_the_train() -> None:
    match, _ = train_start(["12-12 11-12 10-12", ""])
    events = play(match, "12-11@0")  # then seat 0 has 10-12 for the marked train
    assert match.turn == 0
    assert of_type(events, MarkerChanged) == [MarkerChanged(1, True)]
    assert of_type(events, Passed) == [Passed(1, (12,))]
    assert train_hand(match).marked == [False, True]
    assert train_hand(match).draw_counts == [0, 1]


def test_mexican_train_first_round_doubles_need_no_satisfying() -> None:
    match, _ = train_start(["12-12 11-12 11-11", "10-12"])
    play(match, "12-11@0 11-11@0")  # seat 0 ends its turn on the double
    assert match.turn == 1
    assert train_hand(match).open_double is None
    play(match, "12-10@1")
    assert train_hand(match).trains[1].end == 10


# -- later turns -----------------------------------------------------------------------------


def test_mexican_train_from_the_second_round_one_tile_per_turn() -> None:
    match, _ = train_start(["12-12 11-12 9-12 9-10", "10-12 9-11"], options=PUBLIC)
    play(match, "12-11@0 12-10@1 12-9@M")
    assert match.turn == 1  # 9-10 fits the public train now, but one tile per turn
    assert Tile.of(9, 10) in train_hand(match).hands[0]


def test_mexican_train_public_train_option_anyone_may_play_on_it_at_m() -> None:
    match, _ = train_start(["12-12 11-12 9-12 9-10", "10-12 9-11"], options=PUBLIC)
    assert train_hand(match).public is not None
    play(match, "12-11@0 12-10@1 12-9@M")
    public = train_hand(match).public
    assert public is not None
    assert public.end == 9
    options = Match("mexican-train").options
    assert isinstance(options, MexicanTrainOptions)
    assert options.mexican_train is False
    match, _ = train_start(["12-12 11-12 9-12 9-10", "10-12"])
    assert train_hand(match).public is None
    play(match, "12-11@0")
    with pytest.raises(IllegalMove):
        play(match, "12-10@M")


def test_mexican_train_unmarked_train_of_another_player_is_refused_and_nothing_changes() -> None:
    match, _ = train_start(["12-12 11-12 9-12 9-10", "10-12"], options=PUBLIC)
    play(match, "12-11@0 12-10@1")
    with pytest.raises(IllegalMove):
        play(match, "10-9@1")
    assert match.turn == 0
    assert train_hand(match).trains[1].end == 10
    assert Tile.of(9, 10) in train_hand(match).hands[0]


def test_mexican_train_double_must_be_satisfied_by_the_player_who_played_it() -> None:
    match, _ = train_start(["12-12 11-12 10-12 10-10 9-10", ""])
    play(match, "12-11@0")  # seat 1 draws, cannot play, marks its train
    play(match, "12-10@1")  # seat 0 on the marked train
    # Seat 1 draws again and passes; seat 0 plays 10-10 and must then satisfy it.
    play(match, "10-10@1")
    assert match.turn == 0
    assert train_hand(match).open_double == "1"
    assert [str(m) for m in train_hand(match).legal_moves()] == ["10-9@1"]
    events = play(match, "10-9@1")
    assert train_hand(match).open_double is None
    assert of_type(events, Drew)[0].seat == 1  # seat 1's turn has come


def test_mexican_train_drawn_double_must_be_satisfied_else_mark_and_the_double_stays_open() -> None:
    s1 = "12-5 9-12 10-11 0-0 0-1 0-2 0-3 0-4 0-6 0-7 0-8 1-1 1-2 1-3 1-4"
    match, _ = train_start(["12-12 10-12", s1], stock="10-10", options=PUBLIC)
    events = play(match, "12-10@0 12-5@1")
    assert of_type(events, Drew) == [Drew(0, (Tile.of(10, 10),))]
    events = play(match, "10-10@0")  # then one more draw (0-5), which does not fit
    assert of_type(events, Drew) == [Drew(0, (Tile.of(0, 5),))]
    assert of_type(events, MarkerChanged) == [MarkerChanged(0, True)]
    assert train_hand(match).open_double == "0"
    assert match.turn == 1


def test_mexican_train_open_double_restricts_everyone_to_it() -> None:
    s1 = "12-5 9-12 10-11 0-0 0-1 0-2 0-3 0-4 0-6 0-7 0-8 1-1 1-2 1-3 1-4"
    match, _ = train_start(["12-12 10-12", s1], stock="10-10", options=PUBLIC)
    play(match, "12-10@0 12-5@1 10-10@0")
    # 9-12 would fit the public train, but only the open double may be played on.
    assert [str(m) for m in train_hand(match).legal_moves()] == ["10-11@0"]
    with pytest.raises(IllegalMove):
        play(match, "12-9@M")


def test_mexican_train_timeout_open_double_comes_first() -> None:
    s1 = "12-5 9-12 10-11 0-0 0-1 0-2 0-3 0-4 0-6 0-7 0-8 1-1 1-2 1-3 1-4"
    match, _ = train_start(["12-12 10-12", s1], stock="10-10", options=PUBLIC)
    play(match, "12-10@0 12-5@1 10-10@0")
    events = match.apply(1, TIMEOUT)
    assert of_type(events, Played)[0] == Played(1, Tile.of(10, 11), "10-11@0", True)


def test_mexican_train_any_player_may_play_on_a_marked_train() -> None:
    match, _ = train_start(["12-12 11-12 10-12", "9-10"])
    play(match, "12-11@0")  # seat 1 draws, cannot play, marks its train
    assert train_hand(match).marked == [False, True]
    play(match, "12-10@1")
    assert train_hand(match).trains[1].end == 10


def test_mexican_train_only_the_owner_removes_a_marker() -> None:
    match, _ = train_start(["12-12 11-12 10-12", "9-10"])
    play(match, "12-11@0")
    events = play(match, "12-10@1")  # seat 0 plays on seat 1's marked train
    assert of_type(events, MarkerChanged) == []
    assert train_hand(match).marked == [False, True]
    events = play(match, "10-9@1")  # seat 1 plays on its own train
    assert of_type(events, MarkerChanged)[0] == MarkerChanged(1, False)


def test_mexican_train_cannot_play_draws_one_and_plays_it_if_it_fits() -> None:
    match, _ = train_start(["12-12 11-12 9-12", "10-12"], stock="11-9", options=PUBLIC)
    # Seat 0 keeps 9-12 for the public train; seat 1 can play nothing in its second turn.
    play(match, "12-11@0 12-10@1 12-9@M")
    assert match.turn == 1
    assert train_hand(match).drawn_tile is Tile.of(9, 11)
    assert [str(m) for m in train_hand(match).legal_moves()] == ["9-11@M"]


# -- the clock -------------------------------------------------------------------------------


def test_mexican_train_timeout_first_tile_ascending_public_train_before_marked_trains() -> None:
    match, _ = train_start(["12-12 11-12 10-12 9-12", "", ""], options=PUBLIC)
    play(match, "12-11@0")  # seats 1 and 2 draw, cannot play, mark
    assert train_hand(match).marked == [False, True, True]
    events = match.apply(0, TIMEOUT)
    assert of_type(events, Played)[0].move == "12-9@M"


def test_mexican_train_timeout_marked_trains_by_seat() -> None:
    match, _ = train_start(["12-12", "11-12 10-12 9-12", ""])
    # Seat 0 cannot play and marks; seat 1 plays 12-11; seat 2 marks; seat 0 passes.
    play(match, "12-11@1")
    assert train_hand(match).marked == [True, False, True]
    events = match.apply(1, TIMEOUT)
    assert of_type(events, Played)[0].move == "12-9@0"


def test_mexican_train_timeout_own_train_before_public_train() -> None:
    match, _ = train_start(["12-12 11-12", ""], stock="0-0 0-1 5-12", options=PUBLIC)
    play(match, "12-11@0")  # seat 1 marks; seat 0 passes; seat 1 draws 5-12
    assert train_hand(match).drawn_tile is Tile.of(5, 12)
    events = match.apply(1, TIMEOUT)
    assert of_type(events, Played)[0].move == "12-5@1"
    assert train_hand(match).marked[1] is False


# -- end of a round, scores, the match -------------------------------------------------------


def test_mexican_train_round_ends_when_a_player_has_played_all_tiles_even_a_double() -> None:
    seat0 = "12-12 11-12 10-11 9-10 8-9 7-8 6-7 5-6 4-5 3-4 2-3 1-2 1-1 1-3 3-3"
    seat1 = "0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 2-2 4-4"
    match, _ = start("mexican-train", [seat0, seat1])
    events = play(match, "12-11@0 11-10@0 10-9@0 9-8@0 8-7@0 7-6@0 6-5@0 5-4@0 4-3@0")
    events += play(match, "3-2@0 2-1@0 1-1@0 1-3@0 3-3@0")
    result = of_type(events, HandEnded)[0].result
    assert result.ending is Ending.DOMINO
    assert result.winner == 0
    assert result.points == (0, 90)  # 0 + 1 + ... + 12 + 4 + 8


def test_mexican_train_double_blank_50_option_counts_0_0_as_50() -> None:
    seat0 = "12-12 11-12 10-11 9-10 8-9 7-8 6-7 5-6 4-5 3-4 2-3 1-2 1-1 1-3 3-3"
    seat1 = "0-0 0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 2-2 4-4"
    options = Match("mexican-train").options
    assert isinstance(options, MexicanTrainOptions)
    assert options.double_blank_50 is False
    match, _ = start("mexican-train", [seat0, seat1], options={"double_blank_50": True})
    play(match, "12-11@0 11-10@0 10-9@0 9-8@0 8-7@0 7-6@0 6-5@0 5-4@0 4-3@0")
    play(match, "3-2@0 2-1@0 1-1@0 1-3@0 3-3@0")
    result = match.log[-1].result
    assert result is not None
    assert result.points == (0, 140)


def test_mexican_train_blocked_when_every_player_in_turn_has_passed_with_the_stock_empty() -> None:
    loops0 = "12-12 0-12 0-1 1-12 2-12 2-3 3-12 4-12 4-5 5-12"
    loops1 = "6-12 6-7 7-12 8-12 8-9 9-12 10-12 10-11 11-12"
    hands = hands_with([loops0, loops1])
    match, _ = start("mexican-train", hands)
    play(match, "12-0@0 0-1@0 1-12@0 12-2@0 2-3@0 3-12@0 12-4@0 4-5@0 5-12@0")
    play(match, "12-6@1 6-7@1 7-12@1 12-8@1 8-9@1 9-12@1 12-10@1 10-11@1")
    assert match.hand_in_progress
    events = play(match, "11-12@1")
    # Every 12 is laid and both trains end in 12: nobody can ever play again.
    result = of_type(events, HandEnded)[0].result
    assert result.ending is Ending.BLOCKED
    assert result.winner is None
    assert train_hand(match).stock_left == 0
    assert train_hand(match).draw_counts == [31, 30]  # 61 tiles, seat 0 first
    assert train_hand(match).passes[-2:] == [(1, (12, 12)), (0, (12, 12))]
    # All pips (14 x 78 = 1092) but the engine (24) and the trains (102 + 174).
    assert sum(result.points) == 792
    stock = [t for t in full_set(12) if t not in {u for h in hands for u in tiles(h)}]
    assert result.points[0] == count(tiles(hands[0])[10:]) + count(stock[0::2])


def test_mexican_train_round_r_starts_with_double_13_minus_r_and_13_rounds_lowest_total_wins(
) -> None:
    match = Match("mexican-train", 2)
    total = 0
    for number in range(12, -1, -1):
        assert not match.over
        total += quick_round(match, number)
        assert train_hand(match).engine is Tile.of(number, number)
        result = match.log[-1].result
        assert result is not None
        assert result.points[0] == 0
    assert match.result is not None
    assert match.result.finished
    assert match.result.scores == (0, total)
    assert match.result.winners == (0,)


def test_mexican_train_round_with_the_wrong_double_is_not_the_engine() -> None:
    match = Match("mexican-train", 2)
    quick_round(match, 12)
    # Round 2 is played from 11-11: a seat holding 12-12 does not set it.
    others = [t for t in full_set(12) if t not in (Tile.of(11, 11), Tile.of(12, 12))]
    seat0 = [Tile.of(11, 11), *others[:14]]
    seat1 = [Tile.of(12, 12), *others[14:28]]
    rest = others[28:]
    events = match.start_hand([seat0, seat1], rest)
    assert of_type(events, EngineSet) == [EngineSet(0, Tile.of(11, 11))]


def test_a_tile_sent_to_a_line_end_is_refused_naming_the_trains() -> None:
    """Mexican Train has trains, not ends: ``@L``/``@R`` is refused with a reason."""
    for seed in range(20):
        match = Match("mexican-train", 2, rng=Random(seed))
        match.deal_hand()
        hand = match.hand
        assert hand is not None and hand.turn is not None
        for tile in hand.hands[hand.turn]:
            for end in ("L", "R"):
                with pytest.raises(IllegalMove) as refused:
                    match.apply(None, parse_move(f"{tile}@{end}", 12))
                assert refused.value.reason == "no_such_train", (seed, tile, end)
