"""Test session order: the browser tests run last.

Playwright's sync API keeps an event loop running in the main thread for as long as its
browser is open, and pytest-asyncio cannot start a test's own loop beside it; so every other
test runs first. (No helpers here: tests import theirs from modules such as ``deals``.)
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the browser tests to the end, keeping every other order."""
    items.sort(key=lambda item: "tests/browser/" in item.nodeid)
