"""A table's state is its log: applied live entry by entry, or rebuilt by replay, it is the
same table (kabes.table.state). No server, no socket: the state alone."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kabes.errors import BadMove, KabesError
from kabes.moves import parse_move
from kabes.table import actions, outbox
from kabes.table.encoding import JSON
from kabes.table.entries import Entry
from kabes.table.messages import Summary, View
from kabes.table.refusals import ErrorCode, Refused
from kabes.table.state import Status, TableState, Timing, read_move, replay
from kabes.tiles import full_set

TIMING = Timing(turn_seconds=45.0, away_seconds=5.0, pause_seconds=30.0)
SEATINGS = [("partnership", 4), ("plaza", 2), ("haitian", 3), ("haitian-partners", 4),
            ("plaza-partners", 4), ("mexican-train", 3)]


class Log:
    """A table played live: every entry applied to one state as it is made, and kept."""

    def __init__(self, variant: str, players: int, seed: int) -> None:
        self.state = TableState("ABCDEFG", TIMING)
        self.entries: list[Entry] = []
        self.rng = random.Random(seed)
        self.at = 1_700_000_000.0
        self.add("created", {"variant": variant, "players": players, "options": {},
                             "computers": {}, "player": 1, "name": "Roselène"})

    def add(self, kind: str, data: dict[str, object], seat: int | None = None,
            action: str | None = None) -> None:
        self.at += self.rng.uniform(0.1, 3.0)
        entry = Entry(self.state.seq + 1, kind, dict(data), self.at, seat, action)
        self.state.apply(entry)
        self.entries.append(entry)


def seen(state: TableState) -> bytes:
    """Everything a table shows: its summary and every seat's view with the clocks."""
    running = outbox.clocks(state, 1_800_000_000.0, lambda seat: False)
    everything: list[Summary | View] = [outbox.summary(state, lambda seat: seat % 2 == 0)]
    everything += [outbox.seat_view(state, seat, running) for seat in range(state.players)]
    return JSON.encode(everything)


def play_out(log: Log, moves: int) -> None:
    """People join, the host starts, then random legal moves (and deals between hands)."""
    for number in range(1, log.state.players):
        joined = actions.join(log.state, 100 + number, f"Seat {number}")
        assert not isinstance(joined, int), "a new person is given a free seat"
        log.add(*joined)
    kind, data = actions.start(log.state, 0, log.rng)
    log.add(kind, data, 0, "s")
    for step in range(moves):
        state = log.state
        if state.status == Status.OVER:
            return
        if state.status == Status.BETWEEN_HANDS:
            log.add("dealt", actions.new_deal(state, log.rng))
            continue
        turn = state.turn
        assert turn is not None and state.match is not None and state.match.hand is not None
        if log.rng.random() < 0.1:
            log.add("move", {"seat": turn, "move": "timeout"})
            continue
        move = str(log.rng.choice(state.match.hand.legal_moves()))
        kind, data = actions.play(state, turn, move)
        log.add(kind, data, turn, f"m{step}")


@settings(max_examples=20, deadline=None)
@given(seating=st.sampled_from(SEATINGS), seed=st.integers(0, 2**32 - 1),
       moves=st.integers(0, 120))
def test_a_table_rebuilt_from_its_log_is_the_table_that_was(
    seating: tuple[str, int], seed: int, moves: int
) -> None:
    log = Log(*seating, seed)
    play_out(log, moves)
    again = replay(log.state.code, TIMING, log.entries)
    assert seen(again) == seen(log.state)
    assert again.acks == log.state.acks, "retried ids are answered alike"
    assert (again.seq, again.turn_id, again.status) == (
        log.state.seq, log.state.turn_id, log.state.status)


def test_a_move_the_engine_refuses_changes_nothing() -> None:
    log = Log("partnership", 4, 7)
    play_out(log, 0)
    before = seen(log.state)
    match, turn = log.state.match, log.state.turn
    assert match is not None and match.hand is not None and turn is not None
    held = match.hand.hands[turn]
    other = next(t for t in full_set(match.rules.top) if t not in held)
    with pytest.raises(KabesError):
        log.add("move", {"seat": turn, "move": str(other)}, turn, "bad")
    assert seen(log.state) == before
    assert log.state.acked(turn, "bad") is None


def test_a_play_out_of_turn_is_refused_before_any_entry() -> None:
    log = Log("plaza", 2, 3)
    play_out(log, 0)
    turn = log.state.turn
    assert turn is not None
    with pytest.raises(Refused) as refused:
        actions.play(log.state, 1 - turn, "6-6")
    assert refused.value.code == ErrorCode.NOT_YOUR_TURN
    assert refused.value.facts == {"seat": 1 - turn, "turn": turn}


def test_a_move_is_read_as_the_engine_reads_it_and_a_bad_text_is_refused_every_time() -> None:
    for text, top in [("6-3@L", 6), ("3-6", 6), ("12-11@M", 12), ("5-5@3", 12), ("timeout", 6)]:
        assert read_move(text, top) == parse_move(text, top)
        assert read_move(text, top) == parse_move(text, top), "read again, from memory"
    for _ in range(2):
        with pytest.raises(BadMove):
            read_move("7-3@L", 6)
