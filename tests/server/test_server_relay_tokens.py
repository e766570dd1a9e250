"""The relay's rule for a socket relayed to another process (kabes.server.hub.relay,
docs/scaling.md "Failover, and what renewals cost"): its process keeps it only while the
table's lease in Redis holds the token the owner seated it under.

Two processes' links (:class:`Cluster` and :class:`Relay`) in one event loop, on the real
Redis (``clusters.py``: skipped, saying why, without it; failed instead under CI); the owner's
table is a stand-in that welcomes every socket seated at it, as a table does. The owner's
messages to the origin are dropped while it is "cut off" (its publishes fail then), as in
the cut that once left a relayed socket open at a stale seq: the owner fenced, dropped its
table, and took it again under a lease that had never left it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from clusters import PATIENCE, RedisSpace, redis_fixture, until  # noqa: F401 (the fixture)

from kabes.server.hub.cluster import Cluster, Frame
from kabes.server.hub.relay import MOVED_CLOSE, Relay
from kabes.server.table.inbox import Greet, Watch

CODE = "T0KEN5"
LEASE = 2.0


@dataclass
class Welcoming:
    """A table held by the owner: it welcomes each socket seated at it."""

    code: str = CODE
    lost: bool = False
    seated: list[Any] = field(default_factory=list)

    def post(self, item: Any) -> None:
        if isinstance(item, Greet | Watch):
            self.seated.append(item.conn)
            item.conn.send(b'{"type":"welcome"}')


@dataclass
class Owned:
    """The owner's side of the hub: which table it holds now."""

    table: Welcoming | None = None

    def held(self, code: str) -> Any:
        table = self.table
        return table if table is not None and table.code == code and not table.lost else None

    async def answer(self, table: Any, request: Any) -> Any:
        raise AssertionError("no request is asked here")


@dataclass
class Socket:
    """A client's socket at the origin."""

    seat: int = -1
    player: int | None = 1
    received: list[bytes] = field(default_factory=list)
    closed: int | None = None

    def send(self, data: bytes) -> None:
        self.received.append(data)

    def close(self, code: int) -> None:
        self.closed = code


@dataclass
class Link:
    cluster: Cluster
    relay: Relay
    owned: Owned


@pytest.fixture
async def pair(redis_space: RedisSpace) -> AsyncIterator[tuple[Link, Link]]:
    """An owner and an origin, both listening."""
    links = []
    for _ in range(2):
        cluster = Cluster(redis_space.url, "http://test", redis_space.prefix, LEASE)
        owned = Owned()
        relay = Relay(cluster, owned)
        await cluster.start()
        links.append(Link(cluster, relay, owned))
    try:
        yield links[0], links[1]
    finally:
        for link in links:
            with contextlib.suppress(Exception):
                await link.cluster.close()


def _cut_off(link: Link) -> list[Frame]:
    """Drop whatever ``link`` posts from now on (as its publishes fail when cut off from
    Redis); the frames dropped."""
    dropped: list[Frame] = []

    def lost(process: str, frame: Frame) -> None:
        dropped.append(frame)

    link.cluster.post = lost  # type: ignore[method-assign]
    return dropped


async def _seated(owner: Link, origin: Link) -> Socket:
    """A socket at ``origin`` relayed to ``owner``'s table, welcomed."""
    socket = Socket()
    seat = await origin.relay.attach(socket, CODE, owner.cluster.me, 1, PATIENCE)
    assert seat is not None, "the owner did not seat the socket"
    await until(lambda: _true(bool(socket.received)), "the welcome")
    return socket


async def _true(value: bool) -> bool:
    return value


async def _hold(owner: Link) -> Welcoming:
    assert await owner.cluster.take(CODE)
    table = Welcoming()
    owner.owned.table = table
    return table


async def test_a_socket_stays_while_the_lease_keeps_the_token_it_was_seated_under(
    pair: tuple[Link, Link],
) -> None:
    owner, origin = pair
    await _hold(owner)
    socket = await _seated(owner, origin)
    for _ in range(3):
        await owner.cluster.renew([CODE])
        await origin.relay.check_owners()
    assert socket.closed is None, "a socket whose owner still serves it was closed"
    assert len(origin.relay.relayed) == 1


async def test_an_owner_that_drops_its_table_and_takes_it_again_has_the_old_sockets_closed(
    pair: tuple[Link, Link],
) -> None:
    owner, origin = pair
    table = await _hold(owner)
    socket = await _seated(owner, origin)

    # The owner is cut off: it fences, drops its table and detaches the relayed socket; its
    # "close" to the origin is lost. Its lease stays its own in Redis meanwhile.
    dropped = _cut_off(owner)
    table.lost = True
    owner.relay.reset()
    assert [f[0] for f in dropped] == ["close"], "the owner was to ask the origin to close it"
    del owner.cluster.post  # Redis carries its messages again
    assert owner.cluster.tokens.pop(CODE, None) is not None

    # Redis back, the same process seats the table again: its lease never left it.
    await _hold(owner)
    assert await owner.cluster.owner(CODE) == owner.cluster.me
    await origin.relay.check_owners()
    assert socket.closed == MOVED_CLOSE, (
        "a socket seated at the table the owner dropped was left open")
    assert not origin.relay.relayed

    # Its client reconnects: seated at the new table, under the new token, it stays.
    again = await _seated(owner, origin)
    await origin.relay.check_owners()
    assert again.closed is None


async def test_an_owner_that_lost_messages_but_kept_its_table_has_its_sockets_closed_at_renewal(
    pair: tuple[Link, Link],
) -> None:
    owner, origin = pair
    await _hold(owner)
    socket = await _seated(owner, origin)

    # A publish failed (or the subscription broke): the owner detaches every relayed
    # socket, and its "close" is lost; it keeps its table and its lease.
    _cut_off(owner)
    owner.relay.reset()
    del owner.cluster.post
    await origin.relay.check_owners()
    # Until the owner's next renewal the lease's token is the one the socket was seated
    # under: the socket may stay that long, no longer.
    await owner.cluster.renew([CODE])
    await origin.relay.check_owners()
    assert socket.closed == MOVED_CLOSE, "a socket the owner detached was left open"

    again = await _seated(owner, origin)
    await owner.cluster.renew([CODE])
    await origin.relay.check_owners()
    assert again.closed is None, "the renewal after the fresh token changed it again"


async def test_a_socket_whose_owner_answers_no_token_is_closed(
    pair: tuple[Link, Link],
) -> None:
    owner, origin = pair
    await _hold(owner)
    owner.cluster.tokens.clear()  # held, yet no token recorded: the owner cannot vouch
    socket = await _seated(owner, origin)
    await origin.relay.check_owners()
    assert socket.closed == MOVED_CLOSE


async def test_a_hello_waiting_on_its_owner_is_let_go_only_when_another_holds_the_lease(
    pair: tuple[Link, Link],
) -> None:
    owner, origin = pair
    await _hold(owner)
    _cut_off(owner)  # the owner seats it but its answer does not come
    socket = Socket()
    hello = asyncio.get_running_loop().create_task(
        origin.relay.attach(socket, CODE, owner.cluster.me, 1, PATIENCE))
    await until(lambda: _true(bool(origin.relay.relayed)), "the hello to be sent")
    await asyncio.sleep(0.1)
    await origin.relay.check_owners()
    assert not hello.done(), "a hello whose owner still holds the lease was let go"
    await origin.cluster.redis.delete(origin.cluster.lease_key(CODE))
    await origin.relay.check_owners()
    assert await asyncio.wait_for(hello, PATIENCE) is None
