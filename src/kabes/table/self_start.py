"""When a table starts by itself, nobody's ``start`` needed, through the same logged
``started`` entry as a host's start.

- A public table starts the moment its last seat is taken and every person seated has a
  socket open there (PROTOCOL.md, "Safe for strangers": public tables start with their people
  present; a seat whose person does not come is freed, kabes.server.table.seat_wait). Its entry is
  marked ``auto``, so nobody is put on the away clock by the start itself.
- A tournament's table (PROTOCOL.md, "Tournaments") starts as soon as every seat is taken
  and all its people are connected, or at its ``start_by`` time (its round's start plus
  ``--tournament-wait-seconds``) with whoever is there, the absent played for by the away
  clock.

Pure: the rules read the table's state, who has a socket open now and the time. The time to
wait for comes from the table's ``created`` entry, which the tournament runner wrote from
the round's stored start, so a restart (or another process adopting the table) waits for the
same moment, never for a fresh minute. Nobody's request starts such a table: the host of a
tournament table is only its first seat, and its ``start`` is refused.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kabes.table.actions import new_deal
from kabes.table.state import Status, TableState


def start_entry(state: TableState, connected: Callable[[int], bool], now: float,
                rng: random.Random) -> dict[str, Any] | None:
    """The ``started`` entry's data if ``state``'s table starts by itself now, else None."""
    if state.status != Status.WAITING or state.free_seats:
        return None
    if state.public and state.tournament is None:
        if not everyone_here(state, connected):
            return None
        return {**new_deal(state, rng), "auto": True}
    if starts_now(state, connected, now):
        return new_deal(state, rng)
    return None


def everyone_here(state: TableState, connected: Callable[[int], bool]) -> bool:
    """Whether every person seated at ``state``'s table has a socket open there."""
    return all(connected(n) for n, s in enumerate(state.seats)
               if s is not None and s.person and not s.left)


def starts_now(state: TableState, connected: Callable[[int], bool], now: float) -> bool:
    """Whether tournament table ``state`` starts now: waiting, every seat taken, and either
    every person connected (``connected(seat)``: a socket open here) or its time come."""
    if state.tournament is None or state.status != Status.WAITING or state.free_seats:
        return False
    if state.start_by is not None and now >= state.start_by:
        return True
    return everyone_here(state, connected)


def start_alarm(state: TableState) -> float | None:
    """When a waiting tournament table must look again whether it starts (None: it need
    not)."""
    if state.tournament is None or state.status != Status.WAITING:
        return None
    return state.start_by
