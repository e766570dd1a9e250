"""One person against three computer players of different levels in `haitian`, playing a
whole hand by dragging tiles onto the lit ends; hints and the memory aid are there."""

from __future__ import annotations

import time
from typing import Any

from browsing import register, shot
from play import drag_play, my_turn, wait_played


def test_haitian_against_three_computers_by_dragging(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page()
    register(page, server, "Roselène")
    page.select_option("#variant", "haitian")
    page.locator("label.seg", has_text="4").click()
    page.select_option("#level-1", "beginner")
    page.select_option("#level-2", "casual")
    page.select_option("#level-3", "expert")
    page.click("[data-action=play-computer]")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("[data-tile]")
    assert page.locator("[data-tile]").count() == 7
    shot(page, "haitian-vs-computers-start")
    assert page.locator("[data-action=hint]").count() == 1

    played = 0
    deadline = time.monotonic() + 120
    while page.locator(".results").count() == 0:
        assert time.monotonic() < deadline, "the hand did not end"
        if my_turn(page):
            before = page.locator("[data-tile]").count()
            if played == 0:
                page.click("[data-action=hint]")
                page.wait_for_selector(".status.hinted, .tile.hinted")
                page.click("[data-action=memory]")
                assert page.locator(".memory").count() == 1
                shot(page, "haitian-vs-computers-hint")
            key = drag_play(page)
            played += 1
            wait_played(page, before, key)
        else:
            page.wait_for_timeout(100)
        marks = page.locator("[data-tile]").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-disabled'))"
        )
        assert set(marks) <= {"true", "false"}, "every tile says whether it can be played"
    assert played >= 1
    ending = page.locator(".results .ending").inner_text()
    assert ending in {"TONBE", "2 KABÈS", "BLÒK"}
    assert page.locator(".hands-up .hand-up").count() == 4
    shot(page, "haitian-vs-computers-end")
    assert page.locator("[data-action=next-hand]").count() == 1
    assert not js_errors
