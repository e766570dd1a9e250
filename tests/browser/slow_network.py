"""A first visit on a slow network, measured: a fresh browser context (nothing cached), the
network slowed by Chromium's own emulation (a CDP session's Network.emulateNetworkConditions),
and the time from navigation start until the page shows what a person came for.

"Shown" is the first frame painted after the element is in the page: an init script watches
the document from before the first byte and notes ``performance.now()`` (counted from
navigation start) at the next animation frame after the element appears, so the measure does
not depend on how often the test polls. Bytes are what went over the emulated network
(encoded, compressed), counted from CDP's loadingFinished events.

Shared by the browser test (tests/browser/test_slow_network.py) and bench/first_paint.py.
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass
from typing import Any

HOME_SHOWN = "#name, [data-action=play-computer]"
"""Home's main action: the name field for a first visit, else the play button."""
TABLE_SHOWN = "[data-tile]"
"""A table against the computer: the player's own tiles."""
REPLAY_SHOWN = ".replay-position[data-move] .board > *"
"""A match's replay (/r/CODE): its first position's board drawn."""

WATCH = """
(() => {
  const selector = %s;
  const seen = () => {
    if (window.__shownAt !== undefined || !document.querySelector(selector)) return;
    window.__shownAt = null;
    requestAnimationFrame(() => { window.__shownAt = performance.now(); });
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();
"""


@dataclass(frozen=True)
class Network:
    """An emulated network: round trip in ms, download and upload in kbit/s."""

    latency_ms: int
    kbit_s: int

    @property
    def label(self) -> str:
        return f"{self.latency_ms} ms/{self.kbit_s} kbit/s"


THREE_G = Network(300, 400)
SLOW_3G = Network(800, 150)


@dataclass(frozen=True)
class Visit:
    """One measured first visit."""

    ms: float
    bytes: int
    requests: int


def table_against_computers(base: str) -> tuple[dict[str, Any], str]:
    """A new guest at a new table with three computers (it starts at once): the identity the
    page keeps and the table's path."""
    def post(path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(base + path, json.dumps(body).encode(), headers)
        with urllib.request.urlopen(request, timeout=10) as reply:
            found: dict[str, Any] = json.loads(reply.read())
            return found

    guest = post("/api/guests", {"name": "Lucsonne"})
    table = post("/api/tables", {"variant": "haitian", "players": 4,
                                 "computers": {"1": "casual", "2": "casual", "3": "casual"}},
                 guest["token"])
    return guest, f"/t/{table['code']}"


def first_visit(browser: Any, url: str, shown: str, network: Network,
                identity: dict[str, Any] | None = None, timeout_ms: float = 60_000) -> Visit:
    """Open ``url`` in a fresh context on ``network``; the time until ``shown`` was painted.
    ``identity``: the guest the page already knows (as if named on an earlier visit)."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
    try:
        if identity is not None:
            keep = {k: identity[k] for k in ("player", "name", "token")}
            context.add_init_script(
                f"localStorage.setItem('kabes.identity', {json.dumps(json.dumps(keep))});")
        context.add_init_script(WATCH % json.dumps(shown))
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        rate = network.kbit_s * 1000 / 8
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": network.latency_ms,
            "downloadThroughput": rate, "uploadThroughput": rate})
        sizes: dict[str, float] = {}
        cdp.on("Network.loadingFinished",
               lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
        page.goto(url, wait_until="commit", timeout=timeout_ms)
        page.wait_for_function("() => typeof window.__shownAt === 'number'",
                               timeout=timeout_ms)
        ms = float(page.evaluate("() => window.__shownAt"))
        return Visit(ms, int(sum(sizes.values())), len(sizes))
    finally:
        context.close()
