"""The lobby of public tables, the people online, and quick seats (PROTOCOL.md, "Public tables,
watching and phrases"; docs/server.md, "The lobby and quick seats").

Contract:

- A **listing** is a public table that is not over, as the lobby shows it: its summary, how
  many seats are taken, when it was opened, how many sockets watch it. Private tables are
  never listed.
- The listings and people online are read from a **board** (kabes.server.lobby.board), chosen
  once by the processes serving the store, so this module never asks which side it runs on.
  **Alone** (no Redis), every table that is not over lives in this process's memory, so the
  board is the tables themselves, read at each request: never stale.
  **With many processes** (``--redis``), each owner publishes its public tables and people
  online in Redis (kabes.server.lobby.published), every
  :data:`~kabes.server.lobby.published.PUBLISH_SECONDS` and at once when a table is opened public
  or a seat taken there over HTTP. So any process answers the same lobby, at most
  :data:`~kabes.server.lobby.published.PUBLISH_SECONDS` behind a change made by a socket (a
  connection, a hand starting), and never behind a seat taken over HTTP.
- **One reading a second.** ``GET /api/lobby`` needs no token, and reading the lobby walks
  every table of the process (or every listing in Redis). So each process keeps its answer
  per variant for :data:`FRESH_SECONDS` and answers everyone from it: a stranger asking a
  thousand times a second costs one reading a second. The kept answers are dropped at once
  when this process opens a public table or a seat is taken at one over HTTP (quick seats
  included), so the lobby is never behind those; it may be up to :data:`FRESH_SECONDS` behind
  a socket's coming or going, or a hand's start or end. Quick seats never read the kept
  answers.
- **Quick seats** are made one at a time per (variant, seat count), under the board's lock
  (kabes.server.lobby.quick_locks: an ``asyncio.Lock`` in one process; with Redis also ``SET NX
  PX``): the holder reads the waiting listings, takes a seat at the first that fits, or opens
  a table and lists it, and only then lets the next one in. So two people asking at once, on
  one process or two, sit at one table.
"""

from __future__ import annotations

import contextlib
from typing import Any, Final

from kabes.errors import KabesError
from kabes.match import Match
from kabes.server.common.limits import Limits
from kabes.server.common.protocol import ErrorCode, NewTable, QuickSeat, Refused, as_json
from kabes.server.hub.hub import Hub
from kabes.server.lobby.board import Board, Listing
from kabes.server.table.actor import Table
from kabes.server.table.table_requests import AskSeat
from kabes.table.creation import created

MOST_LISTED: Final = 50
"""Tables in each of the lobby's lists at most."""
FRESH_SECONDS: Final = 1.0
"""How long a lobby answer is kept and given to everyone who asks (see the contract)."""


class Lobby:
    """The lobby, people online and quick seats of one process (see the module's contract)."""

    def __init__(self, hub: Hub, board: Board, limits: Limits, patience: float) -> None:
        self.hub = hub
        self.board = board
        """The listings and people online, here or in Redis (kabes.server.lobby.board)."""
        self.limits = limits
        self.patience = patience
        """Seconds a quick seat waits for a table's owner (as any request does)."""
        self._kept: dict[str | None, tuple[float, dict[str, Any]]] = {}
        """Each variant's (None: every variant's) last answer, with when it was read."""

    # Life ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start keeping the board current (with Redis: publishing this process's public
        tables and people online)."""
        self.board.start()

    async def close(self) -> None:
        """Stop it."""
        await self.board.close()

    # The lobby -------------------------------------------------------------------------

    async def lobby(self, variant: str | None) -> dict[str, Any]:
        """``GET /api/lobby``: people online, and the public tables waiting (a seat free,
        fullest first by the seats whose occupant is here, then the oldest) and in play
        (most watched first, then the oldest), at most :data:`MOST_LISTED` of each; the
        answer read at most :data:`FRESH_SECONDS` ago, if there is one."""
        now = self.hub.clock.now()
        kept = self._kept.get(variant)
        if kept is not None and now - kept[0] < FRESH_SECONDS:
            return kept[1]
        answer = await self._read_lobby(variant)
        self._kept[variant] = (now, answer)
        return answer

    async def _read_lobby(self, variant: str | None) -> dict[str, Any]:
        rows = await self.listings(variant)
        waiting = sorted((r for r in rows if r.waiting and r.seated < r.players),
                         key=_fullest)
        playing = sorted((r for r in rows if not r.waiting),
                         key=lambda r: (-r.watchers, r.opened, r.code))
        return {"people_online": await self.people_online(),
                "waiting": [r.summary() for r in waiting[:MOST_LISTED]],
                "playing": [r.summary() for r in playing[:MOST_LISTED]]}

    async def listings(self, variant: str | None, waiting_only: bool = False) -> list[Listing]:
        """Every public table listed now (of ``variant``, or of every variant)."""
        return await self.board.listings(variant, waiting_only)

    async def people_online(self) -> int:
        """People (distinct players) with a socket open at a seat of any table; watchers
        are not counted."""
        return await self.board.people_online()

    # Quick seats -----------------------------------------------------------------------

    async def quick(self, player: int, name: str, body: QuickSeat) -> dict[str, Any]:
        """``POST /api/quick``: the caller's seat at the public waiting table of the variant
        whose seat count and stated options fit (the one they wait at already, else the
        fullest, then the oldest), or at seat 0 of a new public table with those options."""
        stated = dict(body.options or {})
        ask = NewTable(body.variant, body.players, stated, None, public=True)
        data = created(ask, player, name)  # Refused for a bad variant, seat count or option
        players = int(data["players"])
        wanted = _normalised(body.variant, players, stated)
        # Check (read the waiting listings) then act (take a seat, or open a table and list
        # it): safe because the board's lock lets one quick seat of this variant and seat
        # count through at a time, on every process, and the board shows the seat taken or
        # the table opened (listed() below, before the answer) before the lock is let go.
        async with self.board.quick_seat(body.variant, players):
            rows = [r for r in await self.listings(body.variant, waiting_only=True)
                    if r.players == players]
            fits = [(r, s) for r in rows
                    if _fits((s := r.summary())["options"], wanted)]
            mine = [r for r, s in fits if _seated(s, player)]
            others = sorted((r for r, s in fits if not _seated(s, player)
                             and r.seated < r.players), key=_fullest)
            for row in [*mine, *others]:
                with contextlib.suppress(Refused):  # taken, started, removed meanwhile
                    answer = await self.hub.ask(row.code, AskSeat(player, name),
                                                self.patience)
                    if answer is not None:
                        return dict(answer)
            await self.limits.table(player)
            table = await self.hub.create(player, name, ask)
            summary = await table.call(lambda: table.summary(seated=True))
            return {"seat": 0, "table": summary}

    async def listed(self, table: Table) -> None:
        """A public table was opened, or a seat taken there: this process's kept lobby
        answers are dropped, and the board shows the table as it is now, so that the next
        quick seat, on any process, finds it."""
        self._kept.clear()
        await self.board.listed(table)


def _fullest(row: Listing) -> tuple[int, int, float, str]:
    """The order of waiting tables: fullest first, counting the seats whose occupant is here
    (see :attr:`Listing.present`), then the seats taken, then the oldest."""
    return (-row.present, -row.seated, row.opened, row.code)


def _normalised(variant: str, players: int, stated: dict[str, Any]) -> dict[str, Any]:
    """The stated options as a summary shows them (the engine's values, as JSON)."""
    try:
        match = Match(variant, players, stated)
    except KabesError as err:  # created() has checked them already
        raise Refused(ErrorCode.BAD_OPTIONS, err.message) from None
    return as_json({name: getattr(match.options, name) for name in stated})


def _fits(options: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether a table's options (a summary's, defaults included) are the stated ones."""
    return all(options.get(name) == value for name, value in wanted.items())


def _seated(summary: dict[str, Any], player: int) -> bool:
    return any(s is not None and s.get("player") == player and not s.get("left")
               for s in summary["seats"])


__all__ = ["FRESH_SECONDS", "MOST_LISTED", "Listing", "Lobby"]
