"""Ownership cannot split: every entry carries its owner's epoch, and the store refuses one
from an older epoch than the table's, so a process that lost a table writes nothing more into
it and drops it (docs/scaling.md).

Each test runs on a fresh SQLite file and on a fresh PostgreSQL database (``stores.py``:
PostgreSQL tests skip, saying why, when it cannot be reached, and fail instead under CI). Two
servers in one test are two apps on the same database, as two processes would be.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
import sqlalchemy as sa
from harness import Server, running, settle
from stores import (  # noqa: F401
    Backend,
    backend_fixture,
    db_url_fixture,
    postgres_backend,
    store_fixture,
)

from kabes.server.store.schema import table_events
from kabes.server.store.store import Fenced, Store
from kabes.table.effects import TableStatus
from kabes.table.entries import Entry


def entry(seq: int, epoch: int, kind: str = "move") -> Entry:
    """A log entry of ``epoch`` whose data names its seq."""
    return Entry(seq, kind, {"seq": seq}, 1_700_000_000.0 + seq, None, None, epoch)


async def epochs_of(store: Store, code: str) -> list[tuple[int, int]]:
    """(seq, epoch) of every entry kept for ``code``."""
    return [(e.seq, e.epoch) for e in await store.load(code)]


async def test_a_claim_raises_the_epoch_and_an_entry_of_the_older_epoch_is_refused_whole(
    store: Store,
) -> None:
    await store.append("FENCED1", entry(1, 1, "created"), [TableStatus("FENCED1", "waiting")])
    await store.append("FENCED1", entry(2, 1), [])
    assert await store.epoch("FENCED1") == 1
    claim = await store.claim("FENCED1")
    assert claim is not None and claim.epoch == 2
    assert await store.epoch("FENCED1") == 2

    with pytest.raises(Fenced):
        await store.append("FENCED1", entry(3, 1), [TableStatus("FENCED1", "over")])
    assert await epochs_of(store, "FENCED1") == [(1, 1), (2, 1)]
    assert await store.live_codes() == ["FENCED1"], "the refused entry's effect was kept"

    await store.append("FENCED1", entry(3, 2), [])
    assert await epochs_of(store, "FENCED1") == [(1, 1), (2, 1), (3, 2)]
    assert await store.claim("NOTABLE") is None


async def test_a_refused_entry_fails_alone_and_the_rest_of_its_group_commit_is_kept(
    store: Store,
) -> None:
    for code in ("KEEPME1", "KEEPME2", "FENCED2"):
        await store.append(code, entry(1, 1, "created"), [TableStatus(code, "waiting")])
    assert await store.claim("FENCED2") is not None
    results = await asyncio.gather(
        store.append("KEEPME1", entry(2, 1), []),
        store.append("FENCED2", entry(2, 1), []),
        store.append("KEEPME2", entry(2, 1), []),
        store.append("FENCED2", entry(2, 2), []),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == ["NoneType", "Fenced", "NoneType", "NoneType"]
    assert await epochs_of(store, "KEEPME1") == [(1, 1), (2, 1)]
    assert await epochs_of(store, "KEEPME2") == [(1, 1), (2, 1)]
    assert await epochs_of(store, "FENCED2") == [(1, 1), (2, 2)]


async def test_a_claim_gives_the_previous_owners_last_heartbeat_to_resume_clocks_from(
    backend: Backend,
) -> None:
    first = Store(backend.url, server_id="process-a")
    second = Store(backend.url, server_id="process-b")
    await first.open()
    await second.open()
    try:
        await first.append("BEATING", entry(1, 1, "created"), [TableStatus("BEATING", "playing")])
        first.start_heartbeat()
        for _ in range(200):
            if await first.last_heartbeat() is not None:
                break
            await asyncio.sleep(0.01)
        beat = await first.last_heartbeat()
        assert beat is not None
        claim = await second.claim("BEATING")
        assert claim is not None and claim.epoch == 2
        assert claim.heartbeat is not None and claim.heartbeat >= beat
        again = await first.claim("BEATING")
        assert again is not None and again.epoch == 3
        assert again.heartbeat is None, "process-b never beat: its last heartbeat is unknown"
    finally:
        await first.close()
        await second.close()


async def test_a_claim_waits_at_most_stalled_for_a_frozen_owners_half_done_commit() -> None:
    """A process frozen (or cut off) halfway through a commit holds its tables' rows FOR
    SHARE; the database ends that transaction once it has been idle ``stalled`` seconds, so
    the process taking the table over waits that long at most, not until the frozen one
    wakes (PostgreSQL: SQLite has one writer, whose file lock goes with its process)."""
    async for backend in postgres_backend():
        frozen = Store(backend.url, server_id="process-a", stalled=1.0)
        taker = Store(backend.url, server_id="process-b")
        await frozen.open()
        await taker.open()
        try:
            await frozen.append("STALLED", entry(1, 1, "created"),
                                [TableStatus("STALLED", "playing")])
            half = await frozen.engine.connect()
            await half.begin()
            read = sa.text("SELECT epoch FROM tables WHERE code = 'STALLED' FOR SHARE")
            assert (await half.execute(read)).scalar() == 1
            # ... and the process stops here, its transaction open.
            claim = await asyncio.wait_for(taker.claim("STALLED"), 15)
            assert claim is not None and claim.epoch == 2
            with pytest.raises(sa.exc.DBAPIError):  # its session was ended under it
                await half.execute(sa.text("SELECT 1"))
            with contextlib.suppress(Exception):
                await half.close()
            with pytest.raises(Fenced):  # woken, it writes nothing more into the table
                await frozen.append("STALLED", entry(2, 1), [])
        finally:
            await frozen.close()
            await taker.close()


async def four_at_a_table(server: Server) -> tuple[str, list[str]]:
    """A partnership table of four guests, every seat taken (not started); code and tokens."""
    tokens = [(await server.guest(name))[1] for name in ("Fabiola", "Esaïe", "Mirlande", "Jn")]
    code = (await server.open_table(tokens[0], variant="partnership"))["code"]
    for token in tokens[1:]:
        await server.join(token, code)
    return code, tokens


async def stored_after(server: Server, code: str, seq: int) -> None:
    """Wait until an entry after ``seq`` is durable (a welcome is sent before the entry
    that records the connection is)."""
    for _ in range(500):
        if any(r["seq"] > seq for r in await rows(server, code)):
            return
        await asyncio.sleep(0.01)
    pytest.fail(f"nothing was stored after seq {seq} in 5 s")


async def rows(server: Server, code: str) -> list[dict[str, Any]]:
    """Table ``code``'s entries as the store holds them: seq, kind, epoch."""
    engine = server.app.state.services.store.engine
    async with engine.connect() as conn:
        found = (await conn.execute(
            sa.select(table_events.c.seq, table_events.c.kind, table_events.c.epoch)
            .where(table_events.c.code == code).order_by(table_events.c.seq)
        )).all()
    return [{"seq": s, "kind": k, "epoch": e} for s, k, e in found]


async def test_a_server_whose_table_was_taken_writes_nothing_more_and_drops_it(
    db_url: str,
) -> None:
    async with running(db_url) as first, running(db_url) as second:
        code, tokens = await four_at_a_table(first)
        socks = [(await first.connect(code, token))[0] for token in tokens]
        socks[0].send({"type": "start", "id": "go"})
        started = await socks[0].until("ack", id="go")
        shown = next(m for m in socks[0].log if m.get("seq") == started["seq"])
        mover = shown["view"]["turn"]
        view = shown if mover == 0 else await socks[mover].until("update", seq=started["seq"])

        # The second server takes the table: its epoch goes up, the log is read after that.
        taken = await second.hub.get(code)
        assert taken is not None and taken.epoch == 2
        before = await rows(second, code)
        assert before[-1]["kind"] == "resumed" and before[-1]["epoch"] == 2
        assert {r["epoch"] for r in before[:-1]} == {1}

        # The first still believes it owns the table: its next write is refused, nothing of
        # it is kept or acknowledged, the table is dropped and every socket closed to move.
        socks[mover].send({"type": "play", "id": "late", "move": view["view"]["legal"][0]})
        refused = await socks[mover].until("error", id="late")
        assert refused["code"] == "unavailable", refused
        for sock in socks:
            assert await sock.closed() == 1012
        await settle()
        assert code not in first.hub.tables
        assert await rows(second, code) == before

        # The clients reconnect to the owner, the move is made there, once.
        sock, welcome = await second.connect(code, tokens[mover])
        assert welcome["seat"] == mover and welcome["view"]["turn"] == mover
        sock.send({"type": "play", "id": "late", "move": view["view"]["legal"][0]})
        acked = await sock.until("ack", id="late")
        assert acked["seq"] > before[-1]["seq"]
        assert (await rows(second, code))[-1]["epoch"] == 2

        # Taken back by the first server: now the second's writes are refused.
        update = next(m for m in sock.log if m.get("seq") == acked["seq"])
        nxt = update["view"]["turn"]
        other, seen = await second.connect(code, tokens[nxt])
        legal = seen["view"]["legal"]
        await stored_after(second, code, acked["seq"])  # the seat's "connected", at epoch 2
        again = await first.hub.get(code)
        assert again is not None and again.epoch == 3
        other.send({"type": "play", "id": "stale", "move": legal[0]})
        acked_next = await other.until("error", id="stale")
        assert acked_next["code"] == "unavailable"
        assert await other.closed() == 1012 and await sock.closed() == 1012
        await settle()
        assert code not in second.hub.tables
        kept = await rows(first, code)
        assert [r["epoch"] for r in kept if r["seq"] > acked["seq"]] == [2, 3], kept
