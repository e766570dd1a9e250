"""One process's link to the others through Redis: table leases, who is alive, and messages.

Contract (docs/scaling.md):

- **Leases.** ``{prefix}lease:{code}`` holds ``{process}/{n}``: the id of the process that
  owns table ``code`` and a number it never gave before (the lease's *token*: a new one each
  time the process takes the table, and whenever it may have stopped serving the sockets
  relayed to it without their processes knowing), with a time to live of ``lease`` seconds.
  :meth:`Cluster.take` sets it (a new token) unless another process holds it;
  :meth:`Cluster.renew` extends every lease this process still holds (and takes back one
  that expired while nobody else took it), returning those another process holds now;
  :meth:`Cluster.release` deletes a lease only if it is still this process's. A lease says
  who should own a table; it is the store's epoch that makes a split impossible. A relayed
  socket's process keeps it only while the lease's token is the one its owner seated it
  under (kabes.server.hub.relay).
- **Alive.** ``{prefix}proc:{id}`` holds a process's advertised address, with the same time to
  live, renewed with the leases: a process whose key is gone is dead to the others.
- **Messages.** Each process listens on its own pub/sub channel ``{prefix}to:{id}``. Frames
  posted to a process in one turn of the event loop leave together, in order, as one
  MessagePack list in one ``PUBLISH`` (many in one pipelined round trip); :attr:`deliver` is
  called with each frame received, in order. Pub/sub keeps nothing for a process that is not
  listening: whenever this process's subscription breaks, or a publish fails,
  :attr:`on_reset` is called so that whatever was relayed through Redis is started afresh
  (the relayed sockets are closed, their clients reconnect and get their exact state).

Every Redis error surfaces as ``redis.exceptions.RedisError`` (no silent retries): the caller
answers ``unavailable`` rather than wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import msgspec
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from kabes.server.common.config import LEASE_SECONDS, PREFIX
from kabes.server.common.limits import Counter, RedisCounter

if TYPE_CHECKING:
    from kabes.server.hub.holding import Holding, Tables

log = logging.getLogger("kabes.cluster")

REDIS_TIMEOUT = 2.0
"""Seconds a Redis command may take before it counts as failed."""
CHUNK = 500
"""Keys per command when many leases are read or renewed at once."""

Frame = list[Any]
"""One message between processes: its kind first (see kabes.server.hub.relay)."""

_MINE = """
local function mine(holder)
  return holder and string.sub(holder, 1, #ARGV[1] + 1) == ARGV[1] .. '/'
end
"""
"""Lua: whether a lease's value (``{process}/{n}``) is this process's (ARGV[1])."""
_TAKE = _MINE + """
local holder = redis.call('GET', KEYS[1])
if holder and not mine(holder) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
"""
_RENEW = _MINE + """
local lost, fresh = {}, {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if mine(holder) and ARGV[4] ~= '1' then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif mine(holder) or not holder then
    redis.call('SET', key, ARGV[3], 'PX', ARGV[2])
    fresh[#fresh + 1] = i
  else
    lost[#lost + 1] = i
  end
end
return {lost, fresh}
"""
_RELEASE = _MINE + """
if mine(redis.call('GET', KEYS[1])) then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
TOKEN_SEPARATOR = "/"
"""Between the process id and the number in a lease's value."""


def process_id() -> str:
    """A new process id: random, so a process started again is never taken for the one
    that ran before it."""
    return secrets.token_hex(6)


class Cluster:
    """This process's leases, liveness and messages in Redis; :meth:`start` before use."""

    def __init__(
        self,
        url: str,
        advertise: str,
        prefix: str = PREFIX,
        lease: float = LEASE_SECONDS,
        me: str | None = None,
    ) -> None:
        self.url = url
        self.me = me or process_id()
        """This process's id (its leases hold it)."""
        self.advertise = advertise
        """The address this process is known by (operators, logs, /healthz)."""
        self.prefix = prefix
        self.lease = lease
        self.lease_ms = max(1, round(lease * 1000))
        self.redis: Redis = Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT,
            retry=Retry(NoBackoff(), 0),
        )
        self._listener: Redis = Redis.from_url(
            url, socket_timeout=None, socket_connect_timeout=REDIS_TIMEOUT,
            retry=Retry(NoBackoff(), 0),
        )
        self._take = self.redis.register_script(_TAKE)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self.deliver: Callable[[Frame], None] = lambda frame: None
        """Called with each frame received, in order (set by the relay)."""
        self.on_reset: Callable[[], None] = lambda: None
        """Called when messages may have been lost (set by the relay)."""
        self.listening = False
        """The subscription is up: frames sent to this process reach it."""
        self._outbox: dict[str, list[Frame]] = {}
        self._flusher: asyncio.Task[None] | None = None
        self._listen_task: asyncio.Task[None] | None = None
        self._subscribed: asyncio.Event = asyncio.Event()
        self._closing = False
        self.tokens: dict[str, str] = {}
        """The value of each lease this process holds, as it last wrote it (what
        :attr:`kabes.server.hub.relay` tells a socket's process when it seats the socket)."""
        self.stale = False
        """This process may have stopped serving sockets relayed to it without their
        processes knowing (:meth:`kabes.server.hub.relay.Relay.reset`): its next renewal
        gives every lease it holds a new token, so that those processes close them."""
        self._numbers = itertools.count(1)
        self._writing = asyncio.Lock()
        """Held while a lease's value is written: Redis then applies the writes in the order
        :attr:`tokens` records them, and a token this process records is the one Redis has
        (but for a renewal whose answer was lost: then :attr:`stale` is set; or a take whose
        answer was lost: that table is not seated here)."""

    # As kabes.server.processes asks of either side ---------------------------------------

    @property
    def patience(self) -> float:
        """Seconds a request or a hello waits for a table's owner: three leases (at least
        five seconds), so that a dead owner's lease expires and another process adopts its
        table meanwhile."""
        return max(5.0, 3 * self.lease)

    def counter(self) -> Counter:
        """Counted in Redis: every process's requests count against one limit."""
        return RedisCounter(self.redis, self.prefix)

    def described(self) -> dict[str, Any]:
        """This process's id and address, for the "ready" log line."""
        return {"process": self.me, "advertise": self.advertise}

    def health(self) -> dict[str, Any]:
        """This process's id, address, and whether its subscription is up."""
        return {**self.described(), "redis": self.listening}

    def shown(self) -> str:
        """What ``kabes serve`` prints after the store."""
        return f"; one of many through Redis, as process {self.me}"

    def hold(self, tables: Tables) -> Holding:
        """Tables held under leases here (kabes.server.hub.leases)."""
        # Imported here: the leases relay through this module (kabes.server.hub.relay), so
        # this module cannot import them before it is defined itself.
        from kabes.server.hub.leases import Leases

        return Leases(self, tables)

    # Keys ------------------------------------------------------------------------------

    def lease_key(self, code: str) -> str:
        """The key of table ``code``'s lease."""
        return f"{self.prefix}lease:{code}"

    def proc_key(self, process: str) -> str:
        """The key that says ``process`` is alive."""
        return f"{self.prefix}proc:{process}"

    def channel(self, process: str) -> str:
        """The channel ``process`` listens on."""
        return f"{self.prefix}to:{process}"

    # Life ------------------------------------------------------------------------------

    async def start(self, wait: float = REDIS_TIMEOUT) -> None:
        """Say this process is alive and start listening; waits up to ``wait`` seconds for
        the subscription (it keeps trying in the background if Redis is not there yet)."""
        with contextlib.suppress(RedisError, OSError):
            await self.beat()
        self._listen_task = asyncio.get_running_loop().create_task(
            self._listen(), name="cluster listener")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), wait)

    async def close(self) -> None:
        """Stop listening, say this process is gone, release the connections."""
        self._closing = True
        if self._flusher is not None and not self._flusher.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._flusher), REDIS_TIMEOUT)
        for task in (self._listen_task, self._flusher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(RedisError, OSError):
            await self.redis.delete(self.proc_key(self.me))
        await self.redis.aclose()
        await self._listener.aclose()

    async def beat(self) -> None:
        """Say this process is alive for another lease."""
        await self.redis.set(self.proc_key(self.me), self.advertise, px=self.lease_ms)

    async def alive(self, processes: Iterable[str]) -> set[str]:
        """Which of ``processes`` are alive."""
        wanted = sorted(set(processes))
        if not wanted:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for process in wanted:
                pipe.exists(self.proc_key(process))
            found = await pipe.execute()
        return {p for p, n in zip(wanted, found, strict=True) if n}

    async def processes(self) -> dict[str, str]:
        """Every process alive: id to advertised address."""
        out: dict[str, str] = {}
        start = len(self.proc_key(""))
        async for key in self.redis.scan_iter(match=self.proc_key("*"), count=CHUNK):
            value = await self.redis.get(key)
            if value is not None:
                out[_text(key)[start:]] = _text(value)
        return out

    # Leases ----------------------------------------------------------------------------

    async def owner(self, code: str) -> str | None:
        """Who holds table ``code``'s lease, if anyone."""
        return lease_process((await self.holders([code]))[0])

    async def owners(self, codes: list[str]) -> list[str | None]:
        """Who holds each lease of ``codes``, in order."""
        return [lease_process(v) for v in await self.holders(codes)]

    async def holders(self, codes: list[str]) -> list[str | None]:
        """Each lease of ``codes`` as Redis holds it (``{process}/{token}``), in order."""
        out: list[str | None] = []
        for start in range(0, len(codes), CHUNK):
            part = codes[start:start + CHUNK]
            values = await self.redis.mget([self.lease_key(c) for c in part])
            out += [None if v is None else _text(v) for v in values]
        return out

    def _token(self) -> str:
        """A lease value this process never wrote before (its id makes it unique among
        processes, the number among its own)."""
        return f"{self.me}{TOKEN_SEPARATOR}{next(self._numbers)}"

    async def take(self, code: str) -> bool:
        """Take table ``code``'s lease unless another process holds it, with a new token
        (even if this process held it: it is taken to seat the table afresh); whether this
        process holds it now."""
        async with self._writing:
            token = self._token()
            # Recorded before it is sent: if the answer is lost, Redis has either this token
            # or the one before, and a token that differs from Redis's only closes sockets.
            self.tokens[code] = token
            taken = await self._take(keys=[self.lease_key(code)],
                                     args=[self.me, token, self.lease_ms])
            if not taken:
                self.tokens.pop(code, None)
            return bool(taken)

    async def renew(self, codes: list[str]) -> list[str]:
        """Say this process is alive and extend its leases on ``codes`` (taking back one
        nobody holds, with a new token; every one with a new token if :attr:`stale`), in
        one pipelined round trip (a script per :data:`CHUNK` leases); the codes whose lease
        another process holds now."""
        parts = [codes[start:start + CHUNK] for start in range(0, len(codes), CHUNK)]
        async with self._writing:
            fresh_all, self.stale = self.stale, False
            token = self._token()
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.set(self.proc_key(self.me), self.advertise, px=self.lease_ms)
                    for part in parts:
                        await self._renew(
                            keys=[self.lease_key(c) for c in part],
                            args=[self.me, self.lease_ms, token, "1" if fresh_all else "0"],
                            client=pipe)
                    found = await pipe.execute()
            except BaseException:
                # Some leases may have their new token, unrecorded: give them all one more
                # at the next renewal (until then the sockets of those tables are closed).
                self.stale = True
                raise
            lost: list[str] = []
            for part, (gone, fresh) in zip(parts, found[1:], strict=True):
                lost += [part[int(i) - 1] for i in gone]
                for i in fresh:
                    self.tokens[part[int(i) - 1]] = token
            for code in lost:
                self.tokens.pop(code, None)
            return lost

    async def release(self, code: str) -> None:
        """Give up table ``code``'s lease, if this process still holds it."""
        self.tokens.pop(code, None)
        await self._release(keys=[self.lease_key(code)], args=[self.me])

    # Messages --------------------------------------------------------------------------

    def post(self, process: str, frame: Frame) -> None:
        """Send ``frame`` to ``process`` (with whatever else is posted to it this turn)."""
        if process == self.me:
            asyncio.get_running_loop().call_soon(self.deliver, frame)
            return
        self._outbox.setdefault(process, []).append(frame)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, {}
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for process, frames in batch.items():
                        pipe.publish(self.channel(process), msgspec.msgpack.encode(frames))
                    await pipe.execute()
            except (RedisError, OSError) as err:
                log.warning("could not send to %s (%r): relayed sockets start afresh",
                            ", ".join(batch), err)
                self.on_reset()

    async def _listen(self) -> None:
        """Listen on this process's channel for as long as it runs, subscribing again
        whenever the subscription breaks."""
        while not self._closing:
            pubsub = self._listener.pubsub()
            try:
                await pubsub.subscribe(self.channel(self.me))
                self.listening = True
                self._subscribed.set()
                while True:
                    message = await pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=1.0)
                    if message is None or message["type"] != "message":
                        continue
                    for frame in msgspec.msgpack.decode(message["data"]):
                        try:
                            self.deliver(frame)
                        except Exception:
                            log.exception("a relayed frame failed: %r", frame[:2])
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if self.listening:
                    log.warning("lost the Redis subscription (%r); relayed sockets start "
                                "afresh", err)
                    self.listening = False
                    self.on_reset()
                await asyncio.sleep(0.25)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]


def lease_process(value: str | None) -> str | None:
    """The process a lease's value (``{process}/{token}``) names; None for no lease."""
    return None if value is None else value.split(TOKEN_SEPARATOR, 1)[0]


def _text(value: bytes | str) -> str:
    """A Redis reply as text."""
    return value.decode() if isinstance(value, bytes) else value


__all__ = ["LEASE_SECONDS", "PREFIX", "TOKEN_SEPARATOR", "Cluster", "Frame", "RedisError",
           "lease_process", "process_id"]
