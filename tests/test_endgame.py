"""The expert's exact search of a hand's last tiles (``kabes.ai.endgame``)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kabes.ai import endgame, fastline
from kabes.ai.boards import line
from kabes.ai.expert import search, value
from kabes.ai.skilled import Skilled
from kabes.line_hand import LineHand
from kabes.match import Match
from kabes.moves import Play
from kabes.results import Ending
from kabes.rules import MatchState, Rules
from kabes.tiles import Tile, parse_tile
from kabes.views import View, view

TWO_SIDED = [
    ("partnership", 4),
    ("plaza", 2),
    ("plaza-partners", 4),
    ("haitian", 2),
    ("haitian-partners", 4),
]


def best_by_engine(hand: LineHand, rules: Rules, state: MatchState, party: int) -> float:
    """Every line of play the engine allows, tried one by one: the side of ``party`` picks
    its best end, the other side its worst."""
    if hand.end is not None:
        return value(rules, state, hand.end, party)
    assert hand.turn is not None
    worths = []
    for move in hand.legal_moves():
        after = hand.copy()
        after.apply(move)
        worths.append(best_by_engine(after, rules, state, party))
    return max(worths) if state.party(hand.turn) == party else min(worths)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TWO_SIDED), st.integers(0, 2**32), st.integers(2, 7))
def test_the_last_tiles_are_searched_to_the_end_best_for_the_searching_side(
    setup: tuple[str, int], seed: int, tiles_left: int
) -> None:
    """From a real hand played down to a few tiles, the exact search reaches an end worth
    what the engine's own moves, all tried, give the side to move when both sides play
    their best (draws from the stock included)."""
    variant, players = setup
    rng = Random(seed)
    match = Match(variant, players, rng=Random(seed))
    target = match.state.options.target or 100
    match.state.scores = [rng.randrange(0, target) for _ in range(match.state.parties)]
    match.deal_hand()
    hand = match.hand
    assert isinstance(hand, LineHand)
    while hand.end is None and sum(map(len, hand.hands)) > tiles_left:
        hand.apply(rng.choice(hand.legal_moves()))
    if hand.end is not None or hand.line is None:
        return
    seat = hand.turn
    assert seat is not None
    party = match.state.party(seat)
    ours = sum(1 << s for s in range(players) if match.state.party(s) == party)
    teams = match.state.teams and match.rules.counts_by_party

    def worth(end: fastline.BitEnd) -> float:
        return value(match.rules, match.state, fastline.hand_end(end, hand.leader), party)

    left, right = hand.line.ends
    last = hand.last_player
    assert last is not None
    searched = endgame.solve(
        [fastline.mask(h) for h in hand.hands],
        left,
        right,
        seat,
        [fastline.BIT[t] for t in hand.stock[hand.drawn :]],
        last,
        ours,
        worth,
        nodes=10**9,
    )
    assert searched is not None
    assert worth(searched) == best_by_engine(hand, match.rules, match.state, party)
    assert fastline.summary(searched, hand.leader, teams)[3] == hand.leader


def test_a_search_past_its_node_limit_gives_way_to_a_random_playout() -> None:
    """Two hands of six with many choices could take a search millions of positions: past
    ``endgame.NODES`` it gives up, and the world is played out at random instead, within
    the move's budget."""
    hands = [fastline.mask(h) for h in _two_hands()]
    worth = lambda end: float(end[1])  # noqa: E731
    assert endgame.solve(list(hands), 6, 6, 1, [], 0, 0b01, worth, nodes=5) is None
    assert endgame.solve(list(hands), 6, 6, 1, [], 0, 0b01, worth, nodes=10**9) is not None

    def too_big(h: list[int], left: int, right: int, turn: int, last: int) -> None:
        return None

    opening = Play(parse_tile("6-6"))
    end = fastline.finish_after(
        [hands[0] | fastline.BIT[parse_tile("6-6")], hands[1]],
        None,
        0,
        opening,
        [],
        Random(1).random,
        0.75,
        too_big,
    )
    assert end[0] in (Ending.DOMINO, Ending.BLOCKED)


def _two_hands() -> list[list[Tile]]:
    return [
        [parse_tile(t) for t in ["6-5", "5-4", "4-3", "3-2", "2-1", "1-0"]],
        [parse_tile(t) for t in ["6-4", "5-3", "4-2", "3-1", "2-0", "6-1"]],
    ]


def _late_view(seed: int) -> View:
    """Seat 0's first choice, in a partnership hand of skilled players, once every hand
    holds few enough tiles for the exact search (``endgame.TILES`` after the move)."""
    match = Match("partnership", 4, rng=Random(seed))
    match.deal_hand()
    players = [Skilled(Random(seed + s)) for s in range(4)]
    while match.hand_in_progress:
        seat = match.turn
        assert seat is not None
        seen = view(match, seat)
        if seat == 0 and sum(seen.counts) - 1 <= endgame.TILES and len(seen.legal) > 1:
            return seen
        match.apply(seat, players[seat].choose(seen))
    raise AssertionError(f"seed {seed}: the hand ended before the position was reached")


def _solves(monkeypatch: pytest.MonkeyPatch, gives_up: bool = False) -> list[tuple[int, ...]]:
    """Every exact search the line's worlds ask for, recorded (hands, ends, seat to move);
    with ``gives_up`` each answers that it gave up."""
    calls: list[tuple[int, ...]] = []
    solve = endgame.solve

    def recorded(
        hands: list[int], left: int, right: int, turn: int, *rest: Any
    ) -> fastline.BitEnd | None:
        calls.append((*hands, left, right, turn))
        return None if gives_up else solve(hands, left, right, turn, *rest)

    monkeypatch.setattr("kabes.ai.boards.line.endgame.solve", recorded)
    return calls


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_world_searched_exactly_is_searched_once_in_a_move(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Late in a hand the walk through likely worlds meets the same world again and again
    (most of its steps are refused there); an exact search plays no chances, so a world met
    again is looked up, not searched again: no search is asked for twice."""
    seen = _late_view(seed)
    calls = _solves(monkeypatch)
    worlds = 400
    search(seen, list(seen.legal), seed, 60.0, worlds)
    assert len(calls) == len(set(calls))
    assert len(calls) < worlds * len(seen.legal)  # worlds were met again, and looked up


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_looking_up_a_world_searched_before_changes_no_value(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same search with every world searched afresh values every move the same."""
    seen = _late_view(seed)
    remembered = search(seen, list(seen.legal), seed, 60.0, 300)
    forgetting = property(lambda self: {}, lambda self, value: None)
    monkeypatch.setattr(line.LineTactics, "_solved", forgetting)
    assert search(seen, list(seen.legal), seed, 60.0, 300) == remembered


def test_a_world_whose_exact_search_gave_up_is_not_remembered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A world whose search gave up was played out at random, one chance among many: met
    again, it is searched (and played out) again."""
    seen = _late_view(1)
    calls = _solves(monkeypatch, gives_up=True)
    worlds = 200
    search(seen, list(seen.legal), 1, 60.0, worlds)
    assert len(calls) == worlds * len(seen.legal)
