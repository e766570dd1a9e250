"""What a table's log is told of its people's connections, and when (PROTOCOL.md, "Safe for
strangers": a table's log holds the game).

A seat's sockets coming and going are told to the table at once (the summary's
``connected``, and an ``update`` with the ``connected`` / ``disconnected`` news to every
socket, at the table's current ``seq``: no change of the game, so no new seq), but the log,
which a rebuild replays, hears of them only where they matter, so that reconnecting a
thousand times grows nothing a rebuild must replay:

- while the table waits (and once it is over), never: nothing in the game depends on them.
  The ``started`` entry says who was there at the start (``present``), as the connections
  of the wait used to;
- in play (a hand played or the pause between hands), where the away clock reads them (a
  person with no socket has ``--away-seconds`` for a turn, from when they went), at most once
  every :data:`PRESENCE_SECONDS` a seat: the first change is logged at once; later changes
  within those seconds are held, and when they are over the seat's state then is logged,
  once, if it differs from what the log says. A ``disconnected`` logged late carries
  ``since``, the moment the last socket went, so the away clock counts from then.

The away clock stays right for both kinds of held change: a person who went but whose going
is held keeps the normal clock until it is logged, and then the away clock counts from when
they went (at most the rest of the window in their favour); a person who came back but whose
return is held is never played for by the away clock meanwhile (:meth:`Presence.deadline`):
their turn waits until their return is logged, then runs on the normal clock. Everything the
clock decides is thus a log entry, and a rebuild from the log is the live table.

Only the table's actor touches a :class:`Presence`; it holds a few numbers per seat.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kabes.table.state import Status, TableState

PRESENCE_SECONDS = 10.0
"""A seat's connection changes reach the log at most once within this many seconds."""

Entry = tuple[str, dict[str, Any]]


def logged(state: TableState) -> bool:
    """Whether connection changes are logged at all: in play only (see the module's text)."""
    return state.status in (Status.PLAYING, Status.BETWEEN_HANDS)


def away(state: TableState, connected: Callable[[int], bool], seat: int) -> bool:
    """Whether ``seat`` is on the away clock now: the log says it is away (``state.away``)
    and it has no socket open. A seat that is back, its return held, is not: its away clock
    does not run meanwhile (only the turn's normal clock does), and the table wakes to log
    its return (:meth:`Presence.due`)."""
    return state.away(seat) and not connected(seat)


def deadline(state: TableState, connected: Callable[[int], bool]) -> float | None:
    """When the running clock runs out: ``state.deadline()``, but for a seat to move that is
    back, its return held, the turn's normal clock only (see :func:`away`)."""
    turn = state.turn
    if turn is not None and state.away(turn) and connected(turn):
        return state.turn_start + state.turn_budget
    return state.deadline()


class Presence:
    """When each seat's connection was last logged, and since when each has had no socket."""

    def __init__(self, every: float = PRESENCE_SECONDS) -> None:
        self.every = every
        self._logged_at: dict[int, float] = {}
        self._gone: dict[int, tuple[float, bool]] = {}
        """Per seat with no socket now: since when, and whether the servers dropped it."""

    def change(self, state: TableState, seat: int, here: bool, now: float,
               forced: bool = False) -> Entry | None:
        """``seat`` gained its first socket (``here``) or lost its last: the entry to log
        now, or None (the change is only told, and held if in play)."""
        if here:
            self._gone.pop(seat, None)
        else:
            self._gone[seat] = (now, forced)
        if not logged(state) or now < self._logged_at.get(seat, -math.inf) + self.every:
            return None
        return self._entry(state, seat, here, now)

    def flush(self, state: TableState, connected: Callable[[int], bool],
              now: float) -> list[Entry]:
        """The entries of the held changes whose seconds are over."""
        if not logged(state):
            return []
        out = []
        for seat in self._differs(state, connected):
            if now >= self._logged_at.get(seat, -math.inf) + self.every:
                entry = self._entry(state, seat, connected(seat), now)
                if entry is not None:
                    out.append(entry)
        return out

    def due(self, state: TableState, connected: Callable[[int], bool]) -> float | None:
        """When the next held change may be logged (None: nothing held)."""
        if not logged(state):
            return None
        times = [self._logged_at.get(seat, 0.0) + self.every
                 for seat in self._differs(state, connected)]
        return min(times, default=None)

    def stamp(self, kind: str, data: dict[str, Any],
              connected: Callable[[int], bool], state: TableState) -> dict[str, Any]:
        """``data`` of an entry about to be logged, with what this module adds: a start
        says who is present (the wait's connections were not logged)."""
        if kind != "started":
            return data
        present = [n for n, s in enumerate(state.seats)
                   if s is not None and s.person and connected(n)]
        return {**data, "present": present}

    def _differs(self, state: TableState, connected: Callable[[int], bool]) -> list[int]:
        """The people's seats whose connection the log has wrong."""
        return [n for n, s in enumerate(state.seats)
                if s is not None and s.person and not s.left
                and (s.away_since is None) != connected(n)]

    def _entry(self, state: TableState, seat: int, here: bool, now: float) -> Entry | None:
        sitter = state.seats[seat]
        if sitter is None or not sitter.person or sitter.left:
            return None
        if (sitter.away_since is None) == here:
            return None  # the log says so already
        self._logged_at[seat] = now
        if here:
            return "connected", {"seat": seat}
        since, forced = self._gone.get(seat, (now, False))
        data: dict[str, Any] = {"seat": seat}
        if forced:
            data["forced"] = True
        if since < now:
            data["since"] = since
        return "disconnected", data
