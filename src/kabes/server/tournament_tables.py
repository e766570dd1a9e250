"""When a tournament's table starts by itself (PROTOCOL.md, "Tournaments"): as soon as every
seat is taken and all its people are connected, or at its ``start_by`` time (its round's
start plus ``--tournament-wait-seconds``) with whoever is there, the absent played for by
the away clock.

Pure: the rule reads the table's state, who has a socket open now and the time. The time to
wait for comes from the table's ``created`` entry, which the tournament runner wrote from
the round's stored start, so a restart (or another process adopting the table) waits for the
same moment, never for a fresh minute. Nobody's request starts such a table: the host of a
tournament table is only its first seat, and its ``start`` is refused.
"""

from __future__ import annotations

from collections.abc import Callable

from kabes.server.state import Status, TableState


def starts_now(state: TableState, connected: Callable[[int], bool], now: float) -> bool:
    """Whether tournament table ``state`` starts now: waiting, every seat taken, and either
    every person connected (``connected(seat)``: a socket open here) or its time come."""
    if state.tournament is None or state.status != Status.WAITING or state.free_seats:
        return False
    if state.start_by is not None and now >= state.start_by:
        return True
    return all(connected(n) for n, s in enumerate(state.seats) if s is not None and s.person)


def start_alarm(state: TableState) -> float | None:
    """When a waiting tournament table must look again whether it starts (None: it need
    not)."""
    if state.tournament is None or state.status != Status.WAITING:
        return None
    return state.start_by
