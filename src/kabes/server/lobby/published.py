"""The lobby's board shared through Redis (``kabes serve --redis``): each owner publishes its
public tables and its people online, and any process reads everybody's.

Listings are one hash per variant and list (``{prefix}lobby:{variant}:waiting`` and
``...:playing``), field the table's code, value the listing with the moment it stops counting
(``until``, three publishing rounds on). Every :data:`PUBLISH_SECONDS` an owner writes every
listing it holds again (so a listing of a dead process is gone within
:data:`LISTING_SECONDS`) and deletes those of its tables that ended or left it; a table opened
public, or where a seat is taken over HTTP, is written at once, before the answer. People
online are one sorted set, ``{prefix}online``, of players scored by when a process last saw
them with a socket open.

No write here is guarded by a read of Redis, so no check-then-act spans processes: each owner
writes only the tables it holds (checked by :meth:`Listed.held` when the listing is read), a
listing left by a process that lost a table or died stops counting at its ``until``, and an
older reading landing after a newer one (a round and :meth:`Published.listed` at once) is
written over by the next round. So a race costs at most a listing :data:`LISTING_SECONDS`
stale, never a wrong seat: a quick seat is given by the table's owner, which refuses a seat
that is no longer free.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from contextlib import AbstractAsyncContextManager
from typing import Final

import msgspec
from redis.asyncio import Redis
from redis.exceptions import RedisError

from kabes.rules import VARIANTS
from kabes.server.lobby.board import Listed, Listing, listing_of, online_here
from kabes.server.lobby.quick_locks import RedisQuickLocks
from kabes.server.table.actor import Table

log = logging.getLogger("kabes.lobby")

PUBLISH_SECONDS: Final = 1.0
"""How often an owner writes its public tables and its people online in Redis."""
LISTING_SECONDS: Final = 3 * PUBLISH_SECONDS
"""How long a listing (or a person online) counts after it was last written."""

_json = msgspec.json.Encoder()


class Published:
    """The board every process publishes to and reads from, in Redis."""

    def __init__(self, redis: Redis, prefix: str, tables: Listed) -> None:
        self._redis = redis
        self._prefix = prefix
        self._tables = tables
        self._locks = RedisQuickLocks(redis, prefix)
        self._published: dict[str, str] = {}
        """The key each listing of this process was last written under."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start publishing this process's public tables and people online."""
        self._task = asyncio.get_running_loop().create_task(self._publish(), name="lobby")

    async def close(self) -> None:
        """Stop publishing."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def listings(self, variant: str | None, waiting_only: bool) -> list[Listing]:
        """The listings in Redis (of ``variant``, or of every variant) still counting."""
        wanted = [(v, w) for v in ([variant] if variant else list(VARIANTS))
                  for w in ((True,) if waiting_only else (True, False))]
        async with self._redis.pipeline(transaction=False) as pipe:
            for v, w in wanted:
                pipe.hgetall(self._list_key(v, w))
            found = await pipe.execute()
        now = time.time()
        out = []
        for (v, w), fields in zip(wanted, found, strict=True):
            for code, raw in fields.items():
                row = _kept(_text(code), v, w, raw, now)
                if row is not None:
                    out.append(row)
        return out

    async def people_online(self) -> int:
        """The players some process saw with a socket open within :data:`LISTING_SECONDS`
        (the stale ones are dropped first, in the same round trip)."""
        key = self._key("online")
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(key, "-inf", time.time() - LISTING_SECONDS)
            pipe.zcard(key)
            _, count = await pipe.execute()
        return int(count)

    async def listed(self, table: Table) -> None:
        """Write the table's listing now, so that the next quick seat, on any process,
        finds it as it is; if Redis fails, the next publishing round writes it."""
        try:
            await self._write([table])
        except (RedisError, OSError) as err:
            log.warning("could not list table %s now (%r); it is listed within %s s",
                        table.code, err, PUBLISH_SECONDS)

    def quick_seat(self, variant: str, players: int) -> AbstractAsyncContextManager[None]:
        """The lock every process shares (kabes.server.lobby.quick_locks)."""
        return self._locks.hold(variant, players)

    def _key(self, what: str) -> str:
        return f"{self._prefix}{what}"

    def _list_key(self, variant: str, waiting: bool) -> str:
        return self._key(f"lobby:{variant}:{'waiting' if waiting else 'playing'}")

    async def _publish(self) -> None:
        """Every :data:`PUBLISH_SECONDS`: this process's listings and people online."""
        while True:
            try:
                await self._write(list(self._tables.tables.values()), everything=True)
                online = online_here(self._tables.tables)
                if online:
                    now = time.time()
                    await self._redis.zadd(self._key("online"),
                                           dict.fromkeys(map(str, online), now))
            except (RedisError, OSError) as err:
                log.warning("could not publish the lobby: %r", err)
            except Exception:
                log.exception("could not publish the lobby")
            await asyncio.sleep(PUBLISH_SECONDS)

    async def _write(self, tables: list[Table], everything: bool = False) -> None:
        """Write the listings of ``tables`` (held here); with ``everything``, also delete
        the listings this process wrote before of tables it no longer lists."""
        until = time.time() + LISTING_SECONDS
        writes: dict[str, tuple[str, bytes]] = {}
        for table in tables:
            row = listing_of(table) if self._tables.held(table.code) is table else None
            if row is not None:
                writes[row.code] = (self._list_key(row.variant, row.waiting),
                                    _stored(row, until))
        gone = {c: k for c, k in self._published.items()
                if (everything and c not in writes) or (c in writes and writes[c][0] != k)}
        if not writes and not gone:
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            for code, key in gone.items():
                pipe.hdel(key, code)
            for code, (key, value) in writes.items():
                pipe.hset(key, code, value)
            for key in {k for k, _ in writes.values()}:
                pipe.pexpire(key, round(LISTING_SECONDS * 2000))
            await pipe.execute()
        for code in gone:
            if code not in writes:
                self._published.pop(code, None)
        self._published.update((c, k) for c, (k, _) in writes.items())


def _stored(listing: Listing, until: float) -> bytes:
    return _json.encode({"summary": listing.summary(), "seated": listing.seated,
                         "present": listing.present,
                         "opened": listing.opened, "watchers": listing.watchers,
                         "players": listing.players, "until": until})


def _kept(code: str, variant: str, waiting: bool, raw: bytes, now: float) -> Listing | None:
    found = msgspec.json.decode(raw)
    if found["until"] < now:
        return None
    summary = found["summary"]
    return Listing(code, variant, found["players"], waiting, found["seated"],
                   found.get("present", found["seated"]), found["opened"], found["watchers"],
                   lambda: summary)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


__all__ = ["LISTING_SECONDS", "PUBLISH_SECONDS", "Published"]
