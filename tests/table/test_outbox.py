"""What the outbox sends after a change is the table as it is now (kabes.table.outbox), even
where it reuses a part built at an earlier change: the summary, which a move leaves as it
was, is encoded again as soon as any value it shows changes, a connection or the watchers'
count included, with no entry between."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from test_table_state import Log

from kabes.server.common.protocol import MSGSPEC
from kabes.table import actions, outbox
from kabes.table.encoding import JSON, Encoder
from kabes.table.state import Status


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
