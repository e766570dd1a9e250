"""A table's computer: its computer seats' moves, and the hints and reviews its people ask.

The actor hands this part the table's state when something may be for the computer (a turn
began, a hint or a review was asked), and gets the answers back through its inbox
(:class:`~kabes.server.table.inbox.Thought`, :class:`~kabes.server.table.inbox.Advice`,
:class:`~kabes.server.table.inbox.Reviewed`), so that no search ever runs on the actor's task.
The searches themselves are the process's :class:`~kabes.server.compute.workers.Workers`'.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from kabes.records import to_record
from kabes.server.common.metrics import Metrics
from kabes.server.common.protocol import (
    ErrorCode,
    Hint,
    Refused,
    Review,
    ReviewMove,
    ServerMessage,
    encode,
)
from kabes.server.compute import computers
from kabes.server.compute.lane import Priority
from kabes.server.compute.workers import Workers
from kabes.server.table.clock import Clock
from kabes.server.table.inbox import Advice, Connection, InboxItem, Reviewed, Thought
from kabes.table.state import Status, TableState
from kabes.views import View, view

log = logging.getLogger("kabes.table")

Remember = Callable[[int, str, ServerMessage], None]
"""Keeps an answer for a seat's action id (a retried id gets it again)."""


class Budgets(Protocol):
    """How long the computer waits and thinks (the server's settings)."""

    @property
    def computer_delay(self) -> float:
        """Seconds a computer seat waits before it moves, so people can follow."""
        ...

    @property
    def expert_budget(self) -> float:
        """Seconds the expert thinks for a move on a quiet server."""
        ...

    @property
    def hint_budget(self) -> float:
        """Seconds the expert thinks for a hint."""
        ...

    @property
    def review_budget(self) -> float:
        """Seconds the expert searches each position of a review."""
        ...

    @property
    def budget_follows_load(self) -> bool:
        """Whether a computer move's budget shrinks while the workers are busy."""
        ...


class ComputerSeats:
    """The computer's part of one table."""

    def __init__(
        self,
        code: str,
        workers: Workers,
        budgets: Budgets,
        clock: Clock,
        current: Callable[[], TableState],
        post: Callable[[InboxItem], None],
        metrics: Metrics | None = None,
    ) -> None:
        self.code = code
        self.workers = workers
        self.budgets = budgets
        self.clock = clock
        self.current = current
        """The table's state now (a rebuilt table has a new one)."""
        self.post = post
        self.metrics = metrics
        self.rng = random.Random()
        self.rng.seed(random.SystemRandom().getrandbits(128))
        self._thinking = -1
        """The turn a computer seat was woken for (it is woken once per turn)."""
        self._think_from = 0.0
        """When the computer seat's turn was seen (clock time): a move is late from it."""
        self._advising: dict[tuple[int, int], dict[str, list[Connection]]] = {}
        """Hints being searched, by (seat, turn id): the sockets waiting, by action id."""
        self._hints: dict[int, tuple[int, str, str]] = {}
        """Each seat's last hint: its turn id, the move and the reason (asked again in the
        same turn, not searched again)."""
        self._reviewing: dict[tuple[int, int], dict[str, list[Connection]]] = {}
        """Reviews being computed, by (seat, hand): the sockets waiting, by action id."""
        self._reviews: dict[int, tuple[int, list[ReviewMove]]] = {}
        """Each seat's last review: the hand and the answer's moves (asked again, not
        computed again)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.stopped = False

    def stop(self) -> None:
        """The table stops: no more moves are thought of, reviews in progress are dropped."""
        self.stopped = True
        for task in list(self._tasks):
            task.cancel()

    def forget_turn(self) -> None:
        """The table was rebuilt: wake the seat to move again, whatever was asked before."""
        self._thinking = -1

    # Computer seats ----------------------------------------------------------------------

    def wake(self, state: TableState) -> None:
        """If a computer seat is to move, have it think after ``computer_delay`` (once per
        turn); its move comes back as a :class:`Thought`."""
        if not state.computer_to_think(self._thinking):
            return
        self._thinking = state.turn_id
        self._think_from = self.clock.now()
        when = self._think_from + self.budgets.computer_delay
        turn_id = state.turn_id
        self.clock.call_at(when, lambda: self._think(turn_id))

    def _think(self, turn_id: int) -> None:
        state = self.current()
        if (self.stopped or turn_id != state.turn_id or state.match is None
                or state.turn is None):
            return
        seat = state.turn
        level = state.seat(seat).level
        assert level is not None
        future = self.workers.think(
            level, view(state.match, seat), self.rng.getrandbits(64),
            self.budgets.expert_budget, self.budgets.budget_follows_load,
        )

        def done(f: asyncio.Future[tuple[str, float]]) -> None:
            if f.cancelled():
                return
            if f.exception() is not None:
                log.error("table %s: computer seat %d failed: %r", self.code, seat, f.exception())
                self.post(Thought(turn_id, "timeout"))
                return
            move, seconds = f.result()
            if self.metrics is not None:
                self.metrics.think.observe(seconds)
            self.post(Thought(turn_id, move))

        future.add_done_callback(done)

    def late(self, now: float) -> bool:
        """Whether a computer's move arriving at ``now`` is late: after its turn was seen
        plus ``computer_delay``, ``expert_budget`` and LATE_MARGIN (docs/server.md)."""
        return computers.late(now - self._think_from, self.budgets.computer_delay,
                              self.budgets.expert_budget)

    def count_move(self) -> None:
        """A computer seat's move is about to be played: count it, and whether it is late."""
        if self.metrics is None:
            return
        self.metrics.computer_moves.inc()
        if self.late(self.clock.now()):
            self.metrics.computer_moves_late.inc()

    # Hints -------------------------------------------------------------------------------

    def hint(
        self, conn: Connection, action_id: str, state: TableState, remember: Remember
    ) -> None:
        """Answer ``conn``'s seat's hint: at once if this turn's was searched already, else
        when the one search of this turn is back (it is begun if need be); the answer comes
        back as Advice."""
        seat = conn.seat
        if not state.against_computers(seat):
            raise Refused(ErrorCode.NO_HINTS,
                          "hints are given only at a table against the computer")
        if state.turn != seat or state.match is None:
            raise Refused(ErrorCode.NOT_YOUR_TURN, "a hint is given on your turn")
        turn_id = state.turn_id
        done = self._hints.get(seat)
        if done is not None and done[0] == turn_id:
            self._answer_hint(seat, action_id, [conn], done[1], done[2], remember)
            return
        if _wait_with(self._advising.get((seat, turn_id)), action_id, conn):
            return
        if not self.workers.admit(Priority.HINT):
            raise Refused(ErrorCode.SLOW_DOWN, "the expert is busy with other hints; "
                          "ask again in a moment")
        self._advising[(seat, turn_id)] = {action_id: [conn]}
        self._start(self._advise(seat, turn_id, view(state.match, seat),
                                 self.rng.getrandbits(64)), Priority.HINT)

    async def _advise(self, seat: int, turn_id: int, seen: View, seed: int) -> None:
        try:
            move, reason = await self.workers.advise(seen, seed, self.budgets.hint_budget)
        except Exception as err:
            log.error("table %s: hint failed: %r", self.code, err)
            move, reason = "", ""
        self.post(Advice(seat, turn_id, move, reason))

    def advised(self, item: Advice, remember: Remember) -> None:
        """A hint came back: answer every id waiting for it, and keep it for the turn."""
        waiting = self._advising.pop((item.seat, item.turn_id), {})
        if not item.move:
            failed = Refused(ErrorCode.UNAVAILABLE, "no hint now; try again")
            for action_id, conns in waiting.items():
                data = encode(failed.to_error(action_id))
                for conn in conns:
                    conn.send(data)
            return
        kept = self._hints.get(item.seat)
        if kept is None or kept[0] <= item.turn_id:
            self._hints[item.seat] = (item.turn_id, item.move, item.reason)
        for action_id, conns in waiting.items():
            self._answer_hint(item.seat, action_id, conns, item.move, item.reason, remember)

    @staticmethod
    def _answer_hint(
        seat: int,
        action_id: str,
        conns: list[Connection],
        move: str,
        reason: str,
        remember: Remember,
    ) -> None:
        answer = Hint(action_id, move, reason)
        remember(seat, action_id, answer)
        data = encode(answer)
        for conn in conns:
            conn.send(data)

    def _start(self, work: Coroutine[Any, Any, None], kind: Priority) -> None:
        """Run ``work``, a hint or review the lane admitted, beside the actor (cancelled if
        the table stops); once it ends, however, the lane is told."""
        task = asyncio.get_running_loop().create_task(
            work, name=f"{kind.name.lower()} {self.code}")
        self._tasks.add(task)

        def ended(done: asyncio.Task[None]) -> None:
            self._tasks.discard(done)
            self.workers.leave(kind)

        task.add_done_callback(ended)

    # Reviews -----------------------------------------------------------------------------

    def review(
        self, conn: Connection, action_id: str, state: TableState, remember: Remember
    ) -> None:
        """Answer a ``review`` of the hand just ended: at once if this seat's review of it
        is done, else when the workers have searched it. The table only hands out the
        match's record; the search runs beside the actor."""
        seat = conn.seat
        if not state.against_computers(seat):
            raise Refused(ErrorCode.NO_HINTS,
                          "reviews are given only at a table against the computer")
        match = state.match
        if (
            state.status not in (Status.BETWEEN_HANDS, Status.OVER)
            or match is None
            or not match.log
            or match.log[-1].result is None
        ):
            raise Refused(ErrorCode.NOT_NOW, "a hand is reviewed once it is over")
        hand = len(match.log)
        done = self._reviews.get(seat)
        if done is not None and done[0] == hand:
            self._answer(seat, hand, action_id, [conn], done[1], remember)
            return
        if _wait_with(self._reviewing.get((seat, hand)), action_id, conn):
            return
        if not self.workers.admit(Priority.REVIEW):
            raise Refused(ErrorCode.SLOW_DOWN, "the expert is busy with other reviews; "
                          "ask again in a moment")
        self._reviewing[(seat, hand)] = {action_id: [conn]}
        self._start(self._compute(seat, hand, to_record(match), self.rng.getrandbits(64)),
                    Priority.REVIEW)

    async def _compute(self, seat: int, hand: int, record: dict[str, Any], seed: int) -> None:
        moves: list[ReviewMove] | None
        try:
            moves = await self.workers.review(record, seat, hand, seed,
                                              self.budgets.review_budget)
        except Exception:
            log.exception("table %s: review of hand %d for seat %d failed", self.code, hand, seat)
            moves = None
        self.post(Reviewed(seat, hand, moves))

    def reviewed(self, item: Reviewed, remember: Remember) -> None:
        """A review came back: answer every id waiting for it, and keep it."""
        waiting = self._reviewing.pop((item.seat, item.hand), {})
        if item.moves is None:
            failed = Refused(ErrorCode.UNAVAILABLE, "no review now; try again")
            for action_id, conns in waiting.items():
                data = encode(failed.to_error(action_id))
                for conn in conns:
                    conn.send(data)
            return
        self._reviews[item.seat] = (item.hand, item.moves)
        for action_id, conns in waiting.items():
            self._answer(item.seat, item.hand, action_id, conns, item.moves, remember)

    @staticmethod
    def _answer(
        seat: int,
        hand: int,
        action_id: str,
        conns: list[Connection],
        moves: list[ReviewMove],
        remember: Remember,
    ) -> None:
        answer = Review(action_id, hand, moves)
        remember(seat, action_id, answer)
        data = encode(answer)
        for conn in conns:
            conn.send(data)


def _wait_with(
    waiting: dict[str, list[Connection]] | None, action_id: str, conn: Connection
) -> bool:
    """If a search is under way (``waiting``: its askers by action id), add this asker to it,
    so that it gets the same answer when the one search is back; whether one was."""
    if waiting is None:
        return False
    conns = waiting.setdefault(action_id, [])
    if conn not in conns:
        conns.append(conn)
    return True
