"""A server that never answers is no network (UI.md "With no network": never a spinner that
waits for the server).

A phone whose network carries nothing (data on but no signal, a Wi-Fi with no way out) leaves
a request hanging rather than failing. Here the catalog of variants is held unanswered
(Playwright's page.route, service workers blocked so that it sees the page's requests): once
api.js's ANSWER_WITHIN_MS has passed, home says "No network" and shows no spinner, and the
tournaments page says there is no connection where its form would be. Answered again, home
is as before."""

from __future__ import annotations

import time
from typing import Any

from browsing import register
from helpers import held

HELD = "**/api/variants"
WITHIN_MS = "() => import('/static/api.js').then((m) => m.ANSWER_WITHIN_MS)"
"""api.js's own wait, read from the page rather than written here again."""


def test_a_catalog_never_answered_turns_home_offline_after_the_wait(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page(service_workers="block")
    register(page, server, "Fritzner")
    page.wait_for_selector("[data-action=play-computer]")
    assert page.locator("[data-offline-note]").is_hidden()
    within_s = page.evaluate(WITHIN_MS) / 1000

    waiting = held(page, HELD)
    page.reload()
    asked = time.monotonic()
    note = page.wait_for_selector(
        "[data-offline-note]:not([hidden])", timeout=(within_s + 15) * 1000
    )
    waited = time.monotonic() - asked
    assert waiting, "the catalog was asked for"
    assert waited >= within_s - 1, f"offline after {waited:.1f} s: before the wait ended"
    assert note.inner_text() == "No network"
    assert page.locator(".loading").count() == 0, "no spinner"
    assert page.locator("[data-action=play-computer]").count() == 0  # no pack on this phone
    item = page.locator("[data-action=tournaments]")
    assert item.get_attribute("aria-disabled") == "true"

    # The tournaments' page, opened on such a network: no endless "Loading" where its form goes.
    page.goto(server + "/c")
    form = "section[aria-labelledby=tour-new-title]"
    page.wait_for_selector(f"{form} .error", timeout=(within_s + 15) * 1000)
    assert page.locator(f"{form} .loading").count() == 0
    assert "No connection to the server." in page.inner_text(form)

    page.unroute(HELD)
    page.goto(server + "/")
    page.wait_for_selector("[data-action=play-computer]")
    assert page.locator("[data-offline-note]").is_hidden()
    assert js_errors == []
