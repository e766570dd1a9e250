"""Rankings by the page (PROTOCOL.md, "Players, replays and rankings": ``GET
/api/rankings/{variant}?page=N``, 50 a page, and the caller's ``"me": {"place", "rating"}``).

The order is openskill's ordinal (mu - 3 sigma) best first, ties by player id, over the players
with :data:`~kabes.table.rankings.RANKED_AFTER_HANDS` rated hands or more. A caller's place is
counted in the database with that same expression on both sides of the comparison, so it is
always the row's position in the pages, whatever the floating point makes of the ordinal.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from kabes.server.store.history import rating
from kabes.server.store.schema import players, ratings

PER_PAGE = 50
"""Rows of one page of the rankings."""


def _ordinal(table: Any) -> Any:
    return table.c.mu - 3 * table.c.sigma


async def ranked_rows(conn: AsyncConnection, variant: str, least_hands: int, limit: int,
                      offset: int = 0) -> list[dict[str, Any]]:
    """The ranked players of ``variant`` from ``offset``, at most ``limit``, best first."""
    rows = (await conn.execute(
        sa.select(ratings.c.player, players.c.name, ratings.c.mu, ratings.c.sigma,
                  ratings.c.hands, ratings.c.hands_won, ratings.c.matches,
                  ratings.c.matches_won)
        .join(players, players.c.id == ratings.c.player)
        .where(ratings.c.variant == variant)
        .where(ratings.c.hands >= least_hands)
        .order_by(_ordinal(ratings).desc(), ratings.c.player)
        .limit(limit).offset(offset)
    )).all()
    return [
        {"player": p, "name": n, "rating": rating(mu, sigma), "mu": round(mu, 3),
         "sigma": round(sigma, 3), "hands": h, "hands_won": hw, "matches": m,
         "matches_won": mw}
        for p, n, mu, sigma, h, hw, m, mw in rows
    ]


async def place_of(conn: AsyncConnection, variant: str, player: int, least_hands: int
                   ) -> dict[str, Any] | None:
    """``{"place", "rating"}`` of ``player`` in ``variant`` (1 the best), or None when the
    player is not ranked there (fewer than ``least_hands`` rated hands, or none)."""
    mine = (await conn.execute(
        sa.select(ratings.c.mu, ratings.c.sigma)
        .where(ratings.c.variant == variant, ratings.c.player == player,
               ratings.c.hands >= least_hands))).first()
    if mine is None:
        return None
    me = ratings.alias("me")
    above = (await conn.execute(
        sa.select(sa.func.count()).select_from(ratings)
        .join(me, sa.and_(me.c.variant == ratings.c.variant, me.c.player == player))
        .where(ratings.c.variant == variant, ratings.c.hands >= least_hands)
        .where(sa.or_(
            _ordinal(ratings) > _ordinal(me),
            sa.and_(_ordinal(ratings) == _ordinal(me), ratings.c.player < player)))
    )).scalar_one()
    return {"place": int(above) + 1, "rating": rating(float(mine[0]), float(mine[1]))}
