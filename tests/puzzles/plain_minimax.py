"""A second, plain solver for the puzzle tests (imported as ``plain_minimax``): every deal,
every line, no pruning, nothing shared with ``kabes.puzzles.prove`` or ``kabes.ai``.

It deals the unseen tiles with ``itertools`` over the tiles of the full set nobody has shown,
plays every line with the engine's own hand (``Hand.copy``, ``legal_moves``, ``apply``) and
scores each end with the variant's ``Rules.score``: slow, and obviously right."""

from __future__ import annotations

from itertools import combinations

from kabes.hand import Hand
from kabes.match import Match
from kabes.moves import Play
from kabes.tiles import Tile, full_set

Numbers = tuple[int, int, float]
"""A move's worst, best and mean score over the deals."""


def plain_deals(match: Match) -> list[list[list[Tile]]]:
    """Every way the tiles the seat to move has not seen can lie in the other hands: each
    other seat's count, and no tile with a number that seat is known to lack."""
    hand = match.hand
    assert hand is not None and hand.turn is not None
    seat = hand.turn
    facts = hand.facts()
    shown = {t for _, p in hand.played for t in [p.tile]} | set(hand.hands[seat])
    hidden = [t for t in full_set(match.rules.top) if t not in shown]
    others = [s for s in range(match.players) if s != seat]
    out: list[list[list[Tile]]] = []

    def fill(i: int, left: list[Tile], hands: list[list[Tile]]) -> None:
        if i == len(others):
            out.append([list(h) for h in hands])
            return
        s = others[i]
        for chosen in combinations(left, len(hand.hands[s])):
            if any(t.has(n) for t in chosen for n in facts.voids[s]):
                continue
            hands[s] = sorted(chosen)
            fill(i + 1, [t for t in left if t not in chosen], hands)

    start = [list(h) for h in hand.hands]
    fill(0, hidden, start)
    return out


def side_score(match: Match, end_hand: Hand, seat: int) -> int:
    """The side's points minus the others', by the rules (the other way round in penalties)."""
    assert end_hand.end is not None
    state = match.state
    scored = match.rules.score(state, end_hand.end)
    party = state.party(seat)
    diff = scored.points[party] - sum(p for i, p in enumerate(scored.points) if i != party)
    return -diff if match.rules.penalties(match.players) else diff


def minimax(match: Match, hand: Hand, seat: int) -> int:
    """The side's score of ``hand`` played on perfectly by everyone, every line searched."""
    if hand.end is not None:
        return side_score(match, hand, seat)
    assert hand.turn is not None
    party = match.state.party
    values = []
    for move in hand.legal_moves():
        child = hand.copy()
        child.apply(move)
        values.append(minimax(match, child, seat))
    return max(values) if party(hand.turn) == party(seat) else min(values)


def plain_scores(match: Match) -> dict[str, list[int]]:
    """Each legal move's score in each deal (:func:`plain_deals`' order)."""
    hand = match.hand
    assert hand is not None and hand.turn is not None
    seat = hand.turn
    deals = plain_deals(match)
    scores: dict[str, list[int]] = {}
    for deal in deals:
        world = hand.copy()
        world.hands = [list(h) for h in deal]
        move: Play
        for move in world.legal_moves():
            child = world.copy()
            child.apply(move)
            scores.setdefault(str(move), []).append(minimax(match, child, seat))
    return scores


def numbers(scores: dict[str, list[int]]) -> dict[str, Numbers]:
    """Each move's worst, best and mean over the deals."""
    return {m: (min(v), max(v), sum(v) / len(v)) for m, v in scores.items()}
