"""The live tables of one server process: opening them, finding them, rebuilding them.

A table opened here lives in memory as an actor (``kabes.server.table.actor``); one that is over
and has no socket left is forgotten after a while and rebuilt from its log if asked for
again. On start, every table that was not over is rebuilt from the store, clocks included.

Holding a table means owning it: before its log is read, the store is asked to raise its
epoch (:meth:`Store.claim`), and every entry the table writes carries that epoch. When the
store refuses an entry because another process has claimed the table since, the table is
dropped here and its sockets are closed (1012) so that their clients reconnect to its owner.

Whether holding a table needs anyone's leave is the holding's business
(kabes.server.hub.holding): alone, this process owns every table; among many (``kabes serve
--redis``, kabes.server.hub.leases), a table is held only under its lease in Redis,
:meth:`Hub.locate` finds a table here or names the process that owns it, and :meth:`Hub.ask`
answers a request about any table, relaying it to its owner (kabes.server.hub.relay). The hub
never asks which side it runs on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from typing import Any, assert_never

from kabes.records import to_record
from kabes.server.common.config import Settings
from kabes.server.common.metrics import Metrics
from kabes.server.common.protocol import ErrorCode, NewTable, Refused
from kabes.server.compute.workers import Workers
from kabes.server.hub.holding import HeldAlone, Holding, Tables
from kabes.server.hub.relay import Moved, Relay
from kabes.server.store.store import Store
from kabes.server.table.actor import Table, restore
from kabes.server.table.clock import Clock
from kabes.server.table.seat_holds import SeatHolds
from kabes.server.table.table_requests import AskRecord, AskSeat, AskSummary, TableRequest
from kabes.table.creation import created
from kabes.table.state import Status

log = logging.getLogger("kabes.hub")

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Letters and digits that cannot be misread aloud (no 0/O, 1/I/L, U/V)."""
CODE_LENGTH = 7
"""30 ** 7 is about 2 ** 34: short enough to read aloud, too many to guess."""
FORGET_AFTER = 600.0
"""Seconds a finished table with no socket stays in memory."""


def new_code() -> str:
    """A fresh table code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Hub:
    """Every table this process holds."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        settings: Settings,
        executor: Executor | None,
        metrics: Metrics | None = None,
        hold: Callable[[Tables], Holding] = HeldAlone,
        *,
        holds: SeatHolds | None,
        listed: Callable[[Table], Awaitable[None]],
        tournament_over: Callable[[str, str], None],
    ) -> None:
        """``holds``: where the seats each player holds at waiting tables are counted, every
        process's (kabes.server.table.seat_holds; None: not counted). ``listed`` lists a public
        table in the lobby now; ``tournament_over`` is told (tournament, table code) when a
        tournament table's match here is over and kept, so the tournament's runner records
        it at once instead of polling for it. Both are given here, never set afterwards: the
        lobby and the runner open tables through this hub, so the server's assembly
        (kabes.server.http.app) passes functions that reach them once they are made. ``hold``: how
        tables are held here (kabes.server.hub.holding), as the processes serving the store say
        (kabes.server.processes): alone (the default) or under leases among many. The hub is
        given the function, not the processes, so that it knows nothing of the lobby's board
        or the limits' counter that the processes also choose."""
        self.store = store
        self.clock = clock
        self.settings = settings
        self.executor = executor
        self.metrics = metrics
        self.workers = Workers(executor, settings.workers, settings.review_searches, metrics,
                               settings.searches_waiting)
        """The worker processes, as this process's tables share them."""
        self.holds = holds
        """The seats each player holds at tables waiting to start, every process's
        (kabes.server.table.seat_holds); None: not counted (the app's ``Edge.seats_held``)."""
        self.tables: dict[str, Table] = {}
        self.loading: dict[str, asyncio.Future[Table | None]] = {}
        """The tables being rebuilt here now, by code (each once, however many ask)."""
        self._sweeper: asyncio.Task[None] | None = None
        self._tournament_over = tournament_over
        self._lobby = listed
        self.holding: Holding = hold(self)
        """Alone, or under leases among many: how this process holds its tables."""

    @property
    def relay(self) -> Relay | None:
        """Sockets and requests relayed to and from other processes (None: alone)."""
        return self.holding.relay

    @property
    def adopted(self) -> int:
        """Orphaned tables this process has adopted since it started."""
        return self.holding.adopted

    @property
    def fenced(self) -> bool:
        """This process is cut off from the others (kabes.server.hub.leases): it holds no
        table and seats nobody until it reaches Redis again; a balancer should pass it over."""
        return self.holding.fenced

    def statuses(self) -> dict[str, int]:
        """How many tables in memory are in each status."""
        return dict(Counter(str(t.status) for t in self.tables.values()))

    def _table(self, code: str, epoch: int) -> Table:
        """A table held here under ``epoch`` (1: created here; else the store's claim)."""
        return Table(code, self.store, self.clock, self.settings, self.workers, self.metrics,
                     holder=self, holds=self.holds, epoch=epoch)

    # What a table asks of its holder (kabes.server.table.actor.Holder) ---------------------------

    def match_over(self, table: Table) -> None:
        """A tournament table's match is over and kept: its runner is told at once."""
        if table.state.tournament is not None:
            self._tournament_over(table.state.tournament, table.code)

    async def _rebuild(self, code: str, heartbeat: float | None) -> Table | None:
        """Claim table ``code`` (its epoch goes up), read its log and rebuild it, clocks
        resumed from ``heartbeat`` (or from the previous owner's last heartbeat); started and
        held here. None if there is no such table."""
        claim = await self.store.claim(code)
        if claim is None:
            return None
        entries = await self.store.load(code)
        if not entries:
            return None
        table = self._table(code, claim.epoch)
        try:
            await restore(table, entries, claim.heartbeat if heartbeat is None else heartbeat)
        except Refused:
            if table.lost:  # claimed by another process meanwhile
                return None
            raise
        self.tables[code] = table
        table.start()
        return table

    def lost(self, table: Table) -> None:
        """``table`` has another owner now: forget it, close its sockets (1012: their
        clients reconnect and reach the owner), stop its actor."""
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        table.sockets.close_all(1012)
        table.watchers.close_all(1012)
        asyncio.get_running_loop().create_task(self._let_go(table), name=f"drop {table.code}")

    async def _let_go(self, table: Table) -> None:
        """Stop ``table``'s actor and give it up (unless it is held here again since)."""
        await table.stop()
        if table.code not in self.tables:
            await self.holding.give_up([table])

    def current(self) -> bool:
        """Whether this process may act for its tables now (kabes.server.hub.leases)."""
        return self.holding.current()

    async def renewed(self) -> None:
        """Wait for the holding's next renewal of its leases."""
        await self.holding.renewed()

    def held(self, code: str) -> Table | None:
        """Table ``code`` if this process holds it (and has not lost it)."""
        table = self.tables.get(code)
        return None if table is None or table.lost else table

    async def open(self) -> int:
        """Start holding tables (alone: every table that was not over is rebuilt; among
        many: orphans are adopted as they appear); how many were rebuilt now."""
        restored = await self.holding.open()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="sweeper")
        return restored

    async def rebuild_all(self) -> int:
        """Rebuild every table that was not over when the server stopped; how many."""
        heartbeat = await self.store.last_heartbeat()
        codes = await self.store.live_codes()
        for code in codes:
            try:
                await self._rebuild(code, heartbeat)
            except Exception:
                log.exception("table %s could not be rebuilt; left out", code)
        return len(self.tables)

    async def close(self) -> None:
        """Stop every table's actor and give them up (among many: so that other processes
        adopt them at once)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        await self.holding.stop()
        for table in list(self.tables.values()):
            await table.stop()
        await self.holding.give_up(list(self.tables.values()))
        self.tables.clear()

    async def create(self, player: int, name: str, body: NewTable) -> Table:
        """Open a table with ``player`` as host at seat 0; Refused with the protocol's
        code for a bad variant, seat count, option or level."""
        data = created(body, player, name)
        code = new_code()
        # A fresh code is taken (alone: nobody else could; among many: its lease, atomically)
        # before the store is read for it, so no other process creates it meanwhile.
        while (code in self.tables or not await self.holding.take(code)
               or await self.store.load(code)):
            code = new_code()
        table = self._table(code, 1)
        # The host's seat counts among the seats they hold (kabes.server.table.seat_holds).
        if self.holds is None:
            await table.commit("created", data)
        else:
            await self.holds.seat(player, code, lambda: table.commit("created", data))
        self.tables[code] = table
        table.start()
        await self._listed(table)
        return table

    async def create_at(self, code: str, player: int, name: str, body: NewTable,
                        extra: dict[str, Any], seated: Sequence[tuple[int, str]] = (),
                        absent: bool = False) -> bool:
        """Open table ``code`` (a tournament's, whose code follows from its pairing) as
        :meth:`create` does, its ``created`` entry carrying ``extra`` and the people
        ``seated`` at seats 1, 2, ... (a table opened full in one entry); False if a table
        ``code`` exists already or another process is opening it (nothing done here).
        ``absent``: the caller has just read that the store holds no table ``code``; when
        this process is the store's sole writer (alone) that stays true, and it is not read
        again."""
        data = {**created(body, player, name), **extra}
        if seated:
            data["seated"] = [[p, n] for p, n in seated]
        # Check, then create: among many, the lease is taken atomically before the store is
        # read, and the store's epoch fences a process that lost its lease; on either side,
        # the store keeps one first entry per code (its key is code and seq), so of two
        # openings that passed these checks at once only one writes ``created``.
        if code in self.tables or not await self.holding.take(code):
            return False
        if not (absent and self.holding.sole_writer) and await self.store.load(code):
            return False
        table = self._table(code, 1)
        await table.commit("created", data)
        self.tables[code] = table
        table.start()
        return True

    async def _listed(self, table: Table) -> None:
        """Tell the lobby at once that a public table was opened or a seat taken there, so
        that the next quick seat, on any process, finds it."""
        if table.state.public:
            await self._lobby(table)

    async def open_again(self, table: Table, seat: int) -> str:
        """Open ``table`` again (same variant, seats, options and computers), hosted by the
        person at ``seat``; the new code."""
        state = table.state
        sitter = state.seats[seat]
        if sitter is None or sitter.player is None:
            raise Refused(ErrorCode.NOT_NOW, "only a person seated here can open it again")
        computers = {
            str(n): s.level for n, s in enumerate(state.seats) if s is not None and s.level
        }
        again = await self.create(sitter.player, sitter.name, NewTable(
            state.variant, state.players, state.options, computers))
        return again.code

    async def get(self, code: str) -> Table | None:
        """The table ``code``, rebuilt from the store if it is not in memory; None if none.
        (Held here; :meth:`locate` finds a table wherever it is.)"""
        table = self.tables.get(code)
        if table is not None:
            return table
        if not _plausible(code) or not await self.exists(code):
            return None
        return await self.load(code)

    async def exists(self, code: str) -> bool:
        """Whether the store holds a table ``code``: a read, so that asking for a code that
        does not exist stores, writes and keeps nothing (PROTOCOL.md, "Safe for strangers":
        asking costs nothing). Claiming a table (:meth:`_rebuild`) is a write, and among many
        so is taking its lease: both come only after this."""
        return await self.store.epoch(code) is not None

    async def load(self, code: str) -> Table | None:
        """Rebuild table ``code`` here, once however many ask at the same moment (safe:
        no await between the look at ``loading`` and the registration below)."""
        loading = self.loading.get(code)
        if loading is not None:
            return await loading
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self.loading[code] = future
        try:
            found = await self._rebuild(code, None)
            future.set_result(found)
            return found
        except Exception as err:
            future.set_exception(err)
            raise
        finally:
            del self.loading[code]

    async def _sweep(self) -> None:
        """Forget finished tables nobody watches any more; drop stray waiting seats."""
        while True:
            await asyncio.sleep(60)
            try:
                if self.holds is not None:
                    await self.holds.sweep()
            except Exception as err:
                log.warning("could not sweep stray waiting seats: %r", err)
            now = self.clock.now()
            for code, table in list(self.tables.items()):
                idle = not table.sockets and not table.watcher_count
                if (table.status == Status.OVER and idle
                        and now - table.state.changed_at > FORGET_AFTER):
                    self.tables.pop(code, None)
                    await self._let_go(table)

    # Wherever a table is ------------------------------------------------------------------

    async def locate(self, code: str) -> Table | str | None:
        """Where table ``code`` is: the table if this process holds it (taking its lease and
        rebuilding it if nobody holds it), else the id of the process that does; None if
        there is no such table. Raises RedisError when Redis cannot be reached."""
        held = self.held(code)
        if held is not None:
            return held
        if not _plausible(code):
            return None
        return await self.holding.locate(code)

    async def ask(self, code: str, request: TableRequest, patience: float) -> Any:
        """Answer ``request`` about table ``code``, wherever it is; None if there is no
        such table. Refused for a refusal, ``unavailable`` when its owner cannot be reached
        within ``patience`` seconds."""
        deadline = time.monotonic() + patience
        while True:
            where = await self.locate(code)
            if where is None:
                return None
            left = deadline - time.monotonic()
            try:
                if isinstance(where, Table):
                    return await self.answer(where, request)
                return await self.holding.call(where, code, request,
                                               max(0.1, min(left, self.answer_within())))
            except Refused:
                if not (isinstance(where, Table) and where.lost):
                    raise
            except (Moved, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise Refused(ErrorCode.UNAVAILABLE,
                              "the table's server cannot be reached; try again")
            await asyncio.sleep(0.1)

    def answer_within(self) -> float:
        """Seconds a process waits for another to answer before it looks again for the
        table's owner (which may have died: its lease then expires within a lease)."""
        return self.holding.answer_within

    async def answer(self, table: Table, request: TableRequest) -> Any:
        """Answer a request about a table held here (see :meth:`ask`)."""
        match request:
            case AskSummary():
                return await table.call(table.summary)
            case AskRecord():
                return await table.call(lambda: finished_record(table))
            case AskSeat(player, who):
                seat = await table.join(player, who)
                summary = await table.call(lambda: table.summary(seated=True))
                await self._listed(table)
                return {"seat": seat, "table": summary}
            case _:
                assert_never(request)


def finished_record(table: Table) -> dict[str, Any]:
    """The record of ``table``'s finished hands: the hand in progress is never in it."""
    match = table.state.match
    if match is None:
        return {"variant": table.state.variant, "players": table.state.players,
                "options": {}, "hands": [], "result": None}
    out = to_record(match)
    if match.hand_in_progress:
        out["hands"] = out["hands"][:-1]
    return out


def _plausible(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)


__all__ = ["Hub", "new_code"]
