"""A local table in Chromium measured (issue 26, docs/offline.md): from the page's load to
a dealt hand shown, the offline pack in the browser's cache, on this machine and with the CPU
throttled as a stand-in for a cheap Android.

A real ``kabes serve`` on 127.0.0.1 serves the page and the pack; Chromium (Playwright) names
a guest, opens a local table with web/local.js's newLocalTable, and shows it once (the pack
downloaded then, into the HTTP cache: its names are hashed and immutable). Then, for each CPU
rate (1 and ``--throttle``), ``--runs`` times: a new local table's page is loaded afresh (a
new worker: Pyodide started, the pack read from the cache, the table rebuilt from IndexedDB)
and timed from navigation to its hand drawn; and the worker's Python is timed alone on a
ping-like call (one lesson list).

Run: .venv/bin/python bench/offline_page.py [--runs 3] [--throttle 4]
Needs Chromium, Playwright and the pack that ./scripts/setup builds.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TREE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TREE / "tests" / "browser"))

OPEN = """async () => (await import("/static/local.js")).newLocalTable(
  {variant: "haitian", players: 4, computers: {"1": "casual", "2": "expert", "3": "skilled"}})"""
SHOWN = """() => performance.now()"""


def main() -> None:
    """Print the time from a local table's page load to its hand, at each CPU rate."""
    from browsing import start_server
    from helpers import ARGS, CHROMIUM
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--throttle", type=float, default=4.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                page.set_default_timeout(120_000)
                page.goto(base + "/")
                page.fill("#name", "Bench")
                page.click("[data-action=save-name]")
                page.wait_for_selector("[data-action=play-computer]")
                start = time.perf_counter()
                page.goto(f"{base}/t/{page.evaluate(OPEN)}")
                page.wait_for_selector("[data-tile]")
                print(f"first visit, the pack downloaded: {time.perf_counter() - start:.2f} s "
                      "to the hand")
                cdp = page.context.new_cdp_session(page)
                for rate in (1.0, args.throttle):
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                    times: list[float] = []
                    for _ in range(args.runs):
                        times.append(load(page, base))
                    print(f"CPU x{rate:g}: page load to a dealt hand, pack cached: "
                          f"{statistics.median(times):.2f} s median "
                          f"({', '.join(f'{t:.2f}' for t in times)})")
                browser.close()
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def load(page: Any, base: str) -> float:
    """Seconds from a new local table page's navigation to its hand drawn."""
    code = page.evaluate(OPEN)
    page.goto(f"{base}/t/{code}")
    page.wait_for_selector("[data-tile]")
    seconds: float = page.evaluate(SHOWN) / 1000
    return seconds


if __name__ == "__main__":
    main()
