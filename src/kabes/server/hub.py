"""The live tables of one server process: opening them, finding them, rebuilding them.

A table opened here lives in memory as an actor (``kabes.server.table``); one that is over
and has no socket left is forgotten after a while and rebuilt from its log if asked for
again. On start, every table that was not over is rebuilt from the store, clocks included.

Holding a table means owning it: before its log is read, the store is asked to raise its
epoch (:meth:`Store.claim`), and every entry the table writes carries that epoch. When the
store refuses an entry because another process has claimed the table since, the table is
dropped here and its sockets are closed (1012) so that their clients reconnect to its owner.

With a :class:`~kabes.server.cluster.Cluster` (``kabes serve --redis``), this process is one of
many: a table is held only under its lease in Redis (taken before the claim, renewed while
held, released when the table is let go), :meth:`Hub.locate` finds a table here or names the
process that owns it, and :meth:`Hub.ask` answers a request about any table, relaying it to
its owner (kabes.server.relay). A sweeper adopts the tables in play whose lease has expired
(their owner died): their clocks resume from the dead owner's last heartbeat, so the time
nobody owned them is nobody's fault. Nothing is rebuilt at start: the sweeper does it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from typing import Any, assert_never

from kabes.records import to_record
from kabes.server.clock import Clock
from kabes.server.cluster import Cluster, RedisError
from kabes.server.config import Settings
from kabes.server.metrics import Metrics
from kabes.server.new_tables import created
from kabes.server.protocol import ErrorCode, NewTable, Refused
from kabes.server.relay import Moved, Relay
from kabes.server.seat_holds import SeatHolds
from kabes.server.state import Status
from kabes.server.store import Store
from kabes.server.table import Table, restore
from kabes.server.table_requests import AskRecord, AskSeat, AskSummary, TableRequest
from kabes.server.workers import Workers

log = logging.getLogger("kabes.hub")

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Letters and digits that cannot be misread aloud (no 0/O, 1/I/L, U/V)."""
CODE_LENGTH = 7
"""30 ** 7 is about 2 ** 34: short enough to read aloud, too many to guess."""
FORGET_AFTER = 600.0
"""Seconds a finished table with no socket stays in memory."""
ADOPTING = 8
"""Orphaned tables a process rebuilds at once."""
IN_PLAY = ("playing", "between_hands")
"""Statuses whose clocks run: an orphaned table in one is adopted without waiting to be
asked for (a waiting or finished one is adopted when someone asks for it)."""


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
        cluster: Cluster | None = None,
        *,
        holds: SeatHolds | None,
        listed: Callable[[Table], Awaitable[None]],
        tournament_over: Callable[[str, str], None],
    ) -> None:
        """``holds``: where the seats each player holds at waiting tables are counted, every
        process's (kabes.server.seat_holds; None: not counted). ``listed`` lists a public
        table in the lobby now; ``tournament_over`` is told (tournament, table code) when a
        tournament table's match here is over and kept, so the tournament's runner records
        it at once instead of polling for it. Both are given here, never set afterwards: the
        lobby and the runner open tables through this hub, so the server's assembly
        (kabes.server.app) passes functions that reach them once they are made."""
        self.store = store
        self.clock = clock
        self.settings = settings
        self.executor = executor
        self.metrics = metrics
        self.cluster = cluster
        self.workers = Workers(executor, settings.workers, settings.review_searches, metrics,
                               settings.searches_waiting)
        """The worker processes, as this process's tables share them."""
        self.relay = None if cluster is None else Relay(cluster, self)
        """Sockets and requests relayed to and from other processes (with a cluster)."""
        self.holds = holds
        """The seats each player holds at tables waiting to start, every process's
        (kabes.server.seat_holds); None: not counted (the app's ``Edge.seats_held``)."""
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.adopted = 0
        """Orphaned tables this process has adopted since it started."""
        self._tournament_over = tournament_over
        self._lobby = listed

    def statuses(self) -> dict[str, int]:
        """How many tables in memory are in each status."""
        return dict(Counter(str(t.status) for t in self.tables.values()))

    def _table(self, code: str, epoch: int) -> Table:
        """A table held here under ``epoch`` (1: created here; else the store's claim)."""
        return Table(code, self.store, self.clock, self.settings, self.workers, self.metrics,
                     holder=self, holds=self.holds, epoch=epoch)

    # What a table asks of its holder (kabes.server.table.Holder) ---------------------------

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
        """Stop ``table``'s actor and give up its lease (if this process still holds it)."""
        await table.stop()
        if self.cluster is not None and table.code not in self.tables:
            with contextlib.suppress(Exception):
                if not table.lost:
                    await self.store.disown([table.code])
                await self.cluster.release(table.code)

    def held(self, code: str) -> Table | None:
        """Table ``code`` if this process holds it (and has not lost it)."""
        table = self.tables.get(code)
        return None if table is None or table.lost else table

    async def open(self) -> int:
        """Rebuild every table that was not over when the server stopped; how many. With a
        cluster: start renewing leases and adopting orphaned tables instead."""
        if self.cluster is not None:
            loop = asyncio.get_running_loop()
            await self.store.forget_servers()
            self._tasks = [loop.create_task(self._keep_leases(), name="leases"),
                           loop.create_task(self._adopt_orphans(), name="adopter")]
            self._sweeper = loop.create_task(self._sweep(), name="sweeper")
            return 0
        heartbeat = await self.store.last_heartbeat()
        codes = await self.store.live_codes()
        for code in codes:
            try:
                await self._rebuild(code, heartbeat)
            except Exception:
                log.exception("table %s could not be rebuilt; left out", code)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="sweeper")
        return len(self.tables)

    async def close(self) -> None:
        """Stop every table's actor (with a cluster: and give up their leases, so that
        other processes adopt them at once)."""
        for task in [self._sweeper, *self._tasks]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for table in list(self.tables.values()):
            await table.stop()
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                await self.store.disown([c for c, t in self.tables.items() if not t.lost])
            for code in list(self.tables):
                with contextlib.suppress(RedisError, OSError):
                    await self.cluster.release(code)
        self.tables.clear()

    async def create(self, player: int, name: str, body: NewTable) -> Table:
        """Open a table with ``player`` as host at seat 0; Refused with the protocol's
        code for a bad variant, seat count, option or level."""
        data = created(body, player, name)
        code = new_code()
        while (code in self.tables
               or (self.cluster is not None and not await self.cluster.take(code))
               or await self.store.load(code)):
            code = new_code()
        table = self._table(code, 1)
        # The host's seat counts among the seats they hold (kabes.server.seat_holds).
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
        ``absent``: the caller has just read that the store holds no table ``code``; alone
        (no cluster: nobody else writes it meanwhile) it is not read again."""
        data = {**created(body, player, name), **extra}
        if seated:
            data["seated"] = [[p, n] for p, n in seated]
        if (code in self.tables
                or (self.cluster is not None and not await self.cluster.take(code))):
            return False
        if (self.cluster is not None or not absent) and await self.store.load(code):
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
        (Alone; with a cluster, :meth:`locate` finds a table wherever it is.)"""
        table = self.tables.get(code)
        if table is not None:
            return table
        if not _plausible(code) or not await self._exists(code):
            return None
        return await self._load(code)

    async def _exists(self, code: str) -> bool:
        """Whether the store holds a table ``code``: a read, so that asking for a code that
        does not exist stores, writes and keeps nothing (PROTOCOL.md, "Safe for strangers":
        asking costs nothing). Claiming a table (:meth:`_rebuild`) is a write, and with a
        cluster so is taking its lease: both come only after this."""
        return await self.store.epoch(code) is not None

    async def _load(self, code: str) -> Table | None:
        """Rebuild table ``code`` here, once however many ask at the same moment."""
        loading = self._loading.get(code)
        if loading is not None:
            return await loading
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            found = await self._rebuild(code, None)
            future.set_result(found)
            return found
        except Exception as err:
            future.set_exception(err)
            raise
        finally:
            del self._loading[code]

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

    # Many processes ----------------------------------------------------------------------

    async def locate(self, code: str) -> Table | str | None:
        """Where table ``code`` is: the table if this process holds it (taking its lease and
        rebuilding it if nobody holds it), else the id of the process that does; None if
        there is no such table. Raises RedisError when Redis cannot be reached."""
        held = self.held(code)
        if held is not None:
            return held
        if self.cluster is None:
            return await self.get(code)
        if not _plausible(code):
            return None
        loading = self._loading.get(code)
        if loading is not None:
            return await loading
        grace = time.monotonic() + self.cluster.lease
        while True:
            owner = await self.cluster.owner(code)
            if owner is not None and owner != self.cluster.me:
                return owner
            if owner is None and time.monotonic() < grace and await self._alive_holder(code):
                # No lease, but its owner is alive (Redis lost its keys): it takes its
                # lease back at its next renewal; give it that long.
                await asyncio.sleep(0.1)
                continue
            if owner is None and not await self._exists(code):
                return None  # no lease taken, nothing kept: see _exists
            if owner == self.cluster.me or await self.cluster.take(code):
                break
        found = await self._load(code)
        if found is None:
            await self.cluster.release(code)
        return found

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
                assert self.relay is not None
                return await self.relay.call(where, code, request,
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
        return 1.0 if self.cluster is None else max(0.5, self.cluster.lease / 3)

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

    async def _keep_leases(self) -> None:
        """Renew this process's leases a few times per lease; drop the tables whose lease
        another process holds now; check the relayed sockets' owners and origins."""
        assert self.cluster is not None and self.relay is not None
        while True:
            await asyncio.sleep(self.cluster.lease / 3)
            try:
                lost = await self.cluster.renew([*self.tables, *self._loading])
                for code in lost:
                    table = self.tables.get(code)
                    if table is not None:
                        log.warning("table %s: its lease is another process's now", code)
                        table.lose()
                await self.relay.check()
            except (RedisError, OSError) as err:
                log.warning("could not renew leases: %r", err)

    async def _adopt_orphans(self) -> None:
        """Take the tables in play whose lease has expired (their owner is gone), and
        rebuild them here: a few at a time, every lease or so (at random, so that
        processes take turns)."""
        assert self.cluster is not None
        gate = asyncio.Semaphore(ADOPTING)

        async def adopt(code: str) -> None:
            async with gate:
                try:
                    if await self.cluster_take(code) and await self._load(code) is not None:
                        self.adopted += 1
                        log.info("adopted", extra={"fields": {"event": "adopted",
                                                              "table": code}})
                except Exception:
                    log.exception("table %s could not be adopted", code)

        while True:
            try:
                now = time.time()
                codes = [c for c, owner, beat in await self.store.in_play()
                         if c not in self.tables and c not in self._loading
                         and not self._fresh(owner, beat, now)]
                owners = await self.cluster.owners(codes)
                orphans = [c for c, o in zip(codes, owners, strict=True) if o is None]
                random.shuffle(orphans)
                if orphans:
                    await asyncio.gather(*(adopt(code) for code in orphans))
            except Exception as err:
                log.warning("could not look for orphaned tables: %r", err)
            await asyncio.sleep(self.cluster.lease * random.uniform(0.3, 0.6))

    def _fresh(self, owner: str | None, beat: float | None, now: float) -> bool:
        """Whether ``owner`` (another process) said it was alive within a lease."""
        assert self.cluster is not None
        return (owner is not None and owner != self.cluster.me and beat is not None
                and now - beat < self.cluster.lease)

    async def _alive_holder(self, code: str) -> bool:
        """Whether the process that claimed ``code`` last is alive (by its heartbeats)."""
        owner, beat = await self.store.holder(code)
        return self._fresh(owner, beat, time.time())

    async def cluster_take(self, code: str) -> bool:
        """Take table ``code``'s lease for this process (with a cluster)."""
        assert self.cluster is not None
        return code not in self.tables and await self.cluster.take(code)


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
