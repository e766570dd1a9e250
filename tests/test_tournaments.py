"""The pure rules of tournaments (PROTOCOL.md, "Tournaments"): entrants, Swiss, round robin
and knockout pairings, and the standings' tie-breaks."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from kabes.rules import VARIANTS
from kabes.tournaments import (
    Entry,
    Pairing,
    Result,
    Round,
    form_entrants,
    knockout_round,
    knockout_rounds,
    round_robin_round,
    round_robin_rounds,
    standings,
    swiss_round,
    unplayable,
)
from kabes.tournaments.swiss import points_and_meetings


def finish(round_: Round, rng: random.Random) -> Round:
    """The round with every table won by one of its entrants at random."""
    tables = []
    for table in round_.tables:
        winner = rng.choice(table.entrants)
        scores = tuple(100 if e == winner else rng.randrange(100) for e in table.entrants)
        hands = tuple(rng.randrange(5) for _ in table.entrants)
        tables.append(Pairing(table.entrants, Result((winner,), scores, hands)))
    return Round(tuple(tables), round_.byes)


def seated(round_: Round) -> list[int]:
    return [e for t in round_.tables for e in t.entrants] + list(round_.byes)


def repeat_free_exists(
    entrants: list[int], played: list[Round], sides: int
) -> bool:
    """Brute force: a grouping of ``entrants`` into tables of ``sides`` meeting nobody twice,
    the byes to entrants with the fewest byes (the Swiss's hard rule)."""
    _, byes, met = points_and_meetings(played)
    left = len(entrants) % sides
    fewest = sorted(byes[e] for e in entrants)[:left]
    for bye_set in combinations(entrants, left):
        if sorted(byes[e] for e in bye_set) != fewest:
            continue
        if _fits([e for e in entrants if e not in bye_set], sides, met):
            return True
    return False


def _fits(rest: list[int], sides: int, met: set[frozenset[int]]) -> bool:
    if not rest:
        return True
    first, others = rest[0], rest[1:]
    for picks in combinations(others, sides - 1):
        table = (first, *picks)
        if any(frozenset(p) in met for p in combinations(table, 2)):
            continue
        if _fits([e for e in others if e not in picks], sides, met):
            return True
    return False


# Entrants ------------------------------------------------------------------------------


def test_a_pair_is_an_entrant_once_each_has_named_the_other() -> None:
    entries = [Entry(1, 2), Entry(3, 4), Entry(2, 1), Entry(4, 5)]
    assert form_entrants(entries, teams=True) == [(1, 2)]


def test_a_player_may_change_partner_until_paired_and_a_pair_stands() -> None:
    entries = [Entry(1, 2), Entry(1, 3), Entry(3, 1), Entry(2, 1)]
    assert form_entrants(entries, teams=True) == [(1, 3)]


def test_without_teams_each_player_is_an_entrant_once_in_order_of_entry() -> None:
    entries = [Entry(5), Entry(2, 9), Entry(5)]
    assert form_entrants(entries, teams=False) == [(5,), (2,)]


# Formats -------------------------------------------------------------------------------


def test_round_robin_and_knockout_are_two_sides_a_table_only() -> None:
    haitian = VARIANTS["haitian"]
    assert unplayable("round_robin", haitian, 3) is not None
    assert unplayable("knockout", haitian, 4) is not None
    assert unplayable("swiss", haitian, 4) is None
    assert unplayable("knockout", haitian, 2) is None
    assert unplayable("round_robin", VARIANTS["partnership"], 4) is None
    assert unplayable("league", haitian, 2) is not None


# Swiss ---------------------------------------------------------------------------------


def test_swiss_first_round_pairs_in_entry_order_and_the_last_gets_the_bye() -> None:
    first = swiss_round([1, 2, 3, 4, 5], [])
    assert [t.entrants for t in first.tables] == [(1, 2), (3, 4)]
    assert first.byes == (5,)


def test_swiss_pairs_by_points() -> None:
    entrants = [1, 2, 3, 4]
    one = Round((Pairing((1, 2), Result((2,), (0, 1), (0, 1))),
                 Pairing((3, 4), Result((4,), (0, 1), (0, 1)))))
    two = swiss_round(entrants, [one])
    assert [t.entrants for t in two.tables] == [(2, 4), (1, 3)]


def test_swiss_backtracks_rather_than_repeat_a_meeting() -> None:
    # 1-2 and 3-4 met; greedy in score order (1, 3, 2, 4) would pair 1-3 then 2-4 fine,
    # but with 1-3 met too, only 1-4 / 2-3 avoids a repeat.
    played = [Round((Pairing((1, 2)), Pairing((3, 4)))), Round((Pairing((1, 3)),
                                                                Pairing((2, 4))))]
    nxt = swiss_round([1, 2, 3, 4], played)
    assert sorted(sorted(t.entrants) for t in nxt.tables) == [[1, 4], [2, 3]]


def test_swiss_groups_tables_of_three_with_the_rest_on_byes() -> None:
    nxt = swiss_round(list(range(1, 9)), [], sides=3)
    assert [t.entrants for t in nxt.tables] == [(1, 2, 3), (4, 5, 6)]
    assert nxt.byes == (7, 8)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 11), st.data(), st.sampled_from([2, 2, 3]))
def test_swiss_never_repeats_while_another_pairing_exists(
    count: int, data: st.DataObject, sides: int
) -> None:
    """Every round seats each entrant once (a table or a bye), meets nobody twice unless no
    repeat-free round exists, and gives byes to different entrants while one is left."""
    if count < sides:
        count = sides
    entrants = list(range(1, count + 1))
    rounds = data.draw(st.integers(1, min(count - 1, 6) if count > 2 else 1))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    played: list[Round] = []
    for _ in range(rounds):
        nxt = swiss_round(entrants, played, sides)
        assert sorted(seated(nxt)) == entrants
        assert all(len(t.entrants) == sides for t in nxt.tables)
        _, _, met = points_and_meetings(played)
        repeats = any(frozenset(p) in met for t in nxt.tables
                      for p in combinations(t.entrants, 2))
        if repeats:
            assert not repeat_free_exists(entrants, played, sides)
        played.append(finish(nxt, rng))
    byes = [b for r in played for b in r.byes]
    if len(byes) <= count:
        assert len(byes) == len(set(byes))


def test_a_large_swiss_pairs_at_once_without_repeats() -> None:
    rng = random.Random(7)
    entrants = list(range(1, 1001))
    played: list[Round] = []
    for _ in range(9):
        nxt = swiss_round(entrants, played)
        _, _, met = points_and_meetings(played)
        assert not any(frozenset(t.entrants) in met for t in nxt.tables)
        played.append(finish(nxt, rng))


# Round robin ---------------------------------------------------------------------------


@given(st.integers(2, 16))
def test_round_robin_meets_everyone_once(count: int) -> None:
    entrants = list(range(1, count + 1))
    meetings: list[frozenset[int]] = []
    byes: list[int] = []
    for number in range(1, round_robin_rounds(count) + 1):
        r = round_robin_round(entrants, number)
        assert sorted(seated(r)) == entrants
        meetings.extend(frozenset(t.entrants) for t in r.tables)
        byes.extend(r.byes)
    assert sorted(meetings, key=sorted) == sorted(
        (frozenset(p) for p in combinations(entrants, 2)), key=sorted)
    assert sorted(byes) == (entrants if count % 2 else [])


# Knockout ------------------------------------------------------------------------------


@given(st.integers(2, 40), st.integers(0, 2**32))
def test_knockout_halves_until_one_is_left(count: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = list(range(1, count + 1))
    played: list[Round] = []
    left = count
    for _ in range(knockout_rounds(count)):
        r = knockout_round(entrants, played)
        assert len(seated(r)) == left
        played.append(finish(r, rng))
        left = len(r.byes) + len(r.tables)
        assert left & (left - 1) == 0  # a power of two after every round
    assert left == 1


def test_knockout_byes_go_to_the_top_seeds() -> None:
    first = knockout_round([1, 2, 3, 4, 5, 6], [])
    assert first.byes == (1, 2)
    assert [t.entrants for t in first.tables] == [(3, 6), (4, 5)]


def test_knockout_a_shared_win_sends_on_the_better_seed() -> None:
    played = [Round((Pairing((1, 2), Result((1, 2), (5, 5), (1, 1))),
                     Pairing((3, 4), Result((4,), (0, 9), (0, 2)))))]
    final = knockout_round([1, 2, 3, 4], played)
    assert [t.entrants for t in final.tables] == [(1, 4)]


# Standings -----------------------------------------------------------------------------


def won(a: int, b: int, hands: tuple[int, int] = (1, 0), scores: tuple[int, int] = (1, 0),
        ) -> Pairing:
    return Pairing((a, b), Result((a,), scores, hands))


def test_a_win_and_a_bye_are_a_point_each_and_a_loss_none() -> None:
    rows = standings([1, 2, 3], [Round((won(1, 2),), (3,))], penalties=False)
    assert {r.entrant: r.points for r in rows} == {1: 1, 2: 0, 3: 1}
    assert {r.entrant: r.played for r in rows} == {1: 1, 2: 1, 3: 0}


def test_ties_are_broken_by_buchholz_first() -> None:
    # 1 and 3 both have one point; 1 beat 2 (who then won), 3 beat 4 (who then lost).
    rounds = [Round((won(1, 2, hands=(1, 5)), won(3, 4, hands=(9, 0)))),
              Round((won(2, 4), won(3, 1)))]
    rows = standings([1, 2, 3, 4], rounds, penalties=False)
    assert [r.entrant for r in rows][:1] == [3]
    by = {r.entrant: r for r in rows}
    assert (by[1].points, by[2].points) == (1, 1)
    assert by[1].buchholz == by[2].points + by[3].points
    assert by[2].buchholz == by[1].points + by[4].points


def test_then_hands_won_then_difference() -> None:
    rounds = [Round((won(1, 2, hands=(3, 0), scores=(10, 0)),
                     won(3, 4, hands=(3, 0), scores=(50, 0))))]
    rows = standings([1, 2, 3, 4], rounds, penalties=False)
    assert [r.entrant for r in rows] == [3, 1, 2, 4]
    rounds = [Round((won(1, 2, hands=(4, 0)), won(3, 4, hands=(3, 0), scores=(99, 0))))]
    assert [r.entrant for r in standings([1, 2, 3, 4], rounds, False)][:2] == [1, 3]


def test_penalties_count_the_difference_the_other_way() -> None:
    # Haitian with 3 players scores penalties: fewer taken than given is better.
    table = Pairing((1, 2, 3), Result((1,), (2, 8, 4), (3, 1, 1)))
    rows = {r.entrant: r for r in standings([1, 2, 3], [Round((table,))], penalties=True)}
    assert rows[1].difference == (8 + 4) - 2
    assert rows[2].difference == (2 + 4) - 8
    assert VARIANTS["haitian"].penalties(3) and not VARIANTS["haitian"].penalties(2)


# Results from records ------------------------------------------------------------------


def test_a_records_parties_are_the_tables_entrants_in_order() -> None:
    from kabes.tournaments.results import result_of, seat_order

    record = {"hands": [{"result": {"winner": 1}}, {"result": {"winner": 1}},
                        {"result": {"winner": 0}}, {"result": {"winner": None}}],
              "result": {"finished": True, "winners": [1], "scores": [40, 104]}}
    assert result_of(record, (7, 3)) == Result((3,), (40, 104), (1, 2))
    assert seat_order([(1, 2), (3, 4)], teams=True) == [1, 3, 2, 4]
    assert seat_order([(5,), (6,), (7,)], teams=False) == [5, 6, 7]
