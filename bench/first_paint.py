"""First visits on slow networks: how long a stranger on a phone waits for Kabès to show.

Starts `kabes serve` on a fresh SQLite file, then, in Debian's Chromium (Playwright), opens
each page in a fresh browser context (nothing cached) on Chromium's emulated network, and
prints one line per page and network:

    home   300 ms/400 kbit/s: 1234 ms, 41.2 KB in 12 requests (best of 3: 1200 ms)

*home* is a first visit to ``/`` until the name field is painted; *table* is the link to a
table against three computers, opened by a guest the page already knows, until the player's
tiles are painted; *replay* is the link to a finished match's replay (/r/CODE: a match of
haitian at three seats, played first through the protocol by tests/browser/played.py),
opened by a guest the page already knows, until its first position's board is drawn. The
time is the median of ``--runs``; the measure itself is tests/browser/slow_network.py's, the
one the 3G browser test asserts on.

Run: .venv/bin/python bench/first_paint.py [--runs 3] [--kabes PATH]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from helpers import ARGS, CHROMIUM  # noqa: E402
from played import play_match  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from slow_network import (  # noqa: E402
    HOME_SHOWN,
    REPLAY_SHOWN,
    SLOW_3G,
    TABLE_SHOWN,
    THREE_G,
    first_visit,
    table_against_computers,
)


def serve(kabes: str, folder: Path, port: int) -> subprocess.Popen[bytes]:
    """`kabes serve` on ``port``, answering /healthz."""
    proc = subprocess.Popen(
        [kabes, "serve", "--port", str(port), "--db", f"sqlite:///{folder / 'kabes.db'}",
         "--computer-delay", "0", "--workers", "1", "--rate-limits", "off",
         "--log-level", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("kabes serve did not answer within 30 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kabes", default=str(Path(sys.executable).parent / "kabes"))
    parser.add_argument("--port", type=int, default=18765)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc = serve(args.kabes, Path(tmp), args.port)
        base = f"http://127.0.0.1:{args.port}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                code, watcher = play_match(base, {
                    "variant": "haitian", "players": 3, "options": {"hands": 1},
                    "computers": {"1": "casual", "2": "casual"}})
                for network in (THREE_G, SLOW_3G):
                    for page in ("home", "table", "replay"):
                        visits = []
                        for _ in range(args.runs):
                            if page == "home":
                                visits.append(first_visit(browser, base + "/", HOME_SHOWN,
                                                          network))
                            elif page == "replay":
                                visits.append(first_visit(browser, f"{base}/r/{code}",
                                                          REPLAY_SHOWN, network,
                                                          identity=watcher))
                            else:
                                guest, path = table_against_computers(base)
                                visits.append(first_visit(browser, base + path, TABLE_SHOWN,
                                                          network, identity=guest))
                        times = [v.ms for v in visits]
                        last = visits[-1]
                        print(f"{page:6} {network.label}: {statistics.median(times):.0f} ms, "
                              f"{last.bytes / 1000:.1f} KB in {last.requests} requests "
                              f"(best of {len(times)}: {min(times):.0f} ms)", flush=True)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
