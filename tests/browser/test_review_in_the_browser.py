"""After a hand against the computer, the expert's review: a person plays a Haitian hand by
tapping, asks for the review from the end-of-hand panel, and goes through it on the board one
move at a time (the position of each move drawn, what they played and what the expert would
play, Previous and Next), or reads the kind word when there is nothing to say."""

from __future__ import annotations

import time
from typing import Any

from browsing import register, shot
from checks import axe_violations, layout_problems
from helpers import wait_for
from play import my_turn, tap_play, wait_played


def play_a_hand(page: Any) -> None:
    deadline = time.monotonic() + 120
    while page.locator(".results").count() == 0:
        assert time.monotonic() < deadline, "the hand did not end"
        if my_turn(page):
            before = page.locator("[data-tile]").count()
            key = tap_play(page)
            wait_played(page, before, key)
        else:
            page.wait_for_timeout(50)


def test_the_expert_reviews_a_hand_against_the_computer_one_move_at_a_time(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page()
    register(page, server, "Mireille")
    page.select_option("#variant", "haitian")
    page.locator("label.seg", has_text="2").click()
    page.select_option("#level-1", "beginner")
    page.click("[data-action=play-computer]")
    page.wait_for_selector("[data-tile]")
    play_a_hand(page)

    page.click(".results [data-action=review]")
    page.wait_for_selector("dialog.review[open] :is(.review-board, .review-empty, .error)")
    dialog = page.locator("dialog.review")
    assert dialog.locator(".error").count() == 0, dialog.inner_text()
    if dialog.locator(".review-empty").count():
        shot(page, "review-empty")
    else:
        count = dialog.locator(".review-count").inner_text()
        total = int(count.split()[-1])
        assert total >= 1
        seen = []
        for n in range(1, total + 1):
            dialog.locator(".review-board svg").wait_for()
            assert dialog.locator(".review-count").inner_text() == f"Move {n} of {total}"
            assert dialog.locator(".review-played").inner_text().startswith("You played ")
            assert dialog.locator(".review-better").inner_text().startswith("The expert would")
            assert dialog.locator(".review-hand li").count() >= 1
            seen.append(dialog.locator(".review-words").get_attribute("data-index"))
            if n == 1:
                shot(page, "review")
                assert not layout_problems(page)
                assert not axe_violations(page)
            if n < total:
                page.click("[data-action=review-next]")
                wait_for(
                    page, "n => document.querySelector('.review-count').textContent.startsWith("
                    "`Move ${n} `)",
                    arg=n + 1,
                )
        assert len(set(seen)) == total, "each move of the review is its own"
        assert dialog.locator("[data-action=review-next]").is_disabled()
        if total > 1:
            page.click("[data-action=review-prev]")
            wait_for(
                page,
                "n => document.querySelector('.review-count').textContent.startsWith(`Move ${n} `)",
                arg=total - 1,
            )
    page.click("[data-action=close-review]")
    page.wait_for_selector("dialog.review", state="detached")
    assert page.locator(".results").count() == 1
    assert not js_errors
