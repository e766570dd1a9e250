"""Shared by the browser tests: launching Debian's Chromium, starting `kabes serve`, and
fake_table(), which shows the page a table state of our choosing without a server game
(a stand-in WebSocket answers hello with that state, and review with the review given), for
screenshots of rare moments."""

from __future__ import annotations

import json
import time
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

FAKE_SOCKET = """
(() => {
  const state = %s;
  class FakeSocket extends EventTarget {
    constructor(url) {
      super();
      this.url = url; this.readyState = 0; window.__sent = window.__sent || [];
      setTimeout(() => { this.readyState = 1; this.onopen && this.onopen({}); }, 10);
    }
    send(text) {
      const msg = JSON.parse(text);
      window.__sent.push(msg);
      const reply = (m) =>
        setTimeout(() => this.onmessage && this.onmessage({ data: JSON.stringify(m) }), 5);
      const { table, view } = state;
      if (msg.type === "hello") reply({ type: "welcome", seq: 1, seat: view.seat, table, view });
      else if (msg.type === "play" && state.refuse)
        reply({ ...state.refuse, type: "error", id: msg.id });
      else if (msg.type === "hint")
        reply({ type: "hint", id: msg.id, move: view.legal[0], reason: "It keeps your doubles." });
      else if (msg.type === "review" && state.review)
        reply({ ...state.review, type: "review", id: msg.id });
      else reply({ type: "ack", id: msg.id, seq: 1 });
    }
    close() { this.readyState = 3; }
  }
  FakeSocket.OPEN = 1;
  window.WebSocket = FakeSocket;
})();
"""


def fake_table(
    page: Any,
    base: str,
    table: dict[str, Any],
    view: dict[str, Any],
    identity: dict[str, Any] | None = None,
    lang: str = "en",
    refuse: dict[str, Any] | None = None,
    review: dict[str, Any] | None = None,
) -> None:
    """Opens /t/CODE showing `view` at `table`, with no game on the server; a move played is
    answered with the `refuse` error if one is given, a review asked with `review`."""
    who = identity or {
        "player": table["seats"][view["seat"]]["player"] or 1,
        "name": "Test",
        "token": "x",
    }
    state = {"table": table, "view": view, "refuse": refuse, "review": review}
    page.add_init_script(FAKE_SOCKET % json.dumps(state))
    page.add_init_script(
        f"localStorage.setItem('kabes.identity', {json.dumps(json.dumps(who))});"
        f"localStorage.setItem('kabes.lang', {json.dumps(json.dumps(lang))});"
    )
    page.route(
        f"**/api/tables/{table['code']}",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(table)
        ),
    )
    page.goto(f"{base}/t/{table['code']}")


def wait_for(page: Any, expression: str, arg: Any = None, timeout: float | None = None) -> Any:
    """Playwright's ``wait_for_function``, polled from here with ``page.evaluate``: the page
    runs under the server's Content-Security-Policy, which refuses the ``eval`` Playwright's
    own polling does inside the page (``page.evaluate`` goes through the debugger and is not
    the page's script). The truthy value, as wait_for_function returns it; AssertionError
    after ``timeout`` ms (default 20 s, the tests' default timeout)."""
    deadline = time.monotonic() + (20_000 if timeout is None else timeout) / 1000
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout or 20_000} ms: {expression}")
        page.wait_for_timeout(30)


def held(page: Any, pattern: str) -> list[Any]:
    """The page's requests to ``pattern``, held unanswered (``page.route``) until the test
    lets each through (``continue_()``) or never does. A service worker's own requests are not
    seen: a test holding requests opens its page with ``service_workers="block"``."""
    waiting: list[Any] = []
    page.route(pattern, lambda route: waiting.append(route))
    return waiting


def until_held(page: Any, waiting: list[Any]) -> None:
    """Wait (10 s at most) until the page has made a request that ``held`` holds."""
    for _ in range(200):
        if waiting:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the request was never made")
