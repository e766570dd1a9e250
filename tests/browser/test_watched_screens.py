"""A watched table, from no seat, as the page draws it (PROTOCOL.md, "Watching": a VIEW with
seat null, no hand, no legal moves): the board, the four seats with their tile counts around
it (seat 0 at the bottom, beside the "Watching" band with the watchers count), the teams named
by their players, and no hand. The view is one the engine played to (states.py), emptied of
hand and moves as the server does for a watcher, shown without a server game; in Kreyòl and
English on a 360 x 740 phone, with layout, words and axe checked. The same page watching a
real match is tested in test_public_tables.py."""

from __future__ import annotations

from typing import Any

import pytest
from browsing import shot
from checks import axe_violations, layout_problems, shown_keys
from helpers import fake_table
from states import play_until, state, summary

NAMES = ["Roselène", "Mireille", "Jean-Baptiste", "Ana"]
SMALL = {"width": 360, "height": 740}


def watched(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "seat": None, "hand": [], "legal": [], "voids": None}


@pytest.mark.parametrize("lang", ["ht", "en"])
def test_a_watched_table(server: str, new_page: Any, js_errors: list[str], lang: str) -> None:
    m = play_until(
        "partnership", 4, lambda m, v: v.line is not None and len(v.line) >= 6 and v.my_turn
    )
    table = {**summary("TEST123", m, NAMES), "public": True, "watch": True, "watchers": 3}
    view = watched(state(m))
    page = new_page(viewport=SMALL, reduced_motion="reduce")
    fake_table(page, server, table, view, identity={"player": 99, "name": "Ti Jak",
                                                   "token": "x"}, lang=lang)
    page.wait_for_selector(".watch-mark")
    assert page.locator("[data-tile]").count() == 0, "no hand"
    assert page.locator(".seat[data-seat]").count() == 4
    assert page.locator(".watch-band .seat[data-seat='0']").count() == 1
    assert "3" in page.locator(".watch-mark").inner_text()
    scores = page.locator(".top-scores").inner_text()
    assert "Roselène & Jean-Baptiste" in scores and "Mireille & Ana" in scores
    assert page.locator("[data-action=say]").count() == 0, "a watcher says nothing"
    page.wait_for_timeout(150)
    shot(page, f"watched-fake-{lang}-360")
    assert not layout_problems(page)
    assert not shown_keys(page)
    assert not axe_violations(page)
    assert not js_errors
