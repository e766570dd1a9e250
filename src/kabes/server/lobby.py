"""The lobby of public tables, the people online, and quick seats (PROTOCOL.md, "Public tables,
watching and phrases"; docs/server.md, "The lobby and quick seats").

Contract:

- A **listing** is a public table that is not over, as the lobby shows it: its summary, how
  many seats are taken, when it was opened, how many sockets watch it. Private tables are
  never listed.
- **Alone** (no Redis), every table that is not over lives in this process's memory, so the
  lobby is read from the tables themselves at each request: never stale.
- **With many processes** (``--redis``), each owner publishes its public tables in Redis:
  one hash per variant and list (``{prefix}lobby:{variant}:waiting`` and ``...:playing``),
  field the table's code, value the listing with the moment it stops counting (``until``,
  three publishing rounds on). Every :data:`PUBLISH_SECONDS` an owner writes every listing it
  holds again (so a listing of a dead process is gone within :data:`LISTING_SECONDS`) and
  deletes those of its tables that ended or left it; a table opened public, or where a seat is
  taken over HTTP, is written at once, before the answer. People online are one sorted set,
  ``{prefix}online``, of players scored by when a process last saw them with a socket open.
  So any process answers the same lobby, at most :data:`PUBLISH_SECONDS` behind a change made
  by a socket (a connection, a hand starting), and never behind a seat taken over HTTP.
- **One reading a second.** ``GET /api/lobby`` needs no token, and reading the lobby walks
  every table of the process (or every listing in Redis). So each process keeps its answer
  per variant for :data:`FRESH_SECONDS` and answers everyone from it: a stranger asking a
  thousand times a second costs one reading a second. The kept answers are dropped at once
  when this process opens a public table or a seat is taken at one over HTTP (quick seats
  included), so the lobby is never behind those; it may be up to :data:`FRESH_SECONDS` behind
  a socket's coming or going, or a hand's start or end. Quick seats never read the kept
  answers.
- **Quick seats** are made one at a time per (variant, seat count), under a lock (an
  ``asyncio.Lock`` in one process; with Redis also ``SET NX PX`` on
  ``{prefix}quick:{variant}:{players}``): the holder reads the waiting listings, takes a seat
  at the first that fits, or opens a table and lists it, and only then lets the next one in.
  So two people asking at once, on one process or two, sit at one table. The lock is per
  seat count and not per stated options, because requests stating different options can fit
  the same table (one that states none fits any).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Final

import msgspec
from redis.exceptions import RedisError

from kabes.errors import KabesError
from kabes.match import Match
from kabes.rules import VARIANTS
from kabes.server.cluster import Cluster
from kabes.server.hub import Hub
from kabes.server.limits import Limits
from kabes.server.new_tables import created
from kabes.server.protocol import ErrorCode, NewTable, QuickSeat, Refused, as_json
from kabes.server.state import Status
from kabes.server.table import Table
from kabes.server.table_requests import AskSeat

log = logging.getLogger("kabes.lobby")

MOST_LISTED: Final = 50
"""Tables in each of the lobby's lists at most."""
PUBLISH_SECONDS: Final = 1.0
"""How often an owner writes its public tables and its people online in Redis."""
LISTING_SECONDS: Final = 3 * PUBLISH_SECONDS
"""How long a listing (or a person online) counts after it was last written."""
FRESH_SECONDS: Final = 1.0
"""How long a lobby answer is kept and given to everyone who asks (see the contract)."""
QUICK_LOCK_SECONDS: Final = 10.0
"""The Redis lock of quick seats expires after this, should its holder die holding it."""
QUICK_WAIT_SECONDS: Final = 5.0
"""A quick seat waits this long for the lock, then is answered ``unavailable``."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
_json = msgspec.json.Encoder()


@dataclass(slots=True)
class Listing:
    """A public table as the lobby lists it."""

    code: str
    variant: str
    players: int
    waiting: bool
    """A seat may be taken (else the match is in play or between hands)."""
    seated: int
    present: int
    """Seats whose occupant is here: a computer, or a person with a socket open. Waiting
    tables are listed (and quick seats made) by it first, so that a table whose seats were
    taken by people who never came (who lose them after ``--seat-wait-seconds``) is not put
    before one whose people are waiting there to play."""
    opened: float
    watchers: int
    summary: Callable[[], dict[str, Any]]
    """Its summary (built only for the tables shown)."""


def listing_of(table: Table) -> Listing | None:
    """``table`` as the lobby lists it now; None for a private table, or one that is over.
    Read between two steps of its actor, like a summary."""
    state = table.state
    if not state.public or state.status == Status.OVER or table.lost:
        return None
    seated = sum(s is not None for s in state.seats)
    present = sum(s is not None and (not s.person or table.connected(n))
                  for n, s in enumerate(state.seats))
    return Listing(table.code, state.variant, state.players, state.status == Status.WAITING,
                   seated, present, state.opened_at, table.watcher_count, table.summary)


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


class Lobby:
    """The lobby, people online and quick seats of one process (see the module's contract)."""

    def __init__(self, hub: Hub, cluster: Cluster | None, limits: Limits,
                 patience: float) -> None:
        self.hub = hub
        self.cluster = cluster
        self.limits = limits
        self.patience = patience
        """Seconds a quick seat waits for a table's owner (as any request does)."""
        self._locks: dict[tuple[str, int], asyncio.Lock] = {}
        self._published: dict[str, str] = {}
        """With Redis: the key each listing of this process was last written under."""
        self._task: asyncio.Task[None] | None = None
        self._release: Any = None
        self._kept: dict[str | None, tuple[float, dict[str, Any]]] = {}
        """Each variant's (None: every variant's) last answer, with when it was read."""
        if cluster is not None:
            self._release = cluster.redis.register_script(_RELEASE)

    # Life ------------------------------------------------------------------------------

    def start(self) -> None:
        """With Redis: start publishing this process's public tables and people online."""
        if self.cluster is not None:
            self._task = asyncio.get_running_loop().create_task(self._publish(), name="lobby")

    async def close(self) -> None:
        """Stop publishing."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

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
        if self.cluster is None:
            found = [listing_of(t) for t in list(self.hub.tables.values())]
            return [r for r in found if r is not None
                    and (variant is None or r.variant == variant)
                    and (r.waiting or not waiting_only)]
        return await self._read(variant, waiting_only)

    async def people_online(self) -> int:
        """People (distinct players) with a socket open at a seat of any table; watchers
        are not counted."""
        if self.cluster is None:
            return len(self._online_here())
        redis, key = self.cluster.redis, self._key("online")
        now = time.time()
        async with redis.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(key, "-inf", now - LISTING_SECONDS)
            pipe.zcard(key)
            _, count = await pipe.execute()
        return int(count)

    def _online_here(self) -> set[int]:
        out: set[int] = set()
        for table in list(self.hub.tables.values()):
            seats = table.state.seats
            for seat in table.sockets.seats():
                sitter = seats[seat] if 0 <= seat < len(seats) else None
                if sitter is not None and sitter.player is not None:
                    out.add(sitter.player)
        return out

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
        async with self._lock(body.variant, players):
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

    @contextlib.asynccontextmanager
    async def _lock(self, variant: str, players: int) -> AsyncIterator[None]:
        """Quick seats of (``variant``, ``players``) one at a time, in this process and, with
        Redis, across processes."""
        local = self._locks.setdefault((variant, players), asyncio.Lock())
        async with local:
            if self.cluster is None:
                yield
                return
            redis, key = self.cluster.redis, self._key(f"quick:{variant}:{players}")
            token = secrets.token_hex(8)
            deadline = time.monotonic() + QUICK_WAIT_SECONDS
            while not await redis.set(key, token, nx=True,
                                      px=round(QUICK_LOCK_SECONDS * 1000)):
                if time.monotonic() > deadline:
                    raise Refused(ErrorCode.UNAVAILABLE, "quick seats are busy; try again")
                await asyncio.sleep(0.02)
            try:
                yield
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await self._release(keys=[key], args=[token])

    # Many processes --------------------------------------------------------------------

    def _key(self, what: str) -> str:
        assert self.cluster is not None
        return f"{self.cluster.prefix}{what}"

    def _list_key(self, variant: str, waiting: bool) -> str:
        return self._key(f"lobby:{variant}:{'waiting' if waiting else 'playing'}")

    async def listed(self, table: Table) -> None:
        """A public table was opened, or a seat taken there: this process's kept lobby
        answers are dropped, and with Redis the table's listing is written now, so that the
        next quick seat, on any process, finds it as it is."""
        self._kept.clear()
        if self.cluster is None:
            return
        try:
            await self._write([table])
        except (RedisError, OSError) as err:
            log.warning("could not list table %s now (%r); it is listed within %s s",
                        table.code, err, PUBLISH_SECONDS)

    async def _publish(self) -> None:
        """Every :data:`PUBLISH_SECONDS`: this process's listings and people online."""
        assert self.cluster is not None
        while True:
            try:
                await self._write(list(self.hub.tables.values()), everything=True)
                online = self._online_here()
                if online:
                    now = time.time()
                    await self.cluster.redis.zadd(self._key("online"),
                                                  dict.fromkeys(map(str, online), now))
            except (RedisError, OSError) as err:
                log.warning("could not publish the lobby: %r", err)
            except Exception:
                log.exception("could not publish the lobby")
            await asyncio.sleep(PUBLISH_SECONDS)

    async def _write(self, tables: list[Table], everything: bool = False) -> None:
        """Write the listings of ``tables`` (held here); with ``everything``, also delete
        the listings this process wrote before of tables it no longer lists."""
        assert self.cluster is not None
        until = time.time() + LISTING_SECONDS
        writes: dict[str, tuple[str, bytes]] = {}
        for table in tables:
            row = listing_of(table) if self.hub.held(table.code) is table else None
            if row is not None:
                writes[row.code] = (self._list_key(row.variant, row.waiting),
                                    _stored(row, until))
        gone = {c: k for c, k in self._published.items()
                if (everything and c not in writes) or (c in writes and writes[c][0] != k)}
        if not writes and not gone:
            return
        async with self.cluster.redis.pipeline(transaction=False) as pipe:
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

    async def _read(self, variant: str | None, waiting_only: bool) -> list[Listing]:
        """The listings in Redis (of ``variant``, or of every variant) still counting."""
        wanted = [(v, w) for v in ([variant] if variant else list(VARIANTS))
                  for w in ((True,) if waiting_only else (True, False))]
        redis = self.cluster.redis if self.cluster is not None else None
        assert redis is not None
        async with redis.pipeline(transaction=False) as pipe:
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


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
