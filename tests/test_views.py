"""A seat's view hides exactly what the seat may not see, and shows the rest."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deals import SEATINGS, train_hand
from kabes.errors import BadOptions
from kabes.events import Dealt, Drew
from kabes.match import Match
from kabes.tiles import Tile
from kabes.views import view


def walk(variant: str, players: int, seed: int, steps: int) -> Match:
    match = Match(variant, players, rng=Random(seed))
    rng = Random(seed + 1)
    match.deal_hand()
    for _ in range(steps):
        if not match.hand_in_progress:
            break
        hand = match.hand
        assert hand is not None
        match.apply(None, rng.choice(hand.legal_moves()))
    return match


def tiles_in(value: object) -> set[Tile]:
    """Every tile reachable from ``value``: the fields of a view, nested."""
    if isinstance(value, Tile):
        return {value}
    if is_dataclass(value) and not isinstance(value, type):
        return set().union(*(tiles_in(getattr(value, f.name)) for f in fields(value)))
    if isinstance(value, tuple | list):
        return set().union(*(tiles_in(v) for v in value))
    return set()


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SEATINGS), st.integers(0, 10_000), st.integers(0, 60))
def test_a_view_never_holds_another_seats_hidden_tiles(
    setup: tuple[str, int], seed: int, steps: int
) -> None:
    match = walk(*setup, seed=seed, steps=steps)
    hand = match.hand
    assert hand is not None
    for seat in range(match.players):
        seen = view(match, seat)
        assert seen.hand == tuple(hand.hands[seat])
        assert seen.counts == tuple(len(h) for h in hand.hands)
        if hand.end is None:
            assert seen.revealed is None
            others = {t for s, h in enumerate(hand.hands) if s != seat for t in h}
            stock = set(hand.stock[hand.drawn :])
            hidden = (others | stock) - {seen.forced_lead}  # a forced lead is announced
            assert not tiles_in(seen) & hidden
        else:
            assert seen.revealed == tuple(tuple(h) for h in hand.hands)


@pytest.mark.parametrize(("variant", "players"), SEATINGS)
def test_only_the_seat_to_move_sees_legal_moves(variant: str, players: int) -> None:
    match = walk(variant, players, seed=3, steps=5)
    for seat in range(players):
        seen = view(match, seat)
        if seat == match.turn:
            assert match.hand is not None
            assert seen.legal == tuple(match.hand.legal_moves())
            assert seen.my_turn
        else:
            assert seen.legal == ()


def test_a_view_shows_passes_with_their_numbers_and_draw_counts() -> None:
    for seed in range(200):
        match = walk("haitian", 2, seed=seed, steps=40)
        hand = match.hand
        assert hand is not None
        if hand.passes and any(hand.draw_counts):
            seen = view(match, 1)
            assert seen.passes == tuple(hand.passes)
            assert seen.draws == tuple(hand.draw_counts)
            return
    pytest.fail("no seed gave both a pass and a draw")


def test_private_events_go_only_to_their_seat() -> None:
    match = Match("haitian", 2, rng=Random(9))
    events = match.deal_hand()
    dealt = [e for e in events if isinstance(e, Dealt)]
    assert [e.to for e in dealt] == [0, 1]
    rng = Random(1)
    drew: list[Drew] = []
    while match.hand_in_progress and not drew:
        hand = match.hand
        assert hand is not None
        events = match.apply(None, rng.choice(hand.legal_moves()))
        drew = [e for e in events if isinstance(e, Drew)]
    assert drew and all(e.to == e.seat for e in drew)


def test_a_view_of_a_seat_not_at_the_table_is_refused() -> None:
    match = Match("plaza", 2, rng=Random(1))
    with pytest.raises(BadOptions, match="seat 2 is not at this table"):
        view(match, 2)


def test_mexican_train_view_shows_trains_markers_and_engine() -> None:
    match = walk("mexican-train", 4, seed=2, steps=30)
    seen = view(match, 0)
    hand = train_hand(match)
    assert seen.engine is not None and seen.engine.is_double
    assert [t.owner for t in seen.trains] == [0, 1, 2, 3]
    assert [t.marked for t in seen.trains] == hand.marked
    assert seen.line is None
