"""The starter puzzles on a new server (kabes.puzzles.starter; PuzzleStore.seed), on SQLite
and PostgreSQL: a server started on an empty store serves a daily puzzle of every line
variant at once; a store that already holds puzzles is left as it is; two processes starting
at once on one empty store keep each starter puzzle once."""

from __future__ import annotations

import asyncio
import dataclasses
import json

import sqlalchemy as sa
from harness import running
from puzzle_samples import sample_puzzles
from stores import Backend, backend_fixture  # noqa: F401

from kabes.puzzles.prove import LINE_VARIANTS
from kabes.puzzles.starter import starter
from kabes.server.store.schema import puzzles
from kabes.server.store.store import Store


async def stored(store: Store) -> dict[str, dict[str, object]]:
    """Every puzzle the store keeps, by key, as kept."""
    async with store.engine.connect() as conn:
        rows = (await conn.execute(sa.select(puzzles.c.id, puzzles.c.data))).all()
    return {str(k): json.loads(d) for k, d in rows}


async def test_a_new_server_serves_a_daily_puzzle_of_every_line_variant(
        backend: Backend) -> None:
    async with running(backend.url, starter_puzzles=True) as server:
        for variant in sorted(LINE_VARIANTS):
            reply = await server.http.get(f"/api/puzzles/daily?variant={variant}")
            assert reply.status_code == 200, (variant, reply.text)
            assert reply.json()["variant"] == variant
        kept = await stored(server.app.state.services.store)
    assert kept == {p.key: p.to_dict() for p in starter()}


async def test_a_store_that_holds_puzzles_is_not_given_the_starter_set(
        backend: Backend) -> None:
    # One of the store's own puzzles has a starter puzzle's key but other numbers: neither
    # it nor anything else may change when the server starts.
    first = starter()[0]
    own = [*sample_puzzles(2), dataclasses.replace(first, difficulty=99, source="own")]
    store = Store(backend.url)
    await store.open()
    try:
        await store.puzzles.add(own)
        before = await stored(store)
    finally:
        await store.close()
    async with running(backend.url, starter_puzzles=True) as server:
        after = await stored(server.app.state.services.store)
    assert after == before
    assert after[first.key]["source"] == "own"


async def test_two_processes_seeding_one_empty_store_at_once_keep_each_puzzle_once(
        backend: Backend) -> None:
    one, two = Store(backend.url), Store(backend.url)
    await one.open()
    await two.open()
    try:
        shipped = starter()
        added = await asyncio.gather(one.puzzles.seed(shipped), two.puzzles.seed(shipped))
        kept = await stored(one)
        async with one.engine.connect() as conn:
            rows = (await conn.execute(sa.select(sa.func.count()).select_from(puzzles)
                                       )).scalar_one()
    finally:
        await one.close()
        await two.close()
    assert sum(added) == len(shipped) == rows
    assert kept == {p.key: p.to_dict() for p in shipped}
