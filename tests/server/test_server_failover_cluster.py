"""Failover from outside (docs/scaling.md, "When a process stops answering"): three real
`kabes serve --redis` processes on one PostgreSQL database, the real Redis, real sockets
(``clusters.py``: skipped, saying why, without PostgreSQL or Redis; failed instead under CI).

- A frozen owner (SIGSTOP) costs its table no more than a dead one: the seats on the other
  processes, mid-hello, mid-action or idle, reach the table at its new owner; every
  acknowledged move is in the record. When the frozen owner comes back it writes nothing for
  the table it lost, relays nothing for it, and closes its own sockets of it (1012).
- Owners frozen and killed at random moments, one after another, mid-move or between moves:
  the match goes on through each and its record holds every acknowledged move, once.
- An owner cut off from Redis (a silent proxy between it and Redis) stops acting for its
  table before its lease can end and tells its clients to reconnect (1012); the sockets
  other processes relayed to it are closed (1012) too; the table moves to a process that
  reaches Redis, and the cut-off process serves again once Redis answers.
- An owner whose link to Redis breaks for a moment (too short to lose its lease) has the
  sockets other processes relayed to it closed (1012): what it sent them may be lost, and
  it no longer sends them anything; they reconnect and play on.
- While cut off, a process refuses every socket's handshake and ``/healthz`` with 503
  ``unavailable`` (a balancer passes it over at once), and answers both again once Redis
  answers.

How fast a table moves is measured by bench/cluster.py; here every wait is only bounded
generously (``PATIENCE``), so that a loaded machine cannot fail these tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import msgspec
from clusters import (  # noqa: F401 (redis_fixture: the fixture redis_space)
    PATIENCE,
    Game,
    RedisProxy,
    RedisSpace,
    by_id,
    nodes,
    redis_fixture,
    until,
)
from test_server_cluster import entries, epoch
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from wsclient import Client

MOVED = 1012
"""The close that sends a client to reconnect (its table moved)."""


async def _closed(client: Client) -> bool:
    return client.reader is None or client.reader.done()


async def _epoch_above(db: str, code: str, than: int) -> bool:
    return await epoch(db, code) > than


async def _other_owner(space: RedisSpace, code: str, not_this: str) -> str | None:
    owner = await space.owner(code)
    return owner if owner not in (None, not_this) else None


class Frames:
    """Every frame published between the processes (their channels ``{prefix}to:*``), with
    the channel it went to, from :meth:`start` on."""

    def __init__(self, space: RedisSpace) -> None:
        self.space = space
        self.seen: list[tuple[str, list[Any]]] = []
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        """Listen (returns once subscribed)."""
        self._task = asyncio.get_running_loop().create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), PATIENCE)

    async def _listen(self) -> None:
        client = self.space.client()
        pubsub = client.pubsub()
        try:
            await pubsub.psubscribe(f"{self.space.prefix}to:*")
            self._ready.set()
            while True:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
                if message is not None and message["type"] == "pmessage":
                    channel = bytes(message["channel"]).decode()
                    for frame in msgspec.msgpack.decode(message["data"]):
                        self.seen.append((channel, frame))
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]
            await client.aclose()

    async def stop(self) -> None:
        """Stop listening."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


async def test_a_frozen_owners_table_moves_with_seats_mid_hello_mid_action_and_idle_and_it_sends_nothing_on_return(  # noqa: E501
    tmp_path: Path, redis_space: RedisSpace
) -> None:
    async with nodes(tmp_path, 3, redis_space) as group:
        a, b, c = group
        game = await Game.open([a, b, c, b], target=50)  # A owns it; seats 1-3 elsewhere
        db = a.db
        for _ in range(3):
            await game.step()
        while (seat := await game.turn()) == 0:  # the seat to move is on B or C
            await game.step()
        # A second socket of seat 0 on A, left open through the freeze: what A sends on it
        # when it comes back is looked at below.
        stale = Client(a.base, game.code, game.clients[0].token)
        await stale.connect()
        frozen_at = (await game.state())["seq"]
        await stale.wait(lambda m: m["type"] in ("welcome", "update") and m["seq"] == frozen_at)
        first_epoch = await epoch(db, game.code)
        hello_seat, idle_seat = (n for n in (1, 2, 3) if n != seat)
        mover = game.clients[seat]
        mine = mover.latest()
        assert mine is not None
        move, action = mine.message["view"]["legal"][0], game.next_id("play")

        a.freeze()
        since = len(stale.log)
        # Waiting in A's socket when it comes back: a sync (answered from the table's state).
        await stale.send({"type": "sync", "id": "stale-sync"})
        # Mid-action: the move goes to A through the seat's process, and is sent again, with
        # its id, after its socket is closed (1012) and the seat is back.
        loop = asyncio.get_running_loop()
        acting = loop.create_task(game.act(seat, "play", move, action))
        # Mid-hello: another seat says hello again through its own process; the hello waits
        # for the table's owner, and is seated wherever the table went.
        hello = loop.create_task(game.back(game.clients[hello_seat]))
        # Seat 0's client gives up on silent A and comes back through B (a load balancer).
        await game.back(game.clients[0], b.base)
        ack = await acting
        welcome = await hello
        assert welcome["seq"] > frozen_at and ack["seq"] > frozen_at
        new_owner = await until(lambda: _other_owner(redis_space, game.code, a.id),
                                "the table to be taken")
        assert await epoch(db, game.code) > first_epoch
        # Idle: the seat on another process whose socket was relayed to A was told to
        # reconnect (1012) once A's lease ended; it comes back to the new owner.
        idle = game.clients[idle_seat]
        await until(lambda: _closed(idle), "the idle seat to be moved")
        assert idle.ws is not None and idle.ws.close_code == MOVED, (
            idle.ws.close_code if idle.ws else None)
        await game.state()  # every seat back, in step
        resumed = max(s for s, k, e in await entries(db, game.code)
                      if k == "resumed" and e > first_epoch)

        frames = Frames(redis_space)
        await frames.start()
        a.wake()
        # A closes its own socket of the table it lost (1012), having sent on it nothing of
        # the table: no welcome, no update (it finds it lost the table before acting).
        await until(lambda: _closed(stale), "A to close its socket of the table")
        assert stale.ws is not None and stale.ws.close_code == MOVED, (
            stale.ws.close_code if stale.ws else None)
        told = [r.message for r in stale.log[since:]]
        assert all(m["type"] == "error" and m["code"] == "unavailable" for m in told), told
        for _ in range(4):
            await game.step()
        await game.turn()
        await frames.stop()
        # Nor does A relay anything of it: nothing goes to the new owner's process as the
        # owner's data (the new owner never publishes to itself; only A could have).
        # Nor any welcome or update from the table as A had it (the new owner's are newer).
        to_owner = f"{redis_space.prefix}to:{new_owner}"
        relayed = [f for ch, f in frames.seen if f[0] == "data" and (
            ch == to_owner or json.loads(bytes(f[2])).get("seq", frozen_at + 1) <= frozen_at)]
        assert relayed == [], relayed[:3]

        # A comes back among the others: a seat reconnecting through A is relayed to the
        # new owner, and the match plays to its end with every acknowledged move recorded.
        await game.back(game.clients[0], a.base)
        await game.to_the_end()
        kept, final = await entries(db, game.code), await epoch(db, game.code)
        assert {e for s, k, e in kept if s >= resumed} == {final}, "A wrote after the takeover"
        await game.check_record(by_id(group, new_owner).base)
        await game.close()
        await stale.drop()


async def test_an_owner_cut_off_from_redis_lets_its_table_move_and_tells_its_clients_to_reconnect(
    tmp_path: Path, redis_space: RedisSpace
) -> None:
    proxy = RedisProxy()
    await proxy.start()
    try:
        async with nodes(tmp_path, 3, redis_space, through={0: proxy.url}) as group:
            a, b, c = group
            game = await Game.open([a, b, c, a], target=50)  # A owns it, through the proxy
            db = a.db
            for _ in range(4):
                await game.step()
            first_epoch = await epoch(db, game.code)
            seat = await game.turn()

            proxy.cut()
            # A cannot renew its lease: it stops acting for the table and tells its own
            # clients to reconnect (1012), while it still serves their sockets; B and C,
            # which relayed seats 1 and 2 to A through Redis (which A no longer hears), close
            # those (1012) once A's lease has ended.
            for n in (0, 3, 1, 2):
                client = game.clients[n]
                await until(partial(_closed, client), f"seat {n}'s socket to be closed")
                assert client.ws is not None and client.ws.close_code == MOVED, (
                    n, client.ws.close_code if client.ws else None)
            new_owner = await until(lambda: _other_owner(redis_space, game.code, a.id),
                                    "the table to be taken by a process that reaches Redis")
            # The new owner takes the lease in Redis first and claims the table in the store
            # (its epoch up) just after: wait for the claim, do not race it.
            await until(lambda: _epoch_above(db, game.code, first_epoch),
                        "the new owner's claim to raise the table's epoch")

            for n, home in ((0, b), (3, c), (1, b), (2, c)):
                await game.back(game.clients[n], home.base)
            mine = game.clients[seat].latest()
            assert mine is not None
            await game.act(seat, "play", mine.message["view"]["legal"][0])
            resumed = max(s for s, k, e in await entries(db, game.code)
                          if k == "resumed" and e > first_epoch)

            proxy.mend()
            # Redis reachable again, A serves again: a seat reconnecting through it is
            # relayed to the new owner.
            await game.back(game.clients[3], a.base)
            await game.to_the_end()
            kept, final = await entries(db, game.code), await epoch(db, game.code)
            assert {e for s, k, e in kept if s >= resumed} == {final}
            await game.check_record(by_id(group, new_owner).base)
            await game.close()
    finally:
        await proxy.close()


async def test_a_process_cut_off_from_redis_refuses_handshakes_and_healthz_with_503(
    tmp_path: Path, redis_space: RedisSpace
) -> None:
    proxy = RedisProxy()
    await proxy.start()
    try:
        async with nodes(tmp_path, 2, redis_space, through={0: proxy.url}) as group:
            a, b = group
            game = await Game.open([a, b, a, b], target=50)  # A owns it, through the proxy
            await game.step()
            assert (await _healthz(a.base)).status_code == 200

            proxy.cut()
            # Once A has fenced itself (its own socket closed 1012), it refuses the handshake
            # itself: no socket opens, so a balancer tries another process at once.
            await until(lambda: _closed(game.clients[0]), "A to fence itself")
            refused = await _handshake(a.base, game.code)
            assert isinstance(refused, InvalidStatus), refused
            assert refused.response.status_code == 503
            assert json.loads(refused.response.body or b"{}")["code"] == "unavailable"
            health = await _healthz(a.base)
            assert health.status_code == 503 and health.json()["code"] == "unavailable", (
                health.status_code, health.text)
            assert (await _healthz(b.base)).status_code == 200

            proxy.mend()
            # Redis answers again: A opens sockets and says it is healthy again.
            await until(lambda: _healthy(a.base), "A to answer /healthz again")
            back = await game.back(game.clients[0], a.base)
            assert back["type"] == "welcome" and back["seat"] == 0, back
            # The match plays on to the end: B's sockets relayed to A before the cut are
            # closed (1012) and reconnect, whether A took the table again (the lease's token
            # changed) or B did; none is left open at a stale seq (Game.state would time out
            # with the clients out of step).
            await game.to_the_end()
            await game.check_record(b.base)
            await game.close()
    finally:
        await proxy.close()


async def test_an_owner_whose_redis_link_breaks_for_a_moment_has_its_relayed_sockets_closed(
    tmp_path: Path, redis_space: RedisSpace
) -> None:
    proxy = RedisProxy()
    await proxy.start()
    try:
        async with nodes(tmp_path, 2, redis_space, through={0: proxy.url}) as group:
            a, b = group
            game = await Game.open([a, b, a, b], target=50)  # A owns it; B relays 1 and 3
            for _ in range(3):
                await game.step()
            proxy.cut()
            await asyncio.sleep(0.3)  # well within the lease: A keeps the table
            proxy.mend()  # A's links to Redis close: what went through them may be lost
            for n in (1, 3):
                client = game.clients[n]
                await until(partial(_closed, client), f"seat {n}'s relayed socket to close")
                assert client.ws is not None and client.ws.close_code == MOVED, (
                    n, client.ws.close_code if client.ws else None)
            assert await redis_space.owner(game.code) == a.id, "A was to keep its table"
            await game.to_the_end()
            await game.check_record(a.base)
            await game.close()
    finally:
        await proxy.close()


async def _healthz(base: str) -> httpx.Response:
    async with httpx.AsyncClient(trust_env=False, timeout=PATIENCE) as http:
        return await http.get(base + "/healthz")


async def _healthy(base: str) -> bool:
    return (await _healthz(base)).status_code == 200


async def _handshake(base: str, code: str) -> Exception | None:
    """What opening a table socket through ``base`` raised (None: it opened)."""
    url = base.replace("http://", "ws://") + f"/api/tables/{code}/ws"
    try:
        async with connect(url, proxy=None, open_timeout=PATIENCE):
            return None
    except Exception as err:
        return err


async def test_owners_frozen_and_killed_at_random_moments_lose_no_acknowledged_move(
    tmp_path: Path, redis_space: RedisSpace
) -> None:
    seed = secrets.randbits(32)
    chance = random.Random(seed)
    async with nodes(tmp_path, 3, redis_space) as group:
        a, b, c = group
        game = await Game.open([a, b, c, a], target=50)
        for n, kind in enumerate(("freeze", "kill", "freeze")):
            for _ in range(chance.randint(1, 4)):
                await game.step()
            owner = by_id(group, await redis_space.owner(game.code))
            live = [node for node in group if node is not owner]
            # Mid-move (the step's action on its way) or between moves, at random.
            moving = asyncio.get_running_loop().create_task(game.step())
            await asyncio.sleep(chance.uniform(0, 0.05))
            if kind == "kill":
                owner.kill()
            else:
                owner.freeze()
            for client in game.clients.values():
                if client.base == owner.base:  # its balancer sends it elsewhere
                    client.base = chance.choice(live).base
                    await client.drop()
            await moving
            await until(partial(_other_owner, redis_space, game.code, owner.id),
                        f"the table to leave {kind} {owner.id} (seed {seed}, event {n})")
            await game.step()
            if kind == "kill":
                await owner.start()
            else:
                owner.wake()
        await game.to_the_end()
        await game.check_record(by_id(group, await redis_space.owner(game.code)).base)
        await game.close()
