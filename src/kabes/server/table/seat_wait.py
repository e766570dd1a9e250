"""Public tables start with their people present (PROTOCOL.md, "Safe for strangers").

A full public table starts by itself only once every person seated has a socket open there
(kabes.table.self_start); and a person who has had no socket open at a public table that is
waiting for ``--seat-wait-seconds`` loses the seat, through the same logged ``left`` entry as
their own ``leave`` (marked ``absent``), so that a stranger who takes seats and never comes
cannot hold a table back, and the freed seat is free again after a restart (it is in the log).

The time base of a seat's wait is the latest of: when its person sat down (the log's entry),
when that seat's last socket here closed, and when this process opened or rebuilt the table
(a restart drops every socket through nobody's fault: everyone gets the whole wait again).
Only the first is in the log; the others are the actor's (kabes.server.table.seat_sockets), which
is why a restart starts every wait afresh rather than freeing seats the moment it is back.

A tournament's table is not concerned: it has its own start rule and keeps its seats.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from kabes.server.common.protocol import Refused
from kabes.table import actions
from kabes.table.state import Status, TableState

if TYPE_CHECKING:
    from kabes.server.table.actor import Table


def freed_at(state: TableState, absent_since: Callable[[int], float | None],
             wait: float) -> dict[int, float]:
    """For each person absent from ``state``'s waiting public table, when their seat is
    freed (``absent_since(seat)``: since when that seat has had no socket here, None while it
    has one). Empty for any other table."""
    if not state.public or state.tournament is not None or state.status != Status.WAITING:
        return {}
    out: dict[int, float] = {}
    for number, sitter in enumerate(state.seats):
        if sitter is None or not sitter.person or sitter.left:
            continue
        since = absent_since(number)
        if since is not None:
            out[number] = max(since, sitter.sat_at) + wait
    return out


def next_alarm(table: Table) -> float | None:
    """When ``table`` must look again whether a seat is to be freed (None: it need not)."""
    due = freed_at(table.state, table.sockets.absent_since, table.settings.seat_wait_seconds)
    return min(due.values(), default=None)


async def free_absent(table: Table) -> None:
    """Free, as ``leave`` does, every seat of ``table`` whose person's wait has run out. The
    check and the entry are made in one step of the table's actor (nothing else runs on the
    table in between: a socket that opens meanwhile is an item queued after this one)."""
    now = table.clock.now()
    due = freed_at(table.state, table.sockets.absent_since, table.settings.seat_wait_seconds)
    for seat in sorted(due):
        state = table.state
        if due[seat] > now or state.status != Status.WAITING or state.seats[seat] is None:
            continue
        with contextlib.suppress(Refused):
            kind, data = actions.leave(state, seat)
            await table.commit(kind, {**data, "absent": True})
