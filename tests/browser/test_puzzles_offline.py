"""The puzzles with no network (docs/offline.md, "The local table"; kabes.local.puzzles): the
pack downloaded from home of a real ``kabes serve``, then no network: /puzzles shows the
phone's daily puzzle from the starter set, a tap is answered with the proof's words, the
streak is the phone's, "Next" brings another puzzle, and no request goes past the service
worker.

Skipped where the server has no pack (npm was missing at setup); under CI that is a failure.
"""

from __future__ import annotations

import datetime
from typing import Any

from browsing import register, shot
from helpers import wait_for

from kabes.local.puzzles import daily
from kabes.puzzles.starter import starter


def tap(page: Any, move: str) -> None:
    """Tap the tile of ``move``, and its end when it fits two."""
    tile, _, place = move.partition("@")
    low, high = sorted(int(n) for n in tile.split("-"))
    page.click(f'[data-tile="{low}-{high}"]')
    if page.locator("[data-place]").count():
        page.click(f'[data-place="{place}"]')


def test_with_no_network_the_daily_puzzle_is_the_phones_and_answered_on_the_phone(
    server: str, new_page: Any, js_errors: list[str], pack: dict[str, Any]
) -> None:
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
    page.goto(f"{server}/puzzles")
    expected = daily(datetime.date.today().isoformat())["id"]
    page.wait_for_selector(f'main[data-puzzle="{expected}"]', timeout=60000)
    page.wait_for_selector("[data-offline-note]:not([hidden])")
    puzzle = {p.key: p for p in starter()}[expected]
    wrong = next(m for m in puzzle.view["legal"] if not puzzle.solves(m))
    tap(page, wrong)
    page.wait_for_selector(".feedback.wrong .verdict")
    assert page.locator(".puzzle-why").count() >= 2
    assert page.locator(".puzzle-rating").count() == 0
    shot(page, "puzzle-offline-answer")
    page.click("[data-action=puzzle-next]")
    page.wait_for_selector(f'main[data-puzzle]:not([data-puzzle="{expected}"])', timeout=30000)
    second = {p.key: p for p in starter()}[page.get_attribute("main[data-puzzle]",
                                                             "data-puzzle") or ""]
    tap(page, second.solution[0])
    page.wait_for_selector(".feedback.right .verdict")
    wait_for(page, "() => document.querySelector('.puzzle-streak')?.textContent.includes('1')")
    assert not reached, reached
