"""The skilled player: it counts.

On the line it tracks the tiles out and the numbers each seat is known to lack (every pass and
draw), keeps open the numbers it holds, kills the numbers the opponents play to, and with a
partner it does not cover the partner's number, plays to the partner's suit and leaves open
the numbers the next opponent lacks, so the play comes back to its side. In Mexican Train it
plans the longest train from its hand, plays doubles only with a follow-up, and sheds heavy
tiles that are not in its plan on marked trains and the public train.

Each consideration is a scored feature with a sentence; the best move's strongest feature is
its hint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kabes.ai.knowledge import (
    Hint,
    ends_after,
    number_counts,
    opponents,
    partner,
    unseen,
)
from kabes.ai.level import Level
from kabes.moves import Play
from kabes.tiles import Tile, count
from kabes.views import View

OUT = 1000.0
CHAIN_SEARCH_LIMIT = 1500


@dataclass(frozen=True, slots=True)
class Feature:
    """One reason for (or against) a move, with its weight in the move's score."""

    score: float
    why: str


class Skilled(Level):
    """Counts tiles and reads passes; see the module docstring."""

    id = "skilled"

    def decide(self, view: View, moves: list[Play]) -> Hint:
        """The move with the best total of features, explained by its strongest one."""
        judge = _judge(view)
        judged = [(m, judge(view, m)) for m in moves]
        move, features = max(judged, key=lambda mf: sum(f.score for f in mf[1]))
        best = max(features, key=lambda f: f.score)
        return Hint(move, best.why)


def _judge(view: View) -> Callable[[View, Play], list[Feature]]:
    """The feature function for this view's game, with what every move shares worked out
    once: the unseen tiles on a line, the planned train in Mexican Train."""
    if not view.trains:
        out = unseen(view)
        return lambda seen, move: line_features(seen, move, out)
    own = next(t for t in view.trains if t.owner == view.seat)
    plan = longest_train(own.end, list(view.hand))
    return lambda seen, move: train_features(seen, move, plan)


def line_features(view: View, move: Play, out: list[Tile]) -> list[Feature]:
    """Why ``move`` is good or bad on a line of play; ``out`` are the seat's unseen tiles."""
    tile = move.tile
    rest = [t for t in view.hand if t is not tile]
    if not rest:
        return [Feature(OUT + tile.value, f"{tile} is your last tile: domino!")]
    left, right = ends_after(view, move)
    open_numbers = {left, right}
    mine = number_counts(rest)
    outside = number_counts(out)
    features = [Feature(tile.value * 0.6, f"{tile} sheds {tile.value} pips")]
    if tile.is_double:
        features.append(Feature(2.5, f"{tile} is a double: hard to place later"))
    for n in open_numbers:
        if mine[n]:
            features.append(
                Feature(1.8 * min(mine[n], 3), f"keeps {n} open: you hold {mine[n]} more")
            )
            if outside[n] == 0:
                features.append(Feature(2.0, f"nobody else can have a {n}: you control it"))
    for seat in opponents(view):
        lacking = open_numbers & view.voids[seat]
        if lacking:
            weight = 3.5 if seat == (view.seat + 1) % view.players else 2.0
            n = min(lacking)
            why = f"seat {seat} has no {n}: leave {n} open"
            features.append(Feature(weight * len(lacking), why))
    mate = partner(view)
    if mate is not None:
        lacking = open_numbers & view.voids[mate]
        if lacking:
            n = min(lacking)
            features.append(
                Feature(-3.0 * len(lacking), f"your partner passed on {n}s: keep {n} closed")
            )
        suit = _suit(view, mate)
        if suit is not None and view.ends is not None and suit in view.ends:
            if suit not in open_numbers:
                features.append(Feature(-2.5, f"do not cover your partner's {suit}"))
            else:
                features.append(Feature(1.5, f"plays to your partner's {suit}"))
    for seat in opponents(view):
        suit = _suit(view, seat)
        covered = suit is not None and view.ends is not None and suit in view.ends
        if covered and suit not in open_numbers:
            features.append(Feature(1.5, f"kills the {suit} seat {seat} is playing to"))
    features += _block_features(view, rest, open_numbers, out, mine)
    return features


def _suit(view: View, seat: int) -> int | None:
    """The number ``seat`` last opened on the line: the number it is playing to."""
    for who, play in reversed(view.played):
        if who == seat:
            if play.at is None:
                return None
            first = play.first if play.first is not None else play.tile.low
            return play.tile.other(first) if play.at == "R" else first
    return None


def _block_features(
    view: View, rest: list[Tile], open_numbers: set[int], out: list[Tile], mine: list[int]
) -> list[Feature]:
    """A move that blocks the game is judged by who would win the block."""
    if view.stock or any(mine[n] for n in open_numbers):
        return []
    if any(t.has(n) for t in out for n in open_numbers):
        return []
    others = [s for s in range(view.players) if s != view.seat]
    hidden = sum(view.counts[s] for s in others) or 1
    average = sum(t.value for t in out) / hidden
    mine_total: float = count(rest)
    theirs = [average * view.counts[s] for s in others]
    if view.teams:
        mate = partner(view)
        mine_total += average * view.counts[mate] if mate is not None else 0
        theirs = [average * sum(view.counts[s] for s in opponents(view))]
    if mine_total < min(theirs):
        return [Feature(40.0, "blocks the game while you hold the fewest pips")]
    return [Feature(-40.0, "would block the game with more pips than the others")]


def train_features(view: View, move: Play, plan: list[Tile]) -> list[Feature]:
    """Why ``move`` is good or bad in Mexican Train, given the seat's planned train."""
    tile = move.tile
    rest = [t for t in view.hand if t is not tile]
    if not rest:
        return [Feature(OUT + tile.value, f"{tile} is your last tile: you go out")]
    own = str(view.seat)
    trains = {t.place: t for t in view.trains}
    features = [Feature(tile.value * 0.3, f"{tile} sheds {tile.value} pips")]
    if view.open_double is not None:
        features.append(Feature(tile.value * 0.5, f"satisfies the open double with {tile}"))
        return features
    if move.at == own:
        if plan and tile is plan[0]:
            features.append(Feature(5.0, f"{tile} starts the longest train you can build"))
        elif tile in plan:
            features.append(Feature(-1.0, f"{tile} breaks your planned train"))
        if trains[own].marked:
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
