"""Invariants over random matches (DESIGN.md: "Property tests (hypothesis) for invariants").

Every match here is dealt from a ``random.Random`` seeded by hypothesis and played with
random legal moves (and some timeouts). The expected scores, leaders and winners are worked
out here from RULES.md, from the deal and the final hands, not read back from the engine.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deals import SEATINGS, line_of
from kabes.errors import IllegalMove, NotYourTurn
from kabes.events import Drew, Event, LeadDrawn, MarkerChanged, Passed, Played
from kabes.line_hand import LineHand
from kabes.match import Match
from kabes.moves import LEFT, PUBLIC, RIGHT, TIMEOUT, Play, parse_move
from kabes.results import HandResult
from kabes.table import wire
from kabes.tiles import Tile, full_set
from kabes.trains import TrainHand
from kabes.views import OWN_FIELDS, View, own_view, view, views_of

TEAMS = {"partnership", "plaza-partners", "haitian-partners"}
LINE_VARIANTS = ("partnership", "plaza", "plaza-partners", "haitian", "haitian-partners")
MAX_HANDS = 400
"""No finite match here needs more: a bound, not a rule."""


@st.composite
def tables(
    draw: st.DrawFn, variants: tuple[str, ...] | None = None
) -> tuple[str, int, dict[str, Any]]:
    """A variant, a seat count and options the variant allows."""
    seatings = [s for s in SEATINGS if variants is None or s[0] in variants]
    variant, players = draw(st.sampled_from(seatings))
    options: dict[str, Any] = {}
    if variant == "partnership":
        options["target"] = draw(st.sampled_from([50, 100, 150]))
    elif variant.startswith("plaza"):
        options["target"] = draw(st.sampled_from([50, 100, 150]))
        options["capicu_bonus"] = draw(st.sampled_from([0, 25, 30]))
        options["score_losers_only"] = draw(st.booleans())
        options["blocker_wins_block"] = draw(st.booleans())
    elif variant == "haitian" and players > 2:
        options["hands"] = draw(st.integers(1, 6))
    elif variant == "mexican-train":
        options["mexican_train"] = draw(st.booleans())
        options["double_blank_50"] = draw(st.booleans())
    return variant, players, options


seeds = st.integers(min_value=0, max_value=2**32 - 1)


@dataclass
class HandInfo:
    """What the tests saw of one finished hand, to score it independently."""

    result: HandResult
    deal: list[list[Tile]]
    stock: list[Tile]
    final: list[list[Tile]]
    last_mover: int
    last_tile: Tile
    ends_before: tuple[int, int] | None
    drawn_leader: LeadDrawn | None
    scores_before: list[int]


def play(
    match: Match,
    choose: Random,
    max_hands: int = MAX_HANDS,
    timeout_rate: float = 0.15,
    before: Any = None,
    after: Any = None,
) -> list[HandInfo]:
    """Play random legal moves until the match is over or ``max_hands`` were dealt.

    ``before(match)`` is called before each move, ``after(match, events)`` after each deal
    and move; both may assert. Returns what was seen of each finished hand."""
    infos: list[HandInfo] = []
    drawn: LeadDrawn | None = None
    scores_before = list(match.current_result().scores)
    while not match.over:
        if not match.hand_in_progress:
            if len(match.log) >= max_hands:
                break
            scores_before = list(match.current_result().scores)
            events = match.deal_hand()
            drawn = next((e for e in events if isinstance(e, LeadDrawn)), None)
            if after is not None:
                after(match, events)
            continue
        hand = match.hand
        assert hand is not None
        if before is not None:
            before(match)
        mover = hand.turn
        assert mover is not None
        line = getattr(hand, "line", None)
        ends = None if line is None else (line.left, line.right)
        legal = hand.legal_moves()
        assert legal, "a seat to move always has a move: passes and draws are the table's"
        move = TIMEOUT if choose.random() < timeout_rate else choose.choice(legal)
        events = match.apply(None, move)
        if after is not None:
            after(match, events)
        played = [e for e in events if isinstance(e, Played)]
        assert played and played[0].seat == mover
        log = match.log[-1]
        if log.result is not None:
            infos.append(
                HandInfo(
                    log.result,
                    log.deal,
                    log.stock,
                    [list(h) for h in hand.hands],
                    mover,
                    played[-1].tile,
                    ends,
                    drawn,
                    scores_before,
                )
            )
    return infos


# -- every tile accounted for ---------------------------------------------------------------


def tiles_in_play(match: Match) -> list[Tile]:
    """Hands + line (or engine and trains) + the stock not yet drawn."""
    hand = match.hand
    assert hand is not None
    tiles = [t for h in hand.hands for t in h]
    if isinstance(hand, LineHand):
        if hand.line is not None:
            tiles += [Tile.of(a, b) for a, b in hand.line.laid]
    else:
        assert isinstance(hand, TrainHand)
        tiles.append(hand.engine)
        trains = [*hand.trains, *([hand.public] if hand.public is not None else [])]
        tiles += [Tile.of(a, b) for train in trains for a, b in train.laid]
    return tiles + list(hand.stock[hand.drawn :])


def check_accounted(match: Match, _events: list[Event]) -> None:
    every = full_set(match.rules.top)
    seen = tiles_in_play(match)
    assert len(seen) == len(every) == (91 if match.variant == "mexican-train" else 28)
    assert sorted(seen) == every


@settings(max_examples=30, deadline=None)
@given(table=tables(), seed=seeds)
def test_every_tile_is_always_accounted_for(
    table: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    """28 (or 91) tiles, each once: in hands, on the line or trains, or still in the stock."""
    variant, players, options = table
    match = Match(variant, players, options, rng=Random(seed))
    rounds = 3 if variant == "mexican-train" else MAX_HANDS
    play(match, Random(seed + 1), max_hands=rounds, after=check_accounted)
    assert match.log


# -- only legal moves, and every legal move ---------------------------------------------------


def snapshot(match: Match) -> tuple[Any, ...]:
    """Everything a move could change, as plain values."""
    hand = match.hand
    assert hand is not None
    parts: list[Any] = [
        tuple(tuple(h) for h in hand.hands),
        hand.turn,
        tuple(hand.moves),
        hand.end,
        hand.stock_left,
        tuple(match.state.scores),
        len(match.log),
        match.log[-1].result,
    ]
    if isinstance(hand, LineHand):
        line = hand.line
        parts += [None if line is None else (line.left, line.right, tuple(line.laid))]
        parts += [tuple(hand.passes), tuple(hand.draw_counts)]
    else:
        assert isinstance(hand, TrainHand)
        trains = [*hand.trains, *([hand.public] if hand.public is not None else [])]
        parts += [tuple((t.end, tuple(t.laid)) for t in trains), tuple(hand.marked)]
        parts += [hand.open_double, hand.drawn_tile, tuple(hand.first_turn_done)]
    return tuple(parts)


def places_of(match: Match) -> list[str | None]:
    """Every way of naming an end: none, left and right, or any train."""
    if match.variant == "mexican-train":
        return [None, *[str(s) for s in range(8)], PUBLIC]
    return [None, LEFT, RIGHT]


def surely_illegal(match: Match, candidate: Play) -> bool:
    """Whether RULES.md refuses ``candidate``: no allowed move puts that tile there."""
    hand = match.hand
    assert hand is not None
    allowed = allowed_moves(match)
    if candidate.at is None:
        return candidate.tile not in {tile for tile, _ in allowed}
    if isinstance(hand, LineHand) and hand.line is None:
        return True  # the lead is a bare tile
    return (candidate.tile, candidate.at) not in allowed


@settings(max_examples=30, deadline=None)
@given(table=tables(), seed=seeds)
def test_only_legal_moves_are_accepted(table: tuple[str, int, dict[str, Any]], seed: int) -> None:
    """A tile/end that no legal move names is refused with IllegalMove, and nothing changes;
    a move by a seat whose turn it is not is refused with NotYourTurn, and nothing changes."""
    variant, players, options = table
    match = Match(variant, players, options, rng=Random(seed))
    probe = Random(seed ^ 0x5EED)
    every = full_set(match.rules.top)
    tried = 0

    def before(match: Match) -> None:
        nonlocal tried
        hand = match.hand
        assert hand is not None and hand.turn is not None
        mine = hand.hands[hand.turn]
        for _ in range(4):
            tile = probe.choice(mine if probe.random() < 0.6 else every)
            at = probe.choice(places_of(match))
            first = probe.choice([tile.low, tile.high])
            candidate = Play(tile, at, first)
            if not surely_illegal(match, candidate):
                continue
            was = snapshot(match)
            with pytest.raises(IllegalMove):
                match.apply(None, candidate)
            assert snapshot(match) == was, f"{candidate} changed the match"
            with pytest.raises(IllegalMove):
                match.apply(hand.turn, candidate)
            assert snapshot(match) == was
            tried += 1
        other = (hand.turn + 1 + probe.randrange(match.players - 1)) % match.players
        was = snapshot(match)
        with pytest.raises(NotYourTurn):
            match.apply(other, hand.legal_moves()[0])
        with pytest.raises(NotYourTurn):
            match.apply(other, TIMEOUT)
        assert snapshot(match) == was

    play(match, Random(seed + 1), max_hands=2, before=before)
    assert tried > 0


@settings(max_examples=30, deadline=None)
@given(table=tables(), seed=seeds)
def test_every_legal_move_is_accepted(table: tuple[str, int, dict[str, Any]], seed: int) -> None:
    """Each move legal_moves() offers is accepted, also written out and read back."""
    variant, players, options = table
    match = Match(variant, players, options, rng=Random(seed))
    top = match.rules.top

    def before(match: Match) -> None:
        hand = match.hand
        assert hand is not None
        legal = hand.legal_moves()
        assert len(set(map(str, legal))) == len(legal), "a legal move is offered twice"
        assert {(m.tile, m.at) for m in legal} == allowed_moves(match)
        for move in legal:
            assert hand.turn is not None
            assert move.tile in hand.hands[hand.turn]
            trial = hand.copy()
            events = trial.apply(move)
            assert isinstance(events[0], Played) and events[0].tile is move.tile
            written = parse_move(str(move), top)
            trial = hand.copy()
            trial.apply(written)
            assert trial.moves[-1] == str(move)

    play(match, Random(seed + 1), max_hands=2, before=before)


def lead_tiles(match: Match) -> set[Tile]:
    """The tiles RULES.md lets the leader lead with."""
    hand = match.hand
    assert hand is not None and hand.turn is not None
    held = set(hand.hands[hand.turn])
    if len(match.log) > 1 or match.variant in ("partnership", "plaza"):
        return held  # any tile
    if match.variant == "plaza-partners":
        return {Tile.of(6, 6)}
    dealt = [t for h in match.log[-1].deal for t in h]
    doubles = [t for t in dealt if t.is_double]
    return {max(doubles or dealt, key=lambda t: (t.low + t.high, t.high))}


def allowed_places(hand: TrainHand, seat: int) -> list[str]:
    """Mexican Train: where ``seat`` may play now, in first-fit order (RULES.md)."""
    if not hand.first_turn_done[seat]:
        return [str(seat)]  # first round of turns: only on their own train
    if hand.open_double is not None:
        return [hand.open_double]  # an open double must be satisfied first
    places = [str(seat)]
    if hand.public is not None:
        places.append(PUBLIC)
    return places + [str(s) for s in range(hand.players) if s != seat and hand.marked[s]]


def allowed_moves(match: Match) -> set[tuple[Tile, str | None]]:
    """Every (tile, end or train) the rules allow the seat to move, worked out here."""
    hand = match.hand
    assert hand is not None and hand.turn is not None
    seat = hand.turn
    if isinstance(hand, LineHand):
        line = hand.line
        if line is None:
            return {(t, None) for t in lead_tiles(match)}
        ends = {LEFT: line.left, RIGHT: line.right}
        return {(t, e) for t in hand.hands[seat] for e in (LEFT, RIGHT) if t.has(ends[e])}
    assert isinstance(hand, TrainHand)
    tiles = [hand.drawn_tile] if hand.drawn_tile is not None else hand.hands[seat]
    return {(t, p) for t in tiles for p in allowed_places(hand, seat) if t.has(hand.train(p).end)}


def check_forced_actions(match: Match, events: list[Event], stock_before: int) -> None:
    """Line games: who draws had nothing that fitted, draws the stock in order until a tile
    fits; who passes has nothing that fits and no stock to draw from."""
    hand = match.hand
    assert isinstance(hand, LineHand) and hand.line is not None
    ends = (hand.line.left, hand.line.right)

    def fits(tile: Tile) -> bool:
        return tile.has(ends[0]) or tile.has(ends[1])

    next_draw = len(hand.stock) - stock_before
    for event in events:
        if isinstance(event, Drew):
            drawn = list(event.tiles)
            assert drawn == hand.stock[next_draw : next_draw + len(drawn)]
            next_draw += len(drawn)
            assert not any(fits(t) for t in drawn[:-1]), "drew on after a tile fitted"
            assert fits(drawn[-1]) or next_draw == len(hand.stock)
            kept = list(hand.hands[event.seat])
            for tile in drawn:
                if tile in kept:
                    kept.remove(tile)
            assert not any(fits(t) for t in kept if t not in drawn), "drew with a tile to play"
        elif isinstance(event, Passed):
            assert event.numbers == ends
            assert not any(fits(t) for t in hand.hands[event.seat]), "passed with a tile to play"
            assert next_draw == len(hand.stock), "passed with tiles left to draw"
    assert next_draw == hand.drawn


@settings(max_examples=30, deadline=None)
@given(table=tables(variants=LINE_VARIANTS), seed=seeds)
def test_draws_and_passes_only_when_forced(
    table: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    """The table draws for a player only when nothing fits, until a tile fits, in stock
    order; and passes only when nothing fits and the stock is empty (or absent)."""
    variant, players, options = table
    match = Match(variant, players, options, rng=Random(seed))
    stock_before = [0]

    def before(match: Match) -> None:
        assert match.hand is not None
        stock_before[0] = match.hand.stock_left

    def after(match: Match, events: list[Event]) -> None:
        hand = match.hand
        assert isinstance(hand, LineHand)
        if hand.line is None:
            assert not [e for e in events if isinstance(e, (Drew, Passed))]
            return
        if not hand.stock:
            assert not [e for e in events if isinstance(e, Drew)], "no stock, yet a draw"
        check_forced_actions(match, events, stock_before[0])

    play(match, Random(seed + 1), max_hands=6, before=before, after=after)


@settings(max_examples=30, deadline=None)
@given(table=tables(variants=("mexican-train",)), seed=seeds)
def test_mexican_train_markers_and_draws(table: tuple[str, int, dict[str, Any]], seed: int) -> None:
    """A marker goes on only with a pass and comes off only when its owner plays on their
    own train; draws are one tile at a time, from the stock in order."""
    variant, players, options = table
    match = Match(variant, players, options, rng=Random(seed))
    drawn_before = [0]

    def before(match: Match) -> None:
        assert isinstance(match.hand, TrainHand)
        drawn_before[0] = match.hand.drawn

    def after(match: Match, events: list[Event]) -> None:
        hand = match.hand
        assert isinstance(hand, TrainHand)
        if not any(isinstance(e, Played) for e in events):
            drawn_before[0] = 0  # a new round: the draws for the engine count too
        position = drawn_before[0]
        for index, event in enumerate(events):
            if isinstance(event, Drew):
                assert len(event.tiles) == 1
                assert event.tiles[0] is hand.stock[position]
                position += 1
            elif isinstance(event, MarkerChanged) and event.on:
                passed = events[index + 1]
                assert isinstance(passed, Passed)
                assert passed.seat == event.seat
            elif isinstance(event, MarkerChanged):
                played = events[index - 1]
                assert isinstance(played, Played) and played.seat == event.seat
                assert played.move.endswith(f"@{event.seat}")
        assert position == hand.drawn

    play(match, Random(seed + 1), max_hands=2, before=before, after=after)


# -- the clock -------------------------------------------------------------------------------


def first_fit(match: Match) -> tuple[Tile, str | None, int | None]:
    """RULES.md's first-fit move, worked out here: (tile, end or train, left number)."""
    hand = match.hand
    assert hand is not None and hand.turn is not None
    seat = hand.turn
    if isinstance(hand, LineHand):
        if hand.line is None:
            tile = hand.forced_lead if hand.forced_lead is not None else min(hand.hands[seat])
            return tile, None, tile.low  # a timeout lead lays the lower number on the left
        ends = {LEFT: hand.line.left, RIGHT: hand.line.right}
        for tile in sorted(hand.hands[seat]):
            for end in (LEFT, RIGHT):
                if tile.has(ends[end]):
                    return tile, end, None
        raise AssertionError("no tile fits, yet it is this seat's turn")
    assert isinstance(hand, TrainHand)
    places = allowed_places(hand, seat)
    tiles = [hand.drawn_tile] if hand.drawn_tile is not None else sorted(hand.hands[seat])
    for tile in tiles:
        for place in places:
            if tile.has(hand.train(place).end):
                return tile, place, None
    raise AssertionError("no tile fits, yet it is this seat's turn")


@settings(max_examples=30, deadline=None)
@given(table=tables(), seed=seeds)
def test_timeout_is_the_first_fit_and_always_legal(
    table: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    """timeout_move() is the first of legal_moves(), and is RULES.md's first-fit move;
    a timeout is always accepted and plays exactly that move."""
    variant, players, options = table
    match = Match(variant, players, options, rng=Random(seed))
    expected: list[tuple[Tile, str | None, int | None]] = []
    timeouts = 0

    def before(match: Match) -> None:
        hand = match.hand
        assert hand is not None
        chosen = hand.timeout_move()
        assert chosen == hand.legal_moves()[0]
        tile, at, left = first_fit(match)
        assert (chosen.tile, chosen.at) == (tile, at)
        if left is not None:
            assert chosen.first == left
        expected[:] = [(tile, at, left)]

    def after(match: Match, events: list[Event]) -> None:
        nonlocal timeouts
        played = [e for e in events if isinstance(e, Played)]
        if played and played[0].timeout:
            timeouts += 1
            tile, at, _ = expected[0]
            assert played[0].tile is tile
            assert played[0].move.partition("@")[2] == (at or "")
            assert match.log[-1].moves[-1] == "timeout"

    rounds = 2 if variant == "mexican-train" else 6
    play(match, Random(seed + 1), max_hands=rounds, timeout_rate=0.5, before=before, after=after)
    assert timeouts > 0


def test_a_timeout_lead_lays_the_lower_number_on_the_left() -> None:
    """DESIGN.md: a ``timeout`` lead lays the lower number on the left."""
    for seed in range(20):
        match = Match("partnership", rng=Random(seed))
        match.deal_hand()
        assert match.hand is not None and match.turn is not None
        lowest = min(match.hand.hands[match.turn])
        match.apply(None, TIMEOUT)
        line = line_of(match)
        assert (line.left, line.right) == (lowest.low, lowest.high)


# -- scoring: points to exactly the parties the rules name ----------------------------------


def value(tile: Tile, options: dict[str, Any]) -> int:
    if options.get("double_blank_50") and tile == Tile.of(0, 0):
        return 50
    return tile.low + tile.high


def counts(hands: list[list[Tile]], options: dict[str, Any] | None = None) -> list[int]:
    return [sum(value(t, options or {}) for t in h) for h in hands]


def after_seat(seat: int, players: int) -> list[int]:
    return [(seat + k) % players for k in range(1, players)]


def haitian_winning_seat(info: HandInfo, players: int, teams: bool) -> int:
    """Who went out; after a BLÒK the lowest hand (ties: RULES.md's decisions)."""
    if info.result.ending == "domino":
        return info.last_mover
    c = counts(info.final)
    low = min(c)
    lowest = [s for s in range(players) if c[s] == low]
    if teams and len({s % 2 for s in lowest}) == 2:
        return info.last_mover
    if info.last_mover in lowest:
        return info.last_mover
    return next(s for s in after_seat(info.last_mover, players) if s in lowest)


def expected_hand(
    variant: str, players: int, options: dict[str, Any], info: HandInfo
) -> dict[str, Any]:
    """The result fields RULES.md gives this hand: ending, name, capicu, winner, points,
    scores (next_leader is checked elsewhere)."""
    final = info.final
    out_seats = [s for s in range(players) if not final[s]]
    ending = "domino" if out_seats else "blocked"
    if out_seats:
        assert out_seats == [info.last_mover]
    tile, ends = info.last_tile, info.ends_before
    capicu = (
        ending == "domino"
        and ends is not None
        and not tile.is_double
        and ends[0] != ends[1]
        and tile.has(ends[0])
        and tile.has(ends[1])
    )
    before = info.scores_before
    c = counts(final, options)
    name = None
    winner: int | None
    if variant == "mexican-train":
        winner = info.last_mover if ending == "domino" else None
        points = c
        return {
            "ending": ending,
            "name": None,
            "capicu": False,
            "winner": winner,
            "points": points,
            "scores": [b + p for b, p in zip(before, points, strict=True)],
        }
    teams = variant in TEAMS
    parties = 2 if teams else players

    def party(seat: int) -> int:
        return seat % 2 if teams else seat

    totals = [0] * parties
    for seat in range(players):
        totals[party(seat)] += c[seat]
    points = [0] * parties
    scores: list[int]
    if variant == "partnership":
        if ending == "domino":
            winner = party(info.last_mover)
        elif totals[0] != totals[1]:
            winner = 0 if totals[0] < totals[1] else 1
        else:
            winner = party(info.last_mover)
        points[winner] = totals[1 - winner]
        scores = [b + p for b, p in zip(before, points, strict=True)]
    elif variant.startswith("plaza"):
        if ending == "domino" or options.get("blocker_wins_block"):
            winner = party(info.last_mover)
        else:
            low = min(totals)
            lowest = [p for p in range(parties) if totals[p] == low]
            winner = lowest[0] if len(lowest) == 1 else None
        if winner is not None:
            losers = sum(totals) - totals[winner]
            points[winner] = losers if options.get("score_losers_only") else sum(totals)
            if capicu:
                points[winner] += options.get("capicu_bonus", 0)
        scores = [b + p for b, p in zip(before, points, strict=True)]
    else:
        name = "blok" if ending == "blocked" else "2-kabes" if capicu else "tonbe"
        seat = haitian_winning_seat(info, players, teams)
        if teams:
            winner = party(seat)
            points[winner] = {"tonbe": 1, "blok": 1, "2-kabes": 2}[name]
            scores = [0, 0]
            scores[winner] = before[winner] + points[winner]
        elif players == 2:
            winner = seat
            points[seat] = {"tonbe": 10, "blok": 10, "2-kabes": 15}[name]
            scores = [b + p for b, p in zip(before, points, strict=True)]
        else:
            winner = seat
            worst = max(c)
            loser = next(s for s in after_seat(seat, players) if c[s] == worst)
            points[loser] = {"tonbe": 2, "blok": 4, "2-kabes": 8}[name]
            scores = [b + p for b, p in zip(before, points, strict=True)]
    return {
        "ending": ending,
        "name": name,
        "capicu": capicu,
        "winner": winner,
        "points": points,
        "scores": scores,
    }


def played_out(table: tuple[str, int, dict[str, Any]], seed: int) -> tuple[Match, list[HandInfo]]:
    variant, players, options = table
    match = Match(variant, players, options, rng=Random(seed))
    infos = play(match, Random(seed + 1))
    return match, infos


def assert_scored(
    variant: str, players: int, options: dict[str, Any], infos: list[HandInfo]
) -> None:
    """Every hand scored as RULES.md says, and points only where the rules put them."""
    for number, info in enumerate(infos, 1):
        got = info.result.to_json()
        want = expected_hand(variant, players, options, info)
        assert {k: got[k] for k in want} == want, f"hand {number}"
        points = got["points"]
        if variant == "partnership":
            assert sum(1 for p in points if p) == 1, "every hand gives points to one team"
        elif variant.startswith("plaza"):
            assert sum(1 for p in points if p) <= 1
        elif variant == "haitian" and players == 2:
            assert sorted(points) == [0, points[got["winner"]]]
            assert points[got["winner"]] in (10, 15)
        elif variant == "haitian":
            assert sorted(points)[:-1] == [0] * (players - 1)
            assert max(points) in (2, 4, 8)
        elif variant == "haitian-partners":
            assert points[got["winner"]] in (1, 2) and points[1 - got["winner"]] == 0
            assert got["scores"][1 - got["winner"]] == 0
        else:
            assert points == counts(info.final, options)


@settings(max_examples=30, deadline=None)
@given(table=tables(), seed=seeds)
def test_points_go_to_exactly_the_parties_the_rules_name(
    table: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    """Every hand's ending, name, capicú, winner, points and scores are RULES.md's."""
    variant, players, options = table
    match, infos = played_out(table, seed)
    assert len(infos) == len(match.log)
    assert_scored(variant, players, options, infos)


@settings(max_examples=30, deadline=None)
@given(table=tables(), seed=seeds)
def test_scores_are_the_running_sum_of_points(
    table: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    """A hand's scores are the last scores plus its points (haitian-partners: the losing
    team goes back to 0); the match's scores are the last hand's."""
    variant, players, _options = table
    match, infos = played_out(table, seed)
    parties = 2 if variant in TEAMS else players
    running = [0] * parties
    for info in infos:
        result = info.result
        running = [s + p for s, p in zip(running, result.points, strict=True)]
        if variant == "haitian-partners":
            assert result.winner is not None
            running[1 - result.winner] = 0
        assert list(result.scores) == running
    assert list(match.current_result().scores) == running


# -- leaders --------------------------------------------------------------------------------


def expected_first_leader(variant: str, info: HandInfo, number: int) -> int:
    deal = info.deal
    holder = {t: s for s, hand in enumerate(deal) for t in hand}
    if variant in ("partnership", "plaza-partners"):
        return holder[Tile.of(6, 6)]
    if variant == "plaza":
        drawn = info.drawn_leader
        assert drawn is not None
        turned = drawn.turned
        best = max(
            range(len(turned)), key=lambda s: (turned[s].low + turned[s].high, turned[s].high)
        )
        assert drawn.leader == best
        return best
    if variant.startswith("haitian"):
        doubles = [t for t in holder if t.is_double]
        pool = doubles or list(holder)
        tile = max(pool, key=lambda t: (t.low + t.high, t.high))
        return holder[tile]
    engine = Tile.of(13 - number, 13 - number)
    if engine in holder:
        return holder[engine]
    return info.stock.index(engine) % len(deal)


def assert_leaders(variant: str, players: int, infos: list[HandInfo], over: bool) -> None:
    """First leaders as RULES.md says; then each hand is led by the last one's
    next_leader, which is the variant's."""
    for number, info in enumerate(infos, 1):
        result = info.result
        if number == 1 or variant == "mexican-train":
            assert result.leader == expected_first_leader(variant, info, number)
        else:
            assert result.leader == infos[number - 2].result.next_leader
        last = number == len(infos) and over
        if last or variant == "mexican-train":
            assert result.next_leader is None
            continue
        if variant == "partnership":
            want = (result.leader + 1) % players
        elif variant.startswith("plaza"):
            want = info.last_mover
        elif variant == "haitian-partners" and result.ending == "blocked":
            c = counts(info.final)
            order = [info.last_mover, *after_seat(info.last_mover, players)]
            team = [s for s in order if s % 2 == result.winner]
            want = min(team, key=lambda s: c[s])
        else:
            want = haitian_winning_seat(info, players, variant in TEAMS)
        assert result.next_leader == want, f"hand {number}"


@settings(max_examples=30, deadline=None)
@given(table=tables(), seed=seeds)
def test_leaders_follow_the_rules(table: tuple[str, int, dict[str, Any]], seed: int) -> None:
    """The next seat, the winner, the blocker, the lower partner: as RULES.md says."""
    variant, players, _options = table
    match, infos = played_out(table, seed)
    assert_leaders(variant, players, infos, match.over)


LONG_TABLES = [
    ("partnership", 4, {"target": 500}),
    ("plaza", 2, {"target": 500}),
    ("plaza", 2, {"target": 500, "capicu_bonus": 30, "score_losers_only": True}),
    ("plaza", 2, {"target": 500, "blocker_wins_block": True}),
    ("plaza-partners", 4, {"target": 500}),
    ("plaza-partners", 4, {"target": 500, "capicu_bonus": 25, "blocker_wins_block": True}),
    ("haitian", 2, {"open_ended": True}),
    ("haitian", 3, {"open_ended": True}),
    ("haitian", 4, {"open_ended": True}),
    ("haitian-partners", 4, {"open_ended": True}),
]


@settings(max_examples=30, deadline=None)
@given(table=st.sampled_from(LONG_TABLES), seed=seeds)
def test_long_matches_score_and_lead_as_the_rules_say(
    table: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    """Long matches (target 500, open-ended tables) reach the rare cases: blocked ties,
    equal highest counts, capicú with a bonus; every hand is still scored and led right."""
    variant, players, options = table
    match = Match(variant, players, options, rng=Random(seed))
    infos = play(match, Random(seed + 1), max_hands=40)
    assert_scored(variant, players, options, infos)
    assert_leaders(variant, players, infos, match.over)


# -- the end of a match ---------------------------------------------------------------------


def expected_winners(
    variant: str, players: int, options: dict[str, Any], infos: list[HandInfo], scores: list[int]
) -> list[int]:
    if variant in ("partnership",) or variant.startswith("plaza"):
        target = options.get("target", 100)
        return [p for p, s in enumerate(scores) if s >= target]
    if variant == "haitian-partners":
        return [p for p, s in enumerate(scores) if s >= 4]
    if variant == "haitian" and players == 2:
        return [p for p, s in enumerate(scores) if s >= 100]
    best = min(scores)
    low = [s for s in range(players) if scores[s] == best]
    if variant == "mexican-train":
        return low
    wins = [sum(1 for i in infos if i.result.winner == s) for s in range(players)]
    most = max(wins[s] for s in low)
    return [s for s in low if wins[s] == most]


@settings(max_examples=30, deadline=None)
@given(table=tables(), seed=seeds)
def test_the_match_always_ends_with_winners(
    table: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    """A match that is not open-ended ends within a bound of hands, exactly when RULES.md
    says (target reached, hands or rounds played), with the winners it names."""
    variant, players, options = table
    match, infos = played_out(table, seed)
    assert match.over and match.result is not None
    result = match.result
    assert result.finished
    assert result.winners
    scores = list(result.scores)
    assert list(result.winners) == expected_winners(variant, players, options, infos, scores)
    if variant == "mexican-train":
        assert len(infos) == 13
    elif variant == "haitian" and players > 2:
        assert len(infos) == options["hands"]
    else:
        for info in infos[:-1]:
            early = expected_winners(variant, players, options, [], list(info.result.scores))
            assert early == [], "the match went on after a side reached its target"
    if variant.startswith("plaza"):
        others = [s for p, s in enumerate(scores) if p not in result.winners]
        assert result.kochon == all(s == 0 for s in others)
    else:
        assert result.kochon is False


@settings(max_examples=30, deadline=None)
@given(
    table=tables(variants=("haitian", "haitian-partners")),
    seed=seeds,
    hands=st.integers(1, 12),
    mid_hand=st.booleans(),
)
def test_an_open_ended_match_ends_when_the_host_finishes_it(
    table: tuple[str, int, dict[str, Any]], seed: int, hands: int, mid_hand: bool
) -> None:
    """Online tables have no limit; "Finish match" decides as at a normal end: the highest
    score (2 players, partners; equal scores share) or the Wa (3-4 players). A hand in
    progress does not count."""
    variant, players, options = table
    options = {k: v for k, v in options.items() if k != "hands"} | {"open_ended": True}
    match = Match(variant, players, options, rng=Random(seed))
    choose = Random(seed + 1)
    infos = play(match, choose, max_hands=hands)
    assert not match.over and len(infos) == hands
    if mid_hand:
        match.deal_hand()
        assert match.hand is not None
        match.apply(None, choose.choice(match.hand.legal_moves()))
    scores = list(match.current_result().scores)
    match.finish()
    assert match.result is not None
    assert list(match.result.scores) == scores
    if variant == "haitian" and players > 2:
        want = expected_winners(variant, players, options, infos, scores)
    else:
        want = [p for p, s in enumerate(scores) if s == max(scores)]
    assert list(match.result.winners) == want


# -- every seat's view at once --------------------------------------------------------------


def check_views_alike(match: Match, _events: list[Event] | None = None) -> None:
    """views_of gives each seat exactly its own view; those views differ only in the seat's
    own fields; and the server's messages built once for all seats are each seat's own."""
    first, owns = views_of(match)
    together = [own_view(first, own) for own in owns]
    assert together == [view(match, seat) for seat in range(match.players)]
    for other in together[1:]:
        for name in (f.name for f in dataclasses.fields(View)):
            if name not in OWN_FIELDS:
                assert getattr(other, name) == getattr(together[0], name), name
    assert wire.view_messages(first, owns, None, None) == [
        wire.view_message(v, None, None) for v in together
    ]


@settings(max_examples=25, deadline=None)
@given(table=tables(), seed=seeds)
def test_all_seats_views_at_once_are_each_seats_own_view(
    table: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    variant, players, options = table
    match = Match(variant, players, options, rng=Random(seed))
    check_views_alike(match)
    play(match, Random(seed), max_hands=2, before=check_views_alike, after=check_views_alike)
