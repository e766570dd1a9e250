"""Computer levels: legal in every variant, blind to hidden tiles, explaining themselves."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deals import SEATINGS, line_hand, train_hand
from kabes.ai import LEVELS, Expert, Player, expert, fastline, make_player, reading
from kabes.ai.casual import Casual
from kabes.ai.expert import value
from kabes.ai.knowledge import unseen
from kabes.ai.reading import Reading
from kabes.ai.skilled import Skilled, longest_train
from kabes.ai.worlds import BitDealer, deal_world
from kabes.errors import BadOptions
from kabes.line_hand import LineHand
from kabes.match import Match
from kabes.moves import LEFT, RIGHT, Play
from kabes.results import Ending, HandEnd
from kabes.tiles import Tile, count, parse_tile
from kabes.views import View, view
from listed_worlds import every_world


def tiles(text: str) -> list[Tile]:
    return [parse_tile(t) for t in text.split()]


def player(level: str, seed: int) -> Player:
    if level == "expert":
        return Expert(Random(seed), budget=0.001, max_worlds=3)
    return make_player(level, Random(seed))


def play_hands(variant: str, players: int, levels: list[str], seed: int, hands: int) -> int:
    """Play up to ``hands`` hands with a level in each seat; every move must be legal (the
    engine would refuse it otherwise). Returns the number of moves made."""
    match = Match(variant, players, rng=Random(seed))
    seats = [player(levels[s % len(levels)], seed + s) for s in range(players)]
    made = 0
    for _ in range(hands):
        if match.over:
            break
        match.deal_hand()
        while match.hand_in_progress:
            seat = match.turn
            assert seat is not None
            seen = view(match, seat)
            move = seats[seat].choose(seen)
            assert isinstance(move, Play)
            assert any(move.same_place(m) for m in seen.legal)
            match.apply(seat, move)
            made += 1
    return made


@settings(max_examples=600, deadline=None)
@given(
    st.sampled_from(SEATINGS),
    st.lists(st.sampled_from(LEVELS[:3]), min_size=8, max_size=8),
    st.integers(0, 10**6),
)
def test_every_quick_level_plays_thousands_of_hands_without_an_illegal_move(
    setup: tuple[str, int], levels: list[str], seed: int
) -> None:
    variant, players = setup
    hands = 1 if variant == "mexican-train" else 5
    assert play_hands(variant, players, levels, seed, hands) > 0


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(SEATINGS),
    st.lists(st.sampled_from(LEVELS), min_size=8, max_size=8),
    st.integers(0, 10**6),
)
def test_the_expert_plays_every_variant_without_an_illegal_move(
    setup: tuple[str, int], levels: list[str], seed: int
) -> None:
    variant, players = setup
    levels[0] = "expert"
    assert play_hands(variant, players, levels, seed, 2 if variant != "mexican-train" else 1) > 0


def two_worlds(variant: str, players: int, seed: int) -> tuple[Match, Match]:
    """Two matches, same seed and same moves, differing only in where seat 0's unseen
    tiles lie: the other seats' hidden tiles are exchanged."""
    first = Match(variant, players, rng=Random(seed))
    first.deal_hand()
    hand = first.hand
    assert isinstance(hand, LineHand)
    deal = [list(h) for h in hand.hands]
    stock = list(hand.stock)
    a, b = 1, players - 1 if players > 2 else 1
    if players > 2:
        deal[a], deal[b] = deal[b], deal[a]
    else:
        deal[a][:], stock[: len(deal[a])] = stock[: len(deal[a])], deal[a][:]
    second = Match(variant, players, rng=Random(seed))
    leader = first.log[0].leader
    second.start_hand(deal, stock, leader)
    return first, second


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant", ["plaza-partners", "plaza", "haitian"])
def test_no_level_can_see_hidden_tiles(level: str, variant: str) -> None:
    players = 4 if variant == "plaza-partners" else 2
    checked = 0
    for seed in range(60):
        first, second = two_worlds(variant, players, seed)
        assert first.hand is not None and second.hand is not None
        seat = first.turn
        if seat is None or second.turn != seat or first.hand.hands[seat] != second.hand.hands[seat]:
            continue
        assert first.hand.hands != second.hand.hands
        one, two = view(first, seat), view(second, seat)
        assert one == two
        move_one = player(level, 7).choose(one)
        move_two = player(level, 7).choose(two)
        assert move_one == move_two
        checked += 1
    assert checked >= 5


def leading_view(variant: str, players: int, hand: str, seed: int = 0) -> View:
    """A view of seat 0 about to move in a hand where seat 0 holds ``hand``."""
    for attempt in range(500):
        match = Match(variant, players, rng=Random(seed + attempt))
        match.deal_hand()
        if match.turn == 0:
            break
    mine = tiles(hand)
    current = match.hand
    assert current is not None
    others = [t for h in current.hands for t in h if t not in mine]
    rest = others + [t for t in current.stock if t not in mine]
    deal = [mine] + [rest[i * 7 : (i + 1) * 7] for i in range(players - 1)]
    stock = rest[(players - 1) * 7 :]
    fresh = Match(variant, players, rng=Random(seed))
    fresh.start_hand(deal, stock, 0 if variant == "plaza" else None)
    return view(fresh, 0)


def test_casual_plays_its_heaviest_tile() -> None:
    seen = leading_view("plaza", 2, "0-1 2-3 6-5 4-4 0-0 1-2 3-3")
    hint = Casual(Random(0)).hint(seen)
    assert isinstance(hint.move, Play)
    assert hint.move.tile == Tile.of(5, 6)
    assert "heaviest" in hint.reason


def test_casual_prefers_the_double_on_equal_weight() -> None:
    seen = leading_view("plaza", 2, "0-1 2-3 6-2 4-4 0-0 1-2 3-5")
    move = Casual(Random(0)).choose(seen)
    assert isinstance(move, Play)
    assert move.tile == Tile.of(4, 4)


def test_every_level_explains_its_move() -> None:
    seen = leading_view("plaza", 2, "0-1 2-3 6-5 4-4 0-0 1-2 3-3")
    for level in LEVELS:
        hint = player(level, 1).hint(seen)
        assert isinstance(hint.move, Play)
        assert any(hint.move.same_place(m) for m in seen.legal)
        assert len(hint.reason) > 10


def test_skilled_keeps_open_the_numbers_it_holds() -> None:
    # Leading: 1-4 leaves 1 and 4 open; the skilled player holds three more 4s and a 1.
    seen = leading_view("plaza", 2, "1-4 4-4 0-4 2-4 1-1 5-6 0-3")
    move = Skilled(Random(0)).choose(seen)
    assert isinstance(move, Play)
    assert move.tile.has(4)


def test_skilled_plans_the_longest_train() -> None:
    hand = tiles("12-3 3-7 7-1 12-11 1-9 5-5")
    assert longest_train(12, hand) == tiles("12-3 3-7 7-1 1-9")


def test_expert_search_is_repeatable_with_a_fixed_number_of_worlds() -> None:
    seen = leading_view("plaza", 2, "6-6 6-1 0-0 0-1 0-2 0-3 0-4")
    moves = list(seen.legal)
    first = Expert(Random(3), budget=5.0, max_worlds=40).evaluate(seen, moves)
    second = Expert(Random(3), budget=5.0, max_worlds=40).evaluate(seen, moves)
    assert first == second
    assert first[1] == 40


def test_a_world_respects_every_seats_known_voids() -> None:
    for seed in range(300):
        match = Match("partnership", 4, rng=Random(seed))
        match.deal_hand()
        rng = Random(seed)
        while match.hand_in_progress and not any(line_hand(match).voids):
            match.apply(None, rng.choice(line_hand(match).legal_moves()))
        if not match.hand_in_progress or match.turn is None:
            continue
        seen = view(match, match.turn)
        for _ in range(20):
            hands, _stock = deal_world(seen, rng)
            assert hands[seen.seat] == list(seen.hand)
            for seat, held in enumerate(hands):
                assert len(held) == seen.counts[seat]
                lacking = seen.voids[seat]
                assert not any(t.low in lacking or t.high in lacking for t in held)
        return
    pytest.fail("no seed produced a pass")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([("partnership", 4), ("plaza", 2), ("haitian", 3)]), st.integers(0, 9999))
def test_a_world_dealt_on_bit_sets_is_a_world_the_seat_could_be_in(
    setup: tuple[str, int], seed: int
) -> None:
    """The search's bit-set worlds keep the seat's own hand, give every other seat as many
    tiles as it holds and none of a number it is known to lack, and put every other unseen
    tile in the stock."""
    variant, players = setup
    match = Match(variant, players, rng=Random(seed))
    match.deal_hand()
    rng = Random(seed)
    for _ in range(rng.randrange(12)):
        if not match.hand_in_progress:
            break
        assert match.hand is not None
        match.apply(None, rng.choice(match.hand.legal_moves()))
    if not match.hand_in_progress or match.turn is None:
        return
    seen = view(match, match.turn)
    pool = unseen(seen)
    dealer = BitDealer(seen, pool, fastline.BITS)
    for _ in range(10):
        hands, stock = dealer.deal(rng)
        assert hands[seen.seat] == fastline.mask(seen.hand)
        for seat, held in enumerate(hands):
            assert held.bit_count() == seen.counts[seat]
            lacking = seen.voids[seat] if seat != seen.seat else frozenset()
            assert not any(t.low in lacking or t.high in lacking for t in fastline.tiles_of(held))
        others = [h for s, h in enumerate(hands) if s != seen.seat]
        assert sum(others) + sum(stock) == fastline.mask(pool)
        assert len(stock) == seen.stock and sum(map(int.bit_count, others)) + len(stock) == len(
            pool
        )


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([("partnership", 4), ("plaza", 2), ("haitian", 3)]), st.integers(0, 9999))
def test_bit_set_playouts_follow_the_engine_rules(setup: tuple[str, int], seed: int) -> None:
    """The same greedy players (heaviest tile, left end first) end a hand the same way on
    bit sets, from the lead the expert searches, as in the engine."""
    variant, players = setup
    match = Match(variant, players, rng=Random(seed))
    match.deal_hand()
    engine = match.hand
    assert isinstance(engine, LineHand) and engine.turn is not None
    order = {t: i for i, t in enumerate(fastline.TILES)}

    def greedy() -> Play:
        moves = engine.legal_moves()
        heaviest = max(moves, key=lambda m: order[m.tile]).tile
        return next(m for m in moves if m.tile is heaviest)

    lead = greedy()
    quick = fastline.finish_after(
        [fastline.mask(h) for h in engine.hands],
        None,
        engine.turn,
        lead,
        [fastline.BIT[t] for t in engine.stock[engine.drawn :]],
        lambda: 0.0,
        1.0,
    )
    engine.apply(lead)
    while engine.end is None:
        engine.apply(greedy())
    assert fastline.hand_end(quick, engine.leader) == engine.end
    pips = tuple(count(h) for h in engine.end.hands)
    assert fastline.summary(quick, engine.leader, False)[4] == pips
    if players == 4:
        teams = (pips[0] + pips[2], pips[1] + pips[3])
        assert fastline.summary(quick, engine.leader, True)[4] == teams


LINE_SEATINGS = [(v, n) for v, n in SEATINGS if v != "mexican-train"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(LINE_SEATINGS), st.integers(0, 2**32), st.booleans(), st.booleans())
def test_a_line_hand_is_valued_by_its_pips_per_seat_alone(
    setup: tuple[str, int], seed: int, blocked: bool, capicu: bool
) -> None:
    """The expert values the ends of its playouts once per ``fastline.summary`` (ending,
    seat, capicú, leader, pips per seat, or per team where the rules count by party): two
    ends alike in those must be worth the same to every side in every line variant,
    whatever tiles make up the pips."""
    variant, players = setup
    rng = Random(seed)
    match = Match(variant, players, rng=Random(seed))
    state = match.state
    rules = match.rules
    target = state.options.target or 100
    state.scores = [rng.randrange(0, target) for _ in range(state.parties)]
    state.hand_wins = [rng.randrange(0, 3) for _ in range(state.parties)]
    state.hands_played = rng.randrange(0, 4)
    tiles = list(fastline.TILES)
    rng.shuffle(tiles)
    hands = []
    for _ in range(players):
        size = rng.randrange(0, 8)
        hands.append(tuple(sorted(tiles[:size])))
        tiles = tiles[size:]
    seat = rng.randrange(players)
    ending = Ending.BLOCKED if blocked else Ending.DOMINO
    if not blocked:
        hands[seat] = ()
    end = HandEnd(ending, seat, capicu and not blocked, tuple(hands), rng.randrange(players))
    # The same pips per seat made of other tiles: 6-6s, then one tile for the rest.
    pips = [count(h) for h in hands]
    if rules.counts_by_party:  # a team's pips all in its first seat's hand
        pips = [pips[s] + pips[s + 2] if s < 2 else 0 for s in range(4)] if players == 4 else pips
    heavy = Tile.of(6, 6)
    rest = {t.value: t for t in fastline.TILES}
    alike = tuple(tuple([heavy] * (p // 12) + ([rest[p % 12]] if p % 12 else [])) for p in pips)
    other = replace(end, hands=alike)
    for party in range(state.parties):
        assert value(rules, state, end, party) == value(rules, state, other, party)


def test_in_plaza_the_expert_values_the_lead_of_the_next_hand() -> None:
    """Two blocked plaza hands with equal counts score nobody; the one blocked by the
    expert's own tile gives it the next lead, so it is worth more to it by twice the lead's
    worth, and to the other seat the other hand is worth just what the first is to it."""
    plaza = Match("plaza", 2, rng=Random(1))
    rules, state = plaza.rules, plaza.state
    ours = HandEnd(Ending.BLOCKED, 0, False, ((Tile.of(6, 1),), (Tile.of(4, 3),)), 0)
    theirs = replace(ours, seat=1)
    assert rules.score(state, ours).winner is None
    gap = value(rules, state, ours, 0) - value(rules, state, theirs, 0)
    assert gap == pytest.approx(2 * expert.LEAD)
    assert value(rules, state, theirs, 1) == pytest.approx(value(rules, state, ours, 0))


def test_values_of_ends_are_kept_only_while_the_standing_is_the_same() -> None:
    """The expert keeps the values of the ends it met from one move's search to the next
    (they depend only on the standing before the hand), and starts afresh once a hand has
    changed the scores or for another side."""
    match = Match("plaza", 2, rng=Random(3))
    match.deal_hand()
    seen = view(match, 0)
    kept = expert._scored(seen, 0)
    kept["an end"] = 1.0
    assert expert._scored(seen, 0) is kept
    assert expert._scored(replace(seen, scores=(10, 0)), 0) == {}
    assert expert._scored(seen, 1) == {}


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(BadOptions, match="no level 'grandmaster'"):
        make_player("grandmaster", Random(0))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(0, 9999), st.integers(0, 60), st.booleans())
def test_bit_set_train_playouts_follow_the_engine_rules(
    players: int, seed: int, steps: int, public: bool
) -> None:
    """The same greedy players (heaviest tile, first place in first-fit order) end a round
    the same way on bit sets as in the engine."""
    from kabes.ai import fasttrain

    match = Match("mexican-train", players, {"mexican_train": public}, rng=Random(seed))
    match.deal_hand()
    rng = Random(seed)
    for _ in range(steps):
        if not match.hand_in_progress:
            return
        assert match.hand is not None
        match.apply(None, rng.choice(match.hand.legal_moves()))
    if not match.hand_in_progress:
        return
    engine = train_hand(match)
    quick = engine.copy()
    order = {t: i for i, t in enumerate(fasttrain.TILES)}
    while engine.end is None:
        moves = engine.legal_moves()
        heaviest = max(moves, key=lambda m: order[m.tile]).tile
        engine.apply(next(m for m in moves if m.tile is heaviest))
    assert fasttrain.finish(quick, lambda: 0.0, 1.0) == engine.end


def test_a_light_tile_played_over_a_heavy_one_is_read_as_holding_its_number() -> None:
    match = Match("partnership", 4, rng=Random(1))
    match.deal_hand()
    lead = Play(parse_tile("6-6"))
    light = Play(parse_tile("6-0"), RIGHT)
    seen = replace(view(match, 2), played=((0, lead), (1, light)), draws=(0, 0, 0, 0))
    reading = Reading(seen)
    long_in_zeros = fastline.mask(tiles("0-1 0-2 0-3 6-5"))
    short_of_zeros = fastline.mask(tiles("1-2 1-3 2-3 6-5"))
    weigh: Callable[[int], float] = lambda held: reading.weight(  # noqa: E731
        [0, held, fastline.mask(seen.hand), 0]
    )
    assert weigh(long_in_zeros) > 2 * weigh(short_of_zeros)
    assert weigh(fastline.mask(tiles("1-2 1-3 2-3"))) == 1.0  # 6-0 was its only 6: no news


def test_a_heavy_tile_kept_back_is_read_as_unlikely_by_both_kinds_of_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seat 1 answered 6-6 with 6-0. Had it held 6-5 too, a heavy-tile player would almost
    never have done so, and a counting one seldom: read as either kind, that world is far
    less likely than one where 6-0 was its only six, and read as the mix of the two (not
    knowing which kind seat 1 is) it is as unlikely as one kind finds it at most, and at
    least as the other does."""
    match = Match("partnership", 4, rng=Random(1))
    match.deal_hand()
    lead = Play(parse_tile("6-6"))
    light = Play(parse_tile("6-0"), RIGHT)
    seen = replace(view(match, 2), played=((0, lead), (1, light)), draws=(0, 0, 0, 0))
    kept_back = fastline.mask(tiles("6-5 1-2 1-3 2-3"))
    heaviest = fastline.mask(tiles("4-5 1-2 1-3 2-3"))

    def weigh(held: int) -> float:
        return Reading(seen).weight([0, held, fastline.mask(seen.hand), 0])

    mixed = weigh(kept_back) / weigh(heaviest)
    monkeypatch.setattr(reading, "COUNTING", 1.0)
    counting_only = weigh(kept_back) / weigh(heaviest)
    monkeypatch.setattr(reading, "COUNTING", 0.0)
    heavy_only = weigh(kept_back) / weigh(heaviest)
    assert max(counting_only, heavy_only) < 0.25
    assert min(counting_only, heavy_only) < mixed < max(counting_only, heavy_only)


def test_a_light_tile_that_leaves_open_what_the_next_opponent_lacks_is_read_as_a_choice() -> None:
    """Seat 3 passed on 4 and 5. Later seat 2 played 3-4, opening the 4 that seat 3 lacks,
    where 6-3 would have been heavier. A counting player does that on purpose (the skilled
    level weighs the table as much as its hand), so the reading must not take the light
    tile as a sign that seat 2 had nothing heavier: a world where it held 6-3 too stays
    likely once the table is read (the view's order of play tells who passed when)."""
    match = Match("partnership", 4, rng=Random(1))
    match.deal_hand()
    plays = (
        (0, Play(parse_tile("4-5"))),
        (1, Play(parse_tile("5-5"), RIGHT)),
        (2, Play(parse_tile("4-4"), LEFT)),
        (0, Play(parse_tile("4-1"), LEFT)),
        (1, Play(parse_tile("5-3"), RIGHT)),
        (2, Play(parse_tile("3-4"), RIGHT)),
    )
    base = replace(view(match, 0), played=plays, draws=(0, 0, 0, 0), turn=3)
    timed = replace(base, passes=((3, (4, 5)),))
    untimed = replace(base, passes=())  # passes the order of play does not explain
    held_heavier = fastline.mask(tiles("6-3 0-0 0-2"))
    nothing_else = fastline.mask(tiles("0-0 0-2 2-2"))

    def odds(seen: View) -> float:
        reading = Reading(seen)
        weigh: Callable[[int], float] = lambda held: reading.weight([0, 0, held, 0])  # noqa: E731
        return weigh(held_heavier) / weigh(nothing_else)

    assert odds(timed) > 1.3 * odds(untimed)
    assert Reading(timed).decisions[0][6] is not None
    assert Reading(untimed).decisions[0][6] is None


def test_a_seat_that_drew_is_not_read() -> None:
    match = Match("partnership", 4, rng=Random(1))
    match.deal_hand()
    lead = Play(parse_tile("6-6"))
    light = Play(parse_tile("6-0"), RIGHT)
    seen = replace(view(match, 2), played=((0, lead), (1, light)), draws=(0, 1, 0, 0))
    assert [d[0] for d in Reading(seen).decisions] == [0]  # only the lead of seat 0


def _late_position(seed: int, hidden: int) -> View:
    """Seat 0's view of a partnership hand played by skilled players, at its first choice
    once the other seats hold at most ``hidden`` tiles."""
    match = Match("partnership", 4, rng=Random(seed))
    match.deal_hand()
    players = [make_player("skilled", Random(seed + s)) for s in range(4)]
    while match.hand_in_progress:
        seat = match.turn
        assert seat is not None
        seen = view(match, 0)
        if seat == 0 and sum(seen.counts[1:]) <= hidden and len(seen.legal) > 1:
            return seen
        match.apply(seat, players[seat].choose(view(match, seat)))
    raise AssertionError(f"seed {seed}: the hand ended before the position was reached")


def _worlds(seen: View) -> dict[tuple[int, ...], float]:
    """Every deal of the unseen tiles that respects counts and voids, with its weight."""
    reading = Reading(seen)
    own = fastline.mask(seen.hand)
    found: dict[tuple[int, ...], float] = {}
    for world in every_world(seen):
        others = iter(world[:-1])  # the stock, last, is empty in partnership
        hands = [own if s == seen.seat else next(others) for s in range(seen.players)]
        found[tuple(hands)] = reading.weight(hands)
    return found


@pytest.mark.parametrize("seed", [3, 11, 16, 27])
def test_the_walk_visits_each_world_as_often_as_the_plays_make_it_likely(seed: int) -> None:
    """Late in a hand the possible worlds can be listed. The expert's walk through them
    (``reading.Chain``) must keep every seat's count and known voids, and visit each as
    often as its weight says: within a total-variation distance of 0.1 of the exact
    shares after 40,000 steps."""
    seen = _late_position(seed, 6)
    exact = _worlds(seen)
    total = sum(exact.values())
    rng = Random(seed)
    hands, _ = deal_world(seen, rng)
    chain = reading.Chain(Reading(seen), seen, [fastline.mask(h) for h in hands], 0)
    visits: dict[tuple[int, ...], int] = dict.fromkeys(exact, 0)
    steps = 40_000
    for _ in range(steps):
        world, stocked = chain.world(1, rng.random)
        assert stocked == 0 and world[seen.seat] == fastline.mask(seen.hand)
        visits[tuple(world)] += 1  # a world outside the list would raise KeyError
    distance = sum(abs(visits[w] / steps - exact[w] / total) for w in exact) / 2
    assert distance < 0.1, f"{len(exact)} worlds, total variation {distance:.3f}"


def test_the_expert_counts_its_budget_on_the_thread_cpu_clock_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server's expert spends wall-clock seconds; benchmarks on a shared machine may ask
    for the searching thread's CPU time instead, so that the load does not take the budget."""
    import time

    monkeypatch.delenv(expert.CLOCK_ENV, raising=False)
    assert expert.clock() is time.perf_counter
    monkeypatch.setenv(expert.CLOCK_ENV, "thread")
    assert expert.clock() is time.thread_time
    monkeypatch.setenv(expert.CLOCK_ENV, "wall")
    assert expert.clock() is time.perf_counter
