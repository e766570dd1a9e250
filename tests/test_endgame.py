"""The expert's exact search of a hand's last tiles (``kabes.ai.endgame``)."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from kabes.ai import endgame, fastline
from kabes.ai.expert import value
from kabes.line_hand import LineHand
from kabes.match import Match
from kabes.moves import Play
from kabes.results import Ending
from kabes.rules import MatchState, Rules
from kabes.tiles import Tile, parse_tile

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
