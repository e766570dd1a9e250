"""One table's actor: it owns the table's state, inbox, timer, log and sockets.

What a table *is* lives in the pure table (``kabes.table``): its
:class:`~kabes.table.state.TableState`, changed only by applying log entries, so that a live
table and a rebuilt one are the same, the checks of an action, the messages. The actor drives
it: it handles its inbox one item at a time (:meth:`Table.run`: no locks, no other task
touches a table) and hands work to its parts: what a seat's action does to ``seat_actions``,
the messages to ``kabes.table.outbox`` (encoded by msgspec, ``protocol.MSGSPEC``), what
follows from a change (status, matches, ratings) to ``kabes.table.outcomes``, the computer
seats, hints and reviews to ``computer_seats``, the seats' sockets and the abandonment clock
to ``seat_sockets``, the watchers to ``watchers``, when a table starts by itself to
``kabes.table.self_start``; its log is reached through ``tablelog.TableLog``. Live, an entry
is applied, then stored (the store commits in groups), and only then broadcast and
acknowledged (PROTOCOL.md guarantee 2).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from typing import Any, Protocol

from kabes.errors import KabesError
from kabes.match import Match
from kabes.server.common.config import Settings
from kabes.server.common.logs import log_entry
from kabes.server.common.mailbox import Mailbox
from kabes.server.common.metrics import Metrics
from kabes.server.common.protocol import (
    MSGSPEC,
    Action,
    ErrorCode,
    Refused,
    as_json,
    encode,
)
from kabes.server.compute.workers import Workers
from kabes.server.store.tablelog import Lost, TableLog
from kabes.server.table import seat_actions, seat_wait
from kabes.server.table.answers import Answers
from kabes.server.table.clock import Alarm, Clock
from kabes.server.table.computer_seats import ComputerSeats
from kabes.server.table.inbox import (
    Advice,
    Call,
    ClientAction,
    Connection,
    Detach,
    Greet,
    InboxItem,
    Join,
    Reviewed,
    Thought,
    Tick,
    Watch,
    turn_away,
)
from kabes.server.table.phrases import PhraseGate
from kabes.server.table.seat_holds import SeatHolds
from kabes.server.table.seat_limits import SeatRate
from kabes.server.table.seat_sockets import SeatSockets
from kabes.server.table.watchers import Watchers
from kabes.table import actions, outbox, presence
from kabes.table.entries import Entry
from kabes.table.outcomes import effects_of
from kabes.table.presence import Presence
from kabes.table.self_start import start_alarm, start_entry
from kabes.table.state import Change, Status, TableState, replay

log = logging.getLogger("kabes.table")

STORE_RETRY_SECONDS = 1.0
"""After the store failed, how long a table waits before its clocks try to write again."""
SEATS_KEPT = frozenset({"move", "dealt"})
"""Entries that never change who holds a seat (TableState._move, _dealt): after them no
socket can have lost its seat, and the sockets are not looked over (SeatSockets.evict)."""

__all__ = ["Holder", "Settings", "Status", "Table", "restore"]


class Holder(Protocol):
    """What a table asks of whoever holds it (the hub). Given to the table when it is made,
    so that no table runs with a hook missing and nothing is set on a table from outside."""

    async def open_again(self, table: Table, seat: int) -> str:
        """Open ``table`` again (same variant, seats, options, computers), hosted by the
        person at ``seat``: the new table's code."""
        ...

    def lost(self, table: Table) -> None:
        """``table`` has another owner now (the store refused an entry for a newer one):
        drop it and send its sockets elsewhere. Called once."""
        ...

    def match_over(self, table: Table) -> None:
        """A tournament table's match is over and kept: its tournament moves on now."""
        ...

    def current(self) -> bool:
        """Whether the holder may act for its tables now (among many: its leases are
        surely its own; alone: always)."""
        ...

    async def renewed(self) -> None:
        """Wait until :meth:`current` may have changed (the holder's next renewal of its
        leases, which drops the tables another process took meanwhile)."""
        ...


class Table:
    """A table's actor."""

    def __init__(
        self,
        code: str,
        store: TableLog,
        clock: Clock,
        settings: Settings,
        workers: Workers,
        metrics: Metrics | None = None,
        *,
        holder: Holder,
        holds: SeatHolds | None,
        epoch: int,
    ) -> None:
        """``epoch``: the epoch under which this process owns the table (1 for a table it
        creates, the store's claim for one it rebuilds): every entry it writes carries it,
        and it never changes while the table lives here, so it is given now rather than
        set by the hub afterwards."""
        self.code = code
        self.holder = holder
        """Who holds this table (the hub): told when it is lost or a tournament match is
        over, asked to open it again."""
        self.store = store
        self.clock = clock
        self.settings = settings
        self.metrics = metrics
        self.state = TableState(code, settings.timing)
        self.sockets = SeatSockets(settings.seat_sockets, clock.now)
        """Each seat's open sockets, and since when nobody has had one."""
        self.watchers = Watchers()
        """The sockets watching from no seat (kabes.server.table.watchers)."""
        self.phrases = PhraseGate()
        self.presence = Presence()
        """What the log is told of the seats' connections, and when (kabes.table.presence)."""
        self.rate = SeatRate()
        """Each seat's actions in the last second, all its sockets together, by arrival."""
        self.answers = Answers()
        """Answers not in the log (refusals, hints, reviews), for retried ids."""
        self.inbox: Mailbox[InboxItem] = Mailbox()
        self.computer = ComputerSeats(code, workers, settings, clock, lambda: self.state,
                                      self.inbox.put_nowait, metrics)
        self.rng: random.Random = random.SystemRandom()
        """Where deals are shuffled from: the operating system's random source (PROTOCOL.md,
        "Safe for strangers"), never a seeded generator whose state a record could betray.
        Deals are logged as tiles, so a replay never needs it."""
        self.task: asyncio.Task[None] | None = None
        self.alarm = Alarm(clock, lambda: self.inbox.put_nowait(Tick()))
        """Goes off when the running clock (a turn's, the pause's) may have run out."""
        self.closed = False
        self._stale = False
        """A write failed and the store could not be read back: this state may hold a change
        that was never kept, so it is rebuilt from the store before anything else happens."""
        self._retry_at = 0.0
        self.epoch = epoch
        """The epoch of this process's ownership: every entry it writes carries it."""
        self.lost = False
        """Another process owns this table now: it writes nothing more, answers nothing."""
        self.holds = holds
        """Where the seats each player holds at waiting tables are counted (the hub's;
        None: not counted)."""

    # What the table is (its state), as others read it -------------------------------------

    @property
    def status(self) -> Status:
        """Where the table is in its life."""
        return self.state.status

    @property
    def seq(self) -> int:
        """The table's sequence number: its last entry's."""
        return self.state.seq

    @property
    def match(self) -> Match | None:
        """The match, once started."""
        return self.state.match

    @property
    def watcher_count(self) -> int:
        """Sockets watching this table now (the summary's ``watchers``)."""
        return len(self.watchers)

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has a socket open here."""
        return self.sockets.connected(seat)

    def summary(self, seated: bool = False) -> dict[str, Any]:
        """The table summary of PROTOCOL.md, as JSON values: as anyone may read it, or as
        the table's seats are shown it (``seated``: with ``next_table``)."""
        return as_json(outbox.summary(self.state, self.connected, seated, self.watcher_count))

    def view_json(self, seat: int) -> dict[str, Any]:
        """``seat``'s VIEW now, as JSON values."""
        running = outbox.clocks(self.state, self.clock.now(), self.connected)
        return as_json(outbox.seat_view(self.state, seat, running))

    def seat_of(self, player: int) -> int | None:
        """The seat ``player`` holds here, if any."""
        return self.state.seat_of(player)

    # The actor ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start the actor's task and the clocks."""
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table {self.code}")
        self._reschedule()

    async def stop(self) -> None:
        """Stop the actor (the hub shutting down or forgetting a finished table)."""
        self.closed = True
        self.alarm.cancel()
        self.computer.stop()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def post(self, item: InboxItem) -> None:
        """Hand ``item`` to the actor (a socket's action, hello or close, here or relayed
        from another process): it is handled in its turn, after what came before."""
        self.inbox.put_nowait(item)

    async def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the table's task and return what it returns."""
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.post(Call(fn, reply))
        return await reply

    async def join(self, player: int, name: str) -> int:
        """Seat ``player`` (the lowest free seat, or the one they hold already): the seat.
        Refused when there is none. Checked and taken in one item on the actor's task, so no
        other join or leave can come between the check and the seat."""
        reply: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.post(Join(player, name, reply))
        return await reply

    async def run(self) -> None:
        """Handle the inbox, one item at a time, for as long as the table lives."""
        while True:
            item = await self.inbox.get()
            # Among many, a process that went unheard (frozen, cut off) acts for no table
            # before its leases are renewed: a table another process took meanwhile is lost
            # by then, and the item turned away (kabes.server.hub.leases).
            while not self.holder.current() and not self.lost and not self.closed:
                await self.holder.renewed()
            try:
                await self._handle(item)
                with contextlib.suppress(Refused):
                    await self.start_if_due()
                self.sockets.send_off(self.state)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: failed on %s", self.code, type(item).__name__)
                # Whatever failed may have left the state half-changed: rebuild it from the
                # store before the next item, and answer the asker rather than leave it waiting.
                self._stale = True
                turn_away(item, Refused(ErrorCode.UNAVAILABLE, "the server failed on that"))
            self._reschedule()

    async def _handle(self, item: InboxItem) -> None:
        if self.lost:  # the new owner answers: the socket reconnects and reaches it
            turn_away(item, Refused(ErrorCode.UNAVAILABLE, "this table has moved; reconnect"),
                      close=1012)
            return
        if self._stale and not isinstance(item, Greet | Watch | Detach | Reviewed):
            try:
                await self._reload()
            except Refused as err:
                if not isinstance(item, ClientAction):
                    raise
                item.conn.send(encode(err.to_error(item.action.id)))
                return
        if isinstance(item, ClientAction):
            await self._on_action(item.conn, item.action, item.received or time.perf_counter())
            if self.metrics is not None and item.received:
                self.metrics.action_latency(item.action).observe(
                    time.perf_counter() - item.received)
        elif isinstance(item, Greet):
            seated = await self._on_greet(item.conn)
            if item.seated is not None and not item.seated.done():
                item.seated.set_result(seated)
        elif isinstance(item, Watch):
            self.watchers.admit(item.conn, self.state, self.connected, self.clock.now())
        elif isinstance(item, Detach):
            await self._on_detach(item.conn, item.forced)
        elif isinstance(item, Join):
            await self._on_join(item)
        elif isinstance(item, Tick):
            await self._on_tick()
        elif isinstance(item, Thought):
            turn = self.state.turn
            if item.turn_id == self.state.turn_id and turn is not None:
                self.computer.count_move()
                await self.commit("move", {"seat": turn, "move": item.move})
        elif isinstance(item, Advice):
            self.computer.advised(item, self.answers.remember)
        elif isinstance(item, Reviewed):
            self.computer.reviewed(item, self.answers.remember)
        elif isinstance(item, Call) and not item.reply.done():
            item.reply.set_result(item.fn())

    # Changes: applied, stored, then told ---------------------------------------------------

    async def commit(
        self,
        kind: str,
        data: dict[str, Any],
        seat: int | None = None,
        action: str | None = None,
    ) -> Entry:
        """Apply a new entry, store it, then tell every seat. If the store fails the table
        is put back as it was before the entry, and Refused ``unavailable`` goes up."""
        if self._stale:
            await self._reload()
        if self.lost:
            raise Refused(ErrorCode.UNAVAILABLE, "this table has moved; reconnect")
        state = self.state
        data = self.presence.stamp(kind, data, self.connected, state)
        entry = Entry(state.seq + 1, kind, data, self.clock.now(), seat, action, self.epoch)
        before = state.status
        try:
            change = state.apply(entry)
        except KabesError as err:
            # The engine checks a move completely before it changes anything.
            raise Refused(ErrorCode.ILLEGAL_MOVE, err.message, err.reason, err.facts) from None
        effects = effects_of(state, entry, change.events, before)
        try:
            await self.store.append(self.code, entry, effects)
        except Lost:
            log.warning("table %s: seq %d refused, another owner has it (epoch %d was ours)",
                        self.code, entry.seq, self.epoch)
            self.lose()
            raise Refused(ErrorCode.UNAVAILABLE, "this table has moved; reconnect") from None
        except Exception:
            log.exception("table %s: could not store seq %d", self.code, entry.seq)
            self._retry_at = self.clock.now() + STORE_RETRY_SECONDS
            await self._reload()
            raise Refused(ErrorCode.UNAVAILABLE,
                          "the table could not store that; try again") from None
        log_entry(log, self.code, entry)
        if kind not in SEATS_KEPT:  # before the change is told: see SeatSockets.evict
            self.sockets.evict(state)
        if state.status == Status.OVER != before and state.tournament:
            self.holder.match_over(self)
        seats = self.sockets.seats()
        if seats or self.watchers:  # else nobody to tell (a round's tables just opened)
            self._tell(state, change, seats)
        if self.metrics is not None and kind == "move":
            self.metrics.moves.inc()
        return entry

    def _tell(self, state: TableState, change: Change, seats: list[int]) -> None:
        """Send every connected seat and the watchers their update after ``change``."""
        for seat_number, data_out in outbox.updates(state, change.news, change.events, seats,
                                                    self.connected, self.clock.now(),
                                                    MSGSPEC, self.watcher_count,
                                                    watching=bool(self.watchers)):
            if seat_number is None:
                self.watchers.send(data_out)
                continue
            self.sockets.send(seat_number, data_out)

    def lose(self) -> None:
        """Another process owns this table now (the store refused an entry, or the lease
        went elsewhere): nothing more is written or sent from here; the hub drops it."""
        if self.lost:
            return
        self.lost = True
        self.alarm.cancel()
        # After the refusal in hand is answered: the asker hears why, then the socket closes.
        asyncio.get_running_loop().call_soon(self.holder.lost, self)

    async def _reload(self) -> None:
        """Rebuild this table from the store after a failed write (nothing was acked). If
        the store cannot be read either, the table is marked stale and tries again before
        its next change (Refused ``unavailable`` until then)."""
        try:
            entries = await self.store.load(self.code)
        except Exception as err:
            self._stale = True
            log.warning("table %s: store unreadable, table not rebuilt (%r)", self.code, err)
            raise Refused(ErrorCode.UNAVAILABLE,
                          "the table's store is unreachable; try again") from None
        self.state = replay(self.code, self.settings.timing, entries)
        self._stale = False
        self.computer.forget_turn()

    # Handlers ----------------------------------------------------------------------------

    async def _on_greet(self, conn: Connection) -> bool:
        # Found and seated in this one item: nothing can take the seat from the socket's
        # player between the two (later changes of the seat: SeatSockets.evict).
        seat = self.sockets.seat_for(conn, self.state)
        if seat is None:
            return False
        # The welcome first (PROTOCOL.md: welcome, then updates), showing the table at its
        # seq without this socket; the seat's coming back is told after it.
        conn.send(encode(outbox.welcome(self.state, seat, self.connected, self.clock.now(),
                                        self.watcher_count)))
        if self.sockets.add(conn) and self.state.seat(seat).person:
            await self._presence(seat, True)
        return True

    async def _on_detach(self, conn: Connection, forced: bool = False) -> None:
        if self.watchers.drop(conn):
            return
        if not self.sockets.drop(conn):
            return
        seats = self.state.seats
        sitter = seats[conn.seat] if conn.seat < len(seats) else None
        if sitter is not None and sitter.person and not sitter.left and not self.closed:
            await self._presence(conn.seat, False, forced)

    async def _presence(self, seat: int, here: bool, forced: bool = False) -> None:
        """``seat`` gained its first socket (``here``) or lost its last: logged, or only
        told to every socket at the current seq (kabes.table.presence)."""
        found = self.presence.change(self.state, seat, here, self.clock.now(), forced)
        if found is not None:
            with contextlib.suppress(Refused):
                await self.commit(*found)
        elif self.sockets or self.watchers:
            news = {"kind": "connected" if here else "disconnected", "seat": seat}
            self._tell(self.state, Change(news=[news]), self.sockets.seats())

    async def _on_join(self, join: Join) -> None:
        try:
            seat = await self._join(join.player, join.name)
        except Refused as err:
            if not join.reply.done():
                join.reply.set_exception(err)
            return
        if not join.reply.done():
            join.reply.set_result(seat)

    async def _join(self, player: int, name: str) -> int:
        found = actions.join(self.state, player, name)
        if isinstance(found, int):
            await self.start_if_due()  # a start that failed after this join is tried again
            return found
        kind, data = found
        if self.holds is None or self.state.tournament is not None:
            await self.commit(kind, data)
        else:  # at most 3 waiting seats a player: the check and the entry (seat_holds)
            await self.holds.seat(player, self.code, lambda: self.commit(kind, data))
        await self.start_if_due()
        return int(data["seat"])

    async def start_if_due(self) -> None:
        """Start the table if it starts by itself now (kabes.table.self_start): a public
        one full, a tournament's with its people here or its time come. A failed write goes
        up to the asker (a joiner tries again); the actor's loop looks again after every
        item."""
        data = start_entry(self.state, self.connected, self.clock.now(), self.rng)
        if data is not None and not self.lost:
            await self.commit("started", data)

    def abandon_at(self) -> float | None:
        """When this table is abandoned if nobody comes (None: someone is here, it is over,
        or it is a tournament's waiting for its start: it starts by itself at its time, and
        one closed before would never end its match, holding up its round)."""
        empty_since, state = self.sockets.empty_since, self.state
        if empty_since is None or state.status == Status.OVER or (
                state.tournament is not None and state.status == Status.WAITING):
            return None
        return empty_since + self.settings.abandon_seconds

    async def _on_tick(self) -> None:
        state = self.state
        abandon = self.abandon_at()
        if abandon is not None and self.clock.now() >= abandon:
            with contextlib.suppress(Refused):
                await self.commit("abandoned", {})
            return
        await seat_wait.free_absent(self)
        for kind, data in self.presence.flush(self.state, self.connected, self.clock.now()):
            with contextlib.suppress(Refused):
                await self.commit(kind, data)
        deadline = presence.deadline(self.state, self.connected)
        if deadline is None or self.clock.now() < deadline:
            return
        state = self.state
        turn = state.turn
        with contextlib.suppress(Refused):
            if turn is not None:
                await self.commit("move", {"seat": turn, "move": "timeout"})
            elif state.status == Status.BETWEEN_HANDS:
                await self.commit("dealt", actions.new_deal(state, self.rng))

    async def _on_action(self, conn: Connection, action: Action, received: float) -> None:
        seat = conn.seat
        if conn in self.watchers:
            self.watchers.act(conn, action, self.state, self.connected, self.clock.now())
            return
        if not self.sockets.holds(conn, self.state):
            # A socket of a seat given up or of another player's: it speaks for nobody.
            refused = Refused(ErrorCode.NOT_SEATED, "you hold no seat at this table")
            conn.send(encode(refused.to_error(action.id)))
            self.sockets.refuse(conn)
            return
        try:
            self.rate.check(seat, received)
        except Refused as err:  # not remembered: the same id sent later is tried afresh
            conn.send(encode(err.to_error(action.id)))
            return
        answered = self.answers.of(self.state, seat, action.id)
        if answered is not None:
            conn.send(encode(answered))
            return
        try:
            await seat_actions.act(self, conn, action)
        except Refused as err:
            answer = err.to_error(action.id)
            if err.code not in (ErrorCode.UNAVAILABLE, ErrorCode.SLOW_DOWN):
                self.answers.remember(seat, action.id, answer)
            conn.send(encode(answer))

    async def open_again(self, seat: int) -> str:
        """Open the same table again with ``seat``'s person as host (its holder does): the
        new table's code."""
        return await self.holder.open_again(self, seat)

    # Clocks --------------------------------------------------------------------------------

    def _reschedule(self) -> None:
        """Set the alarm for the running clock, and wake a computer seat whose turn it is."""
        if self.closed or self.lost:
            return
        deadline = presence.deadline(self.state, self.connected)
        for also in (self.abandon_at(), start_alarm(self.state), seat_wait.next_alarm(self),
                     self.presence.due(self.state, self.connected)):
            if also is not None:
                deadline = also if deadline is None else min(deadline, also)
        if deadline is not None:
            self.alarm.set(max(deadline, self._retry_at))
        self.computer.wake(self.state)


async def restore(table: Table, entries: list[Entry], heartbeat: float | None) -> None:
    """Rebuild ``table`` from its log; if a clock was running when the server stopped, log
    a ``resumed`` entry giving back exactly the time it had left at the last heartbeat."""
    table.state = replay(table.code, table.settings.timing, entries)
    if table.state.status not in (Status.PLAYING, Status.BETWEEN_HANDS):
        return
    stopped = heartbeat if heartbeat is not None else table.clock.now()
    remaining, paused = table.state.left_at(stopped)
    await table.commit(
        "resumed", {"remaining_ms": round(remaining * 1000), "pause_ms": round(paused * 1000)}
    )
