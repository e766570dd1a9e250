"""A copy of a hand shares no mutable object with the original, in every variant, and playing
on in the copy changes nothing in the original (kabes.copying)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from random import Random
from typing import Any

import pytest

from kabes.copying import Fields, copy_state
from kabes.hand import Hand
from kabes.match import Match
from kabes.rules import VARIANTS, get_rules

SETUPS = [(v, p) for v in VARIANTS for p in get_rules(v).seat_counts if p <= 4]


def mutable_objects(root: Any) -> dict[int, Any]:
    """Every mutable object reachable from ``root``, by id."""
    found: dict[int, Any] = {}
    stack = [root]
    while stack:
        value = stack.pop()
        if isinstance(value, (list, dict, set, bytearray)):
            if id(value) in found:
                continue
            found[id(value)] = value
            stack += list(value.values()) if isinstance(value, dict) else list(value)
        elif isinstance(value, (tuple, frozenset)):
            stack += list(value)
        elif is_dataclass(value) and not isinstance(value, type):
            if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
                found[id(value)] = value
            stack += [getattr(value, f.name) for f in fields(value)]
        elif hasattr(value, "__dict__"):
            found[id(value)] = value
            stack += list(vars(value).values())
    return found


def snapshot(hand: Hand) -> str:
    """Everything in a hand, written out, to compare before and after."""
    return repr(sorted(vars(hand).items()))


def hand_in_play(variant: str, players: int, seed: int) -> Hand:
    """A hand of ``variant`` some moves in, played at random."""
    rng = Random(seed)
    match = Match(variant, players, rng=rng)
    match.deal_hand()
    hand = match.hand
    assert hand is not None
    for _ in range(rng.randrange(1, 12)):
        moves = hand.legal_moves()
        if hand.end is not None or not moves:
            break
        hand.apply(rng.choice(moves))
    return hand


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_a_copy_shares_no_mutable_object_with_the_original(variant: str, players: int) -> None:
    for seed in range(5):
        hand = hand_in_play(variant, players, seed)
        copy = hand.copy()
        assert snapshot(copy) == snapshot(hand)
        shared = mutable_objects(hand).keys() & mutable_objects(copy).keys()
        assert not shared, f"shared: {[type(mutable_objects(hand)[i]) for i in shared]}"


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_playing_on_in_a_copy_changes_nothing_in_the_original(variant: str, players: int) -> None:
    for seed in range(5):
        hand = hand_in_play(variant, players, seed)
        before = snapshot(hand)
        copy = hand.copy()
        rng = Random(seed)
        while copy.end is None:
            copy.apply(rng.choice(copy.legal_moves()))
        assert snapshot(hand) == before


def test_a_hand_with_an_attribute_not_declared_for_copying_is_refused() -> None:
    hand = hand_in_play("plaza", 2, 0)
    hand.scratch = []  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="declare how to copy scratch"):
        hand.copy()


def test_lists_and_board_records_are_copied_and_immutable_values_shared() -> None:
    class Thing:
        def __init__(self) -> None:
            self.name = "x"
            self.items = [1, 2]
            self.rows = [[1], [2]]

    thing = Thing()
    copy = copy_state(thing, Fields(shared=("name",), lists=("items",), nested=("rows",)))
    assert copy.name is thing.name
    assert copy.items == thing.items and copy.items is not thing.items
    assert copy.rows == thing.rows
    assert all(a is not b for a, b in zip(copy.rows, thing.rows, strict=True))
