"""Browser tests: Debian's Chromium driven by Playwright against a real `kabes serve`.

Skipped, with the reason said, when /usr/bin/chromium or Playwright is missing. The server
runs as a subprocess on a free 127.0.0.1 port with a temporary SQLite store, computers
moving at once (--computer-delay 0) and a 45 s turn. Screenshots go to tests/screenshots/
(not committed) for a person to look at.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from helpers import ARGS, CHROMIUM

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "tests" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(tmp: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    kabes = Path(sys.executable).parent / "kabes"
    command = [
        str(kabes),
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{tmp / 'web.db'}",
        "--computer-delay",
        "0",
        "--turn-seconds",
        "45",
        "--expert-budget",
        "0.2",
        "--workers",
        "1",
        *extra,
    ]
    log = open(tmp / "serve.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=tmp)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"kabes serve stopped: {(tmp / 'serve.log').read_text()}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1):
                return proc, base
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("kabes serve did not answer within 30 s")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("serve")
    proc, base = start_server(tmp)
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
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def register(page: Any, base: str, name: str, path: str = "/") -> None:
    """First visit: type a name on the welcome screen."""
    page.goto(base + path)
    page.fill("#name", name)
    page.click("[data-action=save-name]")


os.environ.setdefault("PW_TEST_SCREENSHOTS", str(SHOTS))
