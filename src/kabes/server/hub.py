"""The live tables of one server process: opening them, finding them, rebuilding them.

A table opened here lives in memory as an actor (``kabes.server.table``); one that is over
and has no socket left is forgotten after a while and rebuilt from its log if asked for
again. On start, every table that was not over is rebuilt from the store, clocks included.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from concurrent.futures import Executor
from typing import Any

from kabes.ai import LEVELS
from kabes.errors import KabesError
from kabes.match import Match
from kabes.rules import VARIANTS
from kabes.server.clock import Clock
from kabes.server.metrics import Metrics
from kabes.server.store import Store
from kabes.server.table import Entry, Settings, Status, Table, TableError, restore

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
    ) -> None:
        self.store = store
        self.clock = clock
        self.settings = settings
        self.executor = executor
        self.metrics = metrics
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def statuses(self) -> dict[str, int]:
        """How many tables in memory are in each status."""
        return dict(Counter(str(t.status) for t in self.tables.values()))

    def _table(self, code: str) -> Table:
        return Table(code, self.store, self.clock, self.settings, self.executor, self.metrics)

    async def open(self) -> int:
        """Rebuild every table that was not over when the server stopped; how many."""
        heartbeat = await self.store.last_heartbeat()
        codes = await self.store.live_codes()
        for code in codes:
            table = self._table(code)
            try:
                await restore(table, await self.store.load_entries(code), heartbeat)
            except Exception:
                log.exception("table %s could not be rebuilt; left out", code)
                continue
            self.tables[code] = table
            table.reopen = self._again
            table.start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="sweeper")
        return len(self.tables)

    async def close(self) -> None:
        """Stop every table's actor."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()

    async def create(
        self,
        player: int,
        name: str,
        variant: Any,
        players: Any,
        options: Any,
        computers: Any,
    ) -> Table:
        """Open a table with ``player`` as host at seat 0; TableError with the protocol's
        code for a bad variant, seat count, option or level."""
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise TableError("bad_variant", f"no variant {variant!r}; the variants are "
                             f"{', '.join(VARIANTS)}")
        rules = VARIANTS[variant]
        if players is None:
            players = rules.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise TableError("bad_options", "players must be a whole number")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise TableError("bad_options", "options must be an object")
        computers = self._check_computers(rules.people_only, variant, players, computers)
        options = dict(options)
        if rules.open_ended_for_people and not computers:
            options.setdefault("open_ended", True)
        try:
            Match(variant, players, options)
        except KabesError as err:
            raise TableError("bad_options", err.message) from None
        code = new_code()
        while code in self.tables or await self.store.load_entries(code):
            code = new_code()
        table = self._table(code)
        data = {"variant": variant, "players": players, "options": options,
                "computers": computers, "player": player, "name": name}
        await table._commit("created", data)
        self.tables[code] = table
        table.reopen = self._again
        table.start()
        return table

    async def _again(self, table: Table, seat: int) -> str:
        """Open ``table`` again (same variant, seats, options and computers), hosted by the
        person at ``seat``; the new code."""
        sitter = table.seats[seat]
        if sitter is None or sitter.player is None:
            raise TableError("not_now", "only a person seated here can open it again")
        computers = {
            str(n): s.level for n, s in enumerate(table.seats) if s is not None and s.level
        }
        again = await self.create(
            sitter.player, sitter.name, table.variant, table.players, table.options, computers
        )
        return again.code

    @staticmethod
    def _check_computers(
        people_only: bool, variant: str, players: int, computers: Any
    ) -> dict[str, str]:
        if computers is None:
            return {}
        if not isinstance(computers, dict):
            raise TableError("bad_level", "computers maps seats (\"1\", \"2\"...) to levels")
        if computers and people_only:
            raise TableError("people_only", f"only people sit at a {variant} table")
        out: dict[str, str] = {}
        for seat, level in computers.items():
            if not (isinstance(seat, str) and seat.isdigit() and 0 < int(seat) < players):
                raise TableError("bad_level", f"seat {seat!r} is not a computer's seat: "
                                 f"1 to {players - 1}")
            if level not in LEVELS:
                raise TableError("bad_level", f"no level {level!r}; the levels are "
                                 f"{', '.join(LEVELS)}")
            out[str(int(seat))] = level
        return out

    async def get(self, code: str) -> Table | None:
        """The table ``code``, rebuilt from the store if it is not in memory; None if none."""
        table = self.tables.get(code)
        if table is not None:
            return table
        if not _plausible(code):
            return None
        loading = self._loading.get(code)
        if loading is not None:
            return await loading
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            entries = await self.store.load_entries(code)
            found: Table | None = None
            if entries:
                found = self._table(code)
                await restore(found, entries, None)
                self.tables[code] = found
                found.reopen = self._again
                found.start()
            future.set_result(found)
            return found
        except Exception as err:
            future.set_exception(err)
            raise
        finally:
            del self._loading[code]

    async def _sweep(self) -> None:
        """Forget finished tables nobody watches any more."""
        while True:
            await asyncio.sleep(60)
            now = self.clock.now()
            for code, table in list(self.tables.items()):
                idle = all(s is None or not s.sockets for s in table.seats)
                if table.status == Status.OVER and idle and now - table.changed_at > FORGET_AFTER:
                    await table.stop()
                    self.tables.pop(code, None)


def _plausible(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)


__all__ = ["Entry", "Hub", "new_code"]
