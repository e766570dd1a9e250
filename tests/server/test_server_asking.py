"""Asking costs nothing (PROTOCOL.md, "Safe for strangers"): a request or a hello for a table
code that does not exist stores nothing, writes nothing and keeps nothing in memory. Tested
over HTTP and the table socket (watch and seat hellos) of an in-process server on both stores:
while another connection holds the store's write lock every such question is still answered
(it is a read: a write would wait for that lock), and afterwards the store's file, its rows and
the hub's maps are as they were."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import httpx
import pytest
from clusters import RedisSpace, nodes, redis_fixture  # noqa: F401 (the fixture)
from harness import Server, auth, running
from stores import Backend, backend_fixture, db_url_fixture  # noqa: F401
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from wsclient import guest

from kabes.server.hub.hub import CODE_ALPHABET, CODE_LENGTH

ASKED = 40
"""Unknown codes asked for, each in every way."""
PROMPT = 5.0
"""Seconds an answer may take (a write would wait for the lock for 30 s)."""
COUNTED = ("tables", "table_events", "players", "waiting_seats", "matches")


@pytest.fixture
async def server(db_url: str) -> AsyncIterator[Server]:
    """The real app on a fresh store (SQLite and PostgreSQL)."""
    async with running(db_url) as srv:
        yield srv


def unknown() -> str:
    """A well-formed table code that (almost surely) names no table."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@contextlib.asynccontextmanager
async def write_locked(backend: Backend) -> AsyncIterator[None]:
    """Another connection holds the store's write lock (SQLite's one writer; PostgreSQL's
    ``tables`` locked against any change) for the length of the block."""
    if backend.url.startswith("sqlite"):
        path = backend.url.split("///", 1)[1]
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")
            conn.close()
        return
    pg = await asyncpg.connect(backend.url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        async with pg.transaction():
            await pg.execute("LOCK TABLE tables IN EXCLUSIVE MODE")
            yield
    finally:
        await pg.close()


async def counts(backend: Backend) -> dict[str, int]:
    """Rows in each of the store's tables that a question could touch."""
    if backend.url.startswith("sqlite"):
        conn = sqlite3.connect(backend.url.split("///", 1)[1])
        try:
            return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in COUNTED}
        finally:
            conn.close()
    pg = await asyncpg.connect(backend.url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        return {t: int(await pg.fetchval(f"SELECT count(*) FROM {t}")) for t in COUNTED}
    finally:
        await pg.close()


def files(backend: Backend) -> dict[str, tuple[str, int]]:
    """Each SQLite file's digest and modification time (nothing for PostgreSQL)."""
    if not backend.url.startswith("sqlite"):
        return {}
    path = Path(backend.url.split("///", 1)[1])
    out = {}
    for found in sorted(path.parent.glob(path.name + "*")):
        out[found.name] = (hashlib.sha256(found.read_bytes()).hexdigest(),
                           found.stat().st_mtime_ns)
    return out


async def ask_everything(server: Server, token: str) -> None:
    """Ask for an unknown table in every way: summary, record, join, watch and seat hellos;
    each is answered not_found (404, or the socket closed with 4404)."""
    code = unknown()
    for path in (f"/api/tables/{code}", f"/api/tables/{code}/record",
                 f"/api/tables/{code.lower()}"):
        reply = await server.http.get(path)
        assert reply.status_code == 404 and reply.json()["code"] == "not_found", reply.text
    reply = await server.http.post(f"/api/tables/{code}/join", headers=auth(token))
    assert reply.status_code == 404 and reply.json()["code"] == "not_found", reply.text
    for hello in ({"type": "hello", "watch": True}, {"type": "hello", "token": token}):
        sock = server.socket(code)
        sock.send(hello)
        assert await sock.closed() == 4404
        server.sockets.remove(sock)


async def test_unknown_codes_store_write_and_keep_nothing(
    server: Server, backend: Backend,
) -> None:
    _, token = await server.guest("Jean")
    _, host = await server.guest("Roselène")
    known = (await server.open_table(host, variant="haitian"))["code"]
    await server.advance(1)
    hub = server.hub
    tables, before_rows, before_files = dict(hub.tables), await counts(backend), files(backend)
    async with write_locked(backend):
        for _ in range(ASKED):
            await asyncio.wait_for(ask_everything(server, token), PROMPT)
    assert await counts(backend) == before_rows
    assert files(backend) == before_files
    assert hub.tables == tables and not hub.loading
    # The one table there is still answers.
    assert (await server.http.get(f"/api/tables/{known}")).status_code == 200


async def test_unknown_codes_with_many_processes_write_nothing(
    tmp_path: Path, redis_space: RedisSpace,
) -> None:
    async with nodes(tmp_path, 2, redis_space) as group:
        url = group[0].db.replace("postgresql+asyncpg://", "postgresql://")
        async with httpx.AsyncClient(base_url=group[0].base, trust_env=False) as http:
            _, token = await guest(http, "Jean")
        pg = await asyncpg.connect(url)
        try:
            before = {t: int(await pg.fetchval(f"SELECT count(*) FROM {t}")) for t in COUNTED}
            async with pg.transaction():  # every write to tables waits meanwhile
                await pg.execute("LOCK TABLE tables IN EXCLUSIVE MODE")
                for n in range(ASKED // 4):
                    node = group[n % 2]
                    await asyncio.wait_for(ask_over_tcp(node.base, token), PROMPT)
            after = {t: int(await pg.fetchval(f"SELECT count(*) FROM {t}")) for t in COUNTED}
        finally:
            await pg.close()
        assert after == before
        client = redis_space.client()
        try:  # no lease was taken (nor left behind)
            assert [k async for k in client.scan_iter(match=f"{redis_space.prefix}lease:*")] == []
        finally:
            await client.aclose()


async def ask_over_tcp(base: str, token: str) -> None:
    """:func:`ask_everything`, against a real process."""
    code = unknown()
    async with httpx.AsyncClient(base_url=base, trust_env=False) as http:
        for path in (f"/api/tables/{code}", f"/api/tables/{code}/record"):
            reply = await http.get(path)
            assert reply.status_code == 404 and reply.json()["code"] == "not_found", reply.text
        reply = await http.post(f"/api/tables/{code}/join", headers=auth(token))
        assert reply.status_code == 404, reply.text
    ws_url = base.replace("http://", "ws://") + f"/api/tables/{code}/ws"
    for hello in ({"type": "hello", "watch": True}, {"type": "hello", "token": token}):
        async with connect(ws_url, proxy=None, open_timeout=PROMPT) as ws:
            await ws.send(json.dumps(hello))
            with contextlib.suppress(ConnectionClosed):
                async for _ in ws:
                    pass
            assert ws.close_code == 4404
