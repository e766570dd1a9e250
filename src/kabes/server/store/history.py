"""Rating history: a player's rating in a variant after each rated hand (PROTOCOL.md, "Players,
replays and rankings": ``"history": {VARIANT: [[time_ms, rating]...]}``).

Every rated hand writes one point per player, in the transaction that keeps the hand's entry
(``kabes.server.store.commits``). The history is thinned **on write**, in that same
transaction: the latest :data:`KEPT_WHOLE` points of a (player, variant) are kept whole and,
before them, only the last point of each UTC day. Thinning on read alone would keep the
answer small but let the table grow with every hand a stranger plays; thinned on write, a
(player, variant) holds at most :data:`KEPT_WHOLE` rows plus one a day played, whatever the
number of hands, and reading a page is one indexed range of those rows.

Thinning keeps an invariant: before the latest :data:`KEPT_WHOLE` points there is at most one
point a day. A commit that adds ``n`` points to a (player, variant) pushes ``n`` points past
the latest :data:`KEPT_WHOLE`; only they and the newest point already past it can break the
invariant, so the commit reads those ``n + 1`` rows (one indexed query) and deletes each one
that a newer one of the same day follows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from kabes.server.store.schema import rating_history

KEPT_WHOLE = 100
"""The latest points of a (player, variant) kept whole; older ones are one a day."""
DAY_SECONDS = 86_400


def rating(mu: float, sigma: float) -> float:
    """The number shown in rankings and history: openskill's ordinal (mu - 3 sigma), 2
    decimals."""
    return round(mu - 3 * sigma, 2)


def day_of(at: float) -> int:
    """The UTC day (days since 1970-01-01) of a time in seconds."""
    return int(at // DAY_SECONDS)


class Statements:
    """The history's statements in the driver's parameter style, built once."""

    def __init__(self, mark: Callable[[int], str]) -> None:
        self.insert = (
            "INSERT INTO rating_history (player, variant, at, day, rating) "
            f"VALUES ({', '.join(mark(n) for n in range(1, 6))})")
        self.past_whole = (
            "SELECT id, day FROM rating_history "
            f"WHERE player = {mark(1)} AND variant = {mark(2)} "
            f"ORDER BY id DESC LIMIT {mark(3)} OFFSET {KEPT_WHOLE}")
        self.delete = f"DELETE FROM rating_history WHERE id = {mark(1)}"


def keep(cursor: Any, sql: Statements, points: list[tuple[int, str, float, int, float]]
         ) -> None:
    """Write ``points`` (player, variant, at, day, rating; in the order of the hands) on the
    driver's ``cursor``, then thin each (player, variant) they touch (see the module)."""
    if not points:
        return
    cursor.executemany(sql.insert, points)
    added: dict[tuple[int, str], int] = {}
    for player, variant, *_ in points:
        added[player, variant] = added.get((player, variant), 0) + 1
    gone: list[tuple[int]] = []
    for (player, variant), count in added.items():
        cursor.execute(sql.past_whole, (player, variant, count + 1))
        seen: set[int] = set()
        for point, day in cursor.fetchall():  # newest first
            if day in seen:
                gone.append((int(point),))
            seen.add(day)
    if gone:
        cursor.executemany(sql.delete, gone)


async def history_of(conn: AsyncConnection, player: int) -> dict[str, list[list[float]]]:
    """A player's history by variant, oldest first: ``[time_ms, rating]`` points."""
    rows = (await conn.execute(
        sa.select(rating_history.c.variant, rating_history.c.at, rating_history.c.rating)
        .where(rating_history.c.player == player)
        .order_by(rating_history.c.variant, rating_history.c.id)
    )).all()
    history: dict[str, list[list[float]]] = {}
    for variant, at, value in rows:
        history.setdefault(variant, []).append([int(at * 1000), round(value, 2)])
    return history
