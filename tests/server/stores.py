"""The two stores the server runs on, as a parametrised fixture: a fresh SQLite file, and a
fresh PostgreSQL database (``kabes_test_<random>``, created on the ``test`` database at
127.0.0.1:5432 and dropped after the test).

Import the fixtures into a test module (``from stores import backend_fixture`` and so on:
each is named without ``_fixture``, so a test asks for ``backend``, ``db_url`` or ``store``). When
PostgreSQL cannot be reached its tests are skipped, saying why, except under CI (the ``CI``
environment variable set), where they fail: CI must run them.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from kabes.server.common.metrics import Metrics
from kabes.server.store.store import Store

PG_HOST = "127.0.0.1"
PG_PORT = 5432
PG_ADMIN_DATABASE = "test"
PG_USERS = ("postgres", "root")
CONNECT_SECONDS = 5.0

_admin_user: str | None = None
_unreachable: str | None = None


def under_ci() -> bool:
    """Whether these tests run under CI, where nothing may be skipped."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


async def _admin() -> asyncpg.Connection:
    """A connection to the ``test`` database as the first user that may log in; skips (or,
    under CI, fails) the test when PostgreSQL cannot be reached."""
    global _admin_user, _unreachable
    if _unreachable is None:
        users = (_admin_user,) if _admin_user else PG_USERS
        errors = []
        for user in users:
            try:
                conn = await asyncpg.connect(
                    host=PG_HOST, port=PG_PORT, user=user, database=PG_ADMIN_DATABASE,
                    timeout=CONNECT_SECONDS,
                )
            except (OSError, TimeoutError, asyncpg.PostgresError) as err:
                errors.append(f"as {user}: {err!r}")
                continue
            _admin_user = user
            return conn
        _unreachable = "; ".join(errors)
    reason = f"PostgreSQL not reachable at {PG_HOST}:{PG_PORT}: {_unreachable}"
    if under_ci():
        pytest.fail(f"{reason} (CI is set: the PostgreSQL tests must run, not skip)")
    pytest.skip(reason)


class Backend:
    """One store's database for one test: its URL, and a way to take it away and give it
    back (an outage)."""

    kind: str
    url: str

    async def cut(self, store: Store) -> None:
        """Make the database unreachable for ``store`` (its open connections included)."""
        raise NotImplementedError

    async def mend(self) -> None:
        """Make it reachable again, with everything it held."""
        raise NotImplementedError

    async def gone(self, store: Store) -> None:
        """Take the database away for good."""
        raise NotImplementedError


class SqliteBackend(Backend):
    """A SQLite file in a folder of its own."""

    kind = "sqlite"

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "store"
        self.folder.mkdir()
        self.away = folder / "store-away"
        self.url = f"sqlite+aiosqlite:///{self.folder / 'kabes.sqlite3'}"

    async def cut(self, store: Store) -> None:
        # An open SQLite file stays writable whatever happens to its name or mode (and root
        # ignores modes), so close the pooled connections and move the folder away: the next
        # connection cannot open the file.
        await store.engine.dispose()
        self.folder.rename(self.away)

    async def mend(self) -> None:
        self.away.rename(self.folder)

    async def gone(self, store: Store) -> None:
        await store.engine.dispose()
        shutil.rmtree(self.folder)


class PostgresBackend(Backend):
    """A database of its own on the local PostgreSQL."""

    kind = "postgresql"

    def __init__(self, user: str, name: str) -> None:
        self.name = name
        self.url = f"postgresql+asyncpg://{user}@{PG_HOST}:{PG_PORT}/{name}"

    async def _terminate(self, conn: asyncpg.Connection) -> None:
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = $1 AND pid <> pg_backend_pid()",
            self.name,
        )

    async def cut(self, store: Store) -> None:
        conn = await _admin()
        try:
            await conn.execute(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS false')
            await self._terminate(conn)
        finally:
            await conn.close()

    async def mend(self) -> None:
        conn = await _admin()
        try:
            await conn.execute(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS true')
        finally:
            await conn.close()

    async def gone(self, store: Store) -> None:
        conn = await _admin()
        try:
            await self._terminate(conn)
            await conn.execute(f'DROP DATABASE IF EXISTS "{self.name}"')
        finally:
            await conn.close()


async def postgres_backend() -> AsyncIterator[PostgresBackend]:
    """A fresh, empty PostgreSQL database, dropped afterwards."""
    conn = await _admin()
    assert _admin_user is not None
    name = f"kabes_test_{secrets.token_hex(6)}"
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    backend = PostgresBackend(_admin_user, name)
    try:
        yield backend
    finally:
        conn = await _admin()
        try:
            await backend._terminate(conn)
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        finally:
            await conn.close()


@pytest.fixture(name="backend", params=["sqlite", "postgresql"])
async def backend_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """Each store in turn, on a database of its own."""
    if request.param == "sqlite":
        yield SqliteBackend(tmp_path)
        return
    async for found in postgres_backend():
        yield found


@pytest.fixture(name="db_url")
def db_url_fixture(backend: Backend) -> str:
    """The URL of the test's store (SQLite, then PostgreSQL)."""
    return backend.url


@pytest.fixture(name="store")
async def store_fixture(backend: Backend) -> AsyncIterator[Store]:
    """An open store (schema migrated, writer running) on the test's database, with its own
    metrics."""
    opened = Store(backend.url, Metrics())
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()
