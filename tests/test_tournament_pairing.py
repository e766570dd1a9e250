"""Pairing always gives a valid round, at any size a tournament may have (PROTOCOL.md,
"Tournaments are bounded"), and entrants fold one entry at a time to what the whole list
of entries makes."""

from __future__ import annotations

import random
from collections import Counter

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
    sides_per_table,
    swiss_round,
)
from kabes.tournaments.knockout import still_in
from kabes.tournaments.swiss import bye_choices, points_and_meetings

SEATINGS = sorted({sides_per_table(rules, n) for rules in VARIANTS.values()
                   for n in rules.seat_counts})
"""Every number of sides a table of some variant seats (2 to 8)."""


def finish(round_: Round, rng: random.Random) -> Round:
    """The round with every table won by one of its entrants (now and then two) at random."""
    tables = []
    for table in round_.tables:
        winners = tuple(rng.sample(table.entrants, 1 + (rng.random() < 0.1)))
        scores = tuple(rng.randrange(100) for _ in table.entrants)
        hands = tuple(rng.randrange(5) for _ in table.entrants)
        tables.append(Pairing(table.entrants, Result(winners, scores, hands)))
    return Round(tuple(tables), round_.byes)


def check_valid(round_: Round, entrants: list[int], sides: int) -> None:
    """Every entrant once, every table full, no more byes than the tables leave over."""
    seated = [e for t in round_.tables for e in t.entrants] + list(round_.byes)
    assert sorted(seated) == entrants
    assert all(len(t.entrants) == sides for t in round_.tables)
    assert len(round_.byes) == len(entrants) % sides


def test_every_variants_seat_count_is_covered() -> None:
    assert SEATINGS == [2, 3, 4, 5, 6, 7, 8]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SEATINGS), st.integers(0, 300), st.integers(0, 5),
       st.integers(0, 2**32))
def test_a_swiss_round_is_always_valid_and_its_byes_fair(
    sides: int, extra: int, rounds: int, seed: int
) -> None:
    """Any count of entrants from a table's worth to 300, any seat count, after up to five
    rounds: every round seats everyone once at full tables with only the byes needed, and
    the byes go to the entrants with the fewest byes."""
    entrants = list(range(1, sides + extra + 1))
    rng = random.Random(seed)
    played: list[Round] = []
    for _ in range(rounds + 1):
        nxt = swiss_round(entrants, played, sides)
        check_valid(nxt, entrants, sides)
        _, byes, _ = points_and_meetings(played)
        fewest = sorted(byes[e] for e in entrants)[:len(nxt.byes)]
        assert sorted(byes[e] for e in nxt.byes) == fewest
        played.append(finish(nxt, rng))
    given_byes = Counter(b for r in played for b in r.byes)
    assert max(given_byes.values(), default=0) - min(
        (given_byes[e] for e in entrants), default=0) <= 1


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SEATINGS), st.integers(0, 60), st.integers(0, 2**32))
def test_the_first_bye_choice_is_the_lowest_placed_among_the_fewest_byes(
    sides: int, extra: int, seed: int
) -> None:
    rng = random.Random(seed)
    order = list(range(1, sides + extra + 1))
    rng.shuffle(order)
    byes = Counter({e: rng.randrange(3) for e in order})
    count = len(order) % sides
    first = next(bye_choices(order, byes, count))
    lowest = sorted(reversed(order), key=lambda e: byes[e])[:count]
    assert sorted(first) == sorted(lowest)


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 256))
def test_a_round_robin_of_up_to_256_is_valid_every_round(count: int) -> None:
    entrants = list(range(1, count + 1))
    met: set[frozenset[int]] = set()
    for number in range(1, round_robin_rounds(count) + 1):
        nxt = round_robin_round(entrants, number)
        seated = [e for t in nxt.tables for e in t.entrants] + list(nxt.byes)
        assert sorted(seated) == entrants
        assert len(nxt.byes) == count % 2
        for table in nxt.tables:
            assert frozenset(table.entrants) not in met
            met.add(frozenset(table.entrants))
    assert len(met) == count * (count - 1) // 2


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 256), st.integers(0, 2**32))
def test_a_knockout_of_up_to_256_is_valid_every_round(count: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = list(range(1, count + 1))
    played: list[Round] = []
    for _ in range(knockout_rounds(count)):
        left = still_in(entrants, played)
        nxt = knockout_round(entrants, played)
        seated = [e for t in nxt.tables for e in t.entrants] + list(nxt.byes)
        assert sorted(seated) == left
        assert all(len(t.entrants) == 2 for t in nxt.tables)
        played.append(finish(nxt, rng))
    assert len(still_in(entrants, played)) == 1


def entrants_by_the_whole_list(entries: list[Entry], teams: bool) -> list[tuple[int, ...]]:
    """The entrants as every entry before was read again for each one (the definition the
    one-at-a-time fold must keep)."""
    if not teams:
        seen: list[tuple[int, ...]] = []
        for entry in entries:
            if (entry.player,) not in seen:
                seen.append((entry.player,))
        return seen
    named: dict[int, int | None] = {}
    paired: set[int] = set()
    formed: list[tuple[int, ...]] = []
    for entry in entries:
        if entry.player in paired:
            continue
        named[entry.player] = entry.partner
        other = entry.partner
        if (other is not None and other != entry.player and other not in paired
                and named.get(other) == entry.player):
            formed.append((other, entry.player))
            paired.update((other, entry.player))
    return formed


@given(st.lists(st.tuples(st.integers(1, 12), st.none() | st.integers(1, 12)), max_size=80),
       st.booleans())
def test_entrants_fold_one_entry_at_a_time_to_the_same_as_the_whole_list(
    raw: list[tuple[int, int | None]], teams: bool
) -> None:
    entries = [Entry(p, q) for p, q in raw]
    assert form_entrants(entries, teams) == entrants_by_the_whole_list(entries, teams)
