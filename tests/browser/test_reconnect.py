"""The connection: a dropped connection mid-hand (the page says it is reconnecting, comes
back by itself when the network returns, shows the same state, and play goes on); a server
that stops answering mid-move (frozen, cut off) is left for a new connection, on which the
move is sent again and played; a socket whose handshake never ends (a frozen process accepts
connections in its kernel and answers nothing) is left for another; a second
tab of the same seat works alongside the first; and how long a phone takes to show a table
(first load, a load with the app cached, a reconnect) and how much it downloads, written to
tests/screenshots/timings.json and printed (pytest -s)."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from browsing import PHONE, SHOTS, register, shot
from helpers import wait_for
from play import PLAYABLE, my_turn, tap_play, wait_played


def hand(page: Any) -> list[str]:
    return list(page.locator("[data-tile]").evaluate_all("els => els.map(e => e.dataset.tile)"))


def versus_computer(page: Any, base: str, name: str) -> None:
    register(page, base, name)
    page.select_option("#variant", "haitian")
    page.locator("label.seg", has_text="2").click()
    page.click("[data-action=play-computer]")
    page.wait_for_selector("[data-tile]")
    wait_for(page, "document.querySelector('.status.mine')")


def test_dropped_connection_comes_back_to_the_same_hand(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page()
    versus_computer(page, server, "Sam")
    before = hand(page)
    line = page.locator(".board svg.line")
    label = line.get_attribute("aria-label") if line.count() else None

    page.context.set_offline(True)
    page.wait_for_selector(".conn-banner")
    shot(page, "reconnecting")
    page.context.set_offline(False)
    page.wait_for_selector(".conn-banner", state="detached", timeout=20000)
    assert hand(page) == before
    if label is not None:
        assert page.locator(".board svg.line").get_attribute("aria-label") == label
    assert my_turn(page)
    wait_played(page, len(before), tap_play(page))
    assert not [
        e for e in js_errors if "WebSocket" not in e and "ERR_INTERNET_DISCONNECTED" not in e
    ]


def test_a_server_that_stops_answering_mid_move_is_left_and_the_move_played_anew(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    """The socket on which the page's first move goes out falls silent from then on, both
    ways (as when its server is frozen or cut off: docs/scaling.md); the page gives up on it
    (socket.js's answerWait(): four times its answers' usual time, 1.5 to 6 s), connects
    again and sends the move again with its id."""
    page = new_page()
    silenced: list[Any] = []
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        sockets.append(ws)
        upstream = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            if not silenced and json.loads(message).get("type") == "play":
                silenced.append(ws)
            if ws not in silenced:
                upstream.send(message)

        def down(message: str | bytes) -> None:
            if ws not in silenced:
                ws.send(message)

        ws.on_message(up)
        upstream.on_message(down)

    page.route_web_socket(re.compile(r".*/api/tables/[^/]+/ws$"), route)
    versus_computer(page, server, "Nadia")
    before = hand(page)
    assert my_turn(page)
    opened = len(sockets)
    played = tap_play(page)
    deadline = time.monotonic() + 20
    while not (silenced and len(sockets) > opened):  # given up on, and connected again
        assert time.monotonic() < deadline, f"no new socket after the silence: {silenced}"
        page.wait_for_timeout(100)
    wait_played(page, len(before), played)  # as the server's welcome shows the hand
    assert not [e for e in js_errors if "WebSocket" not in e]


class Silent:
    """A TCP listener that accepts connections and never says a thing (a frozen process:
    its kernel completes the connection, nothing answers the handshake)."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self) -> None:
        self.listener.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
def silent() -> Iterator[Silent]:
    listener = Silent()
    yield listener
    listener.close()


# The page's sockets, kept in window.kabesSockets; while window.kabesHold is above zero, the
# next table socket goes to the silent listener instead of the server.
HOLD = """
(() => {
  const Real = window.WebSocket;
  window.kabesSockets = [];
  window.kabesHold = 0;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      let target = url;
      if (window.kabesHold > 0 && url.includes("/api/tables/")) {
        window.kabesHold -= 1;
        target = url.replace(location.host, "127.0.0.1:%d");
      }
      super(target, protocols);
      window.kabesSockets.push(this);
    }
  };
})();
"""


def test_a_socket_whose_handshake_never_ends_is_left_for_another(
    server: str, new_page: Any, js_errors: list[str], silent: Silent
) -> None:
    """After a drop, the page's next socket reaches a process that never answers its
    handshake; the page gives up on it (socket.js's openWait(): twice its answer wait once
    answers were timed, 3 s on a good network; the 10 s welcome wait before), opens another,
    and play goes on. How long the page was away is printed (pytest -s)."""
    page = new_page(bypass_csp=True)  # the silent listener is another origin
    page.add_init_script(HOLD % silent.port)
    versus_computer(page, server, "Oscar")
    before = hand(page)
    assert my_turn(page)
    opened = page.evaluate("window.kabesSockets.length")
    page.evaluate("window.kabesHold = 1; window.kabesSockets.at(-1).close()")
    start = time.monotonic()
    deadline = start + 20
    while not silent.held:
        assert time.monotonic() < deadline, "the page never reached the silent process"
        page.wait_for_timeout(50)
    while page.evaluate("window.kabesSockets.length") < opened + 2:
        assert time.monotonic() < deadline, "the page waited on the silent socket for good"
        page.wait_for_timeout(50)
    page.wait_for_selector(".conn-banner", state="detached", timeout=20000)
    print(f"\n  back after a silent handshake in {time.monotonic() - start:.1f} s")
    assert hand(page) == before and my_turn(page)
    wait_played(page, len(before), tap_play(page))
    assert not [e for e in js_errors if "WebSocket" not in e]


def test_a_second_tab_of_the_same_seat(server: str, new_page: Any, js_errors: list[str]) -> None:
    first = new_page()
    versus_computer(first, server, "Deux")
    second = new_page(ctx=first.context)  # same device, same guest token, same seat
    second.goto(first.url)
    second.wait_for_selector("[data-tile]")
    wait_for(second, "document.querySelector('.status.mine')")
    assert hand(second) == hand(first)
    # A tile played in the second tab leaves the hand in both.
    key = tap_play(second)
    for page in (first, second):
        wait_played(page, 99, key)
    # And the first tab plays on as well; the second follows.
    deadline = time.monotonic() + 30
    while not (my_turn(first) or first.locator(".results").count()):
        assert time.monotonic() < deadline
        first.wait_for_timeout(50)
    if not first.locator(".results").count():
        key = tap_play(first)
        for page in (first, second):
            wait_played(page, 99, key)
        first.wait_for_timeout(300)
        assert hand(first) == hand(second)
    assert first.locator(".conn-banner").count() == 0
    assert second.locator(".conn-banner").count() == 0
    assert not js_errors


def api(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Bearer {token}"} if token else {}),
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


class Meter:
    """Bytes over the wire (compressed, headers included) seen by Chromium for one page."""

    def __init__(self, page: Any) -> None:
        self.bytes = 0
        self.files = 0
        self.ws = 0
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.cdp.on("Network.loadingFinished", self.finished)
        page.on("websocket", lambda ws: ws.on("framereceived", self.frame))

    def finished(self, event: dict[str, Any]) -> None:
        self.bytes += int(event["encodedDataLength"])
        self.files += 1

    def frame(self, payload: Any) -> None:
        self.ws += len(payload if isinstance(payload, bytes) else payload.encode())

    def reset(self) -> None:
        self.bytes = self.files = self.ws = 0


def show_table(page: Any, url: str) -> float:
    """Opens url; milliseconds from the navigation's start to the hand drawn."""
    page.goto(url, wait_until="commit")
    page.wait_for_selector("[data-tile]")
    return float(page.evaluate("performance.now()"))


def test_how_long_a_phone_takes_to_show_a_table(browser: Any, server: str) -> None:
    figures: dict[str, Any] = {}
    guest = api(server, "/api/guests", {"name": "Chrono"})
    who = {"player": guest["player"], "name": guest["name"], "token": guest["token"]}
    for network in ("local", "4g"):
        table = api(
            server,
            "/api/tables",
            {
                "variant": "haitian",
                "players": 4,
                "computers": {"1": "casual", "2": "casual", "3": "casual"},
            },
            guest["token"],
        )
        url = f"{server}/t/{table['code']}"
        ctx = browser.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2, locale="en-US"
        )
        ctx.add_init_script(
            f"localStorage.setItem('kabes.identity', {json.dumps(json.dumps(who))});"
        )
        page = ctx.new_page()
        meter = Meter(page)
        if network == "4g":  # a phone on a middling mobile network, with a slower CPU
            meter.cdp.send(
                "Network.emulateNetworkConditions",
                {
                    "offline": False,
                    "latency": 150,
                    "downloadThroughput": 9_000_000 / 8,
                    "uploadThroughput": 1_500_000 / 8,
                },
            )
            meter.cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        first = show_table(page, url)
        figures[f"{network}: first load, ms to the hand drawn"] = round(first)
        figures[f"{network}: first load, KB over the wire"] = round(meter.bytes / 1024, 1)
        figures[f"{network}: first load, requests"] = meter.files
        page.wait_for_timeout(1500)  # the service worker caches the shell meanwhile
        meter.reset()
        again = show_table(page, url)
        # (the service worker's own fetches are neither counted nor throttled by DevTools)
        figures[f"{network}: load again, service worker installed, ms"] = round(again)
        figures[f"{network}: socket messages of that load, KB"] = round(meter.ws / 1024, 1)
        page.wait_for_timeout(300)
        ctx.set_offline(True)
        page.wait_for_selector(".conn-banner")
        start = time.monotonic()
        ctx.set_offline(False)
        page.wait_for_selector(".conn-banner", state="detached", timeout=20000)
        page.wait_for_selector(PLAYABLE + ", [data-tile]")
        figures[f"{network}: reconnect, ms from the network's return"] = round(
            (time.monotonic() - start) * 1000
        )
        ctx.close()
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "timings.json").write_text(json.dumps(figures, indent=1) + "\n")
    print("\n" + "\n".join(f"  {k}: {v}" for k, v in figures.items()))
    assert figures["local: first load, ms to the hand drawn"] < 5000
    assert figures["local: first load, KB over the wire"] < 250
    assert figures["local: reconnect, ms from the network's return"] < 5000
