"""Time for the tables: wall-clock seconds and timers, real or fake.

A table never reads the time itself; it is given a clock. The real clock uses the event loop's
timers against ``time.time()`` (wall time, because turn clocks must survive a restart); the
fake clock only moves when a test says so, so a 45 s turn runs in microseconds.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    """A scheduled call that can be cancelled."""

    def cancel(self) -> None:
        """Do not make the call (nothing happens if it was made already)."""
        ...


class Clock(Protocol):
    """Wall time in seconds, and calls at a given time."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` (in the event loop) once ``now() >= when``."""
        ...


class Alarm:
    """A table's timer for its running clock (a turn's or the pause's): it goes off no later
    than the deadline it was last set for. Set for a later deadline than it already has, it is
    left as it is: it goes off early, the table finds no clock run out, and sets it again. A
    deadline moves at every move, and setting a timer at every move would cost more than an
    early call now and then."""

    def __init__(self, clock: Clock, callback: Callable[[], None]) -> None:
        self.clock = clock
        self.callback = callback
        self._timer: Timer | None = None
        self._at = 0.0

    def set(self, when: float) -> None:
        """Go off at ``when`` or before it."""
        if self._timer is not None:
            if self._at <= when:
                return
            self._timer.cancel()
        self._at = when
        self._timer = self.clock.call_at(when, self._ring)

    def cancel(self) -> None:
        """Do not go off."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _ring(self) -> None:
        self._timer = None
        self.callback()


class RealClock:
    """The machine's wall clock, with the running event loop's timers."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` after ``when - now()`` seconds."""
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - time.time()), callback)


class _FakeTimer:
    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


def _fire(timer: _FakeTimer) -> None:
    if not timer.cancelled:
        timer.callback()


class FakeClock:
    """A clock that stands still until :meth:`advance` moves it (tests)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._timers: list[tuple[float, int, _FakeTimer]] = []
        self._order = itertools.count()

    def now(self) -> float:
        """The fake time."""
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Remember the call; :meth:`advance` makes it when its time comes (at once, on the
        event loop, if that time has come already)."""
        timer = _FakeTimer(callback)
        if when <= self._now:
            asyncio.get_running_loop().call_soon(_fire, timer)
            return timer
        heapq.heappush(self._timers, (when, next(self._order), timer))
        return timer

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, making every call that falls due, in time order."""
        end = self._now + seconds
        while self._timers and self._timers[0][0] <= end:
            when, _, timer = heapq.heappop(self._timers)
            self._now = max(self._now, when)
            if not timer.cancelled:
                timer.callback()
        self._now = end
