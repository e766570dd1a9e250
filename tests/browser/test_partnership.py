"""Four people, each on their own phone, join one `partnership` table by its link and play a
whole match to its end by tapping; each sees only their own hand."""

from __future__ import annotations

import time
from typing import Any

from browsing import register, shot
from play import my_turn, tap_play, wait_played

NAMES = ["Roselène", "Mireille", "Jean", "Ana"]


def test_four_people_play_a_partnership_match_by_link(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    host = new_page()
    register(host, server, NAMES[0])
    host.select_option("#variant", "partnership")
    host.select_option("#opt-target", "50")
    assert host.locator("[data-action=play-computer]").is_disabled()
    host.click("[data-action=open-table]")
    host.wait_for_selector(".big-code")
    code = host.locator(".big-code").inner_text().strip()
    link = host.locator(".link-text a").get_attribute("href")
    assert link == f"/t/{code}"
    assert host.locator("[data-action=start]").is_disabled()
    shot(host, "partnership-waiting-1")

    pages = [host]
    for name in NAMES[1:]:
        page = new_page()
        register(page, server, name, link)
        page.wait_for_selector(".big-code")
        pages.append(page)
    host.wait_for_selector("[data-action=start]:not([disabled])")
    shot(host, "partnership-waiting-full")
    host.click("[data-action=start]")
    for page in pages:
        page.wait_for_selector("[data-tile]")

    hands = [
        set(p.locator("[data-tile]").evaluate_all("els => els.map(e => e.dataset.tile)"))
        for p in pages
    ]
    assert all(len(h) == 7 for h in hands)
    assert len(set().union(*hands)) == 28, "each phone shows its own seven tiles, no other"
    shot(pages[1], "partnership-table")

    deadline = time.monotonic() + 400
    hands_seen = 0
    while not host.locator(".match-over").count():
        assert time.monotonic() < deadline, "the match did not end"
        if host.locator(".results").count() and not host.locator(".match-over").count():
            hands_seen += 1
            shot(host, f"partnership-hand-{hands_seen}")
            host.click("[data-action=next-hand]")
            host.wait_for_selector(".results", state="detached")
            continue
        moved = False
        for page in pages:
            if my_turn(page):
                before = page.locator("[data-tile]").count()
                wait_played(page, before, tap_play(page))
                moved = True
                break
        if not moved:
            host.wait_for_timeout(80)
    shot(host, "partnership-match-over")
    for page in pages:
        page.wait_for_selector(".match-over")
        assert page.locator("[data-action=play-again]").count() == 1
        # The others' names at the match's end open their pages (one's own is no link).
        names = page.locator(".match-over .hand-up .seat-name a.player-link")
        assert names.count() == 3
        assert len({h for h in names.evaluate_all(
            "(els) => els.map((e) => e.getAttribute('href'))") if h.startswith("/p/")}) == 3
    assert not js_errors
