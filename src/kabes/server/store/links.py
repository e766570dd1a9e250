"""Link codes in the store: one player on every phone (PROTOCOL.md, "Public tables").

A player asks for a code on a device they play on and types it on another; that device gets a
token of its own for the same player. The codes live in the store, not in a process's memory,
so a code made through one process of a cluster is used through any other.

- A code is 6 ASCII digits from :mod:`secrets`, alive for :data:`LINK_SECONDS`. The store
  keeps only its SHA-256: the code itself is never written down. (Six digits can be found
  again from their hash by trying them all; what keeps a code safe is that it lives 5
  minutes, works once, and that tries are limited per address.)
- One live code per player: a new code deletes the player's previous one, and every expired
  code with it, in the same transaction.
- A code works once, even when two requests race: using it is a single
  ``DELETE ... WHERE code_hash = ? AND expires_at > now RETURNING player``, and only the
  request whose DELETE removed the row gets the player; the token is kept in the same
  transaction.
- Time comes from the caller (the server's clock), so tests move it with a fake clock.
"""

from __future__ import annotations

import hashlib
import secrets

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from kabes.server.store.schema import link_codes, player_tokens, players
from kabes.server.store.store import token_hash, token_player

LINK_SECONDS = 300
"""How long a link code works."""
DIGITS = 6
TRIES = 8
"""Fresh codes tried when the one drawn is, by chance, another player's live code."""


def code_hash(code: str) -> str:
    """What the store keeps of a link code (distinct from any token's hash)."""
    return hashlib.sha256(b"link:" + code.encode()).hexdigest()


def is_code(text: str) -> bool:
    """Whether ``text`` is written as a code: exactly six ASCII digits."""
    return len(text) == DIGITS and text.isascii() and text.isdigit()


class LinkCodes:
    """The link codes of the store whose engine is ``engine``."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def make(self, token: str, now: float) -> str | None:
        """A new code for ``token``'s player, alive until ``now + LINK_SECONDS``; the
        player's older code (and every expired one) stops working. None if the token is
        unknown, or was ended while the code was being made (see :meth:`use`)."""
        for _ in range(TRIES):
            code = f"{secrets.randbelow(10 ** DIGITS):0{DIGITS}d}"
            try:
                async with self.engine.begin() as conn:
                    player = await token_player(conn, token)
                    if player is None or not await _hold(conn, player, token):
                        return None
                    await conn.execute(link_codes.delete().where(
                        (link_codes.c.player == player) | (link_codes.c.expires_at <= now)))
                    await conn.execute(link_codes.insert().values(
                        code_hash=code_hash(code), player=player,
                        expires_at=now + LINK_SECONDS))
                return code
            except sa.exc.IntegrityError:
                continue  # another player's live code, or this player's made at this moment
        raise RuntimeError("no free link code was found")  # pragma: no cover

    async def use(self, code: str, token: str, now: float) -> int | None:
        """Use ``code`` once: the player it was made for, who from now on is also reached by
        ``token``; None for a code that is wrong, used or expired.

        Races with a logout everywhere (Store.revoke_everywhere): making and using a code
        lock the player's row before they touch a code, as the logout does before it
        deletes the player's tokens and code, so the two happen one after the other, always
        in the same order of locks (no deadlock); whichever comes second sees what the first
        committed. Reading the code's player first takes no lock."""
        async with self.engine.begin() as conn:
            owner = (await conn.execute(
                sa.select(link_codes.c.player)
                .where(link_codes.c.code_hash == code_hash(code))
                .where(link_codes.c.expires_at > now))).scalar()
            if owner is None:
                return None
            await _lock(conn, int(owner))
            player = (await conn.execute(
                link_codes.delete()
                .where(link_codes.c.code_hash == code_hash(code))
                .where(link_codes.c.expires_at > now)
                .where(link_codes.c.player == owner)
                .returning(link_codes.c.player)
            )).scalar()
            if player is None:
                return None
            await conn.execute(player_tokens.insert().values(
                token_hash=token_hash(token), player=int(player), created_at=now))
        return int(player)


async def _lock(conn: AsyncConnection, player: int) -> None:
    """Hold ``player``'s row until the transaction ends: a write that changes nothing (a row
    lock in PostgreSQL; in SQLite, the first write of a transaction takes the one writer's
    lock)."""
    await conn.execute(players.update().where(players.c.id == player)
                       .values(name=players.c.name))


async def _hold(conn: AsyncConnection, player: int, token: str) -> bool:
    """Lock ``player``'s row, then whether ``token`` is still the player's (a logout
    everywhere that committed meanwhile ended it)."""
    await _lock(conn, player)
    return await token_player(conn, token) == player
