"""A table on the phone (issue 26: "Play with no network"): with no network, the table page
plays a local table, its messages made by the offline worker's Python (web/local.js,
localsocket.js, offline/worker.js), the pack kept by the service worker from a real
``kabes serve``; and a lesson is answered by the same worker.

Skipped where the server has no pack (npm was missing at setup); under CI that is a failure.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from browsing import register, shot
from helpers import wait_for
from play import my_turn, tap, tap_play, wait_played, wrong_try

from kabes.lessons.library import path
from kabes.lessons.position import position, try_move
from kabes.server.http.offline_pack import PACK, read_manifest, stale

UNDER_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")

KEPT = """async (code) => {
  const game = await (await import("/static/games.js")).getGame(code);
  return game && {status: game.status, kinds: game.entries.map((e) => e.kind),
                  seats: game.seats.length, code: game.code};
}"""
SHOWN = """() => ({
  hand: [...document.querySelectorAll("[data-tile]")].map((e) => e.getAttribute("data-tile")),
  line: document.querySelector(".board svg.line")?.getAttribute("aria-label") ?? null,
})"""


@pytest.fixture
def pack() -> None:
    manifest = read_manifest(PACK)
    if manifest is None:
        if UNDER_CI:
            raise RuntimeError(f"CI must run the local table's test, but {PACK} has no pack")
        pytest.skip(f"no offline pack in {PACK} (./scripts/setup builds it with npm)")
    assert not stale(manifest), ("the offline pack is older than src/kabes: build it again "
                                 "(.venv/bin/python -m kabes.server.http.offline_pack)")


def test_with_no_network_home_opens_a_table_on_the_phone_that_plays_and_survives_a_reload(
    server: str, new_page: Any, js_errors: list[str], pack: None
) -> None:
    """The pack downloaded from home, then no network: "Play against the computer" opens a
    table on the phone, played by tapping with a hint; the page reloaded mid-hand shows the
    same hand and line and goes on; the hand's end and the review; the game kept with its
    entries; a lesson's step and a wrong try's words; no request past the service worker."""
    page = new_page()
    register(page, server, "Roselène")
    page.wait_for_selector("[data-action=play-computer]")
    wait_for(page, "() => !!navigator.serviceWorker.controller")
    page.click("[data-action=offline-pack]")
    page.wait_for_selector("html[data-offline=ready]", timeout=60000)
    page.wait_for_load_state("networkidle")
    reached: list[str] = []

    def finished(request: Any) -> None:
        response = request.response()
        if request.url.startswith("http") and not (response and response.from_service_worker):
            reached.append(request.url)

    page.on("requestfinished", finished)
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("[data-offline-note]:not([hidden])")
    page.select_option("#variant", "haitian")
    page.locator("label.seg", has_text="2").click()
    page.select_option("#level-1", "casual")
    page.click("[data-action=play-computer]")
    page.wait_for_url("**/t/L*")
    code = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("[data-tile]", timeout=60000)
    assert page.locator("[data-tile]").count() == 7

    played, reloaded, hinted = 0, False, False
    deadline = time.monotonic() + 90
    while page.locator(".results").count() == 0:
        assert time.monotonic() < deadline, "the hand did not end"
        if not my_turn(page):
            page.wait_for_timeout(100)
            continue
        if not hinted:
            page.click("[data-action=hint]")
            page.wait_for_selector(".status.hinted")
            hinted = True
        if played == 2 and not reloaded:
            before = page.evaluate(SHOWN)
            page.reload()
            page.wait_for_selector("[data-tile]", timeout=60000)
            page.wait_for_function("() => document.querySelector('.status.mine')")
            assert page.evaluate(SHOWN) == before, "the reload is at the same move"
            reloaded = True
            shot(page, "local-table-reloaded")
        count = page.locator("[data-tile]").count()
        wait_played(page, count, tap_play(page))
        played += 1
    assert reloaded and played > 2
    assert page.locator(".results .ending").inner_text() in {"TONBE", "2 KABÈS", "BLÒK"}
    shot(page, "local-table-hand-end")
    page.click(".results [data-action=review]")
    page.wait_for_selector("dialog.review[open] :is(.review-board, .review-empty)")
    page.click("[data-action=close-review]")
    kept = page.evaluate(KEPT, code)
    assert kept["code"] == code and kept["status"] == "between_hands" and kept["seats"] == 2
    assert kept["kinds"][:2] == ["created", "started"] and "resumed" in kept["kinds"]
    assert kept["kinds"].count("move") >= played

    lesson = path("haitian")[0]
    page.goto(f"{server}/learn/{lesson.id}")
    page.wait_for_selector("#step-text", timeout=60000)
    assert page.locator("#step-text").inner_text() == lesson.steps[0].text["en"]
    match = position(lesson, 0)
    wrong = wrong_try(lesson, 0, match)
    assert wrong is not None
    expected = try_move(lesson, 0, wrong.move, match)
    tap(page, wrong)
    page.wait_for_selector(".feedback.wrong")
    if expected.text is not None:
        assert page.locator(".feedback.wrong .lesson-words").inner_text() == expected.text["en"]
    assert not reached, reached
    assert not js_errors, js_errors
