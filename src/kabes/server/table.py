"""One table: an actor that owns its match, its seats, its clocks and its log.

Every change of a table is an :class:`Entry` of its append-only log (a seat taken, a move, a
deal, a clock running out, a restart). The table applies entries with one function,
:meth:`Table.apply`, both live and when it is rebuilt from the store, so a rebuilt table is
the table that was. Live, an entry is applied, then stored (the store commits in groups), and
only then broadcast and acknowledged (PROTOCOL.md guarantee 2).

All input reaches the table through its inbox and is handled one item at a time by
:meth:`Table.run`: no locks, and no other task ever touches a table's state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from kabes.errors import BadMove, KabesError
from kabes.events import Event, HandEnded, LeadDrawn
from kabes.match import Match
from kabes.moves import TIMEOUT, Timeout, parse_move
from kabes.records import to_record
from kabes.review import Decision, seeds
from kabes.rules import get_rules
from kabes.server import computers, wire
from kabes.server.clock import Clock, Timer
from kabes.server.config import Settings
from kabes.server.effects import Effect, HandRated, MatchFinished, MatchStarted, TableStatus
from kabes.server.metrics import Metrics
from kabes.server.rankings import hand_ranks
from kabes.tiles import parse_tile
from kabes.views import view

log = logging.getLogger("kabes.table")

ANSWERS_KEPT = 512
"""Answers remembered per seat for retried action ids."""
STORE_RETRY_SECONDS = 1.0
"""After the store failed, how long a table waits before its clocks try to write again."""
REVIEW_WORKERS_KEPT_FREE = 1
"""Workers that reviews leave to the computer seats: every table's reviews together search
at most (workers - 1) positions at once (at least one), so that a computer seat's move does
not wait for a worker behind a review. A review of n positions takes about n / (workers - 1)
times the review budget."""


class Status(StrEnum):
    """Where a table is in its life."""

    WAITING = "waiting"
    PLAYING = "playing"
    BETWEEN_HANDS = "between_hands"
    OVER = "over"


@dataclass(slots=True)
class Entry:
    """One change of a table, as its log keeps it."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float
    """Wall time of the change, in seconds."""
    seat: int | None = None
    """The seat whose action made it, if any."""
    action: str | None = None
    """That action's id, so a retried id is answered, not applied again."""
    epoch: int = 0
    """The epoch of the owner that wrote it (the store refuses one older than the table's)."""


class Connection(Protocol):
    """One client socket, as a table sees it."""

    seat: int

    def send(self, data: bytes) -> None:
        """Queue ``data`` for the client; never blocks."""
        ...

    def close(self, code: int) -> None:
        """Close the socket (after what is queued)."""
        ...


class Store(Protocol):
    """What a table needs of the store."""

    async def append(self, code: str, entry: Entry, effects: list[Effect]) -> None:
        """Commit ``entry`` and its effects durably; raise if that cannot be done (the
        store's ``Fenced`` if the table has a newer owner)."""
        ...


class Lost(Exception):
    """Raised by a table's store when the table has a newer owner: whoever holds this table
    in memory holds it no longer (the store's ``Fenced`` is one)."""


class TableError(Exception):
    """An action refused with a protocol error code; nothing was changed. A refused move
    also carries the engine's ``reason`` and ``facts`` (see kabes.errors), which the
    ``error`` message passes on so that clients can word it themselves."""

    def __init__(
        self,
        code: str,
        message: str,
        reason: str | None = None,
        facts: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.facts = facts


@dataclass(slots=True)
class Seat:
    """Who sits in a seat."""

    kind: str
    """``person`` or ``computer``."""
    name: str
    player: int | None = None
    level: str | None = None
    arrived: int = 0
    """The seq at which this person sat down (arrival order, for handing on the host)."""
    left: bool = False
    away_since: float | None = None
    restarted: bool = False
    """Since a restart (or a disconnection forced by the servers: a process died, the link
    between processes broke), this person has neither come back nor ended a turn: they were
    forced off, so they keep the normal clock until one of those happens."""
    """When this person last lost every socket (None while connected; computers: None)."""
    sockets: list[Connection] = field(default_factory=list)

    @property
    def person(self) -> bool:
        """Whether a person sits here."""
        return self.kind == "person"


# Inbox items -------------------------------------------------------------------------------


@dataclass(slots=True)
class ClientAction:
    """A decoded action from a seat's socket."""

    conn: Connection
    action: wire.Action
    received: float = 0.0
    """``time.perf_counter()`` when the socket read it (for the latency histogram)."""


@dataclass(slots=True)
class Attach:
    """A socket said hello for a seat."""

    conn: Connection


@dataclass(slots=True)
class Greet:
    """A socket said hello for ``player``, whose seat the table finds (a socket relayed from
    another process: see kabes.server.relay)."""

    conn: Connection
    player: int


@dataclass(slots=True)
class Detach:
    """A socket closed (``forced``: by the servers, not by its client: the process holding
    it died, or the link between processes broke)."""

    conn: Connection
    forced: bool = False


@dataclass(slots=True)
class Join:
    """A person asks for a seat (HTTP)."""

    player: int
    name: str
    reply: asyncio.Future[int]


@dataclass(slots=True)
class Tick:
    """A clock may have run out."""


@dataclass(slots=True)
class Thought:
    """A computer seat's move, for decision ``turn_id``."""

    turn_id: int
    move: str


@dataclass(slots=True)
class Advice:
    """The expert's answer to a hint."""

    conn: Connection
    action_id: str
    move: str
    reason: str


@dataclass(slots=True)
class Reviewed:
    """A review computed for ``seat``'s hand ``hand``: the answer's moves (None if it
    failed)."""

    seat: int
    hand: int
    moves: list[dict[str, Any]] | None


@dataclass(slots=True)
class Call:
    """Run a function on the table's task (tests, the hub)."""

    fn: Callable[[], Any]
    reply: asyncio.Future[Any]


InboxItem = (
    ClientAction | Attach | Greet | Detach | Join | Tick | Thought | Advice | Reviewed | Call
)


class Table:
    """A table's state and the actor that changes it."""

    def __init__(
        self,
        code: str,
        store: Store,
        clock: Clock,
        settings: Settings,
        executor: Executor | None,
        metrics: Metrics | None = None,
    ) -> None:
        self.code = code
        self.store = store
        self.clock = clock
        self.settings = settings
        self.executor = executor
        self.metrics = metrics
        self.rng = random.Random(os.urandom(16))
        self.variant = ""
        self.players = 0
        self.options: dict[str, Any] = {}
        self.seats: list[Seat | None] = []
        self.host = 0
        self.status = Status.WAITING
        self.match: Match | None = None
        self._unstarted: Match | None = None
        self.seq = 0
        self.changed_at = 0.0
        self.turn_id = 0
        self.turn_start = 0.0
        self.turn_budget = 0.0
        self.pause_start = 0.0
        self.pause_budget = 0.0
        self.answers: dict[int, OrderedDict[str, dict[str, Any]]] = {}
        self.inbox: asyncio.Queue[InboxItem] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self._timer: Timer | None = None
        self._thinking = -1
        self._think_from = 0.0
        """When the computer seat's turn was seen (clock time): a move is late from it."""
        self._advising: set[tuple[int, str]] = set()
        self._reviewing: dict[tuple[int, int], dict[str, list[Connection]]] = {}
        """Reviews being computed, by (seat, hand): the sockets waiting, by action id."""
        self._reviews: dict[int, tuple[int, list[dict[str, Any]]]] = {}
        """Each seat's last review: the hand and the answer's moves (asked again, not
        computed again)."""
        self._review_tasks: set[asyncio.Task[None]] = set()
        self.closed = False
        self._stale = False
        """A write failed and the store could not be read back: this state may hold a change
        that was never kept, so it is rebuilt from the store before anything else happens."""
        self._retry_at = 0.0
        self.next_table: str | None = None
        """The table opened by ``play_again`` once this match is over."""
        self.reopen: Callable[[Table, int], Awaitable[str]] | None = None
        """Opens the same table again with ``seat``'s person as host (set by the hub)."""
        self.epoch = 0
        """The epoch of this process's ownership: every entry it writes carries it."""
        self.lost = False
        """Another process owns this table now: it writes nothing more, answers nothing."""
        self.on_lost: Callable[[Table], None] | None = None
        """Called once when the store refuses an entry for a newer owner (set by the hub,
        which drops the table and sends its sockets elsewhere)."""

    # The log ---------------------------------------------------------------------------

    def apply(self, entry: Entry) -> tuple[list[Event], list[dict[str, Any]]]:
        """Apply one log entry; the engine events and table events it made. Raises
        KabesError (nothing changed) only for a move the engine refuses."""
        kind, data, at = entry.kind, entry.data, entry.at
        news: list[dict[str, Any]] = []
        events: list[Event] = []
        if kind == "created":
            self.variant = data["variant"]
            self.players = data["players"]
            self.options = dict(data["options"])
            self.seats = [None] * self.players
            self.seats[0] = Seat("person", data["name"], data["player"], arrived=entry.seq,
                                 away_since=at)
            for seat, level in data["computers"].items():
                self.seats[int(seat)] = Seat("computer", level.capitalize(), level=level)
            self.host = 0
        elif kind == "joined":
            seat = data["seat"]
            self.seats[seat] = Seat("person", data["name"], data["player"], arrived=entry.seq,
                                    away_since=at)
            news.append({"kind": "seat_taken", "seat": seat})
        elif kind == "connected":
            sitter = self._seat(data["seat"])
            sitter.away_since = None
            sitter.restarted = False
            news.append({"kind": "connected", "seat": data["seat"]})
        elif kind == "disconnected":
            sitter = self._seat(data["seat"])
            sitter.away_since = at
            if data.get("forced"):  # the servers dropped the socket: not the person's doing
                sitter.restarted = True
            news.append({"kind": "disconnected", "seat": data["seat"]})
        elif kind == "left":
            seat = data["seat"]
            if self.status == Status.WAITING:
                self.seats[seat] = None
            else:
                sitter = self._seat(seat)
                sitter.left = True
                sitter.away_since = sitter.away_since or at
            news.append({"kind": "seat_left", "seat": seat})
            if data.get("host") is not None and data["host"] != self.host:
                self.host = data["host"]
                news.append({"kind": "host_changed", "seat": self.host})
            if data.get("closed"):
                self.status = Status.OVER
        elif kind == "started":
            self.match = Match(self.variant, self.players, self.options)
            self.status = Status.PLAYING
            news.append({"kind": "started"})
            events += self._deal(data, at)
        elif kind == "dealt":
            self.status = Status.PLAYING
            events += self._deal(data, at)
        elif kind == "move":
            assert self.match is not None
            seat = data["seat"]
            top = self.match.rules.top
            move = TIMEOUT if data["move"] == "timeout" else parse_move(data["move"], top)
            events += self.match.apply(seat, move)
            self._seat(seat).restarted = False  # its first turn since a restart is over
            self._after_move(at)
        elif kind == "finish":
            assert self.match is not None
            events += self.match.finish()
            self.status = Status.OVER
            news.append({"kind": "finished"})
        elif kind == "next_table":
            self.next_table = data["code"]
            news.append({"kind": "next_table", "code": self.next_table})
        elif kind == "resumed":
            self.turn_start = at
            self.turn_budget = data["remaining_ms"] / 1000
            self.pause_start = at
            self.pause_budget = data["pause_ms"] / 1000
            for someone in self.seats:
                if someone is not None and someone.person:
                    someone.away_since = someone.away_since if someone.left else at
                    someone.restarted = not someone.left
        else:
            raise ValueError(f"table {self.code}: unknown log entry {kind!r}")
        self.seq = entry.seq
        self.changed_at = at
        if entry.seat is not None and entry.action is not None:
            self._remember(entry.seat, entry.action, _ack(entry.action, entry.seq))
        return events, news

    def _deal(self, data: dict[str, Any], at: float) -> list[Event]:
        assert self.match is not None
        top = self.match.rules.top
        deal = [[parse_tile(t, top) for t in hand] for hand in data["deal"]]
        stock = [parse_tile(t, top) for t in data["stock"]]
        events: list[Event] = []
        if data.get("leader") is not None:
            events.append(LeadDrawn((), data["leader"]))
        events += self.match.start_hand(deal, stock, data.get("leader"))
        self.turn_id += 1
        self.turn_start = at
        self.turn_budget = self.settings.turn_seconds
        return events

    def _after_move(self, at: float) -> None:
        assert self.match is not None
        self.turn_id += 1
        if self.match.over:
            self.status = Status.OVER
        elif not self.match.hand_in_progress:
            self.status = Status.BETWEEN_HANDS
            self.pause_start = at
            self.pause_budget = self.settings.pause_seconds
        else:
            self.turn_start = at
            self.turn_budget = self.settings.turn_seconds

    def _seat(self, seat: int) -> Seat:
        sitter = self.seats[seat]
        assert sitter is not None, f"seat {seat} is empty"
        return sitter

    def _remember(self, seat: int, action: str, answer: dict[str, Any]) -> None:
        kept = self.answers.setdefault(seat, OrderedDict())
        kept[action] = answer
        while len(kept) > ANSWERS_KEPT:
            kept.popitem(last=False)

    # Facts -------------------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to move, while a hand is played."""
        if self.status != Status.PLAYING or self.match is None:
            return None
        return self.match.turn

    @property
    def people_only(self) -> bool:
        """Whether every seat is (or will be) a person's: only such tables are rated."""
        return all(s is None or s.person for s in self.seats)

    def away(self, seat: int) -> bool:
        """Whether ``seat`` is on the short clock: a person with no socket (or who left)."""
        sitter = self.seats[seat]
        return (
            sitter is not None and sitter.person and sitter.away_since is not None
            and not sitter.restarted
        )

    def deadline(self) -> float | None:
        """When the running clock (the turn's, or the pause's) runs out, if one runs."""
        turn = self.turn
        if turn is not None:
            end = self.turn_start + self.turn_budget
            sitter = self.seats[turn]
            if sitter is not None and sitter.away_since is not None and self.away(turn):
                went = max(self.turn_start, sitter.away_since)
                end = min(end, went + self.settings.away_seconds)
            return end
        if self.status == Status.BETWEEN_HANDS:
            return self.pause_start + self.pause_budget
        return None

    @property
    def rules_match(self) -> Match:
        """The match, or before the start a match not yet dealt (its options with defaults,
        its first hand's rules), built once rather than for every summary and view."""
        if self.match is not None:
            return self.match
        if self._unstarted is None:
            self._unstarted = Match(self.variant, self.players, self.options)
        return self._unstarted

    def summary(self) -> dict[str, Any]:
        """The table summary of PROTOCOL.md."""
        match = self.rules_match
        options = {name: getattr(match.options, name) for name in match.specs}
        return {
            "code": self.code,
            "variant": self.variant,
            "players": self.players,
            "options": options,
            "host": self.host,
            "status": str(self.status),
            "seats": [self._seat_json(n, s) for n, s in enumerate(self.seats)],
            "next_table": self.next_table,
        }

    def _seat_json(self, number: int, sitter: Seat | None) -> dict[str, Any] | None:
        if sitter is None:
            return None
        return {
            "seat": number,
            "name": sitter.name,
            "player": sitter.player,
            "kind": sitter.kind,
            "level": sitter.level,
            "connected": not sitter.person or bool(sitter.sockets),
            "left": sitter.left,
        }

    def view_json(self, seat: int, memo: dict[str, Any] | None = None) -> dict[str, Any]:
        """The seat's VIEW, with the clock and the pause (``memo``: see wire.view_json)."""
        now = self.clock.now()
        clock = pause = None
        deadline = self.deadline()
        turn = self.turn
        if turn is not None and deadline is not None:
            away = self.away(turn)
            total = self.turn_budget
            if away:
                total = min(total, self.settings.away_seconds)
            clock = {
                "seat": turn,
                "remaining_ms": max(0, round((deadline - now) * 1000)),
                "away": away,
                "total_ms": round(total * 1000),
            }
        elif self.status == Status.BETWEEN_HANDS and deadline is not None:
            pause = {
                "remaining_ms": max(0, round((deadline - now) * 1000)),
                "total_ms": round(self.pause_budget * 1000),
            }
        if self.match is None:
            return self._empty_view(seat, clock, pause)
        return wire.view_json(view(self.match, seat), clock, pause, memo)

    def _empty_view(
        self, seat: int, clock: dict[str, Any] | None, pause: dict[str, Any] | None
    ) -> dict[str, Any]:
        """Before the start: a view of a match not yet dealt."""
        return wire.view_json(view(self.rules_match, seat), clock, pause)

    def seat_of(self, player: int) -> int | None:
        """The seat ``player`` holds here, if any."""
        for number, sitter in enumerate(self.seats):
            if sitter is not None and sitter.player == player and not sitter.left:
                return number
        return None

    # The actor ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start the actor's task and the clocks."""
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table {self.code}")
        self._reschedule()

    async def stop(self) -> None:
        """Stop the actor (the hub shutting down or forgetting a finished table)."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        for reviewing in list(self._review_tasks):
            reviewing.cancel()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the table's task and return what it returns."""
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait(Call(fn, reply))
        return await reply

    async def run(self) -> None:
        """Handle the inbox, one item at a time, for as long as the table lives."""
        while True:
            item = await self.inbox.get()
            try:
                await self._handle(item)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: failed on %s", self.code, type(item).__name__)
                # Whatever failed may have left the state half-changed: rebuild it from the
                # store before the next item, and answer the asker rather than leave it waiting.
                self._stale = True
                if isinstance(item, ClientAction):
                    failed = wire.error(item.action.id, "unavailable", "the server failed on that")
                    item.conn.send(wire.encode(failed))
                if isinstance(item, Join) and not item.reply.done():
                    item.reply.set_exception(TableError("unavailable", "the table failed"))
                if isinstance(item, Call) and not item.reply.done():
                    item.reply.set_exception(TableError("unavailable", "the table failed"))
            self._reschedule()

    async def _handle(self, item: InboxItem) -> None:
        if self.lost:
            self._refuse(item)
            return
        if self._stale and not isinstance(item, Attach | Greet | Detach | Reviewed):
            try:
                await self._reload()
            except TableError as err:
                if not isinstance(item, ClientAction):
                    raise
                refused = wire.refusal(item.action.id, err.code, err.message, err.reason,
                                       err.facts)
                item.conn.send(wire.encode(refused))
                return
        if isinstance(item, ClientAction):
            await self._on_action(item.conn, item.action)
            if self.metrics is not None and item.received:
                kind = type(item.action).__name__.removesuffix("Action").lower()
                self.metrics.latency.labels(kind).observe(time.perf_counter() - item.received)
        elif isinstance(item, Attach):
            await self._on_attach(item.conn)
        elif isinstance(item, Greet):
            seat = self.seat_of(item.player)
            if seat is None:
                item.conn.send(wire.encode(wire.error(None, "not_seated",
                                                      "you hold no seat at this table")))
                item.conn.close(4401)
                return
            item.conn.seat = seat
            await self._on_attach(item.conn)
        elif isinstance(item, Detach):
            await self._on_detach(item.conn, item.forced)
        elif isinstance(item, Join):
            await self._on_join(item)
        elif isinstance(item, Tick):
            await self._on_tick()
        elif isinstance(item, Thought):
            if item.turn_id == self.turn_id and self.turn is not None:
                self._count_computer_move()
                await self._commit("move", {"seat": self.turn, "move": item.move})
        elif isinstance(item, Advice):
            self._advising.discard((item.conn.seat, item.action_id))
            if not item.move:
                failed = wire.error(item.action_id, "unavailable", "no hint now; try again")
                item.conn.send(wire.encode(failed))
                return
            answer = {
                "type": "hint", "id": item.action_id, "move": item.move, "reason": item.reason
            }
            self._remember(item.conn.seat, item.action_id, answer)
            item.conn.send(wire.encode(answer))
        elif isinstance(item, Reviewed):
            self._on_reviewed(item)
        elif isinstance(item, Call) and not item.reply.done():
            item.reply.set_result(item.fn())

    @staticmethod
    def _refuse(item: InboxItem) -> None:
        """Answer ``item`` of a table that has moved to another process: ``unavailable``."""
        moved = TableError("unavailable", "this table has moved; reconnect")
        if isinstance(item, ClientAction):
            item.conn.send(wire.encode(wire.error(item.action.id, moved.code, moved.message)))
        elif isinstance(item, Join | Call) and not item.reply.done():
            item.reply.set_exception(moved)
        elif isinstance(item, Attach | Greet):
            item.conn.close(1012)

    async def _commit(
        self,
        kind: str,
        data: dict[str, Any],
        seat: int | None = None,
        action: str | None = None,
    ) -> Entry:
        """Apply a new entry, store it, then tell every seat. If the store fails the table
        is put back as it was before the entry, and the error goes up."""
        if self._stale:
            await self._reload()
        if self.lost:
            raise TableError("unavailable", "this table has moved; reconnect")
        entry = Entry(self.seq + 1, kind, data, self.clock.now(), seat, action, self.epoch)
        before_status = self.status
        try:
            events, news = self.apply(entry)
        except KabesError as err:
            # The engine checks a move completely before it changes anything.
            raise TableError("illegal_move", err.message, err.reason, err.facts) from None
        effects = self._effects(entry, events, before_status)
        try:
            await self.store.append(self.code, entry, effects)
        except Lost:
            log.warning("table %s: seq %d refused, another owner has it (epoch %d was ours)",
                        self.code, entry.seq, self.epoch)
            self.lose()
            raise TableError("unavailable", "this table has moved; reconnect") from None
        except Exception:
            log.exception("table %s: could not store seq %d", self.code, entry.seq)
            self._retry_at = self.clock.now() + STORE_RETRY_SECONDS
            if seat is not None and action is not None:
                self.answers.get(seat, OrderedDict()).pop(action, None)  # apply() kept an ack
            await self._reload()
            raise TableError("unavailable", "the table could not store that; try again") from None
        self._log(entry)
        self._broadcast(events, news)
        if self.metrics is not None and kind == "move":
            self.metrics.moves.inc()
        return entry

    def lose(self) -> None:
        """Another process owns this table now (the store refused an entry, or the lease
        went elsewhere): nothing more is written or sent from here; the hub drops it."""
        if self.lost:
            return
        self.lost = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.on_lost is not None:
            # After the refusal in hand is answered: the asker hears why, then the socket
            # closes.
            asyncio.get_running_loop().call_soon(self.on_lost, self)

    async def _reload(self) -> None:
        """Rebuild this table from the store after a failed write (nothing was acked). If
        the store cannot be read either, the table is marked stale and tries again before
        its next change (TableError ``unavailable`` until then)."""
        loader = getattr(self.store, "load_entries", None)
        if loader is None:
            return
        try:
            entries: list[Entry] = await loader(self.code)
        except Exception as err:
            self._stale = True
            log.warning("table %s: store unreadable, table not rebuilt (%r)", self.code, err)
            raise TableError("unavailable", "the table's store is unreachable; try again") from None
        sockets = {n: list(s.sockets) for n, s in enumerate(self.seats) if s is not None}
        fresh = Table(self.code, self.store, self.clock, self.settings, self.executor, self.metrics)
        for entry in entries:
            fresh.apply(entry)
        for name in ("variant", "players", "options", "seats", "host", "status", "match", "seq",
                     "turn_id", "turn_start", "turn_budget", "pause_start",
                     "pause_budget"):
            setattr(self, name, getattr(fresh, name))
        for number, conns in sockets.items():
            sitter = self.seats[number] if number < len(self.seats) else None
            if sitter is not None:
                sitter.sockets = conns
        for number, kept in fresh.answers.items():  # acks of what the store did keep
            for action_id, answer in kept.items():
                self._remember(number, action_id, answer)
        self._stale = False
        self._thinking = -1

    def _effects(self, entry: Entry, events: list[Event], before: Status) -> list[Effect]:
        """What the store must do besides keeping the entry: status, matches, ratings."""
        effects: list[Effect] = []
        if self.status != before or entry.kind == "created":
            effects.append(TableStatus(self.code, str(self.status)))
        if entry.kind == "started":
            people = [(n, s.player) for n, s in enumerate(self.seats) if s and s.player is not None]
            effects.append(MatchStarted(self.code, self.variant, self.players, people,
                                        self.people_only))
        if self.match is not None and self.people_only:
            effects += [self._rating(e) for e in events if isinstance(e, HandEnded)]
        if self.match is not None and self.match.over and before != Status.OVER:
            result = self.match.current_result()
            players = [s.player if s else None for s in self.seats]
            winners = [
                p for n, p in enumerate(players)
                if p is not None and self.match.state.party(n) in result.winners
            ]
            effects.append(MatchFinished(self.code, self.variant, winners, to_record(self.match),
                                         self.people_only, [p for p in players if p is not None]))
        return effects

    def _rating(self, event: HandEnded) -> HandRated:
        """The hand's sides as openskill teams (players only), their ranks, and who won."""
        assert self.match is not None
        players = [s.player for s in self.seats if s is not None and s.player is not None]
        if self.match.state.teams:
            sides = [[players[0], players[2]], [players[1], players[3]]]
        else:
            sides = [[p] for p in players]
        ranks = hand_ranks(
            event.result, event.hands, self.match.state.teams,
            self.match.rules.penalties(self.players),
        )
        winner = event.result.winner
        return HandRated(self.variant, sides, ranks, [] if winner is None else sides[winner])

    def _log(self, entry: Entry) -> None:
        """One structured line per table event: never a hidden tile, never a token."""
        fields: dict[str, Any] = {"table": self.code, "seq": entry.seq, "event": entry.kind}
        if entry.seat is not None:
            fields["seat"] = entry.seat
        elif "seat" in entry.data:
            fields["seat"] = entry.data["seat"]
        if entry.kind == "move":
            fields["timeout"] = entry.data["move"] == "timeout"
        log.info(entry.kind, extra={"fields": fields})

    def _broadcast(self, events: list[Event], news: list[dict[str, Any]]) -> None:
        """Every connected seat gets the change's events it may see, and its whole view."""
        summary = self.summary()
        public = news + [wire.event_json(e) for e in events if e.to is None]
        memo: dict[str, Any] = {}
        for number, sitter in enumerate(self.seats):
            if sitter is None or not sitter.sockets:
                continue
            own = [wire.event_json(e) for e in events if e.to == number]
            message = {
                "type": "update",
                "seq": self.seq,
                "table": summary,
                "events": public + own,
                "view": self.view_json(number, memo),
            }
            data = wire.encode(message)
            for conn in list(sitter.sockets):
                conn.send(data)

    def _update_for(self, seat: int) -> dict[str, Any]:
        return {
            "type": "update",
            "seq": self.seq,
            "table": self.summary(),
            "events": [],
            "view": self.view_json(seat),
        }

    # Handlers ----------------------------------------------------------------------------

    async def _on_attach(self, conn: Connection) -> None:
        sitter = self.seats[conn.seat]
        if sitter is None or sitter.left:
            conn.send(wire.encode(wire.error(None, "not_seated", "you hold no seat here")))
            conn.close(4401)
            return
        first = not sitter.sockets
        # The welcome comes first (PROTOCOL.md: welcome, then updates); the seat's coming
        # back is a change of its own, whose update follows with the next seq. So the
        # welcome shows the table as it was at its seq: this socket not yet counted.
        welcome = {
            "type": "welcome",
            "seq": self.seq,
            "seat": conn.seat,
            "table": self.summary(),
            "view": self.view_json(conn.seat),
        }
        conn.send(wire.encode(welcome))
        sitter.sockets.append(conn)
        if first and sitter.person:
            with contextlib.suppress(TableError):
                await self._commit("connected", {"seat": conn.seat})

    async def _on_detach(self, conn: Connection, forced: bool = False) -> None:
        sitter = self.seats[conn.seat] if conn.seat < len(self.seats) else None
        if sitter is None or conn not in sitter.sockets:
            return
        sitter.sockets.remove(conn)
        if not sitter.sockets and sitter.person and not sitter.left and not self.closed:
            data: dict[str, Any] = {"seat": conn.seat}
            if forced:
                data["forced"] = True
            with contextlib.suppress(TableError):
                await self._commit("disconnected", data)

    async def _on_join(self, join: Join) -> None:
        try:
            seat = await self._join(join.player, join.name)
        except TableError as err:
            if not join.reply.done():
                join.reply.set_exception(err)
            return
        if not join.reply.done():
            join.reply.set_result(seat)

    async def _join(self, player: int, name: str) -> int:
        held = self.seat_of(player)
        if held is not None:
            return held
        if self.status == Status.OVER and self.match is None:
            raise TableError("started", "this table was closed before its match began")
        if self.status != Status.WAITING:
            raise TableError("started", "the match began without you")
        free = [n for n, s in enumerate(self.seats) if s is None]
        if not free:
            raise TableError("table_full", "every seat at this table is taken")
        await self._commit("joined", {"seat": free[0], "player": player, "name": name})
        return free[0]

    async def _on_tick(self) -> None:
        deadline = self.deadline()
        if deadline is None or self.clock.now() < deadline:
            return
        turn = self.turn
        try:
            if turn is not None:
                await self._commit("move", {"seat": turn, "move": "timeout"})
            elif self.status == Status.BETWEEN_HANDS:
                await self._commit("dealt", self._new_deal())
        except TableError:
            pass

    async def _on_action(self, conn: Connection, action: wire.Action) -> None:
        seat = conn.seat
        kept = self.answers.get(seat)
        if kept is not None and action.id in kept:
            conn.send(wire.encode(kept[action.id]))
            return
        try:
            await self._act(conn, action)
        except TableError as err:
            answer = wire.refusal(action.id, err.code, err.message, err.reason, err.facts)
            if err.code != "unavailable":
                self._remember(seat, action.id, answer)
            conn.send(wire.encode(answer))

    async def _act(self, conn: Connection, action: wire.Action) -> None:
        seat = conn.seat
        if isinstance(action, wire.SyncAction):
            conn.send(wire.encode(self._update_for(seat)))
            conn.send(wire.encode(_ack(action.id, self.seq)))
            return
        if isinstance(action, wire.HintAction):
            self._hint(conn, action.id)
            return
        if isinstance(action, wire.ReviewAction):
            self._review(conn, action.id)
            return
        if isinstance(action, wire.PlayAgainAction):
            await self._play_again(conn, action.id)
            return
        if isinstance(action, wire.LeaveAction):
            await self._leave(seat, action.id)
            conn.send(wire.encode(_ack(action.id, self.seq)))
            sitter = self.seats[seat]
            for other in list(sitter.sockets) if sitter is not None else [conn]:
                other.close(1000)
            return
        if isinstance(action, wire.PlayAction):
            entry_data = self._check_play(seat, action.move)
            entry = await self._commit("move", entry_data, seat, action.id)
        else:
            if seat != self.host:
                raise TableError("not_host", "only the host may do that")
            if isinstance(action, wire.StartAction):
                free = [n for n, s in enumerate(self.seats) if s is None]
                if self.status != Status.WAITING:
                    raise TableError("not_now", "the match has already started")
                if free:
                    raise TableError("not_now", f"seat {free[0]} is still free")
                entry = await self._commit("started", self._new_deal(), seat, action.id)
            elif isinstance(action, wire.NextHandAction):
                if self.status != Status.BETWEEN_HANDS:
                    raise TableError("not_now", "the next hand is dealt only between hands")
                entry = await self._commit("dealt", self._new_deal(), seat, action.id)
            else:
                self._check_finish()
                entry = await self._commit("finish", {}, seat, action.id)
        conn.send(wire.encode(_ack(action.id, entry.seq)))

    def _check_play(self, seat: int, text: str) -> dict[str, Any]:
        """The entry for a play, once the engine would accept it (else TableError)."""
        if self.status != Status.PLAYING or self.match is None:
            raise TableError("not_now", "no hand is being played")
        if seat != self.turn:
            raise TableError("not_your_turn", f"it is seat {self.turn}'s turn", "not_your_turn",
                             {"seat": seat, "turn": self.turn})
        try:
            move = parse_move(text, self.match.rules.top)
        except BadMove as err:
            raise TableError("illegal_move", err.message, err.reason, err.facts) from None
        if isinstance(move, Timeout):
            raise TableError("illegal_move", "'timeout' is the table's move, not a player's",
                             "table_move", {"move": "timeout"})
        return {"seat": seat, "move": str(move)}

    def _check_finish(self) -> None:
        if self.match is None or not self.match.options.open_ended:
            raise TableError("not_now", "only an open-ended table can be finished by its host")
        if self.status != Status.BETWEEN_HANDS:
            raise TableError("not_now", "the match can be finished only between hands")

    async def _leave(self, seat: int, action_id: str) -> None:
        if self.status == Status.OVER:
            raise TableError("not_now", "the match is over")
        data: dict[str, Any] = {"seat": seat}
        if seat == self.host:
            data["host"] = self._next_host(seat)
            if data["host"] is None:
                data["host"] = seat
                data["closed"] = self.status == Status.WAITING
        await self._commit("left", data, seat, action_id)

    async def _play_again(self, conn: Connection, action_id: str) -> None:
        if self.status != Status.OVER or self.match is None:
            raise TableError("not_now", "play again once the match is over")
        if self.next_table is None:
            if self.reopen is None:
                raise TableError("not_now", "this table cannot be opened again")
            code = await self.reopen(self, conn.seat)
            await self._commit("next_table", {"code": code}, conn.seat, action_id)
        conn.send(wire.encode(_ack(action_id, self.seq)))

    def _next_host(self, leaving: int) -> int | None:
        """The person who sat down first among those who stay."""
        stay = [
            (s.arrived, n) for n, s in enumerate(self.seats)
            if s is not None and s.person and not s.left and n != leaving
        ]
        return min(stay)[1] if stay else None

    def _against_computers(self, seat: int) -> bool:
        """Whether every seat but ``seat`` is a computer's (hints and reviews are for such
        tables only)."""
        others = [s for n, s in enumerate(self.seats) if n != seat]
        return all(s is not None and not s.person for s in others)

    def _hint(self, conn: Connection, action_id: str) -> None:
        seat = conn.seat
        if not self._against_computers(seat):
            raise TableError("no_hints", "hints are given only at a table against the computer")
        if self.turn != seat or self.match is None:
            raise TableError("not_your_turn", "a hint is given on your turn")
        if (seat, action_id) in self._advising:
            return  # a retry while the expert still thinks: the answer is on its way
        self._advising.add((seat, action_id))
        seen = view(self.match, seat)
        seed = self.rng.getrandbits(64)
        budget = self.settings.hint_budget
        loop = asyncio.get_running_loop()
        searches = self._searches(loop)
        ticket = self._search_started(searches, budget)
        future = loop.run_in_executor(self.executor, computers.advise, seen, seed, budget)

        def done(f: asyncio.Future[tuple[str, str]]) -> None:
            self._search_ended(searches, ticket)
            if f.cancelled():
                return
            if f.exception() is not None:
                log.error("table %s: hint failed: %r", self.code, f.exception())
                self.inbox.put_nowait(Advice(conn, action_id, "", ""))
                return
            move, reason = f.result()
            self.inbox.put_nowait(Advice(conn, action_id, move, reason))

        future.add_done_callback(done)

    def _review(self, conn: Connection, action_id: str) -> None:
        """Answer a ``review`` of the hand just ended: at once if this seat's review of it
        is done, else when the workers have searched it. The table only hands out the
        match's record; the search runs in :meth:`_compute_review`, outside the actor."""
        seat = conn.seat
        if not self._against_computers(seat):
            raise TableError("no_hints", "reviews are given only at a table against the computer")
        match = self.match
        if (
            self.status not in (Status.BETWEEN_HANDS, Status.OVER)
            or match is None
            or not match.log
            or match.log[-1].result is None
        ):
            raise TableError("not_now", "a hand is reviewed once it is over")
        hand = len(match.log)
        done = self._reviews.get(seat)
        if done is not None and done[0] == hand:
            self._answer_review(seat, hand, action_id, [conn], done[1])
            return
        waiting = self._reviewing.get((seat, hand))
        if waiting is not None:  # being computed: this asker gets the same answer
            conns = waiting.setdefault(action_id, [])
            if conn not in conns:
                conns.append(conn)
            return
        self._reviewing[(seat, hand)] = {action_id: [conn]}
        record = to_record(match)
        seed = self.rng.getrandbits(64)
        task = asyncio.get_running_loop().create_task(
            self._compute_review(seat, hand, record, seed), name=f"review {self.code}"
        )
        self._review_tasks.add(task)
        task.add_done_callback(self._review_tasks.discard)

    async def _compute_review(
        self, seat: int, hand: int, record: dict[str, Any], seed: int
    ) -> None:
        """Search a review's positions in the workers, a few at a time, and post the
        answer to the table's inbox. Runs beside the actor, never on its task."""
        loop = asyncio.get_running_loop()
        budget = self.settings.review_budget
        slots = _review_slots(loop, self.settings.review_searches)

        async def search(decision: Decision, own: int) -> dict[str, Any] | None:
            async with slots:
                searches = self._searches(loop)
                ticket = self._search_started(searches, budget)
                try:
                    return await loop.run_in_executor(
                        self.executor, computers.second_opinion, decision, own, budget
                    )
                finally:
                    self._search_ended(searches, ticket)

        moves: list[dict[str, Any]] | None
        try:
            found = await loop.run_in_executor(
                self.executor, computers.review_positions, record, seat, hand
            )
            answers = await asyncio.gather(
                *(search(d, own) for d, own in zip(found, seeds(seed, len(found)), strict=True))
            )
            moves = [a for a in answers if a is not None]
        except Exception:
            log.exception("table %s: review of hand %d for seat %d failed", self.code, hand, seat)
            moves = None
        self.inbox.put_nowait(Reviewed(seat, hand, moves))

    def _on_reviewed(self, item: Reviewed) -> None:
        """A review came back: answer every id waiting for it, and keep it."""
        waiting = self._reviewing.pop((item.seat, item.hand), {})
        if item.moves is None:
            for action_id, conns in waiting.items():
                data = wire.encode(wire.error(action_id, "unavailable", "no review now; try again"))
                for conn in conns:
                    conn.send(data)
            return
        self._reviews[item.seat] = (item.hand, item.moves)
        for action_id, conns in waiting.items():
            self._answer_review(item.seat, item.hand, action_id, conns, item.moves)

    def _answer_review(
        self,
        seat: int,
        hand: int,
        action_id: str,
        conns: list[Connection],
        moves: list[dict[str, Any]],
    ) -> None:
        answer = {"type": "review", "id": action_id, "hand": hand, "moves": moves}
        self._remember(seat, action_id, answer)
        data = wire.encode(answer)
        for conn in conns:
            conn.send(data)

    def _new_deal(self) -> dict[str, Any]:
        """Shuffle and deal the next hand (drawing for the lead first where the rules say)."""
        rules = get_rules(self.variant)
        by_chance = rules.draws_for_lead(self.rules_match.state)
        leader = None
        if by_chance:
            leader, _ = rules.draw_for_lead(self.rng, self.players)
        deal, stock = rules.deal(self.rng, self.players)
        return {
            "deal": [[str(t) for t in hand] for hand in deal],
            "stock": [str(t) for t in stock],
            "leader": leader,
        }

    # Clocks and computers ----------------------------------------------------------------

    def _reschedule(self) -> None:
        """Set the timer for the running clock, and wake a computer seat whose turn it is."""
        if self.closed or self.lost:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.deadline()
        if deadline is not None:
            deadline = max(deadline, self._retry_at)
            self._timer = self.clock.call_at(deadline, self._tick)
        turn = self.turn
        if turn is not None and self._thinking != self.turn_id:
            sitter = self.seats[turn]
            if sitter is not None and not sitter.person:
                self._thinking = self.turn_id
                self._think_from = self.clock.now()
                when = self._think_from + self.settings.computer_delay
                turn_id = self.turn_id
                self.clock.call_at(when, lambda: self._think(turn_id))

    def _tick(self) -> None:
        self.inbox.put_nowait(Tick())

    def _think(self, turn_id: int) -> None:
        """Send a computer seat's decision to the workers; its move comes back by the inbox."""
        if (self.closed or self.lost or turn_id != self.turn_id or self.match is None
                or self.turn is None):
            return
        seat = self.turn
        sitter = self.seats[seat]
        assert sitter is not None and sitter.level is not None
        seen = view(self.match, seat)
        seed = self.rng.getrandbits(64)
        loop = asyncio.get_running_loop()
        searches = self._searches(loop)
        budget = self.settings.expert_budget
        if self.settings.budget_follows_load:
            budget = searches.budget(budget, time.monotonic())
        searching = sitter.level == "expert"
        if searching and self.metrics is not None:
            self.metrics.budget.observe(budget)
        ticket = self._search_started(searches, budget if searching else computers.QUICK_WORK)
        future = loop.run_in_executor(
            self.executor, computers.think, sitter.level, seen, seed, budget
        )

        def done(f: asyncio.Future[tuple[str, float]]) -> None:
            self._search_ended(searches, ticket)
            if f.cancelled():
                return
            if f.exception() is not None:
                log.error("table %s: computer seat %d failed: %r", self.code, seat, f.exception())
                self.inbox.put_nowait(Thought(turn_id, "timeout"))
                return
            move, seconds = f.result()
            if self.metrics is not None:
                self.metrics.think.observe(seconds)
            self.inbox.put_nowait(Thought(turn_id, move))

        future.add_done_callback(done)

    def _searches(self, loop: asyncio.AbstractEventLoop) -> computers.Searches:
        """The searches in flight from every table of this event loop."""
        searches = _SEARCHES.get(loop)
        if searches is None:
            searches = computers.Searches(self.settings.workers)
            _SEARCHES[loop] = searches
        return searches

    def _search_started(self, searches: computers.Searches, work: float) -> int:
        ticket = searches.started(work, time.monotonic())
        if self.metrics is not None:
            self.metrics.searches.set(searches.in_flight)
        return ticket

    def _search_ended(self, searches: computers.Searches, ticket: int) -> None:
        searches.ended(ticket)
        if self.metrics is not None:
            self.metrics.searches.set(searches.in_flight)

    def computer_move_late(self, now: float) -> bool:
        """Whether a computer's move arriving at ``now`` is late: after its turn was seen
        plus ``computer_delay``, ``expert_budget`` and LATE_MARGIN (docs/server.md)."""
        return computers.late(now - self._think_from, self.settings.computer_delay,
                              self.settings.expert_budget)

    def _count_computer_move(self) -> None:
        if self.metrics is None:
            return
        self.metrics.computer_moves.inc()
        if self.computer_move_late(self.clock.now()):
            self.metrics.computer_moves_late.inc()


_SEARCHES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, computers.Searches] = (
    weakref.WeakKeyDictionary()
)
"""Searches in flight, by event loop: one account for every table a process serves."""

_SLOTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _review_slots(loop: asyncio.AbstractEventLoop, searches: int) -> asyncio.Semaphore:
    """The review searches this event loop's tables may run at once, all together."""
    slots = _SLOTS.get(loop)
    if slots is None:
        slots = asyncio.Semaphore(max(1, searches))
        _SLOTS[loop] = slots
    return slots


def _ack(action_id: str, seq: int) -> dict[str, Any]:
    return {"type": "ack", "id": action_id, "seq": seq}


async def restore(
    table: Table, entries: list[Entry], heartbeat: float | None
) -> None:
    """Rebuild ``table`` from its log; if a clock was running when the server stopped, log
    a ``resumed`` entry giving back exactly the time it had left at the last heartbeat."""
    for entry in entries:
        table.apply(entry)
    if table.status not in (Status.PLAYING, Status.BETWEEN_HANDS):
        return
    stopped = heartbeat if heartbeat is not None else table.clock.now()
    remaining = max(0.0, table.turn_start + table.turn_budget - max(stopped, table.turn_start))
    paused = max(0.0, table.pause_start + table.pause_budget - max(stopped, table.pause_start))
    await table._commit(
        "resumed", {"remaining_ms": round(remaining * 1000), "pause_ms": round(paused * 1000)}
    )

