"""A dropped connection mid-hand: the page says it is reconnecting, comes back by itself
when the network returns, shows the same state, and play goes on."""

from __future__ import annotations

from typing import Any

from play import my_turn, tap_play, wait_played

from conftest import register, shot


def test_dropped_connection_comes_back_to_the_same_hand(
    server: str, new_page: Any, js_errors: list[str]
) -> None:
    page = new_page()
    register(page, server, "Sam")
    page.select_option("#variant", "haitian")
    page.locator("label.seg", has_text="2").click()
    page.click("[data-action=play-computer]")
    page.wait_for_selector("[data-tile]")
    page.wait_for_function("document.querySelector('.status.mine')")
    before = page.locator("[data-tile]").evaluate_all("els => els.map(e => e.dataset.tile)")
    line = (
        page.locator(".board svg.line").get_attribute("aria-label")
        if page.locator(".board svg.line").count()
        else None
    )

    page.context.set_offline(True)
    page.wait_for_selector(".conn-banner")
    shot(page, "reconnecting")
    page.context.set_offline(False)
    page.wait_for_selector(".conn-banner", state="detached", timeout=20000)
    after = page.locator("[data-tile]").evaluate_all("els => els.map(e => e.dataset.tile)")
    assert after == before
    if line is not None:
        assert page.locator(".board svg.line").get_attribute("aria-label") == line
    assert my_turn(page)
    count = len(after)
    tap_play(page)
    wait_played(page, count)
    assert not [
        e for e in js_errors if "WebSocket" not in e and "ERR_INTERNET_DISCONNECTED" not in e
    ]
