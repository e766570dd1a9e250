"""Seats held at once (PROTOCOL.md, "Safe for strangers"): a player holds at most
:data:`MOST_WAITING` seats at tables that are waiting to start, opened or joined; the next
``POST /api/tables``, ``join`` or ``quick`` is 409 ``too_many_tables``. A tournament's tables
do not count (the tournament seats its entrants, they do not ask).

The count lives in the store (``waiting_seats``, one row a player and table), shared by every
process of a cluster, since a player's tables may be held by different processes:

- **Taking** a seat (a table's ``created`` or ``joined`` entry) first takes its row with
  :meth:`SeatHolds.take`, one statement that inserts the row only while the player holds
  fewer than the most. Two takes of one player at once, in one process or two, cannot both
  see room for one: on SQLite the statement takes the database's one write lock before it
  reads the count (a write statement begins its transaction by taking it); on PostgreSQL the
  transaction first locks the player's row (``SELECT ... FOR UPDATE``), so the second take
  waits until the first commits, and then reads its row (under READ COMMITTED each statement
  reads what was committed before it began). Only then is the entry written; if that write
  fails, the row is given back (:meth:`SeatHolds.give_back`).
- **Freeing** a seat (a ``left`` or ``removed`` entry while waiting, the ``started`` entry,
  a waiting table closed or abandoned) drops its rows in the very transaction that keeps the
  entry (the ``SeatsFreed`` effect, kabes.table.outcomes): the count never disagrees with
  the logs after a crash.
- A row taken just before a process died, whose entry was never written, is a seat nobody
  holds: a row whose table never came to exist is dropped by :meth:`SeatHolds.sweep` a minute
  on; one at a table that exists is dropped when that table starts or closes (at the latest
  after ``--abandon-seconds`` with nobody there).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kabes.server.common.protocol import ErrorCode, Refused
from kabes.server.store.schema import players, tables, waiting_seats

MOST_WAITING: Final = 3
"""Seats a player may hold at once at tables waiting to start."""
STRAY_SECONDS: Final = 60.0
"""A row whose table does not exist this long after it was taken is a stray (see above)."""

T = TypeVar("T")


class SeatHolds:
    """The waiting seats of every player, in the store (see the module's contract)."""

    def __init__(self, engine: AsyncEngine, most: int = MOST_WAITING) -> None:
        self.engine = engine
        self.most = most

    async def take(self, player: int, code: str) -> None:
        """Count ``player``'s seat at table ``code`` (waiting to start) among the seats they
        hold; Refused ``too_many_tables`` when they hold the most already. Taking a seat
        already counted changes nothing."""
        held = waiting_seats
        count = (sa.select(sa.func.count()).select_from(held)
                 .where(held.c.player == player).scalar_subquery())
        mine = sa.exists().where(held.c.player == player, held.c.code == code)
        row = sa.select(sa.cast(sa.literal(player), sa.Integer),
                        sa.cast(sa.literal(code), sa.String),
                        sa.cast(sa.literal(time.time()), sa.Float)
                        ).where(count < self.most, ~mine)
        async with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # Takes of one player, one after the other (see the module's contract).
                await conn.execute(sa.select(players.c.id).where(players.c.id == player)
                                   .with_for_update())
            taken = await conn.execute(
                held.insert().from_select(["player", "code", "held_at"], row))
            if taken.rowcount:
                return
            already = (await conn.execute(sa.select(mine))).scalar()
        if not already:
            raise Refused(ErrorCode.TOO_MANY_TABLES,
                          f"you already hold {self.most} seats at tables waiting to start; "
                          "play there, or leave one first")

    async def seat(self, player: int, code: str, write: Callable[[], Awaitable[T]]) -> T:
        """Take ``player``'s seat at ``code`` (:meth:`take`), then ``write`` the entry that
        seats them; if the write fails, the seat is given back and the failure goes up."""
        await self.take(player, code)
        try:
            return await write()
        except BaseException:
            with contextlib.suppress(Exception):
                await self.give_back(player, code)
            raise

    async def give_back(self, player: int, code: str) -> None:
        """Forget ``player``'s seat at ``code``: the entry that took it was not written."""
        async with self.engine.begin() as conn:
            await conn.execute(waiting_seats.delete().where(
                waiting_seats.c.player == player, waiting_seats.c.code == code))

    async def held(self, player: int) -> list[str]:
        """The tables at which ``player`` holds a waiting seat."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(waiting_seats.c.code)
                                       .where(waiting_seats.c.player == player))).all()
        return sorted(str(r[0]) for r in rows)

    async def sweep(self, older_than: float = STRAY_SECONDS) -> None:
        """Drop the rows taken over ``older_than`` seconds ago for tables that do not exist
        (their ``created`` entry was never written)."""
        stray = sa.and_(waiting_seats.c.held_at < time.time() - older_than,
                        ~sa.exists().where(tables.c.code == waiting_seats.c.code))
        async with self.engine.connect() as conn:  # a read first: most sweeps find none
            found = (await conn.execute(sa.select(sa.exists().where(stray)))).scalar()
        if found:
            async with self.engine.begin() as conn:
                await conn.execute(waiting_seats.delete().where(stray))
