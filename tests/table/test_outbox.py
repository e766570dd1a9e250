"""What the outbox sends after a change is the table as it is now (kabes.table.outbox), even
where it reuses a part built at an earlier change: the summary, which a move leaves as it
was, is encoded again as soon as any value it shows changes, a connection or the watchers'
count included, with no entry between."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_table_state import SEATINGS, TIMING, Log

from kabes.server.common.protocol import MSGSPEC
from kabes.table import actions, outbox
from kabes.table.encoding import JSON, Encoder
from kabes.table.entries import Entry
from kabes.table.state import Status, TableState


def fresh(message: Any) -> Any:
    """A message as JSON values, built with nothing kept."""
    return json.loads(JSON.encode(message))


@pytest.mark.parametrize("encoder", [JSON, MSGSPEC], ids=["json", "msgspec"])
def test_every_update_shows_the_summary_as_it_is_now(encoder: Encoder) -> None:
    log = Log("haitian", 3, 5)
    rng = random.Random(5)
    checked = 0
    for number in (1, 2):
        joined = actions.join(log.state, 100 + number, f"Seat {number}")
        assert not isinstance(joined, int)
        log.add(*joined)
    log.add(*actions.start(log.state, 0, log.rng), 0, "s")
    while log.state.status != Status.OVER and checked < 600:
        state = log.state
        if state.status == Status.BETWEEN_HANDS:
            log.add("dealt", actions.new_deal(state, log.rng))
        else:
            assert state.match is not None and state.match.hand is not None
            move = str(rng.choice(state.match.hand.legal_moves()))
            log.add(*actions.play(state, state.turn or 0, move), state.turn, f"m{checked}")
        for _ in range(2):  # the same entry told twice: a connection or a watcher came or went
            here = {seat for seat in range(3) if rng.random() < 0.5}
            watchers = rng.choice([0, 0, 1, 7])

            def connected(seat: int, here: set[int] = here) -> bool:
                return seat in here

            sent = list(outbox.updates(log.state, [], [], [0, 1, 2], connected, log.at,
                                       encoder, watchers, watching=True))
            for seat, data in sent:
                seated = seat is not None
                assert json.loads(data)["table"] == fresh(
                    outbox.summary(log.state, connected, seated, watchers)), seat
                checked += 1
    assert checked > 100



class Whole:
    """msgspec's encoder with no hole: every update written whole, as before pieces."""

    encode = staticmethod(MSGSPEC.encode)
    shared = staticmethod(MSGSPEC.shared)
    hole = None


def told_both_ways(variant: str, players: int, seed: int, name: str) -> int:
    """Play a match at random (to 400 entries) and, at every change, check that each seat's
    update and the watchers' from the pieces of one holed encoding (msgspec's hole) is, byte
    for byte, what encoding it whole writes; whoever is connected, and with watchers or
    not. Returns how many changes had events for one seat only (a tile drawn)."""
    rng = random.Random(seed)
    state = TableState("ABCDEFG", TIMING)
    at = 1_700_000_000.0
    own = 0

    def commit(kind: str, data: dict[str, Any], seat: int | None = None,
               action: str | None = None) -> None:
        nonlocal at, own
        at += rng.uniform(0.1, 3.0)
        change = state.apply(Entry(state.seq + 1, kind, dict(data), at, seat, action))
        here = {s for s in range(players) if rng.random() < 0.7}
        watchers = rng.choice([0, 1, 3])
        told = [list(outbox.updates(state, change.news, change.events, list(range(players)),
                                    here.__contains__, at, encoder, watchers,
                                    watching=watchers > 0))
                for encoder in (MSGSPEC, Whole())]
        assert told[0] == told[1], f"seq {state.seq}"
        own += any(e.to is not None for e in change.events)

    commit("created", {"variant": variant, "players": players, "options": {},
                       "computers": {}, "player": 1, "name": name})
    for number in range(1, players):
        joined = actions.join(state, 100 + number, f"{name} {number}")
        assert not isinstance(joined, int)
        commit(*joined)
    commit(*actions.start(state, 0, rng), 0, "s")
    for step in range(400):
        if state.status == Status.OVER:
            break
        if state.status == Status.BETWEEN_HANDS:
            commit("dealt", actions.new_deal(state, rng))
            continue
        assert state.match is not None and state.match.hand is not None
        turn = state.turn
        assert turn is not None
        move = str(rng.choice(state.match.hand.legal_moves()))
        commit(*actions.play(state, turn, move), turn, f"m{step}")
    return own


@settings(max_examples=25, deadline=None)
@given(seating=st.sampled_from(SEATINGS), seed=st.integers(0, 2**32 - 1),
       name=st.sampled_from(["Roselène", "Nul\x00à\x00l'intérieur", "\x00"]))
def test_a_seats_update_put_together_from_pieces_is_the_update_encoded_whole(
    seating: tuple[str, int], seed: int, name: str
) -> None:
    """``Encoder.hole``: the pieces give every update exactly, in every variant, whatever a
    name holds (a NUL in a string is written escaped, never as a hole)."""
    told_both_ways(*seating, seed, name)


def test_a_seats_own_events_are_put_in_their_hole() -> None:
    """A tile drawn is told to its drawer only: those events go in the drawer's update
    through its hole, and the other seats' updates have the public ones alone."""
    assert told_both_ways("plaza", 2, 3, "A") > 3
