"""What the computer players make of Mexican Train's trains (see kabes.ai.boards.base).

The skilled player plans the longest train from its hand, plays doubles only with a
follow-up, and sheds heavy tiles that are not in its plan on marked trains and the public
train. The expert rebuilds a round in each world it deals (``kabes.ai.worlds``) and plays it
out on bit sets (``kabes.ai.fasttrain``).
"""

from __future__ import annotations

from random import Random

from kabes.ai import fasttrain
from kabes.ai.boards.base import Judge, Playout, Searched, Tactics
from kabes.ai.features import OUT, Feature
from kabes.ai.worlds import deal_world
from kabes.moves import Play
from kabes.tiles import Tile
from kabes.trains import Train, TrainHand
from kabes.views import View

CHAIN_SEARCH_LIMIT = 1500
"""Trains tried in the search for the longest one (:func:`longest_train`): a hand of many
fitting tiles holds more runs than a move can afford to try."""


class TrainTactics(Tactics):
    """A train per seat from the engine, markers, a public train, open doubles."""

    name = "trains"

    def follow(self, view: View, move: Play) -> int:
        """No tie-break on trains: every tile in hand keeps its place."""
        return 0

    def judge(self, view: View) -> Judge:
        """:func:`train_features`, with the seat's planned train worked out once."""
        own = next(t for t in view.trains if t.owner == view.seat)
        plan = longest_train(own.end, list(view.hand))
        return lambda seen, move: train_features(seen, move, plan)

    def play_world(self, playout: Playout) -> Searched:
        """The round rebuilt in one world (train plays are not read),
        and each move played out from a copy of it. A round's end is scored whole: its
        penalties read every tile (the 0-0 costs 50)."""
        rng = playout.rng
        world = rebuild_trains(playout.view, rng)
        ends = []
        for move in playout.moves:
            hand = world.copy()
            hand.apply(move)
            ends.append(hand.end or fasttrain.finish(hand, rng.random, playout.greedy))
        return Searched([None] * len(ends), ends.__getitem__)


def rebuild_trains(view: View, rng: Random) -> TrainHand:
    """An engine round in the position a Mexican Train view shows, in one possible world.
    (Line games need no engine hand: the expert plays their worlds on bit sets.)"""
    hands, stock = deal_world(view, rng)
    assert view.engine is not None
    public = any(t.owner is None for t in view.trains)
    hand = TrainHand(hands, stock, view.engine, public)
    for train in view.trains:
        rebuilt = Train(train.end, list(train.laid))
        if train.owner is None:
            hand.public = rebuilt
        else:
            hand.trains[train.owner] = rebuilt
            hand.marked[train.owner] = train.marked
    hand.open_double = view.open_double
    hand.first_turn_done = list(view.first_turns_done)
    hand.drew_this_turn = view.drew_this_turn
    if view.drew_this_turn and view.legal:
        hand.drawn_tile = view.legal[0].tile
    hand.empty_passes = view.empty_passes
    assert view.leader is not None
    hand.leader = view.leader
    hand.turn = view.turn
    hand.draw_counts = list(view.draws)
    return hand


def train_features(view: View, move: Play, plan: list[Tile]) -> list[Feature]:
    """Why ``move`` is good or bad in Mexican Train, given the seat's planned train."""
    tile = move.tile
    rest = [t for t in view.hand if t is not tile]
    if not rest:
        return [Feature(OUT + tile.value, f"{tile} is your last tile: you go out")]
    own = str(view.seat)
    by_place = {t.place: t for t in view.trains}
    features = [Feature(tile.value * 0.3, f"{tile} sheds {tile.value} pips")]
    if view.open_double is not None:
        features.append(Feature(tile.value * 0.5, f"satisfies the open double with {tile}"))
        return features
    if move.at == own:
        if plan and tile is plan[0]:
            features.append(Feature(5.0, f"{tile} starts the longest train you can build"))
        elif tile in plan:
            features.append(Feature(-1.0, f"{tile} breaks your planned train"))
        if by_place[own].marked:
            features.append(Feature(4.0, "takes the marker off your train"))
    else:
        where = "the public train" if move.at == "M" else f"seat {move.at}'s marked train"
        if tile in plan:
            features.append(Feature(-4.0, f"{tile} belongs to your own train"))
        else:
            features.append(
                Feature(2.0 + tile.value * 0.4, f"sheds {tile}, not in your plan, on {where}")
            )
    if tile.is_double and view.first_turns_done[view.seat]:
        follow = [t for t in rest if t.has(tile.low)]
        if follow:
            features.append(Feature(4.0, f"{tile} is a double you can follow with {follow[0]}"))
        else:
            features.append(Feature(-6.0, f"{tile} is a double you could not satisfy"))
    return features


def longest_train(end: int, hand: list[Tile]) -> list[Tile]:
    """The longest run of tiles from ``hand`` that can follow ``end`` (heavier on a tie)."""
    best: list[Tile] = []
    best_key = (0, 0)
    budget = [CHAIN_SEARCH_LIMIT]

    def grow(number: int, path: list[Tile], left: list[Tile]) -> None:
        nonlocal best, best_key
        budget[0] -= 1
        key = (len(path), sum(t.value for t in path))
        if key > best_key:
            best, best_key = list(path), key
        if budget[0] <= 0:
            return
        for i, tile in enumerate(left):
            if tile.has(number):
                path.append(tile)
                grow(tile.other(number), path, left[:i] + left[i + 1 :])
                path.pop()

    grow(end, [], hand)
    return best
