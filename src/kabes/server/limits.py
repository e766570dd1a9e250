"""Rate limits (PROTOCOL.md, "Safe for strangers"): more than 10 guests a minute from one
address, 10 tables a minute from one player or 10 link codes tried a minute from one address
are refused with 429 ``slow_down`` and a ``Retry-After`` header, so that one script cannot
fill the store with guests, the process with waiting tables, or guess a link code.

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

import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final, Protocol

from redis.asyncio import Redis
from starlette.requests import HTTPConnection

from kabes.server.protocol import ErrorCode, Refused
from kabes.server.window import Window


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
"""For ``POST /api/link`` (PROTOCOL.md's linking, not served yet): :meth:`Limits.link_code`."""
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

    async def hit(self, limit: Limit, key: str) -> float:
        """Count one request under ``key`` if ``limit`` lets it through: 0 then, else the
        seconds until it would (nothing is counted)."""
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

    async def hit(self, limit: Limit, key: str) -> float:
        """See :meth:`Counter.hit`."""
        now = self._clock()
        self._forget(now)
        window = self._logs.pop((limit.name, key), None) or Window(limit.most, limit.seconds)
        wait = window.wait(now)
        if wait == 0:
            window.hit(now)
        self._logs[limit.name, key] = window
        while len(self._logs) > self._max_keys:
            del self._logs[next(iter(self._logs))]
        return wait

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
redis.call('ZADD', KEYS[1], ms, ms .. ':' .. ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
"""
"""One hit on a sliding log kept as a sorted set of millisecond times: the milliseconds to
wait, or 0 (counted). Redis's clock, so processes whose clocks differ count alike."""


class RedisCounter:
    """The logs in Redis, shared by every process of a cluster (``{prefix}limit:...``)."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self._script = redis.register_script(_SLIDING)
        self._prefix = prefix

    async def hit(self, limit: Limit, key: str) -> float:
        """See :meth:`Counter.hit`; RedisError if Redis cannot be reached (503)."""
        wait = await self._script(
            keys=[f"{self._prefix}limit:{limit.name}:{key}"],
            args=[max(1, round(limit.seconds * 1000)), limit.most, secrets.token_hex(4)])
        return int(wait) / 1000


class Limits:
    """The limits a server holds: :meth:`guest`, :meth:`table`, :meth:`link_code` raise
    :class:`SlowDown` past theirs; with ``counter`` None (``--rate-limits off``) nothing is
    counted."""

    def __init__(self, counter: Counter | None, guests: int = GUESTS.most,
                 tables: int = TABLES.most, link_codes: int = LINK_CODES.most) -> None:
        self.counter = counter
        self.guests = replace(GUESTS, most=guests)
        self.tables = replace(TABLES, most=tables)
        self.link_codes = replace(LINK_CODES, most=link_codes)
        """Each limit with the count ``kabes serve`` was given (10 a minute by default)."""

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

    async def link_code(self, request: HTTPConnection) -> None:
        """A link code tried (``POST /api/link``, to come): per client address, so that
        nobody guesses another's code."""
        await self.check(self.link_codes, address(request))


def address(request: HTTPConnection) -> str:
    """The client's address (uvicorn puts a trusted proxy's ``X-Forwarded-For`` there)."""
    return "unknown" if request.client is None else request.client.host
