"""Fixtures for the server tests: an in-process server on a fresh SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from harness import Server, running, sqlite_url


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    """The real app on a temporary SQLite store, with a fake clock."""
    async with running(sqlite_url(tmp_path)) as srv:
        yield srv
