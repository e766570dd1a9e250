"""Against a server with a 20 s turn: keyboard play (arrows to choose a tile, Enter, arrows
between the lit ends, Enter), with the focus visible and back on the hand after each play;
the clock ring drains over the server's total_ms (20 s here, not an assumed 45 s); a played
tile slides to its end in under 200 ms, and nothing moves when reduced motion is asked."""

from __future__ import annotations

import math
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import register, shot, start_server
from helpers import wait_for
from play import PLAYABLE, my_turn, tap_play, wait_played

TURN = 20

# Records every flying tile: when it appeared and left, and its transition's duration.
WATCH_FLY = """
window.__fly = [];
const observer = new MutationObserver((records) => {
  for (const r of records) {
    for (const n of r.addedNodes)
      if (n.classList?.contains('fly'))
        window.__fly.push({ el: n, added: performance.now(), removed: null,
                           duration: getComputedStyle(n).transitionDuration });
    for (const n of r.removedNodes)
      for (const f of window.__fly) if (f.el === n) f.removed = performance.now();
  }
});
document.addEventListener("DOMContentLoaded", () =>
  observer.observe(document.body, { childList: true }));
"""


@pytest.fixture(scope="module")
def short_turn_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp: Path = tmp_path_factory.mktemp("serve-short")
    proc, base = start_server(tmp, "--turn-seconds", str(TURN))
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def start_game(page: Any, base: str, name: str) -> None:
    register(page, base, name)
    page.select_option("#variant", "haitian")
    page.locator("label.seg", has_text="2").click()
    page.select_option("#level-1", "beginner")
    page.click("[data-action=play-computer]")
    page.wait_for_selector("[data-tile]")


def wait_my_turn(page: Any) -> None:
    deadline = time.monotonic() + 30
    while not my_turn(page):
        assert time.monotonic() < deadline, "my turn did not come"
        if page.locator(".results").count():
            page.click("[data-action=next-hand]")
            page.wait_for_selector(".results", state="detached")
        page.wait_for_timeout(50)


def ring(page: Any) -> tuple[int, float]:
    """(seconds shown, share of the ring drained)."""
    seconds = int(page.locator(".ring .ring-text").inner_text())
    offset = float(page.locator(".ring .ring-arc").get_attribute("stroke-dashoffset"))
    return seconds, offset / (2 * math.pi * 15)


def test_keyboard_play_the_clock_ring_and_a_sliding_tile(
    short_turn_server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page()
    page.add_init_script(WATCH_FLY)
    start_game(page, short_turn_server, "Clavier")
    plays = 0
    while plays < 3 and not page.locator(".results").count():
        wait_my_turn(page)
        if page.locator(".results").count():
            break
        seconds, drained = ring(page)
        assert seconds <= TURN
        # The ring shows the share of the server's 20 s that is gone, not of 45 s.
        assert abs(drained - (1 - seconds / TURN)) < 0.12, (seconds, drained)

        # Arrows to a playable tile, Enter; the focus is visible.
        for _ in range(15):  # Tab into the hand (one stop for all its tiles)
            if page.evaluate("!!document.activeElement.closest('.hand')"):
                break
            page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('.hand')"), "Tab reaches the hand"
        for _ in range(12):
            if page.evaluate("document.activeElement.getAttribute('aria-disabled')") == "false":
                break
            page.keyboard.press("ArrowRight")
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none", "the focused tile shows it"
        key = page.evaluate("document.activeElement.dataset.tile")
        count = page.locator("[data-tile]").count()
        page.keyboard.press("Enter")
        wait_for(
            page, "k => document.querySelector('[data-place]')"
            ' || !document.querySelector(`[data-tile="${k}"]`)',
            arg=key,
        )
        if page.locator("[data-place]").count():
            assert page.evaluate("!!document.activeElement.dataset.place"), "focus on an end"
            shot(page, "keyboard-places")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
        wait_played(page, count, key)
        assert page.locator(f'[data-tile="{key}"]').count() == 0
        plays += 1
        # The tile flew to its end, in under 200 ms.
        wait_for(page, "window.__fly.every(f => f.removed)", timeout=2000)
        flights = page.evaluate(
            "window.__fly.map(f => ({d: f.duration, t: f.removed && f.removed - f.added}))"
        )
        assert len(flights) == plays, flights
        last = flights[-1]
        durations = [float(d.strip().rstrip("s")) for d in last["d"].split(",")]
        assert max(durations) <= 0.2, last
        assert last["t"] is not None and last["t"] < 260, last
        if not page.locator(".results").count():
            wait_for(page, "!!document.activeElement.closest('.hand')")
    assert plays >= 1
    assert not js_errors


def test_nothing_moves_with_reduced_motion(
    short_turn_server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page(reduced_motion="reduce")
    page.add_init_script(WATCH_FLY)
    start_game(page, short_turn_server, "Calme")
    wait_my_turn(page)
    tile = page.locator(PLAYABLE).first
    assert tile.evaluate("e => getComputedStyle(e).transitionDuration") == "0s"
    count = page.locator("[data-tile]").count()
    key = tile.get_attribute("data-tile")
    tile.click()
    if page.locator("[data-place]").count():
        place = page.locator("[data-place]").first
        assert place.evaluate("e => getComputedStyle(e).animationName") == "none"
        place.click()
    wait_played(page, count, key)
    page.wait_for_timeout(250)
    assert page.evaluate("window.__fly.length") == 0, "no tile flies with reduced motion"
    wait_my_turn(page)
    count = page.locator("[data-tile]").count()
    wait_played(page, count, tap_play(page))
    assert page.evaluate("window.__fly.length") == 0
    assert not js_errors
