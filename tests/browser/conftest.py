"""Browser tests: Debian's Chromium driven by Playwright against a real `kabes serve`.

Skipped, with the reason said, when /usr/bin/chromium or Playwright is missing. The server
runs as a subprocess on a free 127.0.0.1 port with a temporary SQLite store, computers
moving at once (--computer-delay 0) and a 45 s turn. Screenshots go to tests/screenshots/
(not committed) for a person to look at.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from browsing import PHONE, start_server
from helpers import ARGS, CHROMIUM

from kabes.server.http.offline_pack import PACK, read_manifest, stale

UNDER_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
"""CI must run every browser test: there, a missing browser is a failure, not a skip."""

if not Path(CHROMIUM).exists():
    if UNDER_CI:
        raise RuntimeError(f"CI must run the browser tests, but there is no Chromium at {CHROMIUM}")
    pytest.skip(
        f"browser tests skipped: no Chromium at {CHROMIUM} (apt-get install chromium)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="browser tests skipped: Playwright for Python is not installed"
)

OPEN_PAGES: list[Any] = []
"""The pages of the running test, for the report of a failure (pytest_runtest_makereport)."""
SERVER_LOGS: list[Path] = []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed browser test's report says what each of its pages showed then (its address
    and its text) and how the server's log ends: a failure seen once, in CI, can be read."""
    report = yield
    if report.when == "call" and report.failed:
        for number, page in enumerate(OPEN_PAGES):
            try:
                text = f"{page.url}\n{page.inner_text('body', timeout=2000)[:2000]}"
            except Exception as e:  # a closed or hung page: say so, and go on
                text = f"(could not be read: {e})"
            report.sections.append((f"page {number} at the failure", text))
        for log in SERVER_LOGS:
            tail = log.read_text(errors="replace").splitlines()[-30:]
            report.sections.append(("the server's log, its end", "\n".join(tail)))
    return report


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("serve")
    proc, base = start_server(tmp)
    SERVER_LOGS.append(tmp / "serve.log")
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def pack() -> dict[str, Any]:
    """The offline pack the server serves (its manifest), built from today's src/kabes.

    Skipped where setup built none (npm was missing); under CI that is a failure. A pack older
    than the engine fails: the page would run yesterday's rules."""
    manifest = read_manifest(PACK)
    if manifest is None:
        if UNDER_CI:
            raise RuntimeError(f"CI must run the offline tests, but {PACK} has no pack")
        pytest.skip(f"no offline pack in {PACK} (./scripts/setup builds it with npm)")
    assert not stale(manifest), ("the offline pack is older than src/kabes: build it again "
                                 "(.venv/bin/python -m kabes.server.http.offline_pack)")
    return manifest


class Errors(list[str]):
    """JavaScript errors seen on the pages of one test; a test ends by asserting none."""


@pytest.fixture
def js_errors() -> Errors:
    return Errors()


@pytest.fixture
def new_page(browser: Any, js_errors: Errors) -> Iterator[Any]:
    contexts: list[Any] = []

    def make(
        viewport: dict[str, int] = PHONE, locale: str = "en-US", ctx: Any = None, **kw: Any
    ) -> Any:
        """A page in a new browser context (a new person), or another tab of `ctx`."""
        if ctx is None:
            ctx = browser.new_context(viewport=viewport, locale=locale, **kw)
            contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: js_errors.append(str(e)))
        page.on("console", lambda m: js_errors.append(m.text) if m.type == "error" else None)
        page.on(
            "console",
            lambda m: js_errors.append(m.text) if "missing translation" in m.text else None,
        )
        page.set_default_timeout(20000)
        OPEN_PAGES.append(page)
        return page

    yield make
    OPEN_PAGES.clear()
    for ctx in contexts:
        ctx.close()
