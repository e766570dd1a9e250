"""A table on the phone (issue 26: "Play with no network"): the table page plays a local
table, its messages made by the offline worker's Python (web/local.js, localsocket.js,
offline/worker.js), with the pack served by a real ``kabes serve``.

A person opens a local table with the API home calls (newLocalTable), plays by tapping, asks
a hint, reloads in the middle of the hand and finds the same hand and line and goes on from
the same move, ends the hand, and asks the expert's review; the game is kept on the phone
(IndexedDB) with its entries. No request for the table reaches the server.

Skipped where the server has no pack (npm was missing at setup); under CI that is a failure.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from browsing import register, shot
from play import my_turn, tap, tap_play, wait_played, wrong_try

from kabes.lessons.library import path
from kabes.lessons.position import position, try_move
from kabes.server.offline_pack import PACK, read_manifest, stale

UNDER_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")

OPEN = """async (spec) => (await import("/static/local.js")).newLocalTable(spec)"""
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
                                 "(.venv/bin/python -m kabes.server.offline_pack)")


def test_a_local_table_plays_a_hand_by_tapping_and_a_reload_goes_on_from_the_same_move(
    server: str, new_page: Any, js_errors: list[str], pack: None
) -> None:
    page = new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    register(page, server, "Roselène")
    page.wait_for_selector("[data-action=play-computer]")
    code = page.evaluate(OPEN, {"variant": "haitian", "players": 2, "computers": {"1": "casual"}})
    assert code.startswith("L")
    page.goto(f"{server}/t/{code}")
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
    assert not [u for u in asked if f"/api/tables/{code}" in u], "the server was asked"
    assert not js_errors, js_errors


def test_with_no_network_a_lesson_step_and_a_wrong_try_are_answered_on_the_phone(
    server: str, new_page: Any, js_errors: list[str], pack: None
) -> None:
    """The lessons' routes unreachable (the request fails, as with no network): the lesson
    and its tries come from the worker's Python (api.js), the same words as the server's."""
    lesson = path("haitian")[0]
    page = new_page()
    register(page, server, "Jean")
    page.wait_for_selector("[data-action=learn]")
    failed: list[str] = []

    def cut(route: Any) -> None:
        failed.append(route.request.url)
        route.abort("internetdisconnected")

    page.route("**/api/lessons/**", cut)
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
    assert len(failed) >= 2, "the lesson and the try were asked of the server first"
    js_errors[:] = [e for e in js_errors if "ERR_INTERNET_DISCONNECTED" not in e]
    assert not js_errors, js_errors
