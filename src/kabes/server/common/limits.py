"""Rate limits (PROTOCOL.md, "Safe for strangers"): more than 10 guests a minute from one
address, 10 tables a minute from one player or 10 link codes tried a minute from one address
are refused with 429 ``slow_down`` and a ``Retry-After`` header, so that one script cannot
fill the store with guests, the process with waiting tables, or guess a link code.

Link codes are guarded twice more, since a guesser is not bound to one address: an IPv6
subscriber is given a whole /64 (2^64 addresses), so the tries of one /64 are counted
together (20 a minute); and wrong codes from everyone together are at most 100 a minute
(:meth:`Limits.link_code`), past which every try is refused until the oldest of them is a
minute old. A million codes, each live for 5 minutes, then give a botnet at most 500 tries
at a live code, however many addresses it has.

Each limit is a sliding log: the moments of the requests let through in the last minute,
at most 10 per key, so "10 a minute" holds over every minute and not only within calendar
minutes (a fixed window lets 20 through across its edge). A refused request is not counted:
whoever waits for ``Retry-After`` gets through.

In one process the logs live in memory (:class:`LocalCounter`): keys quiet for a whole
window are dropped as new requests come, and never more than :data:`MAX_KEYS` are kept. With
``--redis`` they live in Redis (:class:`RedisCounter`), one sorted set per key read and
written by one script, timed by Redis's own clock: every process counts the same requests.
``kabes serve --rate-limits off`` turns every limit off (benchmarks on one machine).
"""

from __future__ import annotations

import ipaddress
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final, Protocol

from redis.asyncio import Redis
from starlette.requests import HTTPConnection

from kabes.server.common import proxies
from kabes.server.common.protocol import ErrorCode, Refused
from kabes.server.common.window import Window


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``most`` requests of one kind per key within any ``seconds``."""

    name: str
    """Its part of the Redis key."""
    most: int
    seconds: float
    what: str
    """What is counted, for the refusal's message."""


GUESTS: Final = Limit("guests", 10, 60.0, "new guests a minute from one address")
TABLES: Final = Limit("tables", 10, 60.0, "new tables a minute from one player")
LINK_CODES: Final = Limit("links", 10, 60.0, "link codes tried a minute from one address")
"""For ``POST /api/link``: :meth:`Limits.link_code`."""
NETWORK_LINK_CODES: Final = Limit("links64", 20, 60.0,
                                  "link codes tried a minute from one IPv6 /64 network")
WRONG_LINK_CODES: Final = Limit("wronglinks", 100, 60.0,
                                "wrong link codes a minute from everyone together")
EVERYONE: Final = "all"
"""The key of a limit counted for the whole server."""
MAX_KEYS: Final = 100_000
"""Keys an in-process counter keeps at most (about 10 MB); past it the least recently used
go first, so memory stays bounded however many addresses a flood comes from."""


class SlowDown(Refused):
    """A request over a limit: 429 ``slow_down``, with the whole seconds to wait."""

    def __init__(self, limit: Limit, wait: float) -> None:
        self.retry_after = max(1, math.ceil(wait))
        """The ``Retry-After`` header's seconds."""
        super().__init__(ErrorCode.SLOW_DOWN, f"more than {limit.most} {limit.what}; try "
                         f"again in {self.retry_after} s")


class Counter(Protocol):
    """Where the logs are kept."""

    async def hit(self, limit: Limit, key: str, mark: str = "") -> float:
        """Count one request under ``key`` if ``limit`` lets it through: 0 then, else the
        seconds until it would (nothing is counted). ``mark``: a name for this request,
        unique within the key, by which :meth:`unhit` takes it back."""
        ...

    async def unhit(self, limit: Limit, key: str, mark: str) -> None:
        """Take back the request counted with ``mark`` (nothing if it is gone)."""
        ...


class LocalCounter:
    """The logs in this process's memory. The dict is in order of last use, so the keys
    quiet for a whole window are at its front: each hit drops those first."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = MAX_KEYS) -> None:
        self._clock = clock
        self._max_keys = max_keys
        self._logs: dict[tuple[str, str], Window] = {}

    def __len__(self) -> int:
        return len(self._logs)

    async def hit(self, limit: Limit, key: str, mark: str = "") -> float:
        """See :meth:`Counter.hit`."""
        now = self._clock()
        self._forget(now)
        window = self._logs.pop((limit.name, key), None) or Window(limit.most, limit.seconds)
        wait = window.wait(now)
        if wait == 0:
            window.hit(now, mark)
        self._logs[limit.name, key] = window
        while len(self._logs) > self._max_keys:
            del self._logs[next(iter(self._logs))]
        return wait

    async def unhit(self, limit: Limit, key: str, mark: str) -> None:
        """See :meth:`Counter.unhit`."""
        window = self._logs.get((limit.name, key))
        if window is not None:
            window.unhit(mark)

    def _forget(self, now: float) -> None:
        """Drop the least recently used keys whose every request is older than a window."""
        while self._logs:
            first = next(iter(self._logs))
            if not self._logs[first].quiet_at(now):
                return
            del self._logs[first]


_SLIDING = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - ms)
end
redis.call('ZADD', KEYS[1], ms, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
"""
"""One hit on a sliding log kept as a sorted set of requests (ARGV[3], a random mark) scored
by their millisecond times: the milliseconds to wait, or 0 (counted). Redis's clock, so
processes whose clocks differ count alike; check and count are one script, so two processes
cannot both take the last place."""


class RedisCounter:
    """The logs in Redis, shared by every process of a cluster (``{prefix}limit:...``)."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self._script = redis.register_script(_SLIDING)
        self._redis = redis
        self._prefix = prefix

    async def hit(self, limit: Limit, key: str, mark: str = "") -> float:
        """See :meth:`Counter.hit`; RedisError if Redis cannot be reached (503)."""
        wait = await self._script(
            keys=[self._key(limit, key)],
            args=[max(1, round(limit.seconds * 1000)), limit.most,
                  mark or secrets.token_hex(8)])
        return int(wait) / 1000

    async def unhit(self, limit: Limit, key: str, mark: str) -> None:
        """See :meth:`Counter.unhit`."""
        await self._redis.zrem(self._key(limit, key), mark)

    def _key(self, limit: Limit, key: str) -> str:
        return f"{self._prefix}limit:{limit.name}:{key}"


@dataclass(frozen=True, slots=True)
class LinkTry:
    """A link code's try as counted: its place among the wrong codes, given back if the code
    was right (:meth:`Limits.linked`)."""

    mark: str | None
    """None when nothing was counted (``--rate-limits off``)."""


class Limits:
    """The limits a server holds: :meth:`guest`, :meth:`table`, :meth:`link_code` raise
    :class:`SlowDown` past theirs; with ``counter`` None (``--rate-limits off``) nothing is
    counted."""

    def __init__(self, counter: Counter | None, guests: int = GUESTS.most,
                 tables: int = TABLES.most, link_codes: int = LINK_CODES.most,
                 link_networks: int = NETWORK_LINK_CODES.most,
                 wrong_link_codes: int = WRONG_LINK_CODES.most) -> None:
        self.counter = counter
        self.guests = replace(GUESTS, most=guests)
        self.tables = replace(TABLES, most=tables)
        self.link_codes = replace(LINK_CODES, most=link_codes)
        self.link_networks = replace(NETWORK_LINK_CODES, most=link_networks)
        self.wrong_link_codes = replace(WRONG_LINK_CODES, most=wrong_link_codes)
        """Each limit with the count ``kabes serve`` was given."""

    async def check(self, limit: Limit, key: str) -> None:
        """Count a request under ``key``, or refuse it."""
        if self.counter is None:
            return
        wait = await self.counter.hit(limit, key)
        if wait > 0:
            raise SlowDown(limit, wait)

    async def guest(self, request: HTTPConnection) -> None:
        """``POST /api/guests``: per client address."""
        await self.check(self.guests, address(request))

    async def table(self, player: int) -> None:
        """``POST /api/tables``: per player."""
        await self.check(self.tables, str(player))

    async def link_code(self, request: HTTPConnection) -> LinkTry:
        """A link code about to be tried (``POST /api/link``), counted per client address,
        per IPv6 /64 and among the server's wrong codes, before it is read: a refusal by
        any of them gives back what the others counted (a refused try is not counted).

        The try takes its place among the wrong codes *before* the code is looked up, and
        gives it back (:meth:`linked`) only once it linked: were wrong codes counted after
        the lookup, every try in flight at that moment (any number, from other sockets or
        processes) would be looked up past the 100. Each hit checks and counts in one step
        (no await between them in memory, one script in Redis), so no two tries take the
        last place."""
        if self.counter is None:
            return LinkTry(None)
        who = address(request)
        counts = [(self.link_codes, who), (self.link_networks, network(who)),
                  (self.wrong_link_codes, EVERYONE)]
        taken: list[tuple[Limit, str]] = []
        mark = secrets.token_hex(8)
        try:
            for limit, key in counts:
                if key is None:
                    continue
                wait = await self.counter.hit(limit, key, mark)
                if wait > 0:
                    raise SlowDown(limit, wait)
                taken.append((limit, key))
        except SlowDown:
            for limit, key in taken:
                await self.counter.unhit(limit, key, mark)
            raise
        return LinkTry(mark)

    async def linked(self, tried: LinkTry) -> None:
        """The code ``tried`` was right: it is not a wrong code (it still counts against its
        address and network)."""
        if self.counter is not None and tried.mark is not None:
            await self.counter.unhit(self.wrong_link_codes, EVERYONE, tried.mark)


def address(request: HTTPConnection) -> str:
    """The client's address, canonical (kabes.server.common.proxies puts there the client a
    trusted proxy names)."""
    return "unknown" if request.client is None else request.client.host


def network(client: str) -> str | None:
    """The IPv6 /64 that ``client`` is in (``2001:db8:1:2::/64``); None for an IPv4
    address or anything else, which is counted by its address alone."""
    found = proxies.address(client)
    if not isinstance(found, ipaddress.IPv6Address):
        return None
    return str(ipaddress.IPv6Network((found, 64), strict=False))
