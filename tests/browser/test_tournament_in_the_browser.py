"""A tournament on four phones: the host creates a Swiss `plaza` tournament of two rounds
from home's Tournaments, enters it and shares its link; three others open the link and enter;
the host starts it; each finds "Your table" on the tournament's page and plays the match by
tapping (target 50); back on the tournament's page the standings show round one's results and
round two is paired. The new screens pass the layout and axe checks; screenshots of the
tournament's page in English and Kreyòl."""

from __future__ import annotations

import time
from typing import Any

from browsing import SHOTS, register, shot
from checks import axe_violations, layout_problems, shown_keys
from helpers import wait_for
from play import my_turn, tap_play, wait_played

NAMES = ["Roselène", "Mireille", "Jean", "Ana"]
SMALL_PHONE = {"width": 360, "height": 740}


def checked(page: Any, name: str) -> None:
    """The screen as it is now passes every check; a screenshot for a person to look at."""
    shot(page, name)
    page.screenshot(path=str(SHOTS / f"{name}-full.png"), full_page=True)
    assert layout_problems(page) == [], name
    assert shown_keys(page) == [], name
    assert axe_violations(page) == [], name


def play_matches(pages: list[Any], deadline: float) -> None:
    """Every page plays its tournament table until each shows its match over: seat 0 starts
    a full table that has not started by itself, and deals the next hand when asked."""
    while not all(p.locator(".match-over").count() for p in pages):
        assert time.monotonic() < deadline, "the matches did not end"
        moved = False
        for page in pages:
            if page.locator(".match-over").count():
                continue
            start = page.locator("[data-action=start]:not([disabled])")
            if start.count():
                start.click()
                moved = True
            elif page.locator("[data-action=next-hand]").count():
                page.click("[data-action=next-hand]")
                page.wait_for_selector("[data-action=next-hand]", state="detached")
                moved = True
            elif my_turn(page):
                before = page.locator("[data-tile]").count()
                wait_played(page, before, tap_play(page))
                moved = True
        if not moved:
            pages[0].wait_for_timeout(80)


def test_four_phones_play_a_swiss_tournament_round_by_round(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    host = new_page(SMALL_PHONE)
    register(host, server, NAMES[0])
    host.click("[data-action=tournaments]")
    host.wait_for_selector("[data-action=create-tournament]")
    checked(host, "tournaments-list")
    host.select_option("#tour-variant", "plaza")
    host.select_option("#tour-opt-target", "50")
    # plaza seats two sides: every format is offered
    assert host.locator("input[name=tour-format]").count() == 3
    host.check("#tour-format-swiss")
    host.select_option("#tour-rounds", "2")
    host.click("[data-action=create-tournament]")
    host.wait_for_selector("[data-action=enter]")
    path = host.locator("[data-link=tournament]").get_attribute("href")
    assert path.startswith("/c/")
    assert host.locator("[data-action=start]").is_disabled()
    host.click("[data-action=enter]")
    host.wait_for_selector(".tour-entrants li.mine")
    checked(host, "tournament-open-1")

    pages = [host]
    for name in NAMES[1:]:
        page = new_page(SMALL_PHONE)
        register(page, server, name, path)
        page.click("[data-action=enter]")
        page.wait_for_selector(".tour-entrants li.mine")
        assert page.locator("[data-action=start]").count() == 0, "only the host starts"
        pages.append(page)
    # the host's page, polling, sees everyone entered
    wait_for(host, "() => document.querySelectorAll('.tour-entrants li').length === 4")
    assert host.locator("[data-action=start]").is_enabled()
    checked(host, "tournament-open-4")
    host.click("[data-action=start]")

    for page in pages:
        page.wait_for_selector("[data-action=go-table]", timeout=30000)
    checked(pages[1], "tournament-round-1")
    for page in pages:
        page.click("[data-action=go-table]")
        page.wait_for_selector(".waiting, [data-tile]")
    play_matches(pages, time.monotonic() + 300)
    shot(pages[0], "tournament-match-over")

    for page in pages:
        back = page.locator("[data-action=back-tournament]")
        if back.count():  # the table's summary names its tournament
            back.click()
        else:
            page.goto(server + path)
        page.wait_for_selector(".tour-standings")
    # round one counted: two winners with a point each, round two paired for everyone
    for page in pages:
        wait_for(page, "() => document.querySelectorAll('.tour-standings tbody tr').length === 4")
        wait_for(
            page,
            "() => [...document.querySelectorAll('.tour-standings tbody tr td:nth-of-type(2)')]"
            ".map(td => td.textContent).filter(p => p === '1').length === 2",
        )
        page.wait_for_selector("[data-action=go-table]", timeout=30000)
    assert host.locator(".tour-standings tr.mine").count() == 1
    assert host.locator("#round-1").count() == 1 and host.locator("#round-2").count() == 1
    checked(host, "tournament-round-2-en")

    kreyol = pages[2]
    kreyol.select_option(".lang-field select", "ht")
    kreyol.wait_for_selector("html[lang=ht]")
    kreyol.wait_for_selector(".tour-standings")
    checked(kreyol, "tournament-round-2-ht")
    assert kreyol.locator("[data-action=go-table]").inner_text().strip() == "Tab ou"
    assert not js_errors
