"""The rounds in play: each running tournament's tables opened and seated, their results
recorded when their matches end, and the next round paired at once (PROTOCOL.md,
"Tournaments").

Told, not polling: the hub tells the runner when a tournament table's match is over and kept
(:meth:`RoundRunner.table_over`, the ``tournament_over`` the hub is given when it is made),
and the tournaments routes when a tournament starts; the runner then reads only that
tournament's new entries (the service keeps each one folded) and that table's record. A slow
sweep of every running tournament (``SWEEP_SECONDS``) remains as the safety net for what no
hook told this process: a match over at another process that died before recording it, a
restart, a round left half opened.

Everything is kept with the tournament's entries (``opened``, ``result``, ``paired``,
``over``), each change one transaction at the sequence number its writer read, so a restart
goes on where the log stands and two processes cannot both keep the same entry; a round has
one row in the store, so it is paired once. Opening a table is idempotent: its code follows
from (tournament, round, pairing) (:func:`table_code`), so a process that died half way
through opening a round is completed by whoever comes next, never with a second table for
the same pairing. The process that paired a round opens its tables at once; the others only
after ``OPEN_GRACE`` seconds, in case it died meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable
from typing import Any

from kabes.server.common.protocol import NewTable
from kabes.server.hub.hub import CODE_ALPHABET, CODE_LENGTH, Hub
from kabes.server.store.store import Store
from kabes.server.table.table_requests import AskSeat
from kabes.server.tournaments.service import Decision, Tournaments, pair_off_loop, paired
from kabes.server.tournaments.store import Entries
from kabes.tournaments.results import result_of, seat_order
from kabes.tournaments.state import TournamentState

log = logging.getLogger("kabes.tournaments")

SWEEP_SECONDS = 3.0
"""How often every running tournament is looked at, whether or not something was told."""
OPEN_GRACE = 5.0
"""Seconds after a round was paired before a process that did not pair it opens its
tables (the one that did opens them at once, unless it died)."""
OPENING = 64
"""Tables of a round opened at once."""
SALTS = 8
"""Codes tried for one pairing's table, should one be some other table's already."""
JOIN_PATIENCE = 5.0


def table_code(tournament: str, number: int, index: int, salt: int = 0) -> str:
    """The code of the table of pairing ``index`` of round ``number`` (the ``salt``-th
    choice): the same in every process and after every restart."""
    digest = hashlib.sha256(f"{tournament}:{number}:{index}:{salt}".encode()).digest()
    value = int.from_bytes(digest[:16], "big")
    out = []
    for _ in range(CODE_LENGTH):
        value, digit = divmod(value, len(CODE_ALPHABET))
        out.append(CODE_ALPHABET[digit])
    return "".join(out)


class RoundRunner:
    """Moves every running tournament on; :meth:`start` with the server, :meth:`stop`."""

    def __init__(self, service: Tournaments, hub: Hub, store: Store) -> None:
        self.service = service
        self.hub = hub
        self.store = store
        self._task: asyncio.Task[None] | None = None
        self._told: dict[str, set[str]] = {}
        """Tournaments to look at now, each with the tables told over (maybe none)."""
        self._wake = asyncio.Event()
        self._paired_here: set[tuple[str, int]] = set()

    def start(self) -> None:
        """Begin looking at the running tournaments."""
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="tournaments")

    async def stop(self) -> None:
        """Stop looking."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def table_over(self, tournament: str, code: str) -> None:
        """The hub's hook: table ``code`` of ``tournament`` has finished its match."""
        self._told.setdefault(tournament, set()).add(code)
        self._wake.set()

    def started(self, tournament: str) -> None:
        """``tournament`` has just begun here: its round 1 is this process's to open."""
        self._paired_here.add((tournament, 1))
        self._told.setdefault(tournament, set())
        self._wake.set()

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        sweep_at = 0.0
        while True:
            try:
                todo, self._told = self._told, {}
                self._wake.clear()
                sweep = loop.time() >= sweep_at
                if sweep:
                    sweep_at = loop.time() + SWEEP_SECONDS
                    for tournament in await self.service.store.running():
                        todo.setdefault(tournament, set())
                for tournament, over in todo.items():
                    await self.advance(tournament, None if sweep else over)
            except asyncio.CancelledError:
                raise
            except Exception:  # the store down, a race lost: look again at the next sweep
                log.exception("tournament rounds")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(0.0, sweep_at - loop.time()))

    async def advance(self, tournament: str, over: set[str] | None = None) -> None:
        """Do what the tournament's current round needs now: open its tables, record the
        matches over (those of ``over``, or every unfinished one if None), pair the next
        round (or end the tournament) once all are."""
        while True:
            state = await self.service.state(tournament)
            if state.status != "running" or not state.played:
                return
            number = len(state.played)
            await self._open_round(state, number)
            await self._record(tournament, number, over)
            won: list[bool] = []
            state = await self.service.change(tournament, _next(number, won,
                                                                self.service.now()))
            if len(state.played) == number:
                return
            if won and won[-1]:  # this process kept the pairing: its tables are ours
                self._paired_here.add((tournament, number + 1))
            over = set()

    async def _open_round(self, state: TournamentState, number: int) -> None:
        """Open (or finish opening) round ``number``'s tables and keep their codes."""
        unopened = [i for i, code in enumerate(state.tables[number - 1]) if code is None]
        if not unopened:
            self._paired_here.discard((state.id, number))  # kept no longer than needed
            return
        mine = (state.id, number) in self._paired_here
        if not mine and self.service.now() < state.began[number - 1] + OPEN_GRACE:
            return
        # Which of the pairings' first-choice codes hold a table already: one query for the
        # round, not a read a table. A code found free is opened at once, full, in one
        # entry; one found taken (a process died half way, or another table's code) goes
        # the careful way of :meth:`_open`.
        first = {i: table_code(state.id, number, i) for i in unopened}
        taken = await self.store.first_entries(list(first.values()))
        gate = asyncio.Semaphore(OPENING)

        async def one(index: int) -> tuple[int, str | None]:
            async with gate:
                if first[index] in taken:
                    return index, await self._open(state, number, index)
                return index, await self._open_free(state, number, index, first[index])
        codes = [(i, c) for i, c in await asyncio.gather(*(one(i) for i in unopened))
                 if c is not None]

        def decide(now: TournamentState) -> Entries:
            return [("opened", {"round": number, "index": i, "table": code})
                    for i, code in codes if now.tables[number - 1][i] is None]
        await self.service.change(state.id, decide)

    def _table_of(self, state: TournamentState, number: int, index: int
                  ) -> tuple[list[int], dict[str, Any], NewTable]:
        """The players of pairing ``index`` of round ``number`` in seat order, what its
        table's ``created`` entry carries besides, and the table asked for."""
        pairing = state.played[number - 1].tables[index]
        players = seat_order([state.entrants[e - 1] for e in pairing.entrants], state.teams)
        mark = {"tournament": state.id, "round": number, "index": index,
                "start_by": state.began[number - 1] + self.hub.settings.tournament_wait_seconds}
        return players, mark, NewTable(state.variant, state.players, dict(state.options))

    async def _open_free(self, state: TournamentState, number: int, index: int,
                         code: str) -> str | None:
        """Open the table of pairing ``index`` at ``code``, which the store has just been
        read to hold no table: every entrant seated in its ``created`` entry, one write.
        Its code, or None if it could not be done now (the next sweep tries again)."""
        (first, *others), mark, body = self._table_of(state, number, index)
        try:
            made = await self.hub.create_at(
                code, first, state.names.get(first, ""), body, mark,
                [(p, state.names.get(p, "")) for p in others], absent=True)
        except Exception as err:
            log.warning("tournament %s: table %s not opened yet (%r)", state.id, code, err)
            return None
        return code if made else None

    async def _open(self, state: TournamentState, number: int, index: int) -> str | None:
        """Open the table of pairing ``index`` of round ``number`` (if nobody has) and seat
        its entrants; its code, or None if it could not be done now (the next sweep
        tries again)."""
        (first, *others), mark, body = self._table_of(state, number, index)
        for salt in range(SALTS):
            code = table_code(state.id, number, index, salt)
            entries = await self.store.load(code)
            if entries:
                data = entries[0].data
                if any(data.get(k) != mark[k] for k in ("tournament", "round", "index")):
                    continue  # some other table's code: the next choice
            elif not await self.hub.create_at(code, first, state.names.get(first, ""), body,
                                              mark, [(p, state.names.get(p, ""))
                                                     for p in others]):
                return None  # being opened by another process
            try:
                for player in others:
                    seated = await self.hub.ask(
                        code, AskSeat(player, state.names.get(player, "")), JOIN_PATIENCE)
                    if seated is None:
                        return None
            except Exception as err:
                log.warning("tournament %s: table %s not seated yet (%r)", state.id, code, err)
                return None
            return code
        log.error("tournament %s: no free code for round %d table %d", state.id, number, index)
        return None

    async def _record(self, tournament: str, number: int, over: set[str] | None) -> None:
        """Keep the results of round ``number``'s matches that are over."""
        state = await self.service.state(tournament)
        waiting = {code: i for i, code in enumerate(state.tables[number - 1])
                   if code is not None and state.played[number - 1].tables[i].result is None
                   and (over is None or code in over)}
        if not waiting:
            return
        records = await self.service.store.records(list(waiting))
        results: list[tuple[int, dict[str, object]]] = []
        for code, record in records.items():
            if not record.get("result"):
                continue
            index = waiting[code]
            result = result_of(record, state.played[number - 1].tables[index].entrants)
            results.append((index, {"round": number, "index": index,
                                    "winners": list(result.winners),
                                    "scores": list(result.scores),
                                    "hands_won": list(result.hands_won)}))

        def decide(now: TournamentState) -> Entries:
            if len(now.played) != number:
                return []
            return [("result", dict(entry)) for index, entry in results
                    if now.played[number - 1].tables[index].result is None]
        if results:
            await self.service.change(tournament, decide)


def _next(number: int, won: list[bool], at: float) -> Decision:
    """The decision to pair round ``number + 1`` (or end the tournament) once round
    ``number`` is over; ``won`` gets, at each deciding, whether it paired (the last one
    counts: it is the one kept)."""
    def decide(state: TournamentState) -> Entries | Awaitable[Entries]:
        won.append(False)
        if state.status != "running" or len(state.played) != number:
            return []
        if not state.played[-1].over:
            return []
        return pair(state)

    async def pair(state: TournamentState) -> Entries:
        nxt = await pair_off_loop(state)  # in a thread: the tables play on meanwhile
        if nxt is None:
            return [("over", {})]
        won[-1] = True
        return [paired(number + 1, nxt, at)]
    return decide
