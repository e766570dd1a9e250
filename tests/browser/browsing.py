"""What the browser tests share besides fixtures: the screen sizes, a real `kabes serve` on a
free port, screenshots, and a first visit. A module of its own (not the conftest) so that
tests import it by a name no other test folder uses."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "tests" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


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
        "--rate-limits",  # every page here is 127.0.0.1, and the tests open many guests
        "off",
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


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def register(page: Any, base: str, name: str, path: str = "/") -> None:
    """First visit: type a name on the welcome screen."""
    page.goto(base + path)
    page.fill("#name", name)
    page.click("[data-action=save-name]")


os.environ.setdefault("PW_TEST_SCREENSHOTS", str(SHOTS))
