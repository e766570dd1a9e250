"""One player on every phone: a player who has played on one phone opens "Use Kabès on another
phone" there, reads the code, types it on a second phone's welcome screen instead of a name,
and finds the same name and the same matches on the second phone. A wrong code is refused in
words. Screenshots of the code and of the welcome screen taking it; axe on both."""

from __future__ import annotations

from typing import Any

from browsing import register, shot
from checks import axe_violations, layout_problems

SMALL = {"width": 360, "height": 740}


def test_a_player_links_a_second_phone(server: str, new_page: Any, js_errors: list[str]) -> None:
    first = new_page(viewport=SMALL, reduced_motion="reduce")
    register(first, server, "Wilda")
    first.wait_for_selector("[data-action=play-computer]")
    first.select_option("#variant", "haitian")
    first.click("[data-action=play-computer]")
    first.wait_for_selector("[data-tile]")
    code_of_table = first.url.rsplit("/", 1)[-1]
    first.click("[data-action=menu]")
    first.click("[data-action=link-device]")
    first.wait_for_selector("dialog.link-dialog [data-code]")
    code = first.locator("[data-code]").get_attribute("data-code")
    assert code is not None and len(code) == 6 and code.isdigit()
    assert first.locator(".link-left").inner_text().strip()
    shot(first, "link-code-en-360")
    assert not layout_problems(first)
    assert not axe_violations(first)
    first.click("dialog.link-dialog [data-action=close]")

    second = new_page(viewport=SMALL, locale="fr-FR", reduced_motion="reduce")
    second.goto(server + "/")
    second.wait_for_selector("#name")
    second.click("[data-action=have-code]")
    second.fill("#link-code", "000000" if code != "000000" else "111111")
    second.click("[data-action=link]")
    second.wait_for_selector(".link-form .error:not(:empty)")
    assert "code" in second.locator(".link-form .error").inner_text().lower()
    second.fill("#link-code", code)
    shot(second, "link-welcome-fr-360")
    assert not layout_problems(second)
    assert not axe_violations(second)
    second.click("[data-action=link]")
    second.wait_for_selector("[data-action=quick-seat]")
    assert "Wilda" in second.locator(".hello").inner_text()
    second.wait_for_selector(f'.history a[href="/t/{code_of_table}"]')
    ids = [
        p.evaluate("JSON.parse(localStorage.getItem('kabes.identity')).player")
        for p in (first, second)
    ]
    assert ids[0] == ids[1]
    # The code worked once: typed again on a third phone, it is refused.
    third = new_page(viewport=SMALL)
    third.goto(server + "/")
    third.click("[data-action=have-code]")
    third.fill("#link-code", code)
    third.click("[data-action=link]")
    third.wait_for_selector(".link-form .error:not(:empty)")
    assert not [e for e in js_errors if "404 (Not Found)" not in e]  # a wrong code is a 404
